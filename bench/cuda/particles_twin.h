//===- particles_twin.h - the particle fluid in CUDA ------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA twin of examples/apps/particles/particles.bsgp: the same step
/// (hash, sort by cell, cell ranges, collisions with the 27 cells around,
/// integration with gravity and walls) as the CUDA SDK's particles demo
/// writes it, with CUB's radix sort. The particles live in two float4
/// arrays, positions and velocities, as in the SDK.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_BENCH_PARTICLES_TWIN_H
#define BSGP_BENCH_PARTICLES_TWIN_H

#include "particles.h"

#include <cstddef>

class ParticlesTwin {
public:
  ParticlesTwin(int n, const SimParams &prm);
  ~ParticlesTwin();
  ParticlesTwin(const ParticlesTwin &) = delete;
  ParticlesTwin &operator=(const ParticlesTwin &) = delete;

  /// Copies n particles in the BSGP layout from the host in, and out.
  void upload(const Particle *host);
  void download(Particle *host) const;
  /// One step, launched on the default stream (not waited for).
  void step();
  /// Device memory the step needs besides the particles themselves.
  size_t extraBytes() const { return extra; }

private:
  int n, numCells, endBit;
  SimParams prm;
  void *pos = nullptr, *vel = nullptr, *newVel = nullptr;
  void *sortedPos = nullptr, *sortedVel = nullptr;
  unsigned *hash = nullptr, *index = nullptr;
  unsigned *sortedHash = nullptr, *sortedIndex = nullptr;
  int *cellStart = nullptr, *cellEnd = nullptr;
  void *sortTemp = nullptr;
  size_t sortTempBytes = 0, extra = 0;
};

#endif // BSGP_BENCH_PARTICLES_TWIN_H
