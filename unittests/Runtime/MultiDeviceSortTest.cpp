//===- MultiDeviceSortTest.cpp - Device scopes and exchanged runs ---------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// The runtime's part of the sort across devices (MultiDeviceSort.cpp): the
// exchange of sorted runs, checked by sorting each device's part after it
// and comparing with std::stable_sort of the whole list, and device scopes
// (launches on one device, temporaries kept per scope, errors).
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

namespace {

class MultiDeviceSortTest : public RuntimeTest {
protected:
  void TearDown() override {
    EXPECT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
    RuntimeTest::TearDown();
  }
};

/// The order the runtime's sorts give keys: signed zeros apart, -0 first.
uint64_t image(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return (u & 0x80000000u) ? uint32_t(~u) : uint32_t(u | 0x80000000u);
}
uint64_t image(int32_t x) { return uint32_t(x) ^ 0x80000000u; }
uint64_t image(uint64_t x) { return x; }

/// Sorts each of the D slices of (keys, values) stably, exchanges them,
/// sorts each slice of the result stably, and checks the whole against
/// std::stable_sort of the input.
template <typename T>
void checkExchange(int type, std::vector<T> keys, unsigned D,
                   const std::string &what) {
  uint64_t n = keys.size();
  std::vector<uint32_t> values(n);
  std::iota(values.begin(), values.end(), 0u);
  std::vector<std::pair<T, uint32_t>> pairs(n);
  for (uint64_t i = 0; i < n; ++i)
    pairs[i] = {keys[i], values[i]};
  auto byKey = [](const auto &a, const auto &b) {
    return image(a.first) < image(b.first);
  };
  auto sortSlices = [&](std::vector<std::pair<T, uint32_t>> &p) {
    for (unsigned d = 0; d < D; ++d)
      std::stable_sort(p.begin() + sliceBegin(n, D, d),
                       p.begin() + sliceBegin(n, D, d + 1), byKey);
  };
  std::vector<std::pair<T, uint32_t>> whole(pairs);
  std::stable_sort(whole.begin(), whole.end(), byKey);
  sortSlices(pairs);
  for (uint64_t i = 0; i < n; ++i) {
    keys[i] = pairs[i].first;
    values[i] = pairs[i].second;
  }
  std::vector<T> outKeys(n);
  std::vector<uint32_t> outValues(n);
  ASSERT_EQ(bsgprt_list_exchange_runs(type, keys.data(), values.data(),
                                      outKeys.data(), outValues.data(), n),
            BSGPRT_SUCCESS)
      << what;
  for (uint64_t i = 0; i < n; ++i)
    pairs[i] = {outKeys[i], outValues[i]};
  sortSlices(pairs);
  for (uint64_t i = 0; i < n; ++i) {
    ASSERT_EQ(image(pairs[i].first), image(whole[i].first))
        << what << " i=" << i;
    ASSERT_EQ(pairs[i].second, whole[i].second) << what << " i=" << i;
  }
}

TEST_F(MultiDeviceSortTest, ExchangedRunsSortToTheStableOrderOfTheWhole) {
  std::mt19937 rng(11);
  for (unsigned D : {2u, 3u, 4u}) {
    std::string device = "cpu:" + std::to_string(D);
    ASSERT_EQ(bsgprt_select_device(device.c_str()), BSGPRT_SUCCESS);
    for (uint64_t n : {0u, 1u, 2u, 3u, 5u, 1000u, 5000u, 70001u}) {
      std::string what = device + " n=" + std::to_string(n);
      // Few distinct keys: ties across runs test that lower devices' keys
      // come first; sorted and reversed inputs put whole runs on one side.
      std::vector<int32_t> few(n);
      for (int32_t &x : few)
        x = int32_t(rng() % 7) - 3;
      checkExchange(BSGPRT_LIST_I32, few, D, what + " few");
      std::vector<int32_t> descending(n);
      for (uint64_t i = 0; i < n; ++i)
        descending[i] = int32_t(n - i);
      checkExchange(BSGPRT_LIST_I32, descending, D, what + " descending");
      std::vector<float> floats(n);
      for (float &f : floats)
        f = rng() % 5 == 0 ? (rng() % 2 ? -0.0f : 0.0f)
                           : float(int(rng() % 2001) - 1000) / 8.0f;
      checkExchange(BSGPRT_LIST_F32, floats, D, what + " floats");
      std::vector<uint64_t> wide(n);
      for (uint64_t &x : wide)
        x = (uint64_t(rng() % 5) << 40) | (rng() % 3);
      checkExchange(BSGPRT_LIST_U64, wide, D, what + " wide");
    }
  }
  EXPECT_TRUE(errors.empty());
}

const bsgprt_kernel_desc kernels[] = {
    {"record", recordKernel, "record.bsgp:1:1-2:1", 0, 0, 0, 0},
};
const bsgprt_module_desc module = {
    BSGPRT_ABI_VERSION, 1, kernels, nullptr, 0, nullptr, 0, "scope.bsgp"};

TEST_F(MultiDeviceSortTest, AScopeRunsWholeLaunchesOnItsDevice) {
  ASSERT_EQ(bsgprt_select_device("cpu:3"), BSGPRT_SUCCESS);
  // Outside a scope, 1000 ranks run as slices on 3 devices; in a scope
  // they run as one device runs them: its own chunks, numbered from 0.
  ASSERT_EQ(bsgprt_device_scope_begin(2), BSGPRT_SUCCESS);
  uint64_t count = bsgprt_cpu_chunk_count(1000);
  chunks().clear();
  bsgprt_launch(&module, 0, 1000, nullptr);
  ASSERT_EQ(bsgprt_device_scope_end(), BSGPRT_SUCCESS);
  std::sort(chunks().begin(), chunks().end(),
            [](const Chunk &a, const Chunk &b) { return a.begin < b.begin; });
  ASSERT_EQ(chunks().size(), count);
  uint64_t next = 0;
  for (uint64_t c = 0; c < chunks().size(); ++c) {
    EXPECT_EQ(chunks()[c].begin, next);
    EXPECT_EQ(chunks()[c].index, c);
    next = chunks()[c].end;
  }
  EXPECT_EQ(next, 1000u);
  // The profile's device table has the launch on device 2 alone.
  bsgprt_profile_reset();
  bsgprt_profile_enable(1);
  ASSERT_EQ(bsgprt_device_scope_begin(2), BSGPRT_SUCCESS);
  bsgprt_launch(&module, 0, 1000, nullptr);
  ASSERT_EQ(bsgprt_device_scope_end(), BSGPRT_SUCCESS);
  std::string report = bsgp::test::profileReportText();
  bsgprt_profile_enable(0);
  EXPECT_NE(report.find("\n2                  1          1000"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("\n0                  0             0"),
            std::string::npos)
      << report;
  EXPECT_TRUE(errors.empty());
}

TEST_F(MultiDeviceSortTest, AScopesTemporariesServeOnlyThatScope) {
  ASSERT_EQ(bsgprt_select_device("cpu:2"), BSGPRT_SUCCESS);
  // A temporary freed in device 1's scope may still be in use there (its
  // kernels do not wait): only device 1's scopes get it again.
  ASSERT_EQ(bsgprt_device_scope_begin(1), BSGPRT_SUCCESS);
  void *inScope = bsgprt_temp_alloc(4096, "scope.bsgp:1:1");
  bsgprt_temp_free(inScope);
  ASSERT_EQ(bsgprt_device_scope_end(), BSGPRT_SUCCESS);
  void *outside = bsgprt_temp_alloc(4096, "scope.bsgp:2:1");
  EXPECT_NE(outside, inScope);
  ASSERT_EQ(bsgprt_device_scope_begin(0), BSGPRT_SUCCESS);
  void *otherDevice = bsgprt_temp_alloc(4096, "scope.bsgp:3:1");
  EXPECT_NE(otherDevice, inScope);
  ASSERT_EQ(bsgprt_device_scope_begin(1), BSGPRT_SUCCESS);
  void *again = bsgprt_temp_alloc(4096, "scope.bsgp:4:1");
  EXPECT_EQ(again, inScope);
  bsgprt_temp_free(again);
  bsgprt_temp_free(otherDevice);
  ASSERT_EQ(bsgprt_device_scope_end(), BSGPRT_SUCCESS);
  bsgprt_temp_free(outside);
  bsgprt_pool_trim();
  EXPECT_TRUE(errors.empty());
}

TEST_F(MultiDeviceSortTest, ScopesAndExchangesOutOfRangeAreErrors) {
  ASSERT_EQ(bsgprt_select_device("cpu:3"), BSGPRT_SUCCESS);
  EXPECT_EQ(bsgprt_device_scope_begin(3), BSGPRT_ERROR_INVALID_VALUE);
  EXPECT_EQ(bsgprt_device_scope_begin(-1), BSGPRT_ERROR_INVALID_VALUE);
  int keys[4] = {4, 3, 2, 1};
  uint32_t values[4] = {0, 1, 2, 3};
  EXPECT_EQ(bsgprt_list_exchange_runs(6, keys, values, keys, values, 4),
            BSGPRT_ERROR_INVALID_VALUE);
  // The cpu devices sort natively: the library does not sort across them.
  EXPECT_EQ(bsgprt_sort_across_devices(1u << 24), 0);
  ASSERT_EQ(bsgprt_select_device("cpu"), BSGPRT_SUCCESS);
  EXPECT_EQ(bsgprt_device_scope_begin(0), BSGPRT_SUCCESS);
  EXPECT_EQ(bsgprt_device_scope_end(), BSGPRT_SUCCESS);
  EXPECT_EQ(bsgprt_device_scope_begin(1), BSGPRT_ERROR_INVALID_VALUE);
  EXPECT_EQ(
      bsgprt_list_exchange_runs(BSGPRT_LIST_I32, keys, values, keys, values, 4),
      BSGPRT_ERROR_BACKEND);
  EXPECT_EQ(bsgprt_sort_across_devices(1u << 24), 0);
  ASSERT_EQ(errors.size(), 5u);
  EXPECT_NE(
      errors[0].message.find("bsgprt_device_scope_begin: no device 3 of 3"),
      std::string::npos)
      << errors[0].message;
  EXPECT_NE(errors[2].message.find("unknown list type 6"), std::string::npos)
      << errors[2].message;
  EXPECT_NE(errors[4].message.find("runs on one device"), std::string::npos)
      << errors[4].message;
  errors.clear();
}

} // namespace
