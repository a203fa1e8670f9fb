//===- saxpy-main.cpp - SAXPY of 2^28 floats on BSGP_DEVICE -------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Usage: saxpy [n]. Times 20 launches on the host (the barrier included)
// and checks every element against the sequential result.
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
extern "C" {
void saxpy_init(int, float *, float *);
void saxpy_step(int, float, float *, float *);
}
int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : (1 << 28);
  int reps = 20;
  float *x = (float *)bsgprt_dnew(uint64_t(n) * 4, "x");
  float *y = (float *)bsgprt_dnew(uint64_t(n) * 4, "y");
  saxpy_init(n, x, y);
  saxpy_step(n, 1.0f, x, y); // warm-up
  bsgprt_synchronize();
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    saxpy_step(n, 1.0f, x, y);
  bsgprt_synchronize();
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - t0)
                  .count() /
              reps;
  std::vector<float> h(n);
  bsgprt_memcpy_dtoh(h.data(), y, uint64_t(n) * 4);
  long errors = 0;
  for (int i = 0; i < n; ++i) {
    float e = 0.5f * (float)(i % 7) + (reps + 1) * (float)(i % 1000);
    if (h[i] != e)
      ++errors;
  }
  printf("%s n=%d saxpy %.3f ms/launch %.1f GB/s errors=%ld\n",
         bsgprt_device_name(), n, ms, 12.0 * n / ms / 1e6, errors);
  return errors != 0;
}
