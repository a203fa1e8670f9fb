//===- Supersteps.h - the supersteps of a spawn -----------------*- C++ -*-===//
//
// The supersteps of a spawn in superstep form: listing them, numbering
// them, and rebuilding one with other results. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_SUPERSTEPS_H
#define BSGP_LIB_TRANSFORMS_SUPERSTEPS_H

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"
#include "llvm/ADT/SmallVector.h"

namespace bsgp {
namespace ssutil {

/// The superstep ops of `spawn`'s body, in execution order.
llvm::SmallVector<SuperstepOp> getSupersteps(SpawnOp spawn);

/// Replaces `step` by a superstep with the same attributes and body that
/// yields `yielded` (values defined at the top level of the body). Uses of an
/// old result whose yielded value is still yielded move to the new result;
/// the other old results must be unused. Returns the new op.
SuperstepOp replaceSuperstepResults(SuperstepOp step,
                                    llvm::ArrayRef<mlir::Value> yielded);

/// Replaces `step` by a superstep without the results that nothing uses.
/// Returns the new op (`step` itself if all are used).
SuperstepOp dropUnusedResults(SuperstepOp step);

/// The number of the superstep of `op` among `steps`, from 0, or -1 if `op`
/// is in none of them.
int getStepNumber(llvm::ArrayRef<SuperstepOp> steps, mlir::Operation *op);

} // namespace ssutil
} // namespace bsgp

#endif // BSGP_LIB_TRANSFORMS_SUPERSTEPS_H
