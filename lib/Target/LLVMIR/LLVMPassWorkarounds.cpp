//===- LLVMPassWorkarounds.cpp - LLVM passes bsgpc leaves out -------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Target/LLVMPassWorkarounds.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassInstrumentation.h"

void bsgp::registerLLVMPassWorkarounds(
    llvm::PassInstrumentationCallbacks &pic) {
  pic.registerShouldRunOptionalPassCallback(
      [](llvm::StringRef pass, llvm::Any) {
        // VectorCombine (llvm/llvm-project#192607, open in LLVM 22):
        // scalarizing `add nuw nsw (insertelement C, x, 1), <1, 0>` builds
        // `x + 0`, its folder returns x itself, and the vector add's no-wrap
        // flags are then copied onto x's instruction. A struct step
        // `t.w = t.w.yx + uint2(s.u, (uint)k)` with k = (uint)-16 << r thus
        // became `shl nuw nsw -16, r`, poison for every r > 0, and LLVM
        // stored -16 for every thread. The pass only tidies vector code;
        // the loop and SLP vectorizers still run.
        return pass != "VectorCombinePass";
      });
}
