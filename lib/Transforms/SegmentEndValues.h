//===- SegmentEndValues.h - uniform values the host computes ----*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler. Private to lib/Transforms, used by
// bsgp-split-uniform-flow.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_SEGMENTENDVALUES_H
#define BSGP_LIB_TRANSFORMS_SEGMENTENDVALUES_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir {
class IRMapping;
class OpBuilder;
} // namespace mlir

namespace bsgp {

class PutOp;

/// A side-effect-free op that the host may compute itself. Divisions are
/// left on the device unless the divisor is a constant other than zero (a
/// zero divisor would trap on the host even where no thread runs the op),
/// and so are the ops whose answer depends on the kernel (the single-pass
/// question, group sizes).
/// An `scf.if` is one where every op of its branches is.
bool isHostableKind(mlir::Operation *op);

/// The values \p op and the ops nested in it use that are defined outside
/// it: what the host must have to compute it.
llvm::SmallVector<mlir::Value> getExternalUses(mlir::Operation *op);

/// True if the uniform value \p v, defined in the segment \p seg (its
/// top-level ops, in order), can be computed on the host at the end of the
/// segment, in the require that reads the segment's final thread count:
/// every op of its computation in the segment is hostable or reads
/// `thread.size` after the segment's last change of the count, and every
/// value from before the segment is one the host has (\p hostHas). Such a
/// value needs no thread to compute it, so it is right even where the
/// segment kills every thread (`if (thread.size == 0) break;`).
bool isComputableAtSegmentEnd(mlir::Value v,
                              llvm::ArrayRef<mlir::Operation *> seg,
                              llvm::function_ref<bool(mlir::Value)> hostHas);

/// Removes from \p values those isComputableAtSegmentEnd and returns them.
llvm::SmallVector<mlir::Value>
takeComputableAtSegmentEnd(llvm::SmallVectorImpl<mlir::Value> &values,
                           llvm::ArrayRef<mlir::Operation *> seg,
                           llvm::function_ref<bool(mlir::Value)> hostHas);

/// Clones the computations of \p values (each isComputableAtSegmentEnd)
/// at \p b, reading `thread.size` as \p count and the values from before
/// the segment through \p map. Returns the clones of \p values.
llvm::SmallVector<mlir::Value>
cloneAtSegmentEnd(mlir::OpBuilder &b, llvm::ArrayRef<mlir::Value> values,
                  mlir::Value count, llvm::ArrayRef<mlir::Operation *> seg,
                  const mlir::IRMapping &map);

/// The thread.put of the segment \p seg (its top-level ops, in order) that
/// defines \p v, if no barrier of the segment follows it, else null. The
/// value other threads put is the thread's only after the next barrier;
/// once the segment has ended, which synchronizes every thread as that
/// barrier would, it is: the put is done at the segment's end
/// (storePendingPut), and nothing reads the variable before (MLIRGen
/// rejects a use that a path from the put reaches without a barrier).
PutOp getPendingPut(mlir::Value v, llvm::ArrayRef<mlir::Operation *> seg);

/// At the end of a segment's spawn (\p b), the store of a pending put:
/// \p value into \p list at \p rank, if that is the rank of a thread (a put
/// to another rank does nothing).
void storePendingPut(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                     mlir::Value list, mlir::Value rank);

/// In a segment that keeps its threads' ranks and count, the store of a
/// thread's \p value into \p list at its rank right after the op of
/// \p body's top level that computes it, looking through copies (`x = v`
/// comes as a select of v either way), with \p widen applied (a bool's
/// list holds bytes): a value computed before the segment's last barrier is
/// then not kept across it to be stored after it. False, storing nothing,
/// where no such op computes it or it is a put's (defined only after the
/// next barrier).
bool storeWhereComputed(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value value, mlir::Value list,
    mlir::Block *body,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Value)> widen);

/// The host value a uniform value of a segment is, where the host has it:
/// a require's result (a collective's total read back), as is or marked
/// uniform (`bsgp.uniform`, as a reduce's result is); null otherwise. The
/// segment's spawn yields it, and the host needs no copy stored by rank 0.
mlir::Value getHostSource(mlir::Value v);

} // namespace bsgp

#endif // BSGP_LIB_TRANSFORMS_SEGMENTENDVALUES_H
