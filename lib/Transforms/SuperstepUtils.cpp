//===- SuperstepUtils.cpp - helpers shared by the §4 passes --------------===//
//
// Rebuilding supersteps with other results, and reading names and source
// positions off locations.
//
//===----------------------------------------------------------------------===//

#include "SuperstepUtils.h"

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
  for (auto [result, yielded] :
       llvm::zip(step.getResults(), yield.getValues()))
    if (!result.use_empty())
      kept.push_back(yielded);
  return replaceSuperstepResults(step, kept);
}

FileLineColLoc findFileLineCol(Location loc) {
  // Code inlined from a collective function is attributed to its call site,
  // which is where it appears in the spawn.
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    if (FileLineColLoc caller = findFileLineCol(callSite.getCaller()))
      return caller;
  FileLineColLoc found;
  loc->walk([&](Location nested) {
    if (auto flc = dyn_cast<FileLineColLoc>(nested)) {
      found = flc;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

std::string getValueName(Value value) {
  std::string name;
  Location loc = isa<BlockArgument>(value) ? cast<BlockArgument>(value).getLoc()
                                           : value.getDefiningOp()->getLoc();
  loc->walk([&](Location nested) {
    if (auto named = dyn_cast<NameLoc>(nested)) {
      name = named.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name;
}

int getStepNumber(ArrayRef<SuperstepOp> steps, Operation *op) {
  for (auto [i, step] : llvm::enumerate(steps))
    if (step->isAncestor(op))
      return static_cast<int>(i);
  return -1;
}

} // namespace ssutil
} // namespace bsgp
