//===- thread-manipulation-main.cpp - checks thread-manipulation.bsgp -----===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Expected ranks come from std::stable_sort / std::stable_partition of the
// old ranks and from sequential loops, never from the program under test.
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

extern "C" {
void sortby_int(int *, int *, int);
void sortby_float(float *, int *, int);
void sort_idx_uint(uint32_t *, int *, int);
void sort_idx_in_place(int *, int);
void sortby_two_stores(int *, int *, int *, int);
void split_threads(int *, int *, int);
void fork_threads(int *, int *, int *, int *, int);
void kill_threads(int *, int *, int *, int);
}

namespace {

int failures = 0;
uint64_t rngState = 99;
uint32_t next() {
  rngState = rngState * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<uint32_t>(rngState >> 33);
}

template <typename T> T *toDevice(const std::vector<T> &v) {
  T *d = static_cast<T *>(bsgprt_dnew((v.size() + 1) * sizeof(T), "main"));
  bsgprt_memcpy_htod(d, v.data(), v.size() * sizeof(T));
  return d;
}
template <typename T> std::vector<T> fromDevice(T *d, size_t n) {
  std::vector<T> v(n);
  bsgprt_memcpy_dtoh(v.data(), d, n * sizeof(T));
  bsgprt_dfree(d);
  return v;
}

void report(const char *what, bool ok) {
  if (!ok)
    ++failures;
  std::printf("%s: %s\n", what, ok ? "ok" : "FAIL");
}

template <typename K> std::vector<int> stableOrder(const std::vector<K> &key) {
  std::vector<int> order(key.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return key[a] < key[b]; });
  return order;
}

void testSortby(int n) {
  std::vector<int> key(n);
  for (int &k : key)
    k = int(next() % 64) - 32; // many equal keys: stability matters
  int *dOut = toDevice(std::vector<int>(n));
  int *dKey = toDevice(key);
  sortby_int(dKey, dOut, n);
  bool ok = fromDevice(dOut, n) == stableOrder(key);
  bsgprt_dfree(dKey);
  char what[64];
  std::snprintf(what, sizeof(what), "sortby int n=%d", n);
  report(what, ok);
}

void testSortbyFloat() {
  std::vector<float> key = {
      3, -1, 2.5f, -1, 0, 7, -8.25f, 3,  3,   0.5f, 100,  -100, 2, 2, 1,  1, -1,
      0, 9,  9,    -9, 4, 4, 4,      -4, 1e9, -1e9, 0.25, 8,    8, 8, -2, -2};
  int n = int(key.size());
  int *dOut = toDevice(std::vector<int>(n));
  float *dKey = toDevice(key);
  sortby_float(dKey, dOut, n);
  report("sortby float n=33", fromDevice(dOut, n) == stableOrder(key));
  bsgprt_dfree(dKey);
}

void testSortIdx(int n) {
  std::vector<uint32_t> key(n);
  for (uint32_t &k : key)
    k = next() % 1000 + (next() % 2 ? 0x80000000u : 0);
  int *dOut = toDevice(std::vector<int>(n));
  uint32_t *dKey = toDevice(key);
  sort_idx_uint(dKey, dOut, n);
  report("sort_idx uint n=100000", fromDevice(dOut, n) == stableOrder(key));
  bsgprt_dfree(dKey);
}

void testSplit(int n) {
  std::vector<int> side(n);
  for (int &s : side)
    s = next() % 3 == 0;
  std::vector<int> expect(n);
  std::iota(expect.begin(), expect.end(), 0);
  std::stable_partition(expect.begin(), expect.end(),
                        [&](int r) { return side[r] == 0; });
  int *dOut = toDevice(std::vector<int>(n));
  int *dSide = toDevice(side);
  split_threads(dSide, dOut, n);
  report("thread.split n=1025", fromDevice(dOut, n) == expect);
  bsgprt_dfree(dSide);
}

void testFork(const char *what, const std::vector<int> &count) {
  int n = int(count.size());
  std::vector<int> parent, child;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < count[r]; ++c) {
      parent.push_back(r * 5 + 3);
      child.push_back(c);
    }
  size_t total = parent.size();
  int *dCount = toDevice(count);
  int *dParent = toDevice(std::vector<int>(total));
  int *dChild = toDevice(std::vector<int>(total));
  int *dSize = toDevice(std::vector<int>(total));
  fork_threads(dCount, dParent, dChild, dSize, n);
  bool ok = fromDevice(dParent, total) == parent &&
            fromDevice(dChild, total) == child &&
            fromDevice(dSize, total) == std::vector<int>(total, int(total));
  bsgprt_dfree(dCount);
  report(what, ok);
}

void testKill(const char *what, const std::vector<int> &flag) {
  int n = int(flag.size());
  std::vector<int> expect;
  for (int r = 0; r < n; ++r)
    if (!flag[r])
      expect.push_back(r);
  int *dFlag = toDevice(flag);
  int *dOut = toDevice(std::vector<int>(n));
  int *dSize = toDevice(std::vector<int>{-1});
  kill_threads(dFlag, dOut, dSize, n);
  std::vector<int> out = fromDevice(dOut, n);
  out.resize(expect.size());
  int size = fromDevice(dSize, 1)[0];
  // With no survivor nothing runs, so the size slot keeps its -1.
  bool ok = out == expect && size == (expect.empty() ? -1 : int(expect.size()));
  bsgprt_dfree(dFlag);
  report(what, ok);
}

} // namespace

void testSortIdxInPlace(int n) {
  std::vector<int> key(n);
  for (int &k : key)
    k = int(next() % 5000) - 2500;
  int *dKey = toDevice(key);
  sort_idx_in_place(dKey, n);
  report("sort_idx in place n=100000", fromDevice(dKey, n) == stableOrder(key));
}

/// sortby_two_stores with two lists, and with one list for both stores.
void testSortbyTwoStores(int n) {
  std::vector<int> key(n);
  for (int &k : key)
    k = int(next() % 5000) - 2500;
  std::vector<int> order = stableOrder(key);
  std::vector<int> doubled(n);
  for (int i = 0; i < n; ++i)
    doubled[i] = key[order[i]] * 2;
  int *dKey = toDevice(key);
  int *dA = toDevice(std::vector<int>(n));
  int *dB = toDevice(std::vector<int>(n));
  sortby_two_stores(dKey, dA, dB, n);
  bool ok = fromDevice(dA, n) == doubled;
  report("sortby two lists n=100000", ok && fromDevice(dB, n) == order);
  int *dOne = toDevice(std::vector<int>(n));
  sortby_two_stores(dKey, dOne, dOne, n);
  report("sortby one list n=100000", fromDevice(dOne, n) == order);
  bsgprt_dfree(dKey);
}

int main() {
  testSortby(1000);
  testSortby((1 << 20) + 7);
  testSortbyFloat();
  testSortIdx(100000);
  testSortIdxInPlace(100000);
  testSortbyTwoStores(100000);
  testSplit(1025);
  testFork("fork none", {});
  testFork("fork zero counts", std::vector<int>(100, 0));
  std::vector<int> counts(300);
  for (int &c : counts)
    c = next() % 4 == 0 ? 0 : int(next() % 7000); // ~1.5M children
  testFork("fork large", counts);
  // More parents than one work group scans (two levels of tiles on GPUs).
  std::vector<int> many(70000);
  for (int &c : many)
    c = int(next() % 4);
  testFork("fork many parents", many);
  testKill("kill none", std::vector<int>(1000, 0));
  testKill("kill all", std::vector<int>(1000, 1));
  std::vector<int> flags(5000);
  for (int &f : flags)
    f = next() % 2;
  testKill("kill some", flags);
  std::printf("thread manipulation: %d failures\n", failures);
  return failures != 0;
}
