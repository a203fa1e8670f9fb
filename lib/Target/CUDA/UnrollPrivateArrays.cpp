//===- UnrollPrivateArrays.cpp - Unroll loops over private arrays ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A BSGP thread's arrays (`uint ks[16];`) are allocas. LLVM promotes an
// alloca to registers only when every access has a constant index, which
// a loop over the array gives only once it is fully unrolled, and the full
// unroller's size threshold stops at a few hundred instructions: a loop of
// 16 iterations with a local-memory reorder in its body stays a loop, and
// its array goes to the stack (local memory, per-thread device memory). So
// such loops get the `llvm.loop.unroll.full` hint, as `#pragma unroll`
// would give them.
//
//===----------------------------------------------------------------------===//

#include "UnrollPrivateArrays.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

namespace {

/// True if an access of `ptr` in `loop` reaches an alloca through an
/// address that the loop varies.
bool indexesPrivateArray(llvm::Value *ptr, llvm::Loop &loop) {
  if (!llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(ptr)))
    return false;
  auto *inst = llvm::dyn_cast<llvm::Instruction>(ptr);
  return inst && loop.contains(inst);
}

struct UnrollPrivateArraysPass : llvm::PassInfoMixin<UnrollPrivateArraysPass> {
  llvm::PreservedAnalyses run(llvm::Loop &loop, llvm::LoopAnalysisManager &,
                              llvm::LoopStandardAnalysisResults &ar,
                              llvm::LPMUpdater &) {
    unsigned trips = ar.SE.getSmallConstantTripCount(&loop);
    if (trips == 0 || trips > bsgp::kMaxPrivateArrayTrips ||
        llvm::findStringMetadataForLoop(&loop, "llvm.loop.unroll.disable"))
      return llvm::PreservedAnalyses::all();
    for (llvm::BasicBlock *block : loop.blocks())
      for (llvm::Instruction &inst : *block) {
        llvm::Value *ptr = nullptr;
        if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst))
          ptr = load->getPointerOperand();
        else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
          ptr = store->getPointerOperand();
        if (ptr && indexesPrivateArray(ptr, loop)) {
          llvm::addStringMetadataToLoop(&loop, "llvm.loop.unroll.full");
          return llvm::PreservedAnalyses::all();
        }
      }
    return llvm::PreservedAnalyses::all();
  }
};

} // namespace

void bsgp::registerUnrollPrivateArrays(llvm::PassBuilder &pb) {
  pb.registerLateLoopOptimizationsEPCallback(
      [](llvm::LoopPassManager &lpm, llvm::OptimizationLevel level) {
        if (level.getSpeedupLevel() > 0)
          lpm.addPass(UnrollPrivateArraysPass());
      });
}
