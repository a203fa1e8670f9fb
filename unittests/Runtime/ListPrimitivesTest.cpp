//===- ListPrimitivesTest.cpp - Tests for the bsgprt_list_* primitives ----===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Expected values come from std::accumulate, sequential loops and
// std::stable_sort; sizes cross the cpu backend's chunking threshold so that
// the multi-chunk paths run.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>

using bsgp::test::RuntimeTest;

namespace {

class ListPrimitivesTest : public RuntimeTest {};

constexpr uint64_t Sizes[] = {0, 1, 2, 33, 1025, 16385, 100003};

TEST_F(ListPrimitivesTest, ReduceAndScanAddInt) {
  std::mt19937 rng(1);
  for (uint64_t n : Sizes) {
    std::vector<int32_t> in(n), out(n);
    for (int32_t &x : in)
      x = int32_t(rng() % 2001) - 1000;
    int64_t sum = std::accumulate(in.begin(), in.end(), int64_t(0));
    EXPECT_EQ(bsgprt_list_reduce_add_i32(in.data(), n), int32_t(sum)) << n;
    EXPECT_EQ(bsgprt_list_scan_exclusive_add_i32(in.data(), out.data(), n),
              int32_t(sum));
    int32_t run = 0;
    for (uint64_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[i], run) << "n=" << n << " i=" << i;
      run += in[i];
    }
  }
  EXPECT_TRUE(errors.empty());
}

TEST_F(ListPrimitivesTest, ScanInPlaceMaxUint64) {
  std::mt19937_64 rng(2);
  uint64_t n = 100003;
  std::vector<uint64_t> v(n), ref(n);
  for (uint64_t &x : v)
    x = rng();
  uint64_t run = 0;
  for (uint64_t i = 0; i < n; ++i) {
    ref[i] = run;
    run = std::max(run, v[i]);
  }
  EXPECT_EQ(bsgprt_list_scan_exclusive_max_u64(v.data(), v.data(), n), run);
  EXPECT_EQ(v, ref);
}

TEST_F(ListPrimitivesTest, Identities) {
  EXPECT_EQ(bsgprt_list_reduce_mul_i32(nullptr, 0), 1);
  EXPECT_EQ(bsgprt_list_reduce_and_u32(nullptr, 0), ~0u);
  EXPECT_EQ(bsgprt_list_reduce_min_i64(nullptr, 0),
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(bsgprt_list_reduce_max_f32(nullptr, 0),
            -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(errors.empty());
}

// The collective library's reduce takes one word per reduce and leaves it
// 0: the ring hands out 1024 distinct zero words, then the first again.
TEST_F(ListPrimitivesTest, ZeroCountersAreARing) {
  std::vector<uint32_t *> words;
  for (int i = 0; i < 1024; ++i) {
    uint32_t *w = bsgprt_zero_counter();
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(*w, 0u); // cpu backend: device memory is host memory
    words.push_back(w);
  }
  std::vector<uint32_t *> sorted = words;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());
  EXPECT_EQ(bsgprt_zero_counter(), words[0]);
  EXPECT_TRUE(errors.empty());
}

TEST_F(ListPrimitivesTest, SignedOverflowWraps) {
  std::vector<int32_t> in(70000, 65536); // 65536 * 70000 wraps
  EXPECT_EQ(bsgprt_list_reduce_add_i32(in.data(), in.size()),
            int32_t(uint32_t(65536u * 70000u)));
}

TEST_F(ListPrimitivesTest, SortPairsIsStableForEveryType) {
  std::mt19937 rng(3);
  for (uint64_t n : Sizes) {
    std::vector<float> keys(n);
    for (float &k : keys)
      k = float(int(rng() % 41) - 20) * 0.5f;
    keys.push_back(-std::numeric_limits<float>::infinity());
    keys.push_back(std::numeric_limits<float>::infinity());
    uint64_t m = keys.size();
    std::vector<uint32_t> ids(m), ref(m);
    std::iota(ids.begin(), ids.end(), 0u);
    std::iota(ref.begin(), ref.end(), 0u);
    std::stable_sort(ref.begin(), ref.end(),
                     [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
    std::vector<float> sorted = keys;
    bsgprt_list_sort_pairs_f32(sorted.data(), ids.data(), m);
    EXPECT_EQ(ids, ref) << n;
    for (uint64_t i = 0; i < m; ++i)
      ASSERT_EQ(sorted[i], keys[ref[i]]);
  }
  std::vector<int64_t> k64 = {5, -3, INT64_MIN, 5, INT64_MAX, -3, 0};
  std::vector<uint32_t> v64 = {0, 1, 2, 3, 4, 5, 6};
  bsgprt_list_sort_pairs_i64(k64.data(), v64.data(), k64.size());
  EXPECT_EQ(v64, (std::vector<uint32_t>{2, 1, 5, 6, 0, 3, 4}));
  std::vector<uint32_t> ku = {0x80000000u, 1, 0xffffffffu, 1};
  std::vector<uint32_t> vu = {0, 1, 2, 3};
  bsgprt_list_sort_pairs_u32(ku.data(), vu.data(), ku.size());
  EXPECT_EQ(vu, (std::vector<uint32_t>{1, 3, 0, 2}));
  EXPECT_TRUE(errors.empty());
}

// The cpu backend sorts by the bits in which the keys differ only, in one
// pass of up to 8 bits or an even number of passes of up to 11: key ranges
// of every such shape, starting at bit 0 and above it, sorted stably.
TEST_F(ListPrimitivesTest, SortPairsByTheBitsThatDiffer) {
  std::mt19937 rng(5);
  uint64_t n = 70001;
  for (unsigned bits : {1u, 8u, 9u, 16u, 20u, 22u, 23u, 32u})
    for (unsigned lo : {0u, 5u}) {
      if (lo + bits > 32)
        continue;
      uint32_t mask = uint32_t((uint64_t(1) << bits) - 1) << lo;
      std::vector<int32_t> keys(n);
      for (int32_t &k : keys)
        k = int32_t((rng() & mask) | 0x40000000u);
      std::vector<uint32_t> ids(n), ref(n);
      std::iota(ids.begin(), ids.end(), 0u);
      std::iota(ref.begin(), ref.end(), 0u);
      std::stable_sort(ref.begin(), ref.end(), [&](uint32_t a, uint32_t b) {
        return keys[a] < keys[b];
      });
      std::vector<int32_t> sorted = keys;
      bsgprt_list_sort_pairs_i32(sorted.data(), ids.data(), n);
      ASSERT_EQ(ids, ref) << bits << " bits from bit " << lo;
      for (uint64_t i = 0; i < n; ++i)
        ASSERT_EQ(sorted[i], keys[ref[i]]);
    }
  EXPECT_TRUE(errors.empty());
}

TEST_F(ListPrimitivesTest, PartitionCompactExpand) {
  std::mt19937 rng(4);
  uint64_t n = 50001;
  std::vector<uint32_t> flags(n), index(n), zerosFirst, kept;
  for (uint32_t &f : flags)
    f = rng() % 3 == 0 ? 7 : 0;
  for (uint32_t i = 0; i < n; ++i)
    if (!flags[i])
      zerosFirst.push_back(i);
  uint64_t zeros = zerosFirst.size();
  for (uint32_t i = 0; i < n; ++i)
    if (flags[i]) {
      zerosFirst.push_back(i);
      kept.push_back(i);
    }
  EXPECT_EQ(bsgprt_list_partition_index(flags.data(), index.data(), n), zeros);
  EXPECT_EQ(index, zerosFirst);
  EXPECT_EQ(bsgprt_list_compact_index(flags.data(), index.data(), n),
            kept.size());
  index.resize(kept.size());
  EXPECT_EQ(index, kept);

  std::vector<uint32_t> counts = {2, 0, 3, 1}, offsets(4);
  EXPECT_EQ(
      bsgprt_list_scan_exclusive_add_u32(counts.data(), offsets.data(), 4), 6u);
  std::vector<uint32_t> parent(6);
  bsgprt_list_expand_index(offsets.data(), counts.data(), parent.data(), 4);
  EXPECT_EQ(parent, (std::vector<uint32_t>{0, 0, 2, 2, 2, 3}));
  EXPECT_TRUE(errors.empty());
}

TEST_F(ListPrimitivesTest, BadArgumentsAreReported) {
  float x = 1;
  float r = 0;
  bsgprt_list_reduce(BSGPRT_LIST_XOR, BSGPRT_LIST_F32, &x, 1, &r);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].code, BSGPRT_ERROR_INVALID_VALUE);
  EXPECT_NE(errors[0].message.find("bitwise"), std::string::npos);
  bsgprt_list_reduce(BSGPRT_LIST_ADD, 42, &x, 1, &r);
  ASSERT_EQ(errors.size(), 2u);
  bsgprt_list_sort_pairs(BSGPRT_LIST_I32, nullptr, nullptr, 3);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[2].code, BSGPRT_ERROR_INVALID_POINTER);
}

} // namespace

namespace {
// The collective library asks before choosing its own BSGP versions.
TEST(ListPrimitivesNativeTest, CpuBackendRunsThemNatively) {
  ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
  const char *forced = std::getenv("BSGP_LIST_PRIMITIVES");
  bool bsgp = forced && std::string(forced) == "bsgp";
  EXPECT_EQ(bsgprt_list_primitives_native(), bsgp ? 0 : 1);
}
} // namespace
