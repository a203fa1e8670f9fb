//===- LocalArrays.h - local arrays as SPIR-V Function variables *- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_CONVERSION_BSGPTOSPIRV_LOCALARRAYS_H
#define BSGP_LIB_CONVERSION_BSGPTOSPIRV_LOCALARRAYS_H

#include "mlir/Support/LLVM.h"

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace bsgp {

/// Turns the local arrays of `fn` (MLIRGen's llvm.alloca cast to a
/// !bsgp.ptr) into Function-storage spirv.Variable arrays, and the
/// bsgp.ptr.load/store that reach them into spirv.AccessChain loads and
/// stores. A local array's pointer becomes its byte offset from the start of
/// the array (the array itself is a null address), so offsets, comparisons
/// and differences keep their integer lowering. Reports, at the use, any
/// use that would need the array's address (storing it, passing it to a
/// function, saving it across a barrier) or that may reach more than one
/// array.
mlir::LogicalResult lowerLocalArraysToSPIRV(mlir::func::FuncOp fn);

} // namespace bsgp

#endif // BSGP_LIB_CONVERSION_BSGPTOSPIRV_LOCALARRAYS_H
