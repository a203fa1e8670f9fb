//===- MathFunctions.h - C math functions device code may call --*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// BSGP programs call the C math library as C programs do, declaring the
/// functions `extern "C"`. Those functions are pure, so unlike other
/// `extern "C"` functions they may be called from device code too (as in
/// CUDA): Sema classifies them as device functions and MLIRGen turns the
/// calls into math-dialect ops, which each target lowers to its own
/// instructions or libraries (libm, libdevice).
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_AST_MATHFUNCTIONS_H
#define BSGP_AST_MATHFUNCTIONS_H

#include "llvm/ADT/StringRef.h"

namespace bsgp {

/// The operation a C math function computes, independent of its precision.
enum class MathFunction {
  None,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Atan2,
  Sinh,
  Cosh,
  Tanh,
  Exp,
  Exp2,
  Log,
  Log2,
  Log10,
  Sqrt,
  Pow,
  Fabs,
  Floor,
  Ceil,
  Round,
  Trunc,
  Fmin,
  Fmax,
  Fmod,
  Copysign,
  Fma,
  /// CUDA's rsqrtf and rsqrt (not C's): 1 / sqrt(x).
  Rsqrt,
};

/// The function \p Name denotes (`sinf` and `sin` are both Sin), or None.
MathFunction getMathFunction(llvm::StringRef Name);

} // namespace bsgp

#endif // BSGP_AST_MATHFUNCTIONS_H
