//===- reload-after-barrier-main.cpp - checks reload-after-barrier.bsgp ---===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Calls the two spawns of reload-after-barrier.bsgp on one device list with
// the output apart from, equal to, or one element off the input, and
// compares the whole list with what a sequential loop gives.
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <cstdint>
#include <cstdio>
#include <vector>

extern "C" {
void scanInto(int *in, int *out, int n);
void readThenClear(int *in, int *out, int n);
}

namespace {

int failures = 0;

/// The list is 2n + 2 ints; the spawn's input starts at `in`, its output at
/// `out` (offsets into the list).
void run(const char *name, bool scan, int n, int in, int out) {
  std::vector<int> host(2 * n + 2), want;
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = int((i * 2654435761u) >> 20) % 100 - 50;
  want = host;
  // Every rank reads before any writes: the results of BSGP's semantics.
  std::vector<int> x(host.begin() + in, host.begin() + in + n);
  if (scan) {
    int sum = 0;
    for (int r = 0; r < n; ++r) {
      int v = x[r];
      x[r] = sum;
      sum += v;
    }
  } else {
    for (int r = 0; r < n; ++r)
      want[in + r] = 0;
    for (int r = 0; r < n; ++r)
      x[r] += 1;
  }
  for (int r = 0; r < n; ++r)
    want[out + r] = x[r];

  size_t bytes = host.size() * sizeof(int);
  int *d = static_cast<int *>(bsgprt_dnew(bytes, "main"));
  bsgprt_memcpy_htod(d, host.data(), bytes);
  if (scan)
    scanInto(d + in, d + out, n);
  else
    readThenClear(d + in, d + out, n);
  std::vector<int> got(host.size());
  bsgprt_memcpy_dtoh(got.data(), d, bytes);
  bsgprt_dfree(d);
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

} // namespace

int main() {
  for (int n : {33, 5000}) {
    run("apart", true, n, 0, n + 2);
    run("same", true, n, 1, 1);
    run("out=in+1", true, n, 1, 2);
    run("out=in-1", true, n, 1, 0);
    run("clear apart", false, n, 0, n + 1);
    run("clear same", false, n, 1, 1);
  }
  std::printf("failures: %d\n", failures);
  return failures != 0;
}
