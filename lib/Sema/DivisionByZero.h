//===- DivisionByZero.h - -Wdivision-by-zero --------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Sema's check for an integer division or remainder by a constant zero,
// which C leaves undefined; clang warns about it with -Wdivision-by-zero.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_SEMA_DIVISIONBYZERO_H
#define BSGP_LIB_SEMA_DIVISIONBYZERO_H

namespace bsgp {

class BinaryOperator;
class DiagnosticEngine;
class Type;

/// Warns when `B` (a checked `/`, `%`, `/=` or `%=`, whose arithmetic is
/// done in `ComputationType`) divides integers by a constant zero.
void warnDivisionByZero(const BinaryOperator *B, const Type *ComputationType,
                        DiagnosticEngine &Diags);

} // namespace bsgp

#endif // BSGP_LIB_SEMA_DIVISIONBYZERO_H
