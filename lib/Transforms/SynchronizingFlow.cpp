//===- SynchronizingFlow.cpp - branches and loops holding barriers -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "SynchronizingFlow.h"

#include "HostTests.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace bsgp;

/// True for the ops that end or begin a superstep, or that must stay at a
/// superstep level: a branch or loop holding one synchronizes.
bool bsgp::isSyncOp(Operation *op) {
  return isa<BarrierOp, RequireOp, SetOldRankOp, ParOp>(op);
}

/// A branch or loop of the spawn body that holds a sync op. Branches on
/// target queries and the single-pass question are not: later passes
/// (bsgp-specialize-targets, bsgp-single-pass) take one side of them.
bool bsgp::isSynchronizing(Operation *op) {
  if (!isa<scf::IfOp, scf::WhileOp>(op))
    return false;
  if (auto ifOp = dyn_cast<scf::IfOp>(op);
      ifOp && dependsOnTargetQuery(ifOp.getCondition()))
    return false;
  return op
      ->walk([](Operation *nested) {
        return isSyncOp(nested) ? WalkResult::interrupt()
                                : WalkResult::advance();
      })
      .wasInterrupted();
}

/// True if `v`, defined in `spawn`, is a value the host has before any of
/// the spawn's device code runs: a constant, a require's result, or the
/// result of a branch on a target query or the single-pass question (which
/// later passes decide at compile time) that is such a value on both sides.
static bool isHostValue(SpawnOp spawn, Value v, unsigned depth = 0) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (def->hasTrait<OpTrait::ConstantLike>() || isa<RequireOp>(def))
    return true;
  auto branch = dyn_cast<scf::IfOp>(def);
  if (!branch || depth > 4 || !dependsOnTargetQuery(branch.getCondition()) ||
      branch.getElseRegion().empty())
    return false;
  unsigned i = cast<OpResult>(v).getResultNumber();
  auto fromSide = [&](Block *side) {
    Value yielded = side->getTerminator()->getOperand(i);
    return !spawn.getBody().isAncestor(yielded.getParentRegion()) ||
           isHostValue(spawn, yielded, depth + 1);
  };
  return fromSide(branch.thenBlock()) && fromSide(branch.elseBlock());
}

/// True if the spawn holds a synchronizing branch or loop, or a require
/// that reads a value its device code computes (a reduce result that sizes
/// an allocation): both need the spawn cut where the host must act.
bool bsgp::needsUniformFlowSplit(SpawnOp spawn) {
  for (Operation &op : spawn.getBody().front()) {
    if (isSynchronizing(&op))
      return true;
    auto req = dyn_cast<RequireOp>(op);
    if (!req)
      continue;
    bool reads = false;
    req.getBody().walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        if (spawn.getBody().isAncestor(v.getParentRegion()) &&
            !req.getBody().isAncestor(v.getParentRegion()) &&
            !isHostValue(spawn, v))
          reads = true;
      }
    });
    if (reads)
      return true;
  }
  return false;
}

void bsgp::answerQuestionsInFlow(SpawnOp spawn) {
  SmallVector<SinglePassOp> questions;
  spawn.walk([&](SinglePassOp q) {
    bool readByRequire = false;
    for (Operation *user : q->getUsers())
      if (auto branch = dyn_cast<scf::IfOp>(user))
        for (Operation *use : branch->getUsers())
          readByRequire |= use->getParentOfType<RequireOp>() != nullptr;
    if (readByRequire)
      questions.push_back(q);
  });
  if (questions.empty())
    return;
  for (SinglePassOp q : questions) {
    OpBuilder b(q);
    q.getResult().replaceAllUsesWith(
        arith::ConstantIntOp::create(b, q.getLoc(), false, 1));
    q.erase();
  }
  MLIRContext *ctx = spawn.getContext();
  RewritePatternSet patterns(ctx);
  scf::IfOp::getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsGreedily(spawn.getBody(), std::move(patterns));
}
