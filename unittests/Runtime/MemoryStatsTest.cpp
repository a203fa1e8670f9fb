//===- MemoryStatsTest.cpp - Tests for the device memory statistics -------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

using bsgp::test::RuntimeTest;

namespace {

class MemoryStatsTest : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
    bsgprt_pool_trim();
    bsgprt_memory_reset_peak();
  }
  void TearDown() override {
    bsgprt_pool_trim();
    RuntimeTest::TearDown();
  }
  static bsgprt_memory_stats_t stats() {
    bsgprt_memory_stats_t s;
    bsgprt_memory_stats(&s);
    return s;
  }
};

TEST_F(MemoryStatsTest, CountsListsTemporariesAndThePool) {
  bsgprt_memory_stats_t s0 = stats();
  void *list = bsgprt_dnew(1000, "a.bsgp:1:1");
  bsgprt_memory_stats_t s1 = stats();
  // A dnew list is allocated at its size.
  EXPECT_EQ(s1.live_bytes - s0.live_bytes, 1000u);
  EXPECT_EQ(s1.device_bytes - s0.device_bytes, 1000u);

  // 1000 bytes of temporary take the 1024-byte class.
  void *temp = bsgprt_temp_alloc(1000, "a.bsgp:2:1");
  bsgprt_memory_stats_t s2 = stats();
  EXPECT_EQ(s2.live_bytes - s0.live_bytes, 2000u);
  EXPECT_EQ(s2.device_bytes - s0.device_bytes, 2024u);
  EXPECT_EQ(s2.peak_device_bytes, s2.device_bytes);

  // A freed temporary stays held, in the pool.
  bsgprt_temp_free(temp);
  bsgprt_memory_stats_t s3 = stats();
  EXPECT_EQ(s3.live_bytes - s0.live_bytes, 1000u);
  EXPECT_EQ(s3.device_bytes - s0.device_bytes, 2024u);

  bsgprt_pool_trim();
  bsgprt_dfree(list);
  bsgprt_memory_stats_t s4 = stats();
  EXPECT_EQ(s4.live_bytes, s0.live_bytes);
  EXPECT_EQ(s4.device_bytes, s0.device_bytes);
  // The peaks remember the high-water mark until they are reset.
  EXPECT_EQ(s4.peak_live_bytes - s0.live_bytes, 2000u);
  EXPECT_EQ(s4.peak_device_bytes - s0.device_bytes, 2024u);
  bsgprt_memory_reset_peak();
  bsgprt_memory_stats_t s5 = stats();
  EXPECT_EQ(s5.peak_live_bytes, s5.live_bytes);
  EXPECT_EQ(s5.peak_device_bytes, s5.device_bytes);
  EXPECT_TRUE(errors.empty());
}

TEST_F(MemoryStatsTest, ReusedTemporaryDoesNotGrowThePeak) {
  void *a = bsgprt_temp_alloc(4096, "a");
  bsgprt_temp_free(a);
  bsgprt_memory_reset_peak();
  uint64_t before = stats().peak_device_bytes;
  void *b = bsgprt_temp_alloc(4000, "b");
  EXPECT_EQ(b, a);
  EXPECT_EQ(stats().peak_device_bytes, before);
  bsgprt_temp_free(b);
  EXPECT_TRUE(errors.empty());
}

// Deferred frees (lists a spawn cut into segments frees where it ends):
// freed from the latest back to the mark, nested marks first.
TEST_F(MemoryStatsTest, DeferredFreesGoBackToTheirMark) {
  uint64_t base = stats().live_bytes;
  uint64_t outer = bsgprt_temp_defer_mark();
  bsgprt_temp_defer_free(bsgprt_temp_alloc(100, "a"));
  uint64_t inner = bsgprt_temp_defer_mark();
  EXPECT_EQ(inner, outer + 1);
  bsgprt_temp_defer_free(bsgprt_temp_alloc(200, "b"));
  bsgprt_temp_defer_free(bsgprt_temp_alloc(300, "c"));
  // A null list (a dtempnew of nothing that failed) is not kept.
  bsgprt_temp_defer_free(nullptr);
  EXPECT_EQ(stats().live_bytes - base, 600u);
  bsgprt_temp_free_deferred(inner);
  EXPECT_EQ(stats().live_bytes - base, 100u);
  EXPECT_EQ(bsgprt_temp_defer_mark(), inner);
  bsgprt_temp_free_deferred(outer);
  EXPECT_EQ(stats().live_bytes, base);
  EXPECT_EQ(bsgprt_temp_defer_mark(), outer);
  EXPECT_TRUE(errors.empty());
}

TEST_F(MemoryStatsTest, ProfileReportShowsThePeak) {
  void *a = bsgprt_dnew(12345, "a");
  bsgprt_dfree(a);
  std::string text = bsgp::test::profileReportText();
  EXPECT_NE(text.find("peak device memory: "), std::string::npos) << text;
  EXPECT_NE(text.find("12345 bytes in live lists"), std::string::npos) << text;
}

} // namespace
