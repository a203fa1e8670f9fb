//===- PTX.h - LLVM-dialect device modules to PTX ---------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_TARGET_CUDA_PTX_H
#define BSGP_TARGET_CUDA_PTX_H

#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class ModuleOp;
}

namespace bsgp {

struct PTXOptions {
  /// sm_XX.
  std::string chip = "sm_90";
  /// CUDA toolkit root for libdevice; empty: $CUDA_PATH, /usr/local/cuda.
  std::string cudaPath;
  bool lineInfo = false;
};

/// Whether LLVM's NVPTX back end knows the architecture `chip` (sm_XX).
bool isKnownCUDAArch(llvm::StringRef chip);

/// Translates a device module (LLVM and NVVM dialects only) to LLVM IR,
/// links libdevice if the module calls it, optimizes it and compiles it
/// with LLVM's NVPTX back end.
mlir::LogicalResult compileToPTX(mlir::ModuleOp device,
                                 const PTXOptions &options, std::string &ptx,
                                 std::string &error);

} // namespace bsgp

#endif // BSGP_TARGET_CUDA_PTX_H
