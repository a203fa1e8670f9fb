//===- Timing.h - how every benchmark times one side ------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Both sides of a benchmark are timed the same way: one warm-up call, then
/// the median wall time of `reps` calls. The callee waits for its work.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_BENCH_TIMING_H
#define BSGP_BENCH_TIMING_H

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

inline double medianSeconds(const std::function<void()> &f, int reps) {
  f();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    auto b = std::chrono::steady_clock::now();
    f();
    auto e = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double>(e - b).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

#endif // BSGP_BENCH_TIMING_H
