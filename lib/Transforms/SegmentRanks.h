//===- SegmentRanks.h - ranks recomputed in each segment --------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_SEGMENTRANKS_H
#define BSGP_LIB_TRANSFORMS_SEGMENTRANKS_H

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace bsgp {

/// In a spawn none of whose ops `movesThreads` (no rank reassignment, no
/// change of the thread count), gives each use of a thread.rank a copy of
/// its own, next to the use: every
/// segment bsgp-split-uniform-flow makes then computes the rank itself
/// instead of loading it from a list the segment before stored it in (a
/// load and a store per thread and segment, and on the CPU a rank loop
/// that no longer vectorizes, its indices being loaded).
void recomputeRanksInSegments(
    SpawnOp spawn, llvm::function_ref<bool(mlir::Operation *)> movesThreads);

} // namespace bsgp

#endif // BSGP_LIB_TRANSFORMS_SEGMENTRANKS_H
