//===- LowerLookback.h - bsgp.group_lookback for CUDA -----------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_CONVERSION_BSGPTONVVM_LOWERLOOKBACK_H
#define BSGP_LIB_CONVERSION_BSGPTONVVM_LOWERLOOKBACK_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class OpBuilder;
class Operation;
} // namespace mlir

namespace bsgp {

/// Emits at `b` the decoupled look-back of a CUDA thread block that runs
/// the work groups whose aggregates are `aggregates`, in group order, over
/// the status words `status` (one per thread block, indexed by the block
/// index as on one device: %ctaid.x plus the blocks of the slices before,
/// of `ranksPerBlock` ranks each). Every thread of the block must run it.
/// Returns each work group's exclusive prefix: the sum over the blocks before,
/// plus the block's groups before it.
llvm::SmallVector<mlir::Value>
emitBlockLookback(mlir::OpBuilder &b, mlir::Location loc, mlir::Value status,
                  mlir::ArrayRef<mlir::Value> aggregates,
                  int64_t ranksPerBlock);

/// Replaces each bsgp.group_lookback below `root` by the look-back of its
/// thread block, for kernels that run one work group per block.
void expandGroupLookbacks(mlir::Operation *root);

} // namespace bsgp

#endif // BSGP_LIB_CONVERSION_BSGPTONVVM_LOWERLOOKBACK_H
