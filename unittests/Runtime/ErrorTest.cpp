//===- ErrorTest.cpp - Tests for runtime error reporting and selection ----===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

using bsgp::test::RuntimeTest;

namespace {

bool hasCudaDriver() {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib)
    dlclose(lib);
  return lib != nullptr;
}

TEST_F(RuntimeTest, OutOfMemoryNamesTheAllocationSite) {
  const uint64_t huge = uint64_t(1) << 62;
  EXPECT_EQ(bsgprt_dnew(huge, "find.bsgp:12:3-20:5"), nullptr);
  EXPECT_EQ(bsgprt_temp_alloc(huge, "find.bsgp:30:7"), nullptr);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].code, BSGPRT_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(errors[0].message,
            "find.bsgp:12:3: runtime error: out of device memory allocating "
            "4611686018427387904 bytes for dnew");
  EXPECT_EQ(errors[1].code, BSGPRT_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(errors[1].message,
            "find.bsgp:30:7: runtime error: out of device memory allocating "
            "4611686018427387904 bytes for dtempnew");
  EXPECT_EQ(bsgprt_get_last_error(), BSGPRT_ERROR_OUT_OF_MEMORY);
}

TEST_F(RuntimeTest, SrclocThatIsNotARangeIsKept) {
  EXPECT_EQ(bsgprt_dnew(uint64_t(1) << 62, "my-dir/a-b.bsgp:3:4"), nullptr);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message.rfind("my-dir/a-b.bsgp:3:4: runtime error", 0),
            0u)
      << errors[0].message;
}

TEST_F(RuntimeTest, InvalidFreesAreReported) {
  int local = 0;
  bsgprt_dfree(&local);
  void *p = bsgprt_dnew(64, "f.bsgp:2:5-2:30");
  bsgprt_dfree(static_cast<char *>(p) + 8);
  bsgprt_temp_free(p);
  bsgprt_dfree(p);
  bsgprt_dfree(p);
  bsgprt_dfree(nullptr);
  ASSERT_EQ(errors.size(), 4u);
  for (const auto &e : errors)
    EXPECT_EQ(e.code, BSGPRT_ERROR_INVALID_POINTER) << e.message;
  EXPECT_EQ(errors[0].message.rfind("bsgprt: runtime error: dfree of 0x", 0),
            0u)
      << errors[0].message;
  EXPECT_NE(errors[0].message.find("did not allocate"), std::string::npos);
  EXPECT_EQ(errors[1].message.rfind("f.bsgp:2:5: runtime error: dfree", 0), 0u)
      << errors[1].message;
  EXPECT_NE(errors[1].message.find("8 bytes into"), std::string::npos);
  EXPECT_NE(errors[2].message.find("temp_free"), std::string::npos);
  EXPECT_NE(errors[2].message.find("by dnew"), std::string::npos);
  // The last one is the second dfree of p.
  EXPECT_NE(errors[3].message.find("already freed"), std::string::npos);
}

TEST_F(RuntimeTest, CopiesOverrunningAnAllocationAreReported) {
  char host[128] = {0};
  auto *p = static_cast<char *>(bsgprt_dnew(64, "c.bsgp:3:1"));
  bsgprt_memcpy_htod(p, host, 64);
  bsgprt_memcpy_htod(p + 60, host, 4);
  EXPECT_TRUE(errors.empty());
  bsgprt_memcpy_htod(p + 8, host, 64);
  bsgprt_memcpy_dtoh(host, p, 65);
  bsgprt_memset_d(p + 64, 0, 1);
  auto *q = static_cast<char *>(bsgprt_dnew(16, "c.bsgp:4:1"));
  bsgprt_memcpy_dtod(q, p, 32);
  ASSERT_EQ(errors.size(), 4u);
  for (const auto &e : errors)
    EXPECT_EQ(e.code, BSGPRT_ERROR_INVALID_POINTER) << e.message;
  EXPECT_EQ(errors[0].message,
            "c.bsgp:3:1: runtime error: memcpy_htod of 64 bytes overruns the "
            "destination, a 64-byte allocation made here, at offset 8");
  EXPECT_NE(errors[1].message.find("memcpy_dtoh of 65 bytes overruns the "
                                   "source"),
            std::string::npos);
  EXPECT_NE(errors[2].message.find("memset_d"), std::string::npos);
  EXPECT_EQ(
      errors[3].message.rfind("c.bsgp:4:1: runtime error: memcpy_dtod", 0), 0u)
      << errors[3].message;
  bsgprt_dfree(p);
  bsgprt_dfree(q);
}

TEST_F(RuntimeTest, CopiesAndMemsetMoveTheBytes) {
  ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
  unsigned char in[32], out[32];
  for (int i = 0; i < 32; ++i)
    in[i] = static_cast<unsigned char>(i * 7 + 1);
  void *a = bsgprt_dnew(32, "a");
  void *b = bsgprt_dnew(32, "b");
  bsgprt_memcpy_htod(a, in, 32);
  bsgprt_memset_d(b, 0xab, 32);
  bsgprt_memcpy_dtod(b, a, 16);
  bsgprt_synchronize();
  bsgprt_memcpy_dtoh(out, b, 32);
  for (int i = 0; i < 32; ++i)
    EXPECT_EQ(out[i], i < 16 ? in[i] : 0xab) << "byte " << i;
  bsgprt_dfree(a);
  bsgprt_dfree(b);
  EXPECT_TRUE(errors.empty());
}

TEST_F(RuntimeTest, UnavailableDeviceFallsBackToCpuWithNoDevice) {
  ASSERT_EQ(setenv("BSGP_DEVICE", "cuda", 1), 0);
  int rc = bsgprt_select_device(nullptr);
  unsetenv("BSGP_DEVICE");
  if (hasCudaDriver() && rc == BSGPRT_SUCCESS) {
    EXPECT_EQ(std::strncmp(bsgprt_device_name(), "cuda: ", 6), 0);
  } else {
    EXPECT_EQ(rc, BSGPRT_ERROR_NO_DEVICE);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].code, BSGPRT_ERROR_NO_DEVICE);
    EXPECT_EQ(errors[0].message.rfind(
                  "bsgprt: runtime error: BSGP_DEVICE=cuda: no cuda device", 0),
              0u)
        << errors[0].message;
    // The handler returns, so the program goes on, on the cpu.
    const std::string tail = "); using the cpu backend";
    EXPECT_EQ(errors[0].message.find(tail),
              errors[0].message.size() - tail.size())
        << errors[0].message;
    EXPECT_STREQ(bsgprt_device_name(), "cpu");
  }
  errors.clear();
  // vulkan is there (lavapipe counts) or reports NO_DEVICE, then cpu is used.
  int rcVulkan = bsgprt_select_device("vulkan");
  if (rcVulkan == BSGPRT_SUCCESS) {
    EXPECT_EQ(std::strncmp(bsgprt_device_name(), "vulkan: ", 8), 0);
    EXPECT_TRUE(errors.empty());
  } else {
    EXPECT_EQ(rcVulkan, BSGPRT_ERROR_NO_DEVICE);
    EXPECT_STREQ(bsgprt_device_name(), "cpu");
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].code, BSGPRT_ERROR_NO_DEVICE);
    EXPECT_EQ(
        errors[0].message.rfind(
            "bsgprt: runtime error: device vulkan: no vulkan device (", 0),
        0u)
        << errors[0].message;
  }
  errors.clear();
  EXPECT_EQ(bsgprt_select_device("tpu"), BSGPRT_ERROR_INVALID_VALUE);
  EXPECT_STREQ(bsgprt_device_name(), "cpu");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code, BSGPRT_ERROR_INVALID_VALUE);
  EXPECT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
}

TEST_F(RuntimeTest, CannotSwitchDeviceWithLiveAllocations) {
  void *p = bsgprt_dnew(8, "live");
  EXPECT_EQ(bsgprt_select_device("cpu"), BSGPRT_ERROR_INVALID_VALUE);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("1 runtime allocations are live"),
            std::string::npos);
  bsgprt_dfree(p);
  EXPECT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
}

// The default handler prints the message and exits with status 1; these run
// in a fresh process, so BSGP_DEVICE is read at first use there.
TEST(RuntimeDeathTest, DefaultHandlerPrintsAndExits) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        bsgprt_set_error_handler(nullptr, nullptr);
        bsgprt_dnew(uint64_t(1) << 62, "oom.bsgp:5:6-7:8");
      },
      ::testing::ExitedWithCode(1),
      "oom.bsgp:5:6: runtime error: out of device memory allocating "
      "4611686018427387904 bytes for dnew");
}

TEST(RuntimeDeathTest, ExplicitCudaWithoutDriverExits) {
  if (hasCudaDriver())
    GTEST_SKIP() << "a CUDA driver is installed";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("BSGP_DEVICE", "cuda", 1);
        bsgprt_dnew(16, "x");
      },
      ::testing::ExitedWithCode(1),
      "BSGP_DEVICE=cuda: no cuda device \\(libcuda.so.1 could not be "
      "loaded\\); set BSGP_DEVICE=cpu, or leave it unset, to run on the "
      "cpu\n$");
}

} // namespace
