//===- ConstantWarnings.h - warnings about constant operands ----*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Sema's checks for operations on constants that C leaves undefined, which
// clang warns about: an integer division or remainder by a constant zero
// (-Wdivision-by-zero), signed overflow (-Winteger-overflow).
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_SEMA_CONSTANTWARNINGS_H
#define BSGP_LIB_SEMA_CONSTANTWARNINGS_H

namespace bsgp {

class BinaryOperator;
class DiagnosticEngine;
class Expr;
class Type;

/// Warns when `B` (a checked `/`, `%`, `/=` or `%=`, whose arithmetic is
/// done in `ComputationType`) divides integers by a constant zero.
void warnDivisionByZero(const BinaryOperator *B, const Type *ComputationType,
                        DiagnosticEngine &Diags);

/// Warns when \p E (a checked `+`, `-`, `*` or unary `-` of a signed type)
/// overflows on constant operands, with the wrapped and the exact value,
/// and marks it as wrapping: the folded value is the program's.
void warnIntegerOverflow(Expr *E, DiagnosticEngine &Diags);

} // namespace bsgp

#endif // BSGP_LIB_SEMA_CONSTANTWARNINGS_H
