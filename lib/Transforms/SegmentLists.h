//===- SegmentLists.h - lists a split spawn's host code frees --*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler. Private to lib/Transforms, used by
// bsgp-split-uniform-flow.
//
// A spawn cut into segments at uniform branches and loops is host code
// around spawns of its own. That host code allocates and frees the lists
// that carry the threads' values from one segment to the next, and it
// frees the program's dtempnew lists: they live until the whole spawn
// ends (docs/language.md, "Memory"), not until the segment that allocated
// them does.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_SEGMENTLISTS_H
#define BSGP_LIB_TRANSFORMS_SEGMENTLISTS_H

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace bsgp {

/// The bytes of a list element of type `t`: a vector takes its size rounded
/// up to a power of two, as in every list (a float3 takes 16 bytes, the
/// stride of the kernels' loads and stores; docs/language.md, "Types").
unsigned listElementBytes(mlir::Type t);

/// A list of `count` (i32) elements of `listTy`'s element type, from the
/// runtime's pool of temporary allocations: a loop allocates one per
/// iteration and frees the one before, which the pool turns into reuse,
/// where dnew/ddelete would return memory to the device each time.
mlir::Value allocSegmentList(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Type listTy, mlir::Value count);

/// Gives a list of allocSegmentList, or a dtempnew list, back to the pool.
void freeSegmentList(mlir::OpBuilder &b, mlir::Location loc, mlir::Value list);

/// When the dtempnew lists of a spawn about to be split are freed.
struct TempListPlan {
  /// Per block of the spawn's structure (its body, or a region of a branch
  /// or loop that holds a barrier): the results of requires of that block
  /// that are dtempnew lists, to free when the block's code ends (the body:
  /// when the spawn ends). Their pointers do not leave the block.
  llvm::DenseMap<mlir::Block *, llvm::SmallVector<mlir::Value>> freeAtEnd;
  /// Some list is handed to the runtime's deferred frees
  /// (bsgprt_temp_defer_free) when it is allocated, to be freed when the
  /// spawn ends: one allocated in a loop whose pointer leaves the loop
  /// body, or one no require result names.
  bool deferred = false;
};

/// Plans the freeing of every dtempnew list of `spawn`, whose branches and
/// loops for which `isStructural` holds become host code: marks the
/// dtempnew ops that the plan frees `bsgp.freed_by_flow` (so that the
/// segment holding one does not free it), and inserts the deferred frees.
/// A list whose require sits in a branch that stays within one segment (on
/// a target query) and whose pointer does not leave that branch is left to
/// the segment.
TempListPlan
planTempLists(SpawnOp spawn,
              llvm::function_ref<bool(mlir::Operation *)> isStructural);

} // namespace bsgp

#endif // BSGP_LIB_TRANSFORMS_SEGMENTLISTS_H
