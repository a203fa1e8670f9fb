//===- MemoryChecks.h - what a superstep's accesses reach -------*- C++ -*-===//
//
// What the passes that move or drop memory accesses (bsgp-forward-sort-*,
// bsgp-rematerialize-loads, bsgp-single-pass) can tell of a pointer or a
// write: where it points into, whether a call writes only through its
// arguments, and which call is the library's sort. Private to
// lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_MEMORYCHECKS_H
#define BSGP_LIB_TRANSFORMS_MEMORYCHECKS_H

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include <optional>

namespace mlir {
namespace func {
class CallOp;
} // namespace func
} // namespace mlir

namespace bsgp {
namespace ssutil {

/// True if `value` is defined inside `spawn`'s body.
bool isDefinedIn(SpawnOp spawn, mlir::Value value);

/// True if `index` is thread.rank, maybe widened (a rank is never
/// negative, so sign and zero extension agree).
bool isRankIndex(mlir::Value index);

/// The op that allocated the memory `ptr` points into if that happened
/// inside `spawn` (a require's `dnew`/`dtempnew`, a work group's `local`
/// array): no host pointer from before the spawn can reach it. Else null.
mlir::Operation *getFreshRoot(SpawnOp spawn, mlir::Value ptr);

/// True for `!bsgp.ptr` and `!llvm.ptr`.
bool isPointer(mlir::Type type);

/// What the passes checking a superstep's writes can tell of `op` (not its
/// nested ops) before looking at its memory effects: true if it writes
/// nothing (no memory effects, or only its nested ops', or work-group
/// communication) or calls the collective library (a function marked
/// `bsgp.library`) or the runtime (`bsgprt_*`), which write only through
/// their pointer arguments, with only memory `spawn` allocated (other than
/// `excludedRoot`'s); false for any other call and an op whose effects are
/// unknown; nothing if its effects need a look.
std::optional<bool> checkWritesBeforeEffects(SpawnOp spawn, mlir::Operation *op,
                                             mlir::Operation *excludedRoot);

/// True if `a` and `b` point to elements of one width, which a ptr.diff
/// can compare.
bool sameElementWidth(PtrType a, PtrType b);

/// `op` if it calls the collective library's sort of ranks (a function
/// marked #bsgp.library<sort_ranks>, whose operands are SortRanksOperand);
/// else null.
mlir::func::CallOp getListSortCall(mlir::Operation *op);

} // namespace ssutil
} // namespace bsgp

#endif // BSGP_LIB_TRANSFORMS_MEMORYCHECKS_H
