//===- SynchronizingFlow.cpp - branches and loops holding barriers -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "SynchronizingFlow.h"

#include "HostTests.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

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
        Operation *def = v.getDefiningOp();
        if (spawn.getBody().isAncestor(v.getParentRegion()) &&
            !req.getBody().isAncestor(v.getParentRegion()) &&
            !(def &&
              (def->hasTrait<OpTrait::ConstantLike>() || isa<RequireOp>(def))))
          reads = true;
      }
    });
    if (reads)
      return true;
  }
  return false;
}
