//===- Passes.h - device module serialization and codegen -------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The passes of lib/Target, which serialize the device modules the
/// conversions build (PTX, SPIR-V), and the code generation pipeline from
/// outlined kernels to an LLVM-dialect module for the host, made of the
/// conversion passes (bsgp/Conversion/Passes.h) and these.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_TARGET_PASSES_H
#define BSGP_TARGET_PASSES_H

#include "bsgp/Basic/Target.h"
#include "bsgp/Conversion/Passes.h"

#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace bsgp {

#define GEN_PASS_DECL
#include "bsgp/Target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "bsgp/Target/Passes.h.inc"

/// Where kernels are compiled for. One object may carry several forms; the
/// runtime picks one when the program starts.
struct CodegenTargets {
  TargetSet targets = {Target::CPU};
  std::string cudaChip = "sm_90";
  std::string cudaPath;
  unsigned cudaGroupsPerBlock = 8;
  bool lineInfo = false;
  /// The -O level; 0 keeps the SPIR-V module as generated.
  unsigned spirvOptLevel = 2;
};

/// The device code passes of `targets`: for CUDA, coarsen-groups,
/// lower-kernels-nvvm, lower-lookback, lower-group-ops-nvvm, convert-to-nvvm
/// and serialize-ptx; for SPIR-V, lower-kernels-spirv,
/// lower-group-ops-spirv, legalize-for-spirv, lower-local-arrays-spirv,
/// structurize-for-spirv, convert-to-spirv and serialize-spirv; then
/// resolve-target-queries and, for the CPU, lower-kernels-cpu.
void buildDeviceCodegenPipeline(mlir::OpPassManager &pm,
                                const CodegenTargets &targets);

/// From outlined kernels to an LLVM-dialect module for the host: the device
/// code passes, then lower-launches, scf-to-cf, convert-to-llvm and
/// reconcile-unrealized-casts.
void buildCodegenPipeline(mlir::OpPassManager &pm,
                          const CodegenTargets &targets);

} // namespace bsgp

#endif // BSGP_TARGET_PASSES_H
