//===- large-lists-main.cpp - checks large-lists.bsgp ---------------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Usage: <program> [n]. The expected results come from the standard
// library on the host, never from the program under test.
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

extern "C" {
void large_reduce_scan(uint32_t *, uint32_t *, uint32_t *, int);
void large_compact(uint32_t *, uint32_t *, int);
void large_sortby(uint32_t *, uint32_t *, int *, int);
}

namespace {

int failures = 0;

void report(const char *what, bool ok) {
  if (!ok)
    ++failures;
  std::printf("%s: %s\n", what, ok ? "ok" : "FAIL");
}

template <typename T> T *deviceList(size_t n) {
  return static_cast<T *>(bsgprt_dnew((n + 1) * sizeof(T), "main"));
}

template <typename T> std::vector<T> download(const T *d, size_t n) {
  std::vector<T> v(n);
  bsgprt_memcpy_dtoh(v.data(), d, n * sizeof(T));
  return v;
}

} // namespace

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1000000;
  std::vector<uint32_t> in(n);
  uint64_t state = 12345;
  for (uint32_t &x : in) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<uint32_t>(state >> 33);
  }
  uint32_t *dIn = deviceList<uint32_t>(n);
  bsgprt_memcpy_htod(dIn, in.data(), n * sizeof(uint32_t));

  uint32_t *dScanned = deviceList<uint32_t>(n);
  uint32_t *dTotal = deviceList<uint32_t>(1);
  large_reduce_scan(dIn, dScanned, dTotal, n);
  std::vector<uint32_t> want(n);
  std::exclusive_scan(in.begin(), in.end(), want.begin(), uint32_t(0));
  uint32_t sum = std::accumulate(in.begin(), in.end(), uint32_t(0));
  report("reduce", download(dTotal, 1)[0] == sum);
  report("scan", download(dScanned, n) == want);
  bsgprt_dfree(dScanned);
  bsgprt_dfree(dTotal);

  uint32_t *dKept = deviceList<uint32_t>(n);
  large_compact(dIn, dKept, n);
  std::vector<uint32_t> kept;
  std::copy_if(in.begin(), in.end(), std::back_inserter(kept),
               [](uint32_t x) { return (x & 1) != 0; });
  report("compact", download(dKept, kept.size()) == kept);
  bsgprt_dfree(dKept);

  uint32_t *dSorted = deviceList<uint32_t>(n);
  int *dOld = deviceList<int>(n);
  large_sortby(dIn, dSorted, dOld, n);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return in[a] < in[b]; });
  std::vector<uint32_t> sorted(n);
  for (int i = 0; i < n; ++i)
    sorted[i] = in[order[i]];
  report("sortby", download(dOld, n) == order &&
                       download(dSorted, n) == sorted);
  bsgprt_dfree(dSorted);
  bsgprt_dfree(dOld);
  bsgprt_dfree(dIn);
  std::printf("large lists: %d failures\n", failures);
  return failures != 0;
}
