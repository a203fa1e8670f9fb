//===- SegmentRanks.cpp - ranks recomputed in each segment ----------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "SegmentRanks.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

void bsgp::recomputeRanksInSegments(
    SpawnOp spawn, llvm::function_ref<bool(Operation *)> movesThreads) {
  bool moves = false;
  SmallVector<ThreadRankOp> ranks;
  spawn.getBody().walk([&](Operation *op) {
    if (auto rank = dyn_cast<ThreadRankOp>(op))
      ranks.push_back(rank);
    else if (movesThreads(op))
      moves = true;
  });
  if (moves)
    return;
  // Every use, as one in the rank's block may be past a branch or loop
  // that holds a barrier; CSE merges the copies a segment has twice. Not
  // the value a thread.get reads: that is the value of the superstep
  // before the get's, which a copy next to the get is not.
  for (ThreadRankOp rank : ranks) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : rank->getUses()) {
      auto get = dyn_cast<GetOp>(use.getOwner());
      if (!get ||
          use.getOperandNumber() != get.getValueMutable().getOperandNumber())
        uses.push_back(&use);
    }
    for (OpOperand *use : uses) {
      OpBuilder b(use->getOwner());
      use->set(b.clone(*rank)->getResult(0));
    }
    if (rank->use_empty())
      rank->erase();
  }
}
