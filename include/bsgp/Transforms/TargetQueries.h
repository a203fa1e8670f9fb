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

#include "bsgp/Basic/Target.h"

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

/// Replaces every bsgp.target_is below `root` by its value on `target`,
/// then canonicalizes the functions and kernels that held one, so that the
/// branches for other targets are gone before the target's conversion sees
/// them.
void foldTargetQueries(mlir::Operation *root, Target target);

/// The targets named by a pass option ("cpu,cuda,spirv"); an unknown name
/// is reported on `anchor`.
mlir::FailureOr<TargetSet> parseTargetsOption(mlir::Operation *anchor,
                                              llvm::StringRef option);

/// A call of `int bsgprt_target(void)` at `b`: of the program's own
/// `extern "C"` declaration where it has one (MLIRGen makes those LLVM
/// functions), else of a declaration added to `module` if missing.
mlir::Value emitRuntimeTargetCall(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::ModuleOp module);

} // namespace bsgp

#endif // BSGP_TRANSFORMS_TARGETQUERIES_H
