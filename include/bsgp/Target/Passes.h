//===- Passes.h - code generation passes of bsgpc ---------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_TARGET_PASSES_H
#define BSGP_TARGET_PASSES_H

#include "mlir/Pass/Pass.h"

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
} // namespace mlir

namespace bsgp {

#define GEN_PASS_DECL
#include "bsgp/Target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "bsgp/Target/Passes.h.inc"

/// Adds the patterns that lower bsgp pointer, stream and allocation ops to
/// the LLVM dialect. Targets whose device pointers live in another address
/// space configure `converter` accordingly before calling this.
void populateBSGPToLLVMPatterns(mlir::LLVMTypeConverter &converter,
                                mlir::RewritePatternSet &patterns);

/// Registers the !bsgp.ptr and !bsgp.stream conversions on `converter`:
/// both become `!llvm.ptr<addressSpace>`.
void addBSGPTypeConversions(mlir::LLVMTypeConverter &converter,
                            unsigned addressSpace = 0);

/// The pipeline from outlined kernels to an LLVM-dialect module for the host
/// with CPU kernels: lower-kernels-cpu, lower-launches, scf-to-cf,
/// convert-to-llvm, reconcile-unrealized-casts.
void buildCPUCodegenPipeline(mlir::OpPassManager &pm);

} // namespace bsgp

#endif // BSGP_TARGET_PASSES_H
