//===- Atomics.h - BSGP atomics as SPIR-V atomic instructions ---*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_CONVERSION_BSGPTOSPIRV_ATOMICS_H
#define BSGP_LIB_CONVERSION_BSGPTOSPIRV_ATOMICS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVEnums.h"
#include "mlir/IR/Builders.h"

namespace bsgp {

/// The SPIR-V atomic of `kind` on `ptr` (a SPIR-V pointer to the element's
/// integer type, of whichever storage class), relaxed, at `scope`; returns
/// the old value as `type`. Float exchange goes through the bits; other
/// float kinds are not handled (float add is expanded into a
/// compare-exchange loop before): returns a null value for them.
mlir::Value emitSPIRVAtomicRMW(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::arith::AtomicRMWKind kind, mlir::Type type,
                               mlir::Value ptr, mlir::Value value,
                               mlir::spirv::Scope scope);

/// OpAtomicCompareExchange on `ptr` (relaxed, at `scope`); floats are
/// compared bit for bit. Returns the old value as `type`.
mlir::Value emitSPIRVAtomicCAS(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Type type, mlir::Value ptr,
                               mlir::Value expected, mlir::Value desired,
                               mlir::spirv::Scope scope);

/// The integer type an atomic on `type` works on: `type` itself, or the
/// integer of a float's width.
mlir::Type getSPIRVAtomicIntType(mlir::Type type);

} // namespace bsgp

#endif // BSGP_LIB_CONVERSION_BSGPTOSPIRV_ATOMICS_H
