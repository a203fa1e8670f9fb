//===- TargetQueries.h - folding target.cpu/cuda/spirv ----------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Shared by bsgp-specialize-targets, which folds the queries of host
// functions whose barriers depend on them, and by the target lowerings,
// which fold those of the device code they compile.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_TRANSFORMS_TARGETQUERIES_H
#define BSGP_TRANSFORMS_TARGETQUERIES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
class ModuleOp;
class Operation;
} // namespace mlir

namespace bsgp {

/// Replaces every bsgp.target_is below `root` by its value on `target`
/// ("cpu", "cuda" or "spirv"), then canonicalizes the functions and kernels
/// that held one, so that the branches for other targets are gone before
/// the target's conversion sees them.
void foldTargetQueries(mlir::Operation *root, llvm::StringRef target);

/// The runtime's number for a target, as `bsgprt_target()` returns it
/// (BSGPRT_TARGET_CPU, _CUDA, _VULKAN in runtime/include/bsgp/runtime.h).
int64_t getRuntimeTargetId(llvm::StringRef target);

/// A call of `int bsgprt_target(void)` at `b`: of the program's own
/// `extern "C"` declaration where it has one (MLIRGen makes those LLVM
/// functions), else of a declaration added to `module` if missing.
mlir::Value emitRuntimeTargetCall(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::ModuleOp module);

} // namespace bsgp

#endif // BSGP_TRANSFORMS_TARGETQUERIES_H
