//===- WideDivision.h - 64-bit integer division for SPIR-V ------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_CONVERSION_BSGPTOSPIRV_WIDEDIVISION_H
#define BSGP_LIB_CONVERSION_BSGPTOSPIRV_WIDEDIVISION_H

#include "mlir/IR/BuiltinOps.h"

namespace bsgp::spv {

/// The module's 64-bit division function: `(a, b) -> a / b`, unsigned.
/// With a dot, a name no BSGP function can have.
inline constexpr llvm::StringLiteral kWideDivisionName = "bsgp.int.udiv64";

/// Rewrites every scalar 64-bit `arith.divui`, `remui`, `divsi` and `remsi`
/// in `device` whose divisor is not a constant into a call of
/// `bsgp.int.udiv64` (created once; a remainder is a - q * b), the signed
/// ones on the operands' magnitudes with C's signs (the quotient negative when
/// exactly one operand is, the remainder with the dividend's sign). The
/// function divides in 32 bits when both operands fit, and otherwise subtracts
/// shifted divisors, one step a quotient bit, in 32- and 64-bit adds,
/// shifts and compares.
///
/// NVIDIA's Vulkan driver (580.159.04, H200) computes OpUDiv, OpUMod,
/// OpSDiv and OpSRem of 64-bit integers wrongly when the divisor is loaded
/// from an address that depends on the invocation's index through a
/// remainder or a mask (`p[rank % n] `, `p[rank & 1]`): lane 0 got lane 1's
/// divisor, and the loaded value itself read back as lane 1's (bsgp-smith
/// seed 1000759; test/Execution/language/wide-division.test). The
/// operations built here are ones the driver gets right.
void expandWideDivision(mlir::ModuleOp device);

} // namespace bsgp::spv

#endif // BSGP_LIB_CONVERSION_BSGPTOSPIRV_WIDEDIVISION_H
