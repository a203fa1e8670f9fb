//===- VulkanSharedTest.cpp - Tests of vulkan:N's shared host memory ------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// BSGP_DEVICE=vulkan:N: N vulkan backends whose lists are host memory
// imported into every device at one device address (VulkanShared.cpp).
// Here: every device holds every list at the address handed out, what one
// device's queue writes there (a fill, a copy) the other device's queue
// reads, a freed list is gone from every device, the runtime's view of
// vulkan:2, and the requests that cannot be met. Kernels on several vulkan
// devices are covered by the execution tests (multi-device-vulkan.test).
// Without a Vulkan device (lavapipe counts) the device tests are skipped.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include "Backend.h"

#include <cstring>
#include <numeric>

using bsgp::test::RuntimeTest;

namespace {

class VulkanSharedTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why;
    if (!bsgprt::createVulkanBackends(2, devices, memory, why)) {
      // Only a missing device is a reason to skip; lavapipe shares
      // addresses, so anything else is a failure.
      ASSERT_EQ(why.rfind("no vulkan device", 0), 0u) << why;
      GTEST_SKIP() << why;
    }
    ASSERT_EQ(devices.size(), 2u);
  }
  void TearDown() override {
    // The memory goes before the devices it was imported into, as in the
    // multi-device backend.
    memory.reset();
    devices.clear();
  }

  std::vector<std::unique_ptr<bsgprt::Backend>> devices;
  std::unique_ptr<bsgprt::SpanMemory> memory;
};

TEST_F(VulkanSharedTest, EveryDeviceHoldsTheListAtOneAddress) {
  const uint64_t n = 10007;
  auto *list = static_cast<uint32_t *>(memory->allocate(n * 4));
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(list) % 256, 0u);
  std::vector<uint32_t> in(n), out(n, 0);
  std::iota(in.begin(), in.end(), 11u);
  // Device 0 writes, device 1 reads: the same bytes at the same address.
  ASSERT_FALSE(devices[0]->copyHostToDevice(list, in.data(), n * 4).failed());
  ASSERT_FALSE(devices[1]->copyDeviceToHost(out.data(), list, n * 4).failed());
  EXPECT_EQ(out, in);
  memory->deallocate(list);
}

TEST_F(VulkanSharedTest, WritesOfOneDeviceQueueAreSeenByTheOther) {
  const uint64_t n = 4096;
  auto *a = static_cast<uint32_t *>(memory->allocate(n * 4));
  auto *b = static_cast<uint32_t *>(memory->allocate(n * 4));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  // A fill on device 1's queue (vkCmdFillBuffer on its buffer), then a
  // copy on device 0's queue of part of it into b, read back by device 1.
  ASSERT_FALSE(devices[1]->memset(a, 0x5a, n * 4).failed());
  ASSERT_FALSE(devices[0]->memset(b, 0, n * 4).failed());
  ASSERT_FALSE(devices[0]->copyDeviceToDevice(b + 100, a, 400 * 4).failed());
  std::vector<uint32_t> got(n, 1);
  ASSERT_FALSE(devices[1]->copyDeviceToHost(got.data(), b, n * 4).failed());
  for (uint64_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], i >= 100 && i < 500 ? 0x5a5a5a5au : 0u) << i;
  memory->deallocate(a);
  memory->deallocate(b);
}

TEST_F(VulkanSharedTest, AFreedListIsGoneFromEveryDevice) {
  void *p = memory->allocate(1000);
  ASSERT_NE(p, nullptr);
  memory->deallocate(p);
  uint32_t word = 7;
  for (auto &d : devices) {
    bsgprt::Status s = d->copyHostToDevice(p, &word, 4);
    EXPECT_EQ(s.code, BSGPRT_ERROR_INVALID_POINTER) << s.message;
  }
}

TEST_F(RuntimeTest, VulkanDevicesAsOne) {
  if (bsgprt_select_device("vulkan:2") != BSGPRT_SUCCESS) {
    ASSERT_EQ(errors.size(), 1u);
    ASSERT_NE(errors[0].message.find("no vulkan device"), std::string::npos)
        << errors[0].message;
    GTEST_SKIP() << errors[0].message;
  }
  EXPECT_STREQ(bsgprt_device_name(), "vulkan:2");
  EXPECT_EQ(bsgprt_device_count(), 2);
  EXPECT_EQ(bsgprt_target(), BSGPRT_TARGET_VULKAN);
  // Devices with memories of their own: the collective library runs its
  // own list primitives and the two-level forms of scan and compact.
  EXPECT_EQ(bsgprt_list_primitives_native(), 0);
  EXPECT_EQ(bsgprt_single_pass_forms(), 0);
  EXPECT_EQ(bsgp::test::expectCopiesRoundTrip(3) % 256, 0u);
  bsgprt_pool_trim();
  EXPECT_TRUE(errors.empty()) << errors[0].message;
  EXPECT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
}

// A real GPU pair maps imported host memory at addresses of its own; a
// BSGP pointer would then mean different bytes on each device.
TEST(VulkanSharedAddresses, DifferentAddressesAreRefused) {
  EXPECT_EQ(bsgprt::sharedAddressMismatch({0x7f0000001000}), "");
  EXPECT_EQ(bsgprt::sharedAddressMismatch({0x1000, 0x1000, 0x1000}), "");
  EXPECT_EQ(bsgprt::sharedAddressMismatch({0x1000, 0x1000, 0x2000}),
            "the vulkan devices do not share addresses of imported host "
            "memory (device 2 maps it at 0x2000, device 0 at 0x1000; "
            "separate GPUs need VK_KHR_device_group)");
}

TEST_F(RuntimeTest, VulkanDeviceCountOutOfRange) {
  EXPECT_EQ(bsgprt_select_device("vulkan:all"), BSGPRT_ERROR_INVALID_VALUE);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("device vulkan:all: expected vulkan:N with "
                                   "1 <= N <= 64; using the cpu backend"),
            std::string::npos)
      << errors[0].message;
  EXPECT_STREQ(bsgprt_device_name(), "cpu");
  EXPECT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
}

} // namespace
