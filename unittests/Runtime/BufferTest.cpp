//===- BufferTest.cpp - Tests for bsgp::buffer<T> -------------------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.hpp"

#include "RuntimeTestUtil.h"

#include <cstring>
#include <type_traits>

using bsgp::test::RuntimeTest;

namespace {

static_assert(!std::is_copy_constructible<bsgp::buffer<int>>::value,
              "buffers are move-only");
static_assert(std::is_nothrow_move_constructible<bsgp::buffer<int>>::value,
              "buffers move without allocating");

TEST_F(RuntimeTest, BufferRoundTrip) {
  std::vector<int> host = {5, -3, 8, 13, 21, 0, 1 << 30};
  bsgp::buffer<int> buf(host);
  EXPECT_EQ(buf.size(), host.size());
  EXPECT_NE(buf.data(), nullptr);
  EXPECT_EQ(buf.to_vector(), host);

  std::vector<int> other = {1, 2, 3};
  buf.copy_from_host(other.data(), other.size());
  std::vector<int> back(host.size());
  buf.copy_to_host(back.data());
  std::vector<int> expected = {1, 2, 3, 13, 21, 0, 1 << 30};
  EXPECT_EQ(back, expected);
  EXPECT_TRUE(errors.empty());
}

TEST_F(RuntimeTest, BufferMoveTransfersOwnershipAndDestructorFrees) {
  void *raw;
  {
    bsgp::buffer<double> a(std::vector<double>{1.5, 2.5});
    raw = a.data();
    bsgp::buffer<double> b(std::move(a));
    EXPECT_EQ(a.data(), nullptr);
    EXPECT_EQ(a.size(), 0u);
    EXPECT_EQ(b.data(), raw);
    bsgp::buffer<double> c;
    c = std::move(b);
    EXPECT_EQ(c.data(), raw);
    EXPECT_EQ(c.to_vector(), (std::vector<double>{1.5, 2.5}));
  }
  EXPECT_TRUE(errors.empty());
  // The buffer was freed exactly once: freeing it again is an error.
  bsgprt_dfree(raw);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code, BSGPRT_ERROR_INVALID_POINTER);
}

TEST_F(RuntimeTest, BufferCopyPastTheEndIsReported) {
  bsgp::buffer<int> buf(4, "buf.bsgp:1:2");
  int src[8] = {};
  buf.copy_from_host(src, 8);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code, BSGPRT_ERROR_INVALID_POINTER);
  EXPECT_EQ(errors[0].message.rfind("buf.bsgp:1:2: runtime error: ", 0), 0u);
}

TEST_F(RuntimeTest, DeviceNameIsCpuHere) {
  ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
  EXPECT_STREQ(bsgp::device_name(), "cpu");
}

} // namespace
