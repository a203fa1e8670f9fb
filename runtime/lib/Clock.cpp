//===- Clock.cpp - A wall clock for timing BSGP programs ------------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// bsgprt_time_ms: a monotonic wall clock in milliseconds, so that a program
// times its spawns (with bsgprt_synchronize around them) without
// clock_gettime and the `&ts` it needs.
//
//===----------------------------------------------------------------------===//

#include "bsgp/runtime.h"

#include <chrono>

extern "C" double bsgprt_time_ms(void) {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch())
      .count();
}
