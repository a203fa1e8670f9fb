//===- Supersteps.cpp - the supersteps of a spawn -------------------------===//
//
// The supersteps of a spawn in superstep form: listing them, numbering
// them, and rebuilding one with other results.
//
//===----------------------------------------------------------------------===//

#include "Supersteps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace bsgp {
namespace ssutil {

SmallVector<SuperstepOp> getSupersteps(SpawnOp spawn) {
  SmallVector<SuperstepOp> steps;
  for (Operation &op : spawn.getBody().front())
    if (auto step = dyn_cast<SuperstepOp>(op))
      steps.push_back(step);
  return steps;
}

SuperstepOp replaceSuperstepResults(SuperstepOp step, ArrayRef<Value> yielded) {
  OpBuilder b(step);
  auto newStep =
      SuperstepOp::create(b, step.getLoc(), ValueRange(yielded).getTypes(),
                          step.getIndexAttr(), step.getRankReassignedAttr(),
                          step.getSourceBeginAttr(), step.getSourceEndAttr());
  for (NamedAttribute attr : step->getDiscardableAttrs())
    newStep->setAttr(attr.getName(), attr.getValue());
  newStep.getBody().takeBody(step.getBody());
  auto yield = cast<YieldOp>(newStep.getBody().front().getTerminator());
  SmallVector<Value> oldYielded(yield.getValues());
  yield.getValuesMutable().assign(yielded);
  for (auto [i, old] : llvm::enumerate(oldYielded)) {
    const auto *it = llvm::find(yielded, old);
    if (it != yielded.end())
      step.getResult(i).replaceAllUsesWith(
          newStep.getResult(it - yielded.begin()));
  }
  assert(step->use_empty() && "a dropped superstep result is still used");
  step->erase();
  return newStep;
}

SuperstepOp dropUnusedResults(SuperstepOp step) {
  if (llvm::all_of(step.getResults(),
                   [](Value result) { return !result.use_empty(); }))
    return step;
  auto yield = cast<YieldOp>(step.getBody().front().getTerminator());
  SmallVector<Value> kept;
  for (auto [result, yielded] : llvm::zip(step.getResults(), yield.getValues()))
    if (!result.use_empty())
      kept.push_back(yielded);
  return replaceSuperstepResults(step, kept);
}

int getStepNumber(ArrayRef<SuperstepOp> steps, Operation *op) {
  for (auto [i, step] : llvm::enumerate(steps))
    if (step->isAncestor(op))
      return static_cast<int>(i);
  return -1;
}

} // namespace ssutil
} // namespace bsgp
