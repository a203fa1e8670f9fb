//===- reload-after-barrier-main.cpp - checks reload-after-barrier.bsgp ---===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Calls the spawns of reload-after-barrier.bsgp on one device list with
// the output apart from, equal to, or one element off the input (or, for
// compact, in a list of its own), plus a scan after a store that another
// rank reads, and compares the lists with what a sequential loop gives.
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <cstdint>
#include <cstdio>
#include <vector>

extern "C" {
void scanInto(int *in, int *out, int n);
void readThenClear(int *in, int *out, int n);
void compactOdd(int *in, int *out, int n);
void doubleThenScan(int *in, int *out, int n);
}

namespace {

int failures = 0;

enum Kind { Scan, Clear, Compact, Double };

/// Checks `got` against `want`, reporting the first difference.
void check(const char *name, int n, const std::vector<int> &got,
           const std::vector<int> &want) {
  size_t bad = 0;
  while (bad < got.size() && got[bad] == want[bad])
    ++bad;
  if (bad == got.size()) {
    std::printf("%s %d ok\n", name, n);
  } else {
    ++failures;
    std::printf("%s %d: element %zu is %d, expected %d\n", name, n, bad,
                got[bad], want[bad]);
  }
}

/// The list is 2n + 2 ints; the spawn's input starts at `in`, its output
/// at `out` (offsets into the list), or, if `out` < 0, at the start of a
/// second list of n ints.
void run(const char *name, Kind kind, int n, int in, int out) {
  std::vector<int> host(2 * n + 2), want;
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = int((i * 2654435761u) >> 20) % 100 - 50;
  want = host;
  std::vector<int> other(n, 7), wantOther = other;
  std::vector<int> &dest = out < 0 ? wantOther : want;
  size_t at = out < 0 ? 0 : out;
  // Every rank reads before any writes: the results of BSGP's semantics.
  std::vector<int> x(host.begin() + in, host.begin() + in + n);
  if (kind == Scan) {
    int sum = 0;
    for (int r = 0; r < n; ++r) {
      int v = x[r];
      x[r] = sum;
      sum += v;
    }
  } else if (kind == Clear) {
    for (int r = 0; r < n; ++r)
      want[in + r] = 0;
    for (int r = 0; r < n; ++r)
      x[r] += 1;
  } else if (kind == Double) {
    for (int r = 0; r < n; ++r)
      want[in + r] = 2 * x[r];
    int sum = 0;
    std::vector<int> scanned(n);
    for (int r = 0; r < n; ++r) {
      scanned[r] = sum;
      sum += x[r];
    }
    std::vector<int> before = x;
    for (int r = 0; r < n; ++r)
      x[r] = scanned[r] + 2 * before[(r + 1) % n];
  } else {
    std::vector<int> kept;
    for (int v : x)
      if (v & 1)
        kept.push_back(v);
    x = kept;
  }
  for (size_t r = 0; r < x.size(); ++r)
    dest[at + r] = x[r];

  size_t bytes = host.size() * sizeof(int), otherBytes = n * sizeof(int);
  int *d = static_cast<int *>(bsgprt_dnew(bytes, "main"));
  int *d2 = static_cast<int *>(bsgprt_dnew(otherBytes, "main"));
  bsgprt_memcpy_htod(d, host.data(), bytes);
  bsgprt_memcpy_htod(d2, other.data(), otherBytes);
  int *dOut = out < 0 ? d2 : d + out;
  if (kind == Scan)
    scanInto(d + in, dOut, n);
  else if (kind == Clear)
    readThenClear(d + in, dOut, n);
  else if (kind == Double)
    doubleThenScan(d + in, dOut, n);
  else
    compactOdd(d + in, dOut, n);
  std::vector<int> got(host.size()), gotOther(n);
  bsgprt_memcpy_dtoh(got.data(), d, bytes);
  bsgprt_memcpy_dtoh(gotOther.data(), d2, otherBytes);
  bsgprt_dfree(d);
  bsgprt_dfree(d2);
  got.insert(got.end(), gotOther.begin(), gotOther.end());
  want.insert(want.end(), wantOther.begin(), wantOther.end());
  check(name, n, got, want);
}

} // namespace

int main() {
  for (int n : {33, 5000, 100003}) {
    run("apart", Scan, n, 0, n + 2);
    run("same", Scan, n, 1, 1);
    run("out=in+1", Scan, n, 1, 2);
    run("out=in-1", Scan, n, 1, 0);
    run("clear apart", Clear, n, 0, n + 1);
    run("clear same", Clear, n, 1, 1);
    run("compact other list", Compact, n, 1, -1);
    run("compact in place", Compact, n, 1, 1);
    run("compact out=in-1", Compact, n, 1, 0);
    run("compact out=in+1", Compact, n, 1, 2);
    run("write before", Double, n, 0, n + 2);
  }
  std::printf("failures: %d\n", failures);
  return failures != 0;
}
