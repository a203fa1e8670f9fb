//===- Recursion.h - reject recursive device code for SPIR-V ----*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_CONVERSION_BSGPTOSPIRV_RECURSION_H
#define BSGP_LIB_CONVERSION_BSGPTOSPIRV_RECURSION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

namespace bsgp {

/// Vulkan forbids cycles in an entry point's call graph, which CPUs and
/// CUDA allow. Reports the first call of \p functions (the device functions
/// kernels reach) that closes a cycle, at its source location, so that a
/// recursive function is a diagnostic rather than a validator failure.
mlir::LogicalResult
rejectSPIRVRecursion(mlir::ArrayRef<mlir::func::FuncOp> functions);

/// SPIR-V functions return one value; a device function returning a struct
/// returns one value per field (MLIRGenStructValues.cpp). Inlines every
/// call in \p device of a function with several results, repeatedly (the
/// call graph has no cycle: rejectSPIRVRecursion ran), and erases the
/// functions so left without calls.
mlir::LogicalResult inlineMultiResultCalls(mlir::ModuleOp device);

} // namespace bsgp

#endif // BSGP_LIB_CONVERSION_BSGPTOSPIRV_RECURSION_H
