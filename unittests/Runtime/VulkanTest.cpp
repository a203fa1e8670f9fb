//===- VulkanTest.cpp - Tests of the vulkan backend where a device exists -===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Memory of the vulkan backend: device addresses handed out as pointers,
// copies and fills at interior addresses, with mapped memory and through
// staging buffers (BSGP_VULKAN_STAGING=1), and the error for a module
// compiled without SPIR-V. Kernels are covered by the execution tests, which
// run on vulkan too. Without a Vulkan device (lavapipe counts) these tests
// are skipped.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include <cstdlib>
#include <cstring>
#include <numeric>

using bsgp::test::RuntimeTest;

namespace {

struct Args {
  int k;
};
const bsgprt_kernel_desc kernels[] = {
    {"k_spawn0_ss1", nullptr, "k.bsgp:3:3-5:4", sizeof(Args), 0},
};
/// What bsgpc writes for an object compiled without --target=spirv.
const bsgprt_module_desc cpuOnlyModule = {
    BSGPRT_ABI_VERSION, 1, kernels, nullptr, 0, nullptr, 0, "k.bsgp"};

/// Parameter: whether copies go through staging buffers.
class VulkanTest : public RuntimeTest,
                   public ::testing::WithParamInterface<bool> {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    if (GetParam())
      setenv("BSGP_VULKAN_STAGING", "1", 1);
    else
      unsetenv("BSGP_VULKAN_STAGING");
    // The backend reads the variable when it is created.
    int rc = bsgprt_select_device("vulkan");
    unsetenv("BSGP_VULKAN_STAGING");
    if (rc != BSGPRT_SUCCESS) {
      ASSERT_EQ(errors.size(), 1u);
      EXPECT_EQ(errors[0].code, BSGPRT_ERROR_NO_DEVICE);
      EXPECT_NE(errors[0].message.find("device vulkan: no vulkan device ("),
                std::string::npos)
          << errors[0].message;
      ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
      GTEST_SKIP() << "no Vulkan device: " << errors[0].message;
    }
  }
  void TearDown() override {
    bsgprt_pool_trim();
    EXPECT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
    RuntimeTest::TearDown();
  }
};

TEST_P(VulkanTest, AllocationsAreAlignedDeviceAddresses) {
  EXPECT_EQ(std::strncmp(bsgprt_device_name(), "vulkan: ", 8), 0);
  std::vector<void *> ps;
  for (uint64_t bytes : {0ull, 1ull, 255ull, 256ull, 1000ull, 1ull << 20}) {
    void *p = bsgprt_dnew(bytes, "a.bsgp:1:1");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 256, 0u) << bytes;
    ps.push_back(p);
  }
  for (size_t i = 0; i < ps.size(); ++i)
    for (size_t j = i + 1; j < ps.size(); ++j)
      EXPECT_NE(ps[i], ps[j]);
  for (void *p : ps)
    bsgprt_dfree(p);
  EXPECT_TRUE(errors.empty()) << errors[0].message;
}

TEST_P(VulkanTest, CopiesRoundTrip) {
  const uint64_t n = 100003;
  std::vector<uint32_t> in(n), out(n, 0);
  std::iota(in.begin(), in.end(), 7u);
  auto *a = static_cast<uint32_t *>(bsgprt_dnew(n * 4, "a"));
  auto *b = static_cast<uint32_t *>(bsgprt_temp_alloc(n * 4, "b"));
  bsgprt_memcpy_htod(a, in.data(), n * 4);
  bsgprt_memcpy_dtod(b, a, n * 4);
  bsgprt_memcpy_dtoh(out.data(), b, n * 4);
  EXPECT_EQ(out, in);
  bsgprt_dfree(a);
  bsgprt_temp_free(b);
  EXPECT_TRUE(errors.empty()) << errors[0].message;
}

TEST_P(VulkanTest, InteriorPointersAndUnalignedFills) {
  unsigned char host[64];
  for (int i = 0; i < 64; ++i)
    host[i] = static_cast<unsigned char>(i);
  auto *a = static_cast<unsigned char *>(bsgprt_dnew(64, "a"));
  auto *b = static_cast<unsigned char *>(bsgprt_dnew(64, "b"));
  bsgprt_memset_d(a, 0, 64);       // whole words
  bsgprt_memset_d(a + 3, 0xab, 5); // neither start nor length a word
  bsgprt_memset_d(a + 8, 0xcd, 8); // an interior, word-aligned fill
  bsgprt_memcpy_htod(a + 20, host + 1, 10);
  bsgprt_memset_d(b, 0xff, 64);
  bsgprt_memcpy_dtod(b + 33, a + 3, 27);
  unsigned char gotA[64], gotB[64], mid[6];
  bsgprt_memcpy_dtoh(gotA, a, 64);
  bsgprt_memcpy_dtoh(gotB, b, 64);
  bsgprt_memcpy_dtoh(mid, a + 21, 6);
  unsigned char expectA[64] = {0};
  std::memset(expectA + 3, 0xab, 5);
  std::memset(expectA + 8, 0xcd, 8);
  std::memcpy(expectA + 20, host + 1, 10);
  unsigned char expectB[64];
  std::memset(expectB, 0xff, 64);
  std::memcpy(expectB + 33, expectA + 3, 27);
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(gotA[i], expectA[i]) << "a[" << i << "]";
    EXPECT_EQ(gotB[i], expectB[i]) << "b[" << i << "]";
  }
  EXPECT_EQ(std::memcmp(mid, host + 2, 6), 0);
  bsgprt_dfree(a);
  bsgprt_dfree(b);
  EXPECT_TRUE(errors.empty()) << errors[0].message;
}

TEST_P(VulkanTest, ListPrimitivesRunOnDeviceLists) {
  const uint64_t n = 1000;
  std::vector<int32_t> in(n);
  for (uint64_t i = 0; i < n; ++i)
    in[i] = static_cast<int32_t>((i * 37) % 101) - 50;
  auto *d = static_cast<int32_t *>(bsgprt_dnew(n * 4, "d"));
  auto *s = static_cast<int32_t *>(bsgprt_dnew(n * 4, "s"));
  bsgprt_memcpy_htod(d, in.data(), n * 4);
  int64_t sum = 0;
  for (int32_t v : in)
    sum += v;
  EXPECT_EQ(bsgprt_list_reduce_add_i32(d, n), sum);
  EXPECT_EQ(bsgprt_list_scan_exclusive_add_i32(d, s, n), sum);
  std::vector<int32_t> scan(n);
  bsgprt_memcpy_dtoh(scan.data(), s, n * 4);
  int32_t running = 0;
  for (uint64_t i = 0; i < n; ++i) {
    ASSERT_EQ(scan[i], running) << i;
    running += in[i];
  }
  bsgprt_dfree(d);
  bsgprt_dfree(s);
  EXPECT_TRUE(errors.empty()) << errors[0].message;
}

TEST_P(VulkanTest, CopyOutsideAllocationsIsAnError) {
  // Host memory is not a device address on this backend.
  int host[4] = {1, 2, 3, 4}, out[4];
  bsgprt_memcpy_dtoh(out, host, sizeof(host));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code, BSGPRT_ERROR_INVALID_POINTER);
  EXPECT_NE(errors[0].message.find("is not inside one vulkan allocation"),
            std::string::npos)
      << errors[0].message;
}

TEST_P(VulkanTest, ModuleWithoutSPIRVIsReported) {
  Args args{1};
  bsgprt_launch(&cpuOnlyModule, 0, 10, &args);
  bsgprt_synchronize();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code, BSGPRT_ERROR_LAUNCH_FAILED);
  EXPECT_EQ(errors[0].message,
            "k.bsgp:3:3: runtime error: module k.bsgp has no SPIR-V for the "
            "vulkan backend; compile it with --target=cpu,spirv (spirv among "
            "the targets)");
}

// Without BSGP_DEVICE, a Vulkan implementation on the CPU is not chosen:
// the cpu backend runs kernels natively, faster than lavapipe.
TEST_F(RuntimeTest, DefaultOrderSkipsVulkanOnTheCPU) {
  const char *saved = std::getenv("BSGP_DEVICE");
  std::string restore = saved ? saved : "";
  unsetenv("BSGP_DEVICE");
  EXPECT_EQ(bsgprt_select_device(nullptr), BSGPRT_SUCCESS);
  if (saved)
    setenv("BSGP_DEVICE", restore.c_str(), 1);
  std::string name = bsgprt_device_name();
  EXPECT_EQ(name.find("llvmpipe"), std::string::npos) << name;
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(Memory, VulkanTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? std::string("Staging")
                                             : std::string("Mapped");
                         });

} // namespace
