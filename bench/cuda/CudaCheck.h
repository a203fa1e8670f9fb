//===- CudaCheck.h - stop a benchmark at a failed CUDA call -----*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// CHECK(call): a CUDA runtime call that fails prints where and why and
/// ends the benchmark, so that a twin's error is never timed as a result.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_BENCH_CUDA_CHECK_H
#define BSGP_BENCH_CUDA_CHECK_H

#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#endif // BSGP_BENCH_CUDA_CHECK_H
