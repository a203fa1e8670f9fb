//===- chunk-counts-main.cpp - checks chunk-counts.bsgp -------------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// On the cpu backend reduce, scan and compact accumulate per chunk of ranks
// (one per OpenMP thread), so their results depend on getting the chunks
// right. This checks bsgprt_cpu_chunk_count against the rule of
// docs/runtime.md for the OpenMP thread count of the run (OMP_NUM_THREADS),
// then runs each cc_<type> of chunk-counts.bsgp at sizes around the chunk
// boundaries, once from inside an OpenMP parallel region (one chunk), and
// compares with a sequential loop. Floats are small integers, so that any
// summation order gives the same result.
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <type_traits>
#include <vector>

extern "C" {
void cc_int(int32_t *, int32_t *, int);
void cc_int64(int64_t *, int64_t *, int);
void cc_uint64(uint64_t *, uint64_t *, int);
void cc_float(float *, float *, int);
void cc_double(double *, double *, int);
void cc_compact(int32_t *, int32_t *, int);
}

namespace {

uint64_t rngState = 777;
uint32_t next() {
  rngState = rngState * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(rngState >> 33);
}

int failures = 0, cases = 0;

/// Values of both signs (for the unsigned type, both halves of its range).
template <typename T> T data() {
  uint32_t r = next();
  if constexpr (std::is_floating_point_v<T>)
    return T(int32_t(r % 2001) - 1000);
  else if constexpr (sizeof(T) == 8)
    return T((uint64_t(next()) << 32) | r);
  else
    return T(r);
}

template <typename T> T wrapAdd(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    return a + b;
  else
    return T(std::make_unsigned_t<T>(a) + std::make_unsigned_t<T>(b));
}

template <typename T>
void run(const char *type, void (*fn)(T *, T *, int), uint64_t n,
         bool inParallel) {
  ++cases;
  std::vector<T> in(n);
  for (T &x : in)
    x = data<T>();
  // The sequential reference: per rank, the reductions, the exclusive
  // scans and the add total, in the order cc_<type> stores them.
  T sum = T(0), lo = std::numeric_limits<T>::max(),
    hi = std::numeric_limits<T>::lowest();
  if constexpr (std::is_floating_point_v<T>) {
    lo = std::numeric_limits<T>::infinity();
    hi = -lo;
  }
  std::vector<T> want(n * 7);
  for (uint64_t i = 0; i < n; ++i) {
    want[i * 7 + 3] = sum;
    want[i * 7 + 5] = lo;
    want[i * 7 + 6] = hi;
    sum = wrapAdd(sum, in[i]);
    lo = in[i] < lo ? in[i] : lo;
    hi = hi < in[i] ? in[i] : hi;
  }
  for (uint64_t i = 0; i < n; ++i) {
    want[i * 7] = sum;
    want[i * 7 + 1] = lo;
    want[i * 7 + 2] = hi;
    want[i * 7 + 4] = sum;
  }
  uint64_t bytes = (n ? n : 1) * 7 * sizeof(T);
  T *dIn = static_cast<T *>(bsgprt_dnew(bytes, "main"));
  T *dOut = static_cast<T *>(bsgprt_dnew(bytes, "main"));
  bsgprt_memcpy_htod(dIn, in.data(), n * sizeof(T));
  if (inParallel) {
    // Only the master calls: the launches see omp_in_parallel() and run
    // as one chunk on the calling thread.
#pragma omp parallel num_threads(2)
#pragma omp master
    fn(dIn, dOut, static_cast<int>(n));
  } else {
    fn(dIn, dOut, static_cast<int>(n));
  }
  std::vector<T> got(n * 7);
  bsgprt_memcpy_dtoh(got.data(), dOut, n * 7 * sizeof(T));
  uint64_t bad = 0, first = n * 7;
  for (uint64_t i = 0; i < n * 7; ++i)
    if (got[i] != want[i]) {
      ++bad;
      first = std::min(first, i);
    }
  if (bad) {
    ++failures;
    std::printf("FAIL %s n=%llu%s: %llu wrong, first at rank %llu value %llu\n",
                type, (unsigned long long)n,
                inParallel ? " in a parallel region" : "",
                (unsigned long long)bad, (unsigned long long)(first / 7),
                (unsigned long long)(first % 7));
  }
  bsgprt_dfree(dIn);
  bsgprt_dfree(dOut);
}

void runCompact(uint64_t n) {
  ++cases;
  std::vector<int32_t> in(n), want;
  for (int32_t &x : in) {
    x = int32_t(next());
    if (x < 0)
      want.push_back(x);
  }
  uint64_t bytes = (n ? n : 1) * sizeof(int32_t);
  auto *dIn = static_cast<int32_t *>(bsgprt_dnew(bytes, "main"));
  auto *dOut = static_cast<int32_t *>(bsgprt_dnew(bytes, "main"));
  bsgprt_memcpy_htod(dIn, in.data(), n * sizeof(int32_t));
  cc_compact(dIn, dOut, static_cast<int>(n));
  std::vector<int32_t> got(want.size());
  bsgprt_memcpy_dtoh(got.data(), dOut, got.size() * sizeof(int32_t));
  if (got != want) {
    ++failures;
    std::printf("FAIL compact n=%llu\n", (unsigned long long)n);
  }
  bsgprt_dfree(dIn);
  bsgprt_dfree(dOut);
}

/// The rule of bsgprt_cpu_chunk_count: none for no ranks, one per OpenMP
/// thread but no more than ceil(n / 256), one inside a parallel region. On
/// D cpu devices (BSGP_DEVICE=cpu:D) the rule holds for each device's slice
/// of floor(n(d+1)/D) - floor(nd/D) ranks with its share of the threads
/// (t/D, one more for the first t % D devices, at least one), and the
/// counts add up.
uint64_t expectedChunks(uint64_t n, bool inParallel) {
  uint64_t t = uint64_t(omp_get_max_threads());
  uint64_t devices = uint64_t(bsgprt_device_count()), want = 0;
  for (uint64_t d = 0; d < devices; ++d) {
    uint64_t len = n * (d + 1) / devices - n * d / devices;
    uint64_t share = std::max<uint64_t>(1, t / devices + (d < t % devices));
    if (len)
      want += inParallel ? 1 : std::min(share, (len + 255) / 256);
  }
  return want;
}

bool checkChunkCounts() {
  bool ok = bsgprt_cpu_chunk_count(0) == 0;
  for (uint64_t n : {1ull, 2ull, 255ull, 256ull, 257ull, 513ull, 769ull,
                     2049ull, 1000000ull, 2147483647ull}) {
    uint64_t want = expectedChunks(n, false);
    if (bsgprt_cpu_chunk_count(n) != want) {
      std::printf("FAIL chunk count of %llu: %llu, expected %llu\n",
                  (unsigned long long)n,
                  (unsigned long long)bsgprt_cpu_chunk_count(n),
                  (unsigned long long)want);
      ok = false;
    }
  }
  uint64_t inside = 0;
#pragma omp parallel num_threads(2)
#pragma omp master
  inside = bsgprt_cpu_chunk_count(1000000);
  // num_threads(2) asks for a team of two whatever OMP_NUM_THREADS says,
  // so the region is active.
  if (inside != expectedChunks(1000000, true)) {
    std::printf("FAIL chunk count in a parallel region: %llu\n",
                (unsigned long long)inside);
    ok = false;
  }
  return ok;
}

} // namespace

int main() {
  std::printf("chunk counts: %s\n", checkChunkCounts() ? "ok" : "wrong");
  // Around one chunk (256), two, three and eight chunks of 256 ranks, and
  // sizes that split unevenly.
  const uint64_t sizes[] = {1,   2,   3,   255,  256,  257,   511,
                            512, 513, 769, 2049, 4099, 100003};
  for (uint64_t n : sizes) {
    run<int32_t>("int", cc_int, n, false);
    run<int64_t>("int64", cc_int64, n, false);
    run<uint64_t>("uint64", cc_uint64, n, false);
    run<float>("float", cc_float, n, false);
    run<double>("double", cc_double, n, false);
    runCompact(n);
  }
  for (uint64_t n : {1ull, 257ull, 100003ull}) {
    run<int32_t>("int", cc_int, n, true);
    run<double>("double", cc_double, n, true);
  }
  std::printf("chunk collectives: %d cases, %d failures\n", cases, failures);
  return failures != 0;
}
