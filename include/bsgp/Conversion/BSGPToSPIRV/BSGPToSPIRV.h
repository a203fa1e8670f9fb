//===- BSGPToSPIRV.h - the SPIR-V device module -----------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The SPIR-V target compiles kernels in a spirv.module nested in the host
/// module: bsgp-lower-kernels-spirv builds it, the passes after it lower
/// its functions to the SPIR-V dialect, and bsgp-serialize-spirv
/// (lib/Target) writes the binary and erases it. What the module and the
/// Vulkan runtime must agree on is here (docs/spirv.md).
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_CONVERSION_BSGPTOSPIRV_BSGPTOSPIRV_H
#define BSGP_CONVERSION_BSGPTOSPIRV_BSGPTOSPIRV_H

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
class RewritePatternSet;
class SPIRVTypeConverter;
} // namespace mlir

namespace bsgp {

/// Host module attribute with the SPIR-V binary (little-endian words as
/// bytes), written by bsgp-serialize-spirv, read by bsgp-lower-launches.
inline constexpr llvm::StringLiteral kSPIRVAttrName =
    BSGPDialect::SpirvAttrHelper::getNameStr();

/// Symbol name of the SPIR-V device module in the host module until
/// bsgp-convert-to-spirv makes a spirv.module of it.
inline constexpr llvm::StringLiteral kSPIRVDeviceModuleName = "bsgp_spirv";

/// The SPIR-V device modules nested in `host` before bsgp-convert-to-spirv
/// (a builtin.module marked `bsgp.target = "spirv"`, holding func.func
/// functions, built-in variables and the push constants).
llvm::SmallVector<mlir::ModuleOp> getSPIRVDeviceModules(mlir::ModuleOp host);

/// Threads per workgroup of every entry point (LocalSize x): the target
/// description's work group.
inline constexpr int32_t kSPIRVWorkgroupSize =
    getTargetInfo(Target::SPIRV).GroupSize;

/// Byte offsets in the push-constant block every entry point reads:
/// {uint64 args_address; uint64 size}.
inline constexpr unsigned kSPIRVPushArgsOffset = 0;
inline constexpr unsigned kSPIRVPushSizeOffset = 8;
inline constexpr unsigned kSPIRVPushConstantsSize = 16;

/// Symbol of the push-constant variable of the SPIR-V device module.
inline constexpr llvm::StringLiteral kSPIRVPushConstantsName =
    "bsgp_push_constants";

/// Registers the !bsgp.ptr and !bsgp.stream conversions (64-bit device
/// addresses, i64) and cast materializations on `converter`.
void addBSGPToSPIRVTypeConversions(mlir::SPIRVTypeConverter &converter);

/// Adds the patterns that lower bsgp pointer, stream-word and atomic ops
/// to SPIR-V (addresses are i64, dereferenced as PhysicalStorageBuffer
/// pointers with the natural C layout of their elements), and math.trunc,
/// which the upstream math patterns leave out for shaders.
void populateBSGPToSPIRVPatterns(mlir::SPIRVTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);

} // namespace bsgp

#endif // BSGP_CONVERSION_BSGPTOSPIRV_BSGPTOSPIRV_H
