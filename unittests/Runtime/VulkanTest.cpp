//===- VulkanTest.cpp - Tests of the vulkan backend where a device exists -===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Memory of the vulkan backend: device addresses handed out as pointers,
// copies and fills at interior addresses, with mapped memory and through
// staging buffers (BSGP_VULKAN_STAGING=1), the errors for a module compiled
// without SPIR-V and for one that needs a feature the device lacks (a backend
// made without it), and kernel timestamps for BSGP_PROFILE. Kernels are
// covered by the execution tests, which run on vulkan too; here they are
// empty SPIR-V entry points made by emptyKernels. Without a Vulkan device
// (lavapipe counts) these tests are skipped.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include "Backend.h"

#include <cstdlib>
#include <cstring>
#include <numeric>

using bsgp::test::profileRow;
using bsgp::test::RuntimeTest;

namespace {

/// A SPIR-V module whose entry points `names` are empty compute kernels with
/// the workgroup size of the backend's ABI (docs/spirv.md), declaring the
/// Shader capability and `capabilities`.
std::vector<uint32_t>
emptyKernels(const std::vector<std::string> &names,
             const std::vector<uint32_t> &capabilities = {}) {
  enum : uint32_t {
    OpMemoryModel = 14,
    OpEntryPoint = 15,
    OpExecutionMode = 16,
    OpCapability = 17,
    OpTypeVoid = 19,
    OpTypeFunction = 33,
    OpFunction = 54,
    OpFunctionEnd = 56,
    OpLabel = 248,
    OpReturn = 253,
  };
  // Magic, version 1.0, generator, id bound (set at the end), schema.
  std::vector<uint32_t> w = {0x07230203, 0x00010000, 0, 0, 0};
  auto op = [&](uint32_t opcode, std::vector<uint32_t> operands) {
    w.push_back(static_cast<uint32_t>(operands.size() + 1) << 16 | opcode);
    w.insert(w.end(), operands.begin(), operands.end());
  };
  const uint32_t voidType = 1, functionType = 2;
  uint32_t nextId = 3;
  op(OpCapability, {/*Shader=*/1});
  for (uint32_t c : capabilities)
    op(OpCapability, {c});
  op(OpMemoryModel, {/*Logical=*/0, /*GLSL450=*/1});
  std::vector<uint32_t> functions;
  for (const std::string &name : names) {
    functions.push_back(nextId++);
    std::vector<uint32_t> operands = {/*GLCompute=*/5, functions.back()};
    // A literal string: NUL-terminated UTF-8, little-endian in words.
    std::vector<uint32_t> text(name.size() / 4 + 1, 0);
    for (size_t i = 0; i < name.size(); ++i)
      text[i / 4] |= static_cast<uint32_t>(static_cast<unsigned char>(name[i]))
                     << (8 * (i % 4));
    operands.insert(operands.end(), text.begin(), text.end());
    op(OpEntryPoint, operands);
  }
  for (uint32_t f : functions)
    op(OpExecutionMode, {f, /*LocalSize=*/17, 256, 1, 1});
  op(OpTypeVoid, {voidType});
  op(OpTypeFunction, {functionType, voidType});
  for (uint32_t f : functions) {
    op(OpFunction, {voidType, f, /*None=*/0, functionType});
    op(OpLabel, {nextId++});
    op(OpReturn, {});
    op(OpFunctionEnd, {});
  }
  w[3] = nextId;
  return w;
}

bsgprt_module_desc moduleOf(const std::vector<bsgprt_kernel_desc> &kernels,
                            const std::vector<uint32_t> &spirv) {
  return {BSGPRT_ABI_VERSION,
          static_cast<uint32_t>(kernels.size()),
          kernels.data(),
          nullptr,
          0,
          spirv.data(),
          spirv.size() * sizeof(uint32_t),
          "t.bsgp"};
}

struct Args {
  int k;
};
const bsgprt_kernel_desc kernels[] = {
    {"k_spawn0_ss1", nullptr, "k.bsgp:3:3-5:4", sizeof(Args), 0, 0},
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
  bsgp::test::expectCopiesRoundTrip(7);
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

// BSGP_PROFILE on vulkan: each launch's time is the difference of two
// timestamps written around its dispatch in the command buffer.
TEST_P(VulkanTest, ProfileReportsDeviceTimeOfEveryKernel) {
  std::vector<uint32_t> spirv = emptyKernels({"k0", "k1"});
  std::vector<bsgprt_kernel_desc> kernels = {
      {"k0", nullptr, "t.bsgp:2:3-4:4", 0, 0, 0},
      {"k1", nullptr, "t.bsgp:6:3-8:4", 0, 0, 0}};
  bsgprt_module_desc m = moduleOf(kernels, spirv);
  bsgprt_profile_reset();
  bsgprt_profile_enable(1);
  // 2^22 ranks are 16384 workgroups: even empty, microseconds of work on
  // any device, which the report's three decimals of milliseconds show.
  const uint64_t n = uint64_t(1) << 22;
  for (int i = 0; i < 3; ++i)
    bsgprt_launch(&m, 0, n, nullptr);
  bsgprt_launch(&m, 1, n, nullptr);
  // More launches without a submission than the query pool holds: the
  // backend reads the times early to reuse the queries, in launch order.
  for (int i = 0; i < 2500; ++i)
    bsgprt_launch(&m, 1, 256, nullptr);
  bsgprt_profile_enable(0);
  std::string text = bsgp::test::profileReportText();
  bsgprt_profile_reset();

  EXPECT_NE(text.find("(device: vulkan: "), std::string::npos) << text;
  std::vector<std::string> k0 = profileRow(text, "t.bsgp:2:3-4:4");
  ASSERT_EQ(k0.size(), 6u) << text;
  EXPECT_EQ(k0[2], "3");
  EXPECT_EQ(k0[5], std::to_string(3 * n));
  EXPECT_GT(std::atof(k0[3].c_str()), 0.0) << text;
  EXPECT_GT(std::atof(k0[4].c_str()), 0.0) << text;
  std::vector<std::string> k1 = profileRow(text, "t.bsgp:6:3-8:4");
  ASSERT_EQ(k1.size(), 6u) << text;
  EXPECT_EQ(k1[2], "2501");
  EXPECT_EQ(k1[5], std::to_string(n + 2500 * 256));
  EXPECT_GT(std::atof(k1[3].c_str()), 0.0) << text;
  EXPECT_TRUE(errors.empty()) << errors[0].message;
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

/// Tests of a vulkan backend of their own, outside the runtime, so that it
/// can be made without some features.
class VulkanBackendTest : public ::testing::Test {
protected:
  std::unique_ptr<bsgprt::Backend>
  create(const std::vector<std::string> &withoutFeatures = {}) {
    std::string why;
    auto b = bsgprt::createVulkanBackend(why, /*allowCPUDevice=*/true,
                                         withoutFeatures);
    if (!b)
      skipReason = why;
    return b;
  }
  std::string skipReason;
};

// The backend records timed launches and submits nothing for them: their
// times are there once something waits, not before.
TEST_F(VulkanBackendTest, TimedLaunchesDoNotWait) {
  std::unique_ptr<bsgprt::Backend> b = create();
  if (!b)
    GTEST_SKIP() << "no Vulkan device: " << skipReason;
  if (!b->hasDeviceTimer())
    GTEST_SKIP() << b->deviceName() << " cannot write timestamps";
  std::vector<uint32_t> spirv = emptyKernels({"k"});
  std::vector<bsgprt_kernel_desc> kernels = {
      {"k", nullptr, "t.bsgp:1:1", 0, 0, 0}};
  bsgprt_module_desc m = moduleOf(kernels, spirv);
  for (int i = 0; i < 4; ++i)
    ASSERT_FALSE(b->launchTimed(m, 0, 1 << 20, nullptr).failed());
  std::vector<double> ms;
  ASSERT_FALSE(b->collectTimes(/*wait=*/false, ms).failed());
  EXPECT_TRUE(ms.empty());
  ASSERT_FALSE(b->collectTimes(/*wait=*/true, ms).failed());
  ASSERT_EQ(ms.size(), 4u);
  for (double t : ms)
    EXPECT_GT(t, 0.0);
  // An untimed launch in between leaves no time behind.
  ASSERT_FALSE(b->launch(m, 0, 256, nullptr).failed());
  ASSERT_FALSE(b->launchTimed(m, 0, 256, nullptr).failed());
  ASSERT_FALSE(b->synchronize().failed());
  ms.clear();
  ASSERT_FALSE(b->collectTimes(/*wait=*/false, ms).failed());
  EXPECT_EQ(ms.size(), 1u);
}

// A module declaring a capability whose feature (or subgroup operation)
// the device lacks fails at its first launch with a message naming both,
// before the driver sees the module.
TEST_F(VulkanBackendTest, MissingFeatureIsNamed) {
  struct Case {
    const char *feature;
    uint32_t capability;
    const char *capabilityName;
  };
  for (Case c : {Case{"shaderFloat64", 10, "Float64"},
                 Case{"shaderBufferInt64Atomics", 12, "Int64Atomics"},
                 Case{"subgroupSupportedOperations SHUFFLE", 65,
                      "GroupNonUniformShuffle"},
                 Case{"subgroupSupportedOperations ARITHMETIC", 63,
                      "GroupNonUniformArithmetic"}}) {
    std::unique_ptr<bsgprt::Backend> b = create({c.feature});
    if (!b)
      GTEST_SKIP() << "no Vulkan device: " << skipReason;
    std::string device =
        std::string(b->deviceName()).substr(strlen("vulkan: "));
    std::vector<bsgprt_kernel_desc> kernels = {
        {"k", nullptr, "t.bsgp:1:1", 0, 0, 0}};
    std::vector<uint32_t> needing = emptyKernels({"k"}, {c.capability});
    bsgprt_module_desc m = moduleOf(kernels, needing);
    bsgprt::Status s = b->launch(m, 0, 1, nullptr);
    EXPECT_EQ(s.code, BSGPRT_ERROR_LAUNCH_FAILED);
    EXPECT_EQ(s.message, std::string("the module's kernels need ") +
                             c.capabilityName + " (" + c.feature + "), which " +
                             device + " does not support");
    // A module without it runs.
    std::vector<uint32_t> plain = emptyKernels({"k"});
    bsgprt_module_desc p = moduleOf(kernels, plain);
    EXPECT_FALSE(b->launch(p, 0, 1, nullptr).failed());
    EXPECT_FALSE(b->synchronize().failed());
  }
}

INSTANTIATE_TEST_SUITE_P(Memory, VulkanTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? std::string("Staging")
                                             : std::string("Mapped");
                         });

} // namespace
