//===- BSGPToNVVM.h - the CUDA device module --------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUDA target compiles kernels in a device module nested in the host
/// module: bsgp-lower-kernels-nvvm builds it, the passes after it lower
/// it to the LLVM and NVVM dialects, and bsgp-serialize-ptx (lib/Target)
/// compiles it to PTX and erases it.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_CONVERSION_BSGPTONVVM_BSGPTONVVM_H
#define BSGP_CONVERSION_BSGPTONVVM_BSGPTONVVM_H

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace bsgp {

/// Symbol name of the CUDA device module in the host module.
inline constexpr llvm::StringLiteral kCUDADeviceModuleName = "bsgp_cuda";

/// Host module attribute with the PTX of the CUDA device module, read by
/// bsgp-lower-launches.
inline constexpr llvm::StringLiteral kPTXAttrName =
    BSGPDialect::PtxAttrHelper::getNameStr();

/// Device memory is the global address space of NVPTX.
inline constexpr unsigned kNVVMGlobalAddressSpace = 1;

/// `local` arrays live in shared memory.
inline constexpr unsigned kNVVMSharedAddressSpace = 3;

/// BSGP pointers are generic addresses in device code: a pointer may point
/// to device memory or to a local array on the thread's stack, and device
/// functions take both. Pointers that come from the host are marked global
/// where they enter the kernel, and LLVM's address space inference carries
/// that to their loads and stores.
inline constexpr unsigned kNVVMGenericAddressSpace = 0;

/// The CUDA device modules nested in `host` (a builtin.module marked
/// `bsgp.target = "cuda"`; bsgp-lower-kernels-nvvm makes one).
llvm::SmallVector<mlir::ModuleOp> getCUDADeviceModules(mlir::ModuleOp host);

/// Adds the patterns that lower a CUDA device module to the LLVM and NVVM
/// dialects: math with a PTX instruction as LLVM intrinsics, other math as
/// libdevice calls, and populateCodeToLLVMPatterns with atomics at device
/// scope. `converter` has the BSGP type conversions to generic pointers.
void populateBSGPToNVVMPatterns(mlir::LLVMTypeConverter &converter,
                                mlir::RewritePatternSet &patterns);

} // namespace bsgp

#endif // BSGP_CONVERSION_BSGPTONVVM_BSGPTONVVM_H
