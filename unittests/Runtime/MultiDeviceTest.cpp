//===- MultiDeviceTest.cpp - Tests for several cpu devices (cpu:N) --------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The partitioning of ranks and lists over devices, launches split into
// slices, and the list primitives composed across devices. Expected values
// come from sequential loops and std::stable_sort, or, where the order is
// the radix sort's own (signed zeros), from the single cpu device.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include "MultiDevice.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>

using bsgp::test::Chunk;
using bsgp::test::chunks;
using bsgp::test::recordKernel;
using bsgp::test::RuntimeTest;
using bsgprt::sliceBegin;
using bsgprt::sliceOwner;

namespace {

class MultiDeviceTest : public RuntimeTest {
protected:
  void TearDown() override {
    EXPECT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
    RuntimeTest::TearDown();
  }
};

/// Sizes below, at and above the device counts, across the cpu backend's
/// chunk thresholds (256 ranks per launch chunk, 16384 list elements).
constexpr uint64_t Sizes[] = {0, 1, 2, 3, 4, 5, 257, 1000, 16385, 70001};
const char *const Devices[] = {"cpu:1", "cpu:3", "cpu:4"};

TEST(MultiDevicePartition, SlicesAreContiguousBalancedAndOwned) {
  for (unsigned devices = 1; devices <= 7; ++devices)
    for (uint64_t n : Sizes) {
      EXPECT_EQ(sliceBegin(n, devices, 0), 0u);
      EXPECT_EQ(sliceBegin(n, devices, devices), n);
      for (unsigned d = 0; d < devices; ++d) {
        uint64_t b = sliceBegin(n, devices, d),
                 e = sliceBegin(n, devices, d + 1);
        ASSERT_LE(b, e);
        // Sizes differ by at most one: each is floor or ceil of n/devices.
        EXPECT_GE(e - b, n / devices);
        EXPECT_LE(e - b, (n + devices - 1) / devices);
        for (uint64_t i = b; i < e; i += std::max<uint64_t>(1, (e - b) / 7))
          ASSERT_EQ(sliceOwner(n, devices, i), d)
              << "n=" << n << " devices=" << devices << " i=" << i;
        if (e > b)
          ASSERT_EQ(sliceOwner(n, devices, e - 1), d);
      }
    }
  // No overflow for the largest spawn.
  uint64_t big = uint64_t(INT32_MAX);
  EXPECT_EQ(sliceBegin(big, 3, 1), big / 3);
  EXPECT_EQ(sliceOwner(big, 3, big - 1), 2u);
}

TEST(MultiDevicePartition, ParsesDeviceLists) {
  bsgprt::MultiDeviceRequest r;
  std::string why;
  EXPECT_FALSE(bsgprt::parseMultiDeviceRequest("cpu", r, why));
  ASSERT_TRUE(bsgprt::parseMultiDeviceRequest("cpu:4", r, why));
  EXPECT_EQ(why, "");
  EXPECT_EQ(r.kind, "cpu");
  EXPECT_EQ(r.count, 4u);
  ASSERT_TRUE(bsgprt::parseMultiDeviceRequest("cuda:0,2", r, why));
  EXPECT_EQ(why, "");
  EXPECT_EQ(r.count, 2u);
  EXPECT_EQ(r.ordinals, (std::vector<int>{0, 2}));
  ASSERT_TRUE(bsgprt::parseMultiDeviceRequest("cuda:all", r, why));
  EXPECT_TRUE(r.all);
  ASSERT_TRUE(bsgprt::parseMultiDeviceRequest("vulkan:2", r, why));
  EXPECT_EQ(r.count, 2u);
  for (const char *bad :
       {"cpu:0", "cpu:", "cpu:x", "cpu:1,2", "cuda:0,,1", "gpu:2", "cpu:-1"}) {
    why.clear();
    EXPECT_TRUE(bsgprt::parseMultiDeviceRequest(bad, r, why)) << bad;
    EXPECT_NE(why, "") << bad;
  }
}

TEST_F(MultiDeviceTest, GPUSlicesAreWholeWorkGroups) {
  // Every slice but the last is whole granules; the slices tile [0, n) in
  // device order and differ by at most one granule.
  for (uint64_t g : {1u, 256u, 1024u})
    for (unsigned D : {1u, 2u, 3u, 4u, 8u})
      for (uint64_t n :
           {0u, 1u, 255u, 256u, 257u, 1000u, 4096u, 100000u, (1u << 28) + 7u}) {
        EXPECT_EQ(bsgprt::sliceBegin(n, D, 0, g), 0u);
        EXPECT_EQ(bsgprt::sliceBegin(n, D, D, g), n);
        uint64_t lo = UINT64_MAX, hi = 0;
        for (unsigned d = 0; d < D; ++d) {
          uint64_t b = bsgprt::sliceBegin(n, D, d, g),
                   e = bsgprt::sliceBegin(n, D, d + 1, g);
          ASSERT_LE(b, e) << n << " " << D << " " << d << " " << g;
          if (e < n)
            EXPECT_EQ(e % g, 0u) << n << " " << D << " " << d << " " << g;
          uint64_t units = (e - b + g - 1) / g;
          lo = std::min(lo, units);
          hi = std::max(hi, units);
        }
        EXPECT_LE(hi - lo, 1u) << n << " " << D << " " << g;
      }
  EXPECT_EQ(bsgprt::sliceBegin(1000, 2, 1, 256), 512u);
  EXPECT_EQ(bsgprt::sliceBegin(100, 4, 3, 256), 0u);
  EXPECT_EQ(bsgprt::sliceBegin(1u << 28, 2, 1, 256), 1u << 27);
  // Granule 1 is the cpu devices' partition.
  EXPECT_EQ(bsgprt::sliceBegin(10, 3, 1, 1), bsgprt::sliceBegin(10, 3, 1));
}

TEST_F(MultiDeviceTest, RequestsThatCannotBeMetFallBackWithAnError) {
  // Too many vulkan devices are refused before any driver is asked
  // (VulkanSharedTest.cpp has the other vulkan:N requests).
  EXPECT_EQ(bsgprt_select_device("vulkan:65"), BSGPRT_ERROR_INVALID_VALUE);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("expected vulkan:N with 1 <= N <= 64"),
            std::string::npos)
      << errors[0].message;
  EXPECT_STREQ(bsgprt_device_name(), "cpu");
  errors.clear();
  // A device named twice is refused before any driver is asked.
  EXPECT_EQ(bsgprt_select_device("cuda:0,0"), BSGPRT_ERROR_INVALID_VALUE);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].message.find("named twice"), std::string::npos)
      << errors[0].message;
  EXPECT_STREQ(bsgprt_device_name(), "cpu");
  EXPECT_EQ(bsgprt_select_device("cpu:0"), BSGPRT_ERROR_INVALID_VALUE);
  EXPECT_EQ(bsgprt_device_count(), 1);
}

TEST_F(MultiDeviceTest, CPUDevicesKeepNativePrimitivesAndSinglePassForms) {
  // cpu devices share the host's memory: the runtime's primitives run on
  // them, and a single-pass form (CUDA only) would not be slowed.
  for (const char *d : {"cpu", "cpu:3"}) {
    ASSERT_EQ(bsgprt_select_device(d), BSGPRT_SUCCESS) << d;
    EXPECT_EQ(bsgprt_list_primitives_native(), 1) << d;
    EXPECT_EQ(bsgprt_single_pass_forms(), 1) << d;
  }
}

const bsgprt_kernel_desc kernels[] = {
    {"record", recordKernel, "record.bsgp:1:1-2:1", 0, 0, 0},
};
const bsgprt_module_desc module = {
    BSGPRT_ABI_VERSION, 1, kernels, nullptr, 0, nullptr, 0, "multi.bsgp"};

TEST_F(MultiDeviceTest, LaunchRunsOneSlicePerDeviceWithGlobalChunks) {
  for (const char *device : Devices) {
    ASSERT_EQ(bsgprt_select_device(device), BSGPRT_SUCCESS);
    EXPECT_STREQ(bsgprt_device_name(), device);
    unsigned devices = static_cast<unsigned>(bsgprt_device_count());
    EXPECT_EQ(devices, unsigned(device[4] - '0'));
    for (uint64_t n : Sizes) {
      chunks().clear();
      uint64_t count = bsgprt_cpu_chunk_count(n);
      bsgprt_launch(&module, 0, n, nullptr);
      std::sort(
          chunks().begin(), chunks().end(),
          [](const Chunk &a, const Chunk &b) { return a.begin < b.begin; });
      ASSERT_EQ(chunks().size(), count) << device << " n=" << n;
      uint64_t next = 0;
      for (uint64_t c = 0; c < chunks().size(); ++c) {
        const Chunk &ch = chunks()[c];
        EXPECT_EQ(ch.begin, next);
        EXPECT_LT(ch.begin, ch.end);
        EXPECT_EQ(ch.size, n);
        // Chunk indices follow rank order across devices, and no chunk
        // straddles two devices' slices.
        EXPECT_EQ(ch.index, c);
        EXPECT_EQ(sliceOwner(n, devices, ch.begin),
                  sliceOwner(n, devices, ch.end - 1));
        next = ch.end;
      }
      EXPECT_EQ(next, n);
      // Every device with ranks ran at least one chunk.
      if (n >= devices)
        EXPECT_GE(count, devices);
    }
  }
  EXPECT_TRUE(errors.empty());
}

template <typename T> void fill(std::vector<T> &v, std::mt19937 &rng, int mod) {
  for (T &x : v)
    x = static_cast<T>(int64_t(rng() % mod) - mod / 3);
}

TEST_F(MultiDeviceTest, ReduceAndScanMatchSequentialLoops) {
  std::mt19937 rng(3);
  for (const char *device : Devices) {
    ASSERT_EQ(bsgprt_select_device(device), BSGPRT_SUCCESS);
    for (uint64_t n : Sizes) {
      std::vector<int32_t> in(n), out(n);
      fill(in, rng, 2001);
      int32_t sum = 0, mx = INT32_MIN;
      for (int32_t x : in) {
        sum += x;
        mx = std::max(mx, x);
      }
      EXPECT_EQ(bsgprt_list_reduce_add_i32(in.data(), n), sum);
      EXPECT_EQ(bsgprt_list_reduce_max_i32(in.data(), n), mx);
      EXPECT_EQ(bsgprt_list_scan_exclusive_add_i32(in.data(), out.data(), n),
                sum);
      int32_t run = 0;
      for (uint64_t i = 0; i < n; ++i) {
        ASSERT_EQ(out[i], run) << device << " n=" << n << " i=" << i;
        run += in[i];
      }
      // In place, 64-bit, xor.
      std::vector<uint64_t> v(n), ref(n);
      for (uint64_t &x : v)
        x = (uint64_t(rng()) << 32) | rng();
      uint64_t acc = 0;
      for (uint64_t i = 0; i < n; ++i) {
        ref[i] = acc;
        acc ^= v[i];
      }
      EXPECT_EQ(bsgprt_list_scan_exclusive_xor_u64(v.data(), v.data(), n), acc);
      EXPECT_EQ(v, ref) << device << " n=" << n;
      // Floats with exact sums: the result does not depend on the order.
      std::vector<float> f(n);
      fill(f, rng, 64);
      float fs = 0;
      for (float x : f)
        fs += x;
      EXPECT_EQ(bsgprt_list_reduce_add_f32(f.data(), n), fs);
    }
  }
  EXPECT_TRUE(errors.empty());
}

TEST_F(MultiDeviceTest, SortIsTheStableSortOfTheWholeList) {
  std::mt19937 rng(4);
  for (const char *device : Devices) {
    ASSERT_EQ(bsgprt_select_device(device), BSGPRT_SUCCESS);
    for (uint64_t n : Sizes) {
      // Few distinct keys: ties across devices' slices test stability.
      std::vector<int32_t> keys(n);
      fill(keys, rng, 7);
      std::vector<uint32_t> values(n);
      std::iota(values.begin(), values.end(), 0u);
      std::vector<std::pair<int32_t, uint32_t>> ref(n);
      for (uint64_t i = 0; i < n; ++i)
        ref[i] = {keys[i], values[i]};
      std::stable_sort(
          ref.begin(), ref.end(),
          [](const auto &a, const auto &b) { return a.first < b.first; });
      bsgprt_list_sort_pairs_i32(keys.data(), values.data(), n);
      for (uint64_t i = 0; i < n; ++i) {
        ASSERT_EQ(keys[i], ref[i].first) << device << " n=" << n << " i=" << i;
        ASSERT_EQ(values[i], ref[i].second)
            << device << " n=" << n << " i=" << i;
      }
      std::vector<uint64_t> wide(n);
      for (uint64_t &x : wide)
        x = (uint64_t(rng() % 5) << 40) | (rng() % 3);
      std::vector<uint64_t> wideRef(wide);
      std::sort(wideRef.begin(), wideRef.end());
      std::vector<uint32_t> ignored(n);
      bsgprt_list_sort_pairs_u64(wide.data(), ignored.data(), n);
      EXPECT_EQ(wide, wideRef) << device << " n=" << n;
    }
  }
  EXPECT_TRUE(errors.empty());
}

TEST_F(MultiDeviceTest, FloatSortMatchesOneDevice) {
  std::mt19937 rng(5);
  const float special[] = {0.0f, -0.0f, -1.5f, 2.0f, -1e30f, 1e-30f};
  for (uint64_t n : {uint64_t(3), uint64_t(1000), uint64_t(70001)}) {
    std::vector<float> keys(n);
    for (float &k : keys)
      k = special[rng() % 6];
    std::vector<uint32_t> values(n);
    std::iota(values.begin(), values.end(), 0u);
    std::vector<float> oneKeys(keys);
    std::vector<uint32_t> oneValues(values);
    ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
    bsgprt_list_sort_pairs_f32(oneKeys.data(), oneValues.data(), n);
    ASSERT_EQ(bsgprt_select_device("cpu:4"), BSGPRT_SUCCESS);
    bsgprt_list_sort_pairs_f32(keys.data(), values.data(), n);
    EXPECT_EQ(values, oneValues) << n;
    EXPECT_EQ(std::memcmp(keys.data(), oneKeys.data(), n * 4), 0) << n;
  }
  EXPECT_TRUE(errors.empty());
}

TEST_F(MultiDeviceTest, PartitionCompactAndExpandMatchSequentialLoops) {
  std::mt19937 rng(6);
  for (const char *device : Devices) {
    ASSERT_EQ(bsgprt_select_device(device), BSGPRT_SUCCESS);
    for (uint64_t n : Sizes) {
      std::vector<uint32_t> flags(n);
      for (uint32_t &f : flags)
        f = rng() % 3 == 0 ? 0 : rng() % 4;
      std::vector<uint32_t> zeros, ones, kept;
      for (uint32_t i = 0; i < n; ++i) {
        (flags[i] == 0 ? zeros : ones).push_back(i);
        if (flags[i])
          kept.push_back(i);
      }
      std::vector<uint32_t> index(n, 0xdeadbeef);
      EXPECT_EQ(bsgprt_list_partition_index(flags.data(), index.data(), n),
                zeros.size());
      std::vector<uint32_t> partRef(zeros);
      partRef.insert(partRef.end(), ones.begin(), ones.end());
      EXPECT_EQ(index, partRef) << device << " n=" << n;
      std::fill(index.begin(), index.end(), 0xdeadbeef);
      ASSERT_EQ(bsgprt_list_compact_index(flags.data(), index.data(), n),
                kept.size());
      index.resize(kept.size());
      EXPECT_EQ(index, kept) << device << " n=" << n;
      // Expand: counts are the flags; offsets their exclusive scan.
      std::vector<uint32_t> offsets(n), parentRef;
      for (uint32_t i = 0; i < n; ++i) {
        offsets[i] = static_cast<uint32_t>(parentRef.size());
        parentRef.insert(parentRef.end(), flags[i], i);
      }
      std::vector<uint32_t> parent(parentRef.size(), 0xdeadbeef);
      bsgprt_list_expand_index(offsets.data(), flags.data(), parent.data(), n);
      EXPECT_EQ(parent, parentRef) << device << " n=" << n;
      // Offsets that are not ascending (the children of the last parent
      // first): each parent's children still name it.
      std::vector<uint32_t> reversed(n);
      uint32_t at = 0;
      for (uint64_t i = n; i-- > 0;) {
        reversed[i] = at;
        at += flags[i];
      }
      std::fill(parent.begin(), parent.end(), 0xdeadbeef);
      bsgprt_list_expand_index(reversed.data(), flags.data(), parent.data(), n);
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; j < flags[i]; ++j)
          ASSERT_EQ(parent[reversed[i] + j], i) << device << " n=" << n;
    }
  }
  EXPECT_TRUE(errors.empty());
}

TEST_F(MultiDeviceTest, ListsAreRankAlignedOrReplicated) {
  ASSERT_EQ(bsgprt_select_device("cpu:4"), BSGPRT_SUCCESS);
  auto *list = static_cast<int32_t *>(bsgprt_dnew_elements(10, 4, "a:1:1"));
  ASSERT_NE(list, nullptr);
  // 10 elements over 4 devices: 2, 3, 2, 3.
  const int owner[] = {0, 0, 1, 1, 1, 2, 2, 3, 3, 3};
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(bsgprt_list_device(list + i), owner[i]) << i;
  EXPECT_EQ(bsgprt_list_set_placement(list, BSGPRT_PLACEMENT_REPLICATED),
            BSGPRT_SUCCESS);
  EXPECT_EQ(bsgprt_list_device(list + 3), -1);
  EXPECT_EQ(bsgprt_list_set_placement(list, BSGPRT_PLACEMENT_DISTRIBUTED),
            BSGPRT_SUCCESS);
  EXPECT_EQ(bsgprt_list_device(list + 3), 1);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(bsgprt_list_set_placement(list + 1, BSGPRT_PLACEMENT_REPLICATED),
            BSGPRT_ERROR_INVALID_POINTER);
  EXPECT_EQ(bsgprt_list_set_placement(list, 7), BSGPRT_ERROR_INVALID_VALUE);
  EXPECT_EQ(errors.size(), 2u);
  bsgprt_dfree(list);
  int32_t host = 0;
  EXPECT_EQ(bsgprt_list_device(&host), -1);
}

TEST_F(MultiDeviceTest, RemoteBytesCountCopiesAcrossSlices) {
  ASSERT_EQ(bsgprt_select_device("cpu:2"), BSGPRT_SUCCESS);
  bsgprt_profile_reset();
  auto *a = static_cast<int32_t *>(bsgprt_dnew_elements(8, 4, "a:1:1"));
  auto *b = static_cast<int32_t *>(bsgprt_dnew_elements(8, 4, "b:1:1"));
  int32_t host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  bsgprt_memcpy_htod(a, host, sizeof(host));
  EXPECT_EQ(bsgprt_remote_bytes(), 0u);
  // Same slices: all local.
  bsgprt_memcpy_dtod(b, a, 32);
  EXPECT_EQ(bsgprt_remote_bytes(), 0u);
  // b[0, 4) lives on device 0 and reads a[4, 8) on device 1.
  bsgprt_memcpy_dtod(b, a + 4, 16);
  EXPECT_EQ(bsgprt_remote_bytes(), 16u);
  // b[2, 6): device 0 writes b[2, 4) from a[1, 3) (local); device 1 writes
  // b[4, 6) from a[3, 5), of which a[3] is device 0's.
  bsgprt_memcpy_dtod(b + 2, a + 1, 16);
  EXPECT_EQ(bsgprt_remote_bytes(), 20u);
  // A replicated destination: each device fills its own copy; device 1
  // reads a[0, 2) from device 0.
  bsgprt_list_set_placement(b, BSGPRT_PLACEMENT_REPLICATED);
  bsgprt_memcpy_dtod(b, a, 8);
  EXPECT_EQ(bsgprt_remote_bytes(), 28u);
  // A reduction over a's slices reads only local bytes.
  EXPECT_EQ(bsgprt_list_reduce_add_i32(a, 8), 36);
  EXPECT_EQ(bsgprt_remote_bytes(), 28u);
  bsgprt_profile_enable(1);
  bsgprt_launch(&module, 0, 1000, nullptr);
  std::string report = bsgp::test::profileReportText();
  bsgprt_profile_enable(0);
  EXPECT_NE(report.find("devices of cpu:2"), std::string::npos) << report;
  auto row = bsgp::test::profileRow(report, "1 ");
  ASSERT_EQ(row.size(), 7u) << report;
  EXPECT_EQ(row[1], "1");   // slices
  EXPECT_EQ(row[2], "500"); // ranks
  EXPECT_EQ(row[4], "12");  // remote read bytes: a[3], then a[0, 2)
  bsgprt_profile_reset();
  EXPECT_EQ(bsgprt_remote_bytes(), 0u);
  bsgprt_dfree(a);
  bsgprt_dfree(b);
  EXPECT_TRUE(errors.empty());
}

} // namespace
