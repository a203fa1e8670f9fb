//===- GridLoops.h - uniform loops in one SPIR-V shader ---------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_CONVERSION_BSGPTOSPIRV_GRIDLOOPS_H
#define BSGP_LIB_CONVERSION_BSGPTOSPIRV_GRIDLOOPS_H

#include "mlir/IR/Builders.h"

namespace bsgp {

class SPIRVBuiltins;

/// Emits the grid-wide barrier of a grid-loop kernel at `b`: every
/// invocation of every workgroup of the dispatch waits there until all have
/// arrived, and sees the device-memory writes all made before. `word` is
/// the device address (i64) of the 32-bit arrival word the runtime passes
/// in the push constants' `first` member.
void emitSPIRVGridBarrier(mlir::OpBuilder &b, mlir::Location loc,
                          SPIRVBuiltins &builtins, mlir::Value word);

} // namespace bsgp

#endif // BSGP_LIB_CONVERSION_BSGPTOSPIRV_GRIDLOOPS_H
