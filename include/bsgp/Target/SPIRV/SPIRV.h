//===- SPIRV.h - the SPIR-V (Vulkan) target ---------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What bsgp-lower-kernels-spirv produces and the Vulkan runtime must agree
/// on: the module attribute holding the binary, the workgroup size and the
/// push-constant block (docs/spirv.md).
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_TARGET_SPIRV_SPIRV_H
#define BSGP_TARGET_SPIRV_SPIRV_H

#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"

namespace mlir {
class MLIRContext;
}

namespace bsgp {

/// Host module attribute with the SPIR-V binary (little-endian words as
/// bytes), read by bsgp-lower-launches.
inline constexpr llvm::StringLiteral kSPIRVAttrName = "bsgp.spirv";

/// Threads per workgroup of every entry point (LocalSize x).
inline constexpr int32_t kSPIRVWorkgroupSize = 256;

/// Byte offsets in the push-constant block every entry point reads:
/// {uint64 args_address; uint64 size}.
inline constexpr unsigned kSPIRVPushArgsOffset = 0;
inline constexpr unsigned kSPIRVPushSizeOffset = 8;
inline constexpr unsigned kSPIRVPushConstantsSize = 16;

/// Prints the SPIR-V binary `bytes` as the MLIR SPIR-V dialect to `os`.
/// Returns failure (with an MLIR diagnostic) when it is no SPIR-V module.
mlir::LogicalResult printSPIRV(llvm::StringRef bytes, mlir::MLIRContext *ctx,
                               llvm::raw_ostream &os);

} // namespace bsgp

#endif // BSGP_TARGET_SPIRV_SPIRV_H
