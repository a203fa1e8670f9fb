//===- PoolTest.cpp - Tests for the pool of temporaries -------------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

using bsgp::test::RuntimeTest;

namespace {

/// Restores the pool limit a test changes.
class PoolTest : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
    savedLimit = bsgprt_get_pool_limit();
    bsgprt_pool_trim();
  }
  void TearDown() override {
    bsgprt_set_pool_limit(savedLimit);
    bsgprt_pool_trim();
    RuntimeTest::TearDown();
  }
  uint64_t savedLimit = 0;
};

TEST_F(PoolTest, FreedTemporaryIsReused) {
  void *p = bsgprt_temp_alloc(1000, "t.bsgp:1:1");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(bsgprt_pool_cached_bytes(), 0u);
  bsgprt_temp_free(p);
  // 1000 bytes round up to the 1024-byte class.
  EXPECT_EQ(bsgprt_pool_cached_bytes(), 1024u);
  void *q = bsgprt_temp_alloc(1000, "t.bsgp:2:1");
  EXPECT_EQ(q, p);
  EXPECT_EQ(bsgprt_pool_cached_bytes(), 0u);
  bsgprt_temp_free(q);
  // A request of the same class reuses the buffer as well.
  void *r = bsgprt_temp_alloc(900, "t.bsgp:3:1");
  EXPECT_EQ(r, p);
  bsgprt_temp_free(r);
  EXPECT_TRUE(errors.empty());
}

TEST_F(PoolTest, BestFitPicksTheSmallestLargeEnoughBuffer) {
  void *small = bsgprt_temp_alloc(4096, "s");
  void *medium = bsgprt_temp_alloc(6144, "m");
  void *large = bsgprt_temp_alloc(16384, "l");
  bsgprt_temp_free(large);
  bsgprt_temp_free(small);
  bsgprt_temp_free(medium);
  EXPECT_EQ(bsgprt_pool_cached_bytes(), 4096u + 6144u + 16384u);
  // 5000 bytes: class 5120; 6144 is the best fit, 16384 is too large.
  void *p = bsgprt_temp_alloc(5000, "p");
  EXPECT_EQ(p, medium);
  // 9000 bytes: class 10240; 16384 < 2 * 10240, so it is reused.
  void *q = bsgprt_temp_alloc(9000, "q");
  EXPECT_EQ(q, large);
  // 100 bytes: the 4096-byte buffer is more than twice the 256-byte class.
  void *r = bsgprt_temp_alloc(100, "r");
  EXPECT_NE(r, small);
  bsgprt_temp_free(p);
  bsgprt_temp_free(q);
  bsgprt_temp_free(r);
  EXPECT_TRUE(errors.empty());
}

TEST_F(PoolTest, LimitBoundsCachedBytes) {
  bsgprt_set_pool_limit(64 * 1024);
  void *a = bsgprt_temp_alloc(40 * 1024, "a");
  void *b = bsgprt_temp_alloc(40 * 1024, "b");
  void *c = bsgprt_temp_alloc(40 * 1024, "c");
  bsgprt_temp_free(a);
  EXPECT_EQ(bsgprt_pool_cached_bytes(), 40u * 1024);
  bsgprt_temp_free(b);
  bsgprt_temp_free(c);
  // Only one 40 KiB buffer fits under 64 KiB.
  EXPECT_EQ(bsgprt_pool_cached_bytes(), 40u * 1024);
  // A buffer larger than the limit is never cached.
  void *big = bsgprt_temp_alloc(128 * 1024, "big");
  bsgprt_temp_free(big);
  EXPECT_EQ(bsgprt_pool_cached_bytes(), 40u * 1024);
  // Lowering the limit releases the excess immediately.
  bsgprt_set_pool_limit(0);
  EXPECT_EQ(bsgprt_pool_cached_bytes(), 0u);
  EXPECT_TRUE(errors.empty());
}

TEST_F(PoolTest, DnewIsNotPooled) {
  void *p = bsgprt_dnew(4096, "d");
  bsgprt_dfree(p);
  EXPECT_EQ(bsgprt_pool_cached_bytes(), 0u);
  EXPECT_TRUE(errors.empty());
}

TEST_F(PoolTest, TemporaryFreedTwiceIsReported) {
  void *p = bsgprt_temp_alloc(512, "t.bsgp:9:2");
  bsgprt_temp_free(p);
  bsgprt_temp_free(p);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code, BSGPRT_ERROR_INVALID_POINTER);
  EXPECT_NE(errors[0].message.find("temp_free of 0x"), std::string::npos)
      << errors[0].message;
}

TEST_F(PoolTest, DistinctAllocationsAreTold) {
  char *a = static_cast<char *>(bsgprt_dnew(4096, "a"));
  char *b = static_cast<char *>(bsgprt_temp_alloc(4096, "b"));
  int host[4] = {0, 0, 0, 0};
  EXPECT_EQ(bsgprt_distinct_allocations(a, b), 1);
  EXPECT_EQ(bsgprt_distinct_allocations(b + 4000, a + 17), 1);
  // One allocation, whatever the offsets.
  EXPECT_EQ(bsgprt_distinct_allocations(a, a + 4095), 0);
  // Past the end, and memory the runtime did not allocate, are unknown.
  EXPECT_EQ(bsgprt_distinct_allocations(a + 4096, b), 0);
  EXPECT_EQ(bsgprt_distinct_allocations(host, b), 0);
  EXPECT_EQ(bsgprt_distinct_allocations(nullptr, a), 0);
  bsgprt_temp_free(b);
  // A freed temporary is no longer a live allocation.
  EXPECT_EQ(bsgprt_distinct_allocations(a, b), 0);
  bsgprt_dfree(a);
  EXPECT_TRUE(errors.empty());
}

} // namespace
