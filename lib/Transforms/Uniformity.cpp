//===- Uniformity.cpp - which values every thread of a spawn shares -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "Uniformity.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace bsgp;

Value UniformityInfo::getBranchCondition(Operation *op) {
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return ifOp.getCondition();
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return whileOp.getConditionOp().getCondition();
  return {};
}

bool UniformityInfo::variesNow(OpResult r) const {
  Operation *op = r.getOwner();
  auto varies = [&](Value v) { return varying.contains(v); };
  if (op->hasTrait<OpTrait::ConstantLike>() ||
      isa<ThreadSizeOp, UniformOp, TargetIsOp, SinglePassOp, RequireOp,
          GroupSizeOp, GroupCountOp, SubgroupSizeOp>(op))
    return false;
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    unsigned i = r.getResultNumber();
    return varies(ifOp.getCondition()) ||
           varies(ifOp.thenYield().getOperand(i)) ||
           varies(ifOp.elseYield().getOperand(i));
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    scf::ConditionOp cond = whileOp.getConditionOp();
    return varies(cond.getCondition()) ||
           varies(cond.getArgs()[r.getResultNumber()]);
  }
  if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return true;
  return llvm::any_of(op->getOperands(), varies);
}

bool UniformityInfo::argVariesNow(BlockArgument a) const {
  auto whileOp = dyn_cast<scf::WhileOp>(a.getOwner()->getParentOp());
  if (!whileOp)
    return true;
  auto varies = [&](Value v) { return varying.contains(v); };
  scf::ConditionOp cond = whileOp.getConditionOp();
  unsigned i = a.getArgNumber();
  if (varies(cond.getCondition()))
    return true;
  if (a.getOwner() == whileOp.getAfterBody())
    return varies(cond.getArgs()[i]);
  return varies(whileOp.getInits()[i]) ||
         varies(whileOp.getYieldOp().getOperand(i));
}

UniformityInfo::UniformityInfo(SpawnOp spawn) {
  for (bool changed = true; changed;) {
    changed = false;
    spawn.getBody().walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument a : block.getArguments())
            if (!varying.contains(a) && argVariesNow(a))
              changed |= varying.insert(a).second;
      for (OpResult r : op->getResults())
        if (!varying.contains(r) && variesNow(r))
          changed |= varying.insert(r).second;
    });
  }
}
