//===- ResolveOldRank.cpp - reads of thread.oldrank ----------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `thread.oldrank = r` is a bsgp.set_oldrank whose operand is the old rank
// in SSA form (Listing 3); the collectives that reassign ranks set it right
// after their barrier(RANK_REASSIGNED). Once they are inlined into the
// spawn body, a read of thread.oldrank is that operand: the nearest
// set_oldrank before the read in the spawn body. Later passes save it
// across barriers like any value, under the ranks of the superstep that
// saves it, which is what a thread reading its old rank later expects.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPRESOLVEOLDRANKPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

/// The old rank a read at `read` sees: the operand of the nearest
/// set_oldrank before it in the spawn body, or null where none comes first.
/// `top` is the read's ancestor directly in the body.
/// True if a rank reassignment is nested in `op` (a uniform branch or loop).
bool reassignsInside(Operation *op) {
  return op->getNumRegions() != 0 && op->walk([](SetOldRankOp) {
                                         return WalkResult::interrupt();
                                       }).wasInterrupted();
}

/// The old rank that `read` sees: the operand of the nearest set_oldrank
/// before it in its block or, going out of uniform branches and loops, in
/// the blocks around it. Null with `ambiguous` false where none comes
/// before (the rank itself); `ambiguous` where a branch or loop that
/// reassigns ranks comes between (which reassignment ran last is known
/// only at run time).
Value lastOldRank(Operation *read, SpawnOp spawn, bool &ambiguous) {
  ambiguous = false;
  for (Operation *cur = read; cur != spawn; cur = cur->getParentOp()) {
    for (Operation *op = cur->getPrevNode(); op; op = op->getPrevNode()) {
      if (auto set = dyn_cast<SetOldRankOp>(op))
        return set.getOldRank();
      if (reassignsInside(op)) {
        ambiguous = true;
        return {};
      }
    }
    // A loop around the read that reassigns ranks after it: the next
    // iteration's read sees that reassignment.
    Operation *parent = cur->getParentOp();
    if (isa<scf::WhileOp>(parent) && reassignsInside(parent)) {
      ambiguous = true;
      return {};
    }
  }
  return {};
}

struct ResolveOldRankPass
    : public bsgp::impl::BSGPResolveOldRankPassBase<ResolveOldRankPass> {
  void runOnOperation() override {
    SmallVector<OldRankOp> reads;
    getOperation()->walk([&](OldRankOp read) { reads.push_back(read); });
    for (OldRankOp read : reads) {
      auto spawn = read->getParentOfType<SpawnOp>();
      if (!spawn) {
        read.emitError("thread.oldrank can only be read in a spawn body, "
                       "not in a function it calls; pass it as an argument");
        return signalPassFailure();
      }
      bool ambiguous = false;
      Value old = lastOldRank(read, spawn, ambiguous);
      if (ambiguous) {
        read.emitError("thread.oldrank is read where the last rank "
                       "reassignment depends on a branch or loop iteration; "
                       "copy it into a variable right after the "
                       "reassignment");
        return signalPassFailure();
      }
      if (!old) {
        OpBuilder b(read);
        old = ThreadRankOp::create(b, read.getLoc(), b.getI32Type());
      }
      read.replaceAllUsesWith(old);
      read.erase();
    }
  }
};

} // namespace
