//===- LLVMPassWorkarounds.h - LLVM passes bsgpc leaves out -----*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// bsgpc optimizes host code, CPU kernels and CUDA kernels with LLVM's default
// pipelines. Where a pass of the LLVM release bsgpc builds with miscompiles
// programs, the pipelines skip it through this one callback, so that every
// LLVM pipeline of the compiler leaves out the same passes.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_TARGET_LLVMPASSWORKAROUNDS_H
#define BSGP_TARGET_LLVMPASSWORKAROUNDS_H

namespace llvm {
class PassInstrumentationCallbacks;
}

namespace bsgp {

/// Makes the pipelines built with `pic` skip the LLVM passes known to
/// miscompile (see the .cpp for each pass and the LLVM issue it waits for).
void registerLLVMPassWorkarounds(llvm::PassInstrumentationCallbacks &pic);

} // namespace bsgp

#endif // BSGP_TARGET_LLVMPASSWORKAROUNDS_H
