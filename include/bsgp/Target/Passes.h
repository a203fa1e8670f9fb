//===- Passes.h - code generation passes of bsgpc ---------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_TARGET_PASSES_H
#define BSGP_TARGET_PASSES_H

#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
class LLVMTypeConverter;
class OpPassManager;
class RewritePatternSet;
namespace arith {
class ArithDialect;
}
namespace func {
class FuncDialect;
}
namespace scf {
class SCFDialect;
}
namespace LLVM {
class LLVMDialect;
}
namespace NVVM {
class NVVMDialect;
}
namespace spirv {
class SPIRVDialect;
}
namespace cf {
class ControlFlowDialect;
}
namespace ub {
class UBDialect;
}
} // namespace mlir

namespace bsgp {

#define GEN_PASS_DECL
#include "bsgp/Target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "bsgp/Target/Passes.h.inc"

/// Adds the patterns that lower bsgp pointer, stream and allocation ops to
/// the LLVM dialect. Targets whose device pointers live in another address
/// space configure `converter` accordingly before calling this. Atomics
/// get `atomicSyncScope` as their LLVM syncscope ("" is the whole system;
/// NVPTX takes "device" for CUDA's device scope).
void populateBSGPToLLVMPatterns(mlir::LLVMTypeConverter &converter,
                                mlir::RewritePatternSet &patterns,
                                llvm::StringRef atomicSyncScope = "");

/// Adds populateBSGPToLLVMPatterns and the upstream patterns for everything
/// kernels and host code contain (arith, math as LLVM intrinsics, cf, func,
/// index, ub, vector). Targets add their own (libm, libdevice) around them.
void populateCodeToLLVMPatterns(mlir::LLVMTypeConverter &converter,
                                mlir::RewritePatternSet &patterns,
                                llvm::StringRef atomicSyncScope = "");

/// Registers the !bsgp.ptr and !bsgp.stream conversions on `converter`:
/// both become `!llvm.ptr<addressSpace>`.
void addBSGPTypeConversions(mlir::LLVMTypeConverter &converter,
                            unsigned addressSpace = 0);

/// Where kernels are compiled for. One object may carry several forms; the
/// runtime picks one when the program starts.
struct CodegenTargets {
  bool cpu = true;
  bool cuda = false;
  bool spirv = false;
  std::string cudaChip = "sm_90";
  std::string cudaPath;
  unsigned cudaGroupsPerBlock = 8;
  bool lineInfo = false;
  /// The -O level; 0 keeps the SPIR-V module as generated.
  unsigned spirvOptLevel = 2;
};

/// The device code passes of `targets`: lower-kernels-nvvm (PTX),
/// lower-kernels-spirv (SPIR-V) and/or lower-kernels-cpu (native rank loops).
void buildDeviceCodegenPipeline(mlir::OpPassManager &pm,
                                const CodegenTargets &targets);

/// From outlined kernels to an LLVM-dialect module for the host: the device
/// code passes, then lower-launches, scf-to-cf, convert-to-llvm and
/// reconcile-unrealized-casts.
void buildCodegenPipeline(mlir::OpPassManager &pm,
                          const CodegenTargets &targets);

} // namespace bsgp

#endif // BSGP_TARGET_PASSES_H
