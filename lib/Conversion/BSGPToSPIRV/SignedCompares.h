//===- SignedCompares.h - signed 64-bit compares as unsigned ----*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_CONVERSION_BSGPTOSPIRV_SIGNEDCOMPARES_H
#define BSGP_LIB_CONVERSION_BSGPTOSPIRV_SIGNEDCOMPARES_H

#include "mlir/IR/Operation.h"

namespace bsgp {

/// Rewrites every signed relational `arith.cmpi` on 64-bit integers under
/// `root` into the unsigned one of the operands with their sign bits
/// flipped (`a < b` signed is `a ^ 2^63 < b ^ 2^63` unsigned), which is
/// exact. Lavapipe (Mesa 22.3) evaluates OpSGreaterThanEqual and the other
/// signed relations wrongly on a 32-bit value sign-extended to 64 bits:
/// `(int64)rank >= (int64)2` is true there for rank 0
/// (test/Execution/language/int64-signed-compare.test).
void rewriteSigned64Compares(mlir::Operation *root);

/// Rewrites every `arith.remsi` under `root` as an unsigned remainder of the
/// operands' magnitudes with the dividend's sign, in arith ops. Vulkan
/// leaves OpSRem undefined for negative operands, and MLIR's own emulation
/// takes the sign from `a == abs(a)`, which is false for INT_MIN: it gave
/// `INT_MIN % -7` as 2 instead of -2 (bsgp-smith seed 12387 on lavapipe
/// and an H100). Here the sign comes from `a < 0`. Run it before
/// rewriteSigned64Compares, which then fixes the 64-bit compares it makes.
void rewriteSignedRemainders(mlir::Operation *root);

/// Rewrites the sign-bit tests of a sign-extended integer under `root`,
/// `((T)a & C) != 0` and `((T)a >> k) != 0` (and their `== 0`), where every
/// bit C selects and every bit the logical shift keeps is a copy of a's sign
/// bit, into `a < 0` (`a >= 0`), which is exact. Lavapipe (Mesa 22.3)
/// evaluates those tests as false for a negative 32-bit `a` extended to 64
/// bits (bsgp-smith seed 50271; test/Execution/language/sign-bit-test.test).
void rewriteSignBitTests(mlir::Operation *root);

/// Rewrites every `arith.sitofp` under `root` whose operand is narrower than
/// 64 bits into the unsigned conversion of the operand's magnitude, negated
/// where the operand is negative, which is exact. spirv-opt (SPIRV-Tools
/// 2023.1) folds OpConvertSToF of a 32-bit constant as if it were unsigned,
/// since MLIR declares every integer type unsigned in SPIR-V: a -1 it could
/// prove became 4294967295.0 on lavapipe and NVIDIA's Vulkan (bsgp-smith
/// seed 15000; test/Execution/language/signed-to-float.test). Converting
/// the operand sign-extended to 64 bits instead met a lavapipe (Mesa 22.3)
/// bug: `0.0f > (float)x` was false for a negative x (bsgp-smith seed
/// 100150).
void rewriteNarrowSignedToFloat(mlir::Operation *root);

/// Rewrites every `arith.minsi` and `arith.maxsi` under `root` on integers
/// narrower than 64 bits into a signed compare and a select. spirv-opt
/// (SPIRV-Tools 2023.1) folds GLSL.std.450 SMin and SMax of 32-bit
/// constants as unsigned, the type MLIR declares: min(0, -82) became 0 on
/// lavapipe and NVIDIA's Vulkan where inlining made both constant
/// (bsgp-smith seed 15358; test/Execution/language/signed-min-max.test).
/// It folds OpSLessThan right.
void rewriteNarrowSignedMinMax(mlir::Operation *root);

/// Rewrites every 64-bit `sext(a) * C` under `root`, `a` at most 32 bits
/// wide and C a constant in [2^31, 2^32) (also `sext(a) << 31`, which is
/// the product by 2^31), into `zext(a) * C - (a < 0 ? C << w : 0)` for `a`
/// of w bits, which is exact. NVIDIA's Vulkan driver (580 on an H200)
/// computes such a product as a 32 x 32 -> 64-bit signed multiply with C
/// read as a signed 32-bit immediate: `(uint64)(int)x << 31` came out as
/// `-(x << 31)` (bsgp-smith seed 7000133;
/// test/Execution/language/wide-multiply.test). The zero-extended product
/// and the sign correction are computed right there.
void rewriteSignExtendedWideMultiplies(mlir::Operation *root);

} // namespace bsgp

#endif // BSGP_LIB_CONVERSION_BSGPTOSPIRV_SIGNEDCOMPARES_H
