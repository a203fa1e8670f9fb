//===- GridLoopsCPU.h - a uniform loop of supersteps on a CPU team -*- C++ -*-//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_CONVERSION_BSGPTOLLVM_GRIDLOOPSCPU_H
#define BSGP_LIB_CONVERSION_BSGPTOLLVM_GRIDLOOPSCPU_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class ModuleOp;
namespace LLVM {
class LLVMFuncOp;
} // namespace LLVM
} // namespace mlir

namespace bsgp {

/// Replaces each bsgp.grid_launch in `fn`, the CPU entry of a kernel marked
/// bsgp.grid_loop, by a call of the launched kernel's CPU entry on the
/// calling thread's share of the ranks, followed by the team barrier.
mlir::LogicalResult lowerGridLaunchesForCPU(mlir::LLVM::LLVMFuncOp fn,
                                            mlir::ModuleOp module);

} // namespace bsgp

#endif // BSGP_LIB_CONVERSION_BSGPTOLLVM_GRIDLOOPSCPU_H
