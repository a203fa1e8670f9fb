//===- DoubleMath.h - math functions of doubles for SPIR-V ------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// GLSL.std.450's Exp, Log, Sin, Pow, ... take 16- and 32-bit floats only,
/// so the SPIR-V target computes the C math functions of doubles in
/// software: one function per module for each that a kernel uses, built
/// here from f64 additions, subtractions and multiplications (which Vulkan
/// rounds correctly), comparisons, Floor, FAbs, Sqrt and integer operations
/// on the bits. Where a result needs more than a double's precision the
/// code works on double-doubles (Dekker's exact sums and products); Vulkan
/// allows a double division 2.5 ulp of error, so every quotient that
/// matters is corrected with its exact remainder. docs/spirv.md gives the
/// methods and their accuracy.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_CONVERSION_BSGPTOSPIRV_DOUBLEMATH_H
#define BSGP_LIB_CONVERSION_BSGPTOSPIRV_DOUBLEMATH_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace bsgp::spv {

/// The prefix of the module's software double-precision functions: with a
/// dot, a name no BSGP function can have.
inline constexpr llvm::StringLiteral kDoubleMathPrefix = "bsgp.math.";

/// A double-double: the unevaluated sum hi + lo of two f64 values, with
/// |lo| at most half an ulp of hi once normalized.
struct DD {
  mlir::Value hi, lo;
};

/// Emits f64 and i64 arithmetic at a builder's insertion point, the
/// double-double operations on top of it, and calls to the helper
/// functions the math functions share (created once per module).
class DoubleBuilder {
public:
  DoubleBuilder(mlir::OpBuilder &b, mlir::Location loc, mlir::ModuleOp module)
      : b(b), loc(loc), module(module) {}

  mlir::OpBuilder &builder() { return b; }
  mlir::Location getLoc() { return loc; }

  // f64 arithmetic.
  mlir::Value c(double v);
  mlir::Value add(mlir::Value x, mlir::Value y);
  mlir::Value sub(mlir::Value x, mlir::Value y);
  mlir::Value mul(mlir::Value x, mlir::Value y);
  mlir::Value div(mlir::Value x, mlir::Value y);
  mlir::Value neg(mlir::Value x);
  mlir::Value floor(mlir::Value x);
  mlir::Value abs(mlir::Value x);
  mlir::Value sqrt(mlir::Value x);
  /// c0 + z * (c1 + z * (c2 + ...)).
  mlir::Value poly(mlir::Value z, llvm::ArrayRef<double> coeffs);

  // Ordered comparisons (false when either side is a NaN), and NaN tests.
  mlir::Value lt(mlir::Value x, mlir::Value y);
  mlir::Value le(mlir::Value x, mlir::Value y);
  mlir::Value gt(mlir::Value x, mlir::Value y);
  mlir::Value eq(mlir::Value x, mlir::Value y);
  mlir::Value isNaN(mlir::Value x);
  /// True if the sign bit of `x` is set (-0.0 included).
  mlir::Value signBit(mlir::Value x);
  mlir::Value select(mlir::Value cond, mlir::Value t, mlir::Value f);
  DD select(mlir::Value cond, DD t, DD f);
  mlir::Value logicalAnd(mlir::Value x, mlir::Value y);
  mlir::Value logicalOr(mlir::Value x, mlir::Value y);
  mlir::Value logicalNot(mlir::Value x);

  // i64 arithmetic and the bits of doubles.
  mlir::Value ci(int64_t v);
  mlir::Value iadd(mlir::Value x, mlir::Value y);
  mlir::Value isub(mlir::Value x, mlir::Value y);
  mlir::Value imul(mlir::Value x, mlir::Value y);
  /// Unsigned division.
  mlir::Value idiv(mlir::Value x, mlir::Value y);
  mlir::Value iand(mlir::Value x, mlir::Value y);
  mlir::Value ior(mlir::Value x, mlir::Value y);
  mlir::Value shl(mlir::Value x, mlir::Value y);
  mlir::Value shr(mlir::Value x, mlir::Value y);
  mlir::Value ieq(mlir::Value x, mlir::Value y);
  mlir::Value ige(mlir::Value x, mlir::Value y);
  mlir::Value bits(mlir::Value x);
  mlir::Value fromBits(mlir::Value i);
  /// An integral double to i64, and back.
  mlir::Value toInt(mlir::Value x);
  mlir::Value toDouble(mlir::Value i);
  /// 2^k for an i64 k in [-1022, 1023].
  mlir::Value pow2(mlir::Value k);
  /// y * 2^n for an i64 n in [-2044, 2046], rounded once: y is multiplied
  /// by 2^(n/2) exactly, then by the rest.
  mlir::Value scale(mlir::Value y, mlir::Value n);
  /// `v` with the sign bit of `s` or-ed in (v >= 0).
  mlir::Value orSign(mlir::Value v, mlir::Value s);

  // Double-double arithmetic.
  DD dd(double hi, double lo) { return {c(hi), c(lo)}; }
  DD dd(mlir::Value x) { return {x, c(0.0)}; }
  DD twoSum(mlir::Value x, mlir::Value y);
  /// For |x| >= |y| or x == 0.
  DD fastTwoSum(mlir::Value x, mlir::Value y);
  /// x * y exactly, for |x|, |y| below 2^996 (Veltkamp's split).
  DD twoProd(mlir::Value x, mlir::Value y);
  DD add(DD x, DD y);
  DD mul(DD x, DD y);
  DD mul(DD x, mlir::Value y);
  DD neg(DD x);
  /// x / y: the double quotient plus its exact remainder divided by y.
  DD div(DD x, DD y);

  /// A call of the helper function `name` of the module, which `build`
  /// fills in (f64 or i64 arguments and result) when it does not exist yet.
  mlir::Value call(
      llvm::StringRef name, mlir::Type result, mlir::ValueRange args,
      llvm::function_ref<mlir::Value(DoubleBuilder &, mlir::ValueRange)> build);

private:
  mlir::OpBuilder &b;
  mlir::Location loc;
  mlir::ModuleOp module;
};

// The math functions of a double (two for pow and atan2), each emitted at
// the builder's insertion point; C's results for special operands.
mlir::Value emitExp(DoubleBuilder &d, mlir::Value x);
mlir::Value emitExp2(DoubleBuilder &d, mlir::Value x);
mlir::Value emitLog(DoubleBuilder &d, mlir::Value x);
mlir::Value emitLog2(DoubleBuilder &d, mlir::Value x);
mlir::Value emitLog10(DoubleBuilder &d, mlir::Value x);
mlir::Value emitPow(DoubleBuilder &d, mlir::Value x, mlir::Value y);
mlir::Value emitSinh(DoubleBuilder &d, mlir::Value x);
mlir::Value emitCosh(DoubleBuilder &d, mlir::Value x);
mlir::Value emitTanh(DoubleBuilder &d, mlir::Value x);
mlir::Value emitSin(DoubleBuilder &d, mlir::Value x);
mlir::Value emitCos(DoubleBuilder &d, mlir::Value x);
mlir::Value emitTan(DoubleBuilder &d, mlir::Value x);
mlir::Value emitAtan(DoubleBuilder &d, mlir::Value x);
mlir::Value emitAtan2(DoubleBuilder &d, mlir::Value y, mlir::Value x);
mlir::Value emitAsin(DoubleBuilder &d, mlir::Value x);
mlir::Value emitAcos(DoubleBuilder &d, mlir::Value x);

/// Replaces every math op of `device` on f64 that GLSL.std.450 has no
/// double form of (exp, exp2, log, log2, log10, pow, sin, cos, tan, asin,
/// acos, atan, atan2, sinh, cosh, tanh) by a call of a function of the
/// module that computes it, created at the first use.
void expandDoubleMath(mlir::ModuleOp device);

} // namespace bsgp::spv

#endif // BSGP_LIB_CONVERSION_BSGPTOSPIRV_DOUBLEMATH_H
