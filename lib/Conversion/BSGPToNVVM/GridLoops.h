//===- GridLoops.h - a uniform loop of supersteps in one CUDA kernel --*- C++
//-*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_CONVERSION_BSGPTONVVM_GRIDLOOPS_H
#define BSGP_LIB_CONVERSION_BSGPTONVVM_GRIDLOOPS_H

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class ModuleOp;
namespace LLVM {
class LLVMFuncOp;
} // namespace LLVM
} // namespace mlir

namespace bsgp {

/// The name of the device function holding `kernel`'s ranks, which a
/// grid-loop kernel calls where the host would launch `kernel`.
std::string getGridBodyName(llvm::StringRef kernel);

/// Replaces each bsgp.grid_launch in `fn`, the CUDA entry of a kernel
/// marked bsgp.grid_loop, by a call of the launched kernel's body function
/// on ranks [0, count) followed by the grid-wide barrier, which `device`
/// gets where it has none.
mlir::LogicalResult lowerGridLaunches(mlir::LLVM::LLVMFuncOp fn,
                                      mlir::ModuleOp host,
                                      mlir::ModuleOp device);

} // namespace bsgp

#endif // BSGP_LIB_CONVERSION_BSGPTONVVM_GRIDLOOPS_H
