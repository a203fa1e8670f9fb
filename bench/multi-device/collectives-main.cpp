//===- collectives-main.cpp - the collectives on BSGP_DEVICE -------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Usage: collectives [n]. Runs reduce, scan, compact and thread.sortby of
// bench/cuda/collectives.bsgp on n elements (default 2^30) of whatever
// BSGP_DEVICE names, prints the median time of each (the barrier
// included, timed on the host), and checks every result against what this
// file computes on the host: sums and prefix sums by sequential loops, the
// sort by its properties (keys ascending, the ranks a permutation, each
// sorted key the input key at its rank, equal keys in rank order).
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

extern "C" {
void benchReduce(int *in, int *out, int n);
void benchScan(int *in, int *out, int n);
void benchCompact(int *in, int *out, int n);
void benchSortby(unsigned *keys, unsigned *sortedKeys, unsigned *ranks, int n);
}

namespace {

/// Median seconds of `reps` runs of `f` after one warm-up run.
double median(int reps, const std::function<void()> &f) {
  f();
  bsgprt_synchronize();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    bsgprt_synchronize();
    t.push_back(std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - t0)
                    .count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

uint32_t hash(uint64_t i) {
  uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  return uint32_t(x >> 32);
}

template <class T> std::vector<T> download(const T *d, size_t n) {
  std::vector<T> h(n);
  bsgprt_memcpy_dtoh(h.data(), d, n * sizeof(T));
  return h;
}

void report(const char *name, size_t n, double ms, bool ok) {
  std::printf("%s %-8s n=%zu %9.3f ms %7.2f Gelem/s %s\n", bsgprt_device_name(),
              name, n, ms, n / ms / 1e6, ok ? "ok" : "WRONG");
}

} // namespace

int main(int argc, char **argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (size_t(1) << 30);
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  if (n == 0 || n > 0x7fffffff) {
    std::fprintf(stderr, "n must be in [1, 2^31)\n");
    return 2;
  }
  // Values -1, 0, 1: sums and prefix sums stay far from overflow; the odd
  // ones (-1 and 1) are what compact keeps.
  std::vector<int> h(n);
  for (size_t i = 0; i < n; ++i)
    h[i] = int(hash(i) % 3) - 1;
  int *in = (int *)bsgprt_dnew(n * 4, "in");
  int *out = (int *)bsgprt_dnew(n * 4, "out");
  bsgprt_memcpy_htod(in, h.data(), n * 4);
  bool allOk = true;

  double ms = median(reps, [&] { benchReduce(in, out, int(n)); });
  long long sum = 0;
  for (size_t i = 0; i < n; ++i)
    sum += h[i];
  bool ok = download(out, 1)[0] == sum;
  report("reduce", n, ms, ok);
  allOk &= ok;

  ms = median(reps, [&] { benchScan(in, out, int(n)); });
  {
    std::vector<int> r = download(out, n);
    int acc = 0;
    ok = true;
    for (size_t i = 0; i < n && ok; ++i) {
      ok = r[i] == acc;
      acc += h[i];
    }
  }
  report("scan", n, ms, ok);
  allOk &= ok;

  ms = median(reps, [&] { benchCompact(in, out, int(n)); });
  {
    std::vector<int> r = download(out, n);
    size_t k = 0;
    ok = true;
    for (size_t i = 0; i < n && ok; ++i)
      if (h[i] & 1)
        ok = r[k++] == h[i];
  }
  report("compact", n, ms, ok);
  allOk &= ok;

  // Keys: 32-bit hashes, all four bytes differing; the ranks come back.
  std::vector<unsigned> keys(n);
  for (size_t i = 0; i < n; ++i)
    keys[i] = hash(i ^ 0x5555);
  bsgprt_memcpy_htod(in, keys.data(), n * 4);
  unsigned *ranks = (unsigned *)bsgprt_dnew(n * 4, "ranks");
  ms = median(std::max(3, reps / 2), [&] {
    benchSortby((unsigned *)in, (unsigned *)out, ranks, int(n));
  });
  {
    std::vector<unsigned> k = download((unsigned *)out, n);
    std::vector<unsigned> r = download(ranks, n);
    std::vector<bool> seen(n);
    ok = true;
    for (size_t i = 0; i < n && ok; ++i) {
      ok = r[i] < n && !seen[r[i]] && keys[r[i]] == k[i] &&
           (i == 0 || k[i - 1] < k[i] || (k[i - 1] == k[i] && r[i - 1] < r[i]));
      if (ok)
        seen[r[i]] = true;
    }
  }
  report("sortby", n, ms, ok);
  allOk &= ok;
  bsgprt_dfree(ranks);
  bsgprt_dfree(out);
  bsgprt_dfree(in);
  return allOk ? 0 : 1;
}
