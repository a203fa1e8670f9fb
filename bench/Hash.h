//===- Hash.h - the inputs' hash, shared by the benchmarks ------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The integer hash the benchmarks of small supersteps make their inputs
/// with (the wavefront's sequences, the BFS graph, the pathfinder's walls),
/// so that bench_supersteps, bench_supersteps_cpu and bench_backends run
/// on the same data. Callable on the GPU when compiled by nvcc.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_BENCH_HASH_H
#define BSGP_BENCH_HASH_H

#include <cstdint>

#ifdef __CUDACC__
#define BSGP_BENCH_HOST_DEVICE __host__ __device__
#else
#define BSGP_BENCH_HOST_DEVICE
#endif

BSGP_BENCH_HOST_DEVICE inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

#endif // BSGP_BENCH_HASH_H
