//===- Rematerialize.cpp - recompute instead of saving (§4.2 step 2) -------===//
//
// thread.rank is the same value in every superstep that no rank-reassigning
// barrier separates from its definition (Listing 3: rk1 is replaced by
// thread.rank and not saved). The pass generalizes this to every superstep
// result defined by an operand-less op whose value cannot change between
// supersteps: constants, bsgp.thread_rank (no rank reassignment in between)
// and bsgp.thread_size (no rank reassignment and no set_size in the spawn).
// Each using superstep gets its own copy, and the result is dropped.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "SuperstepUtils.h"

#include "mlir/IR/Builders.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPREMATERIALIZEPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

enum class Kind { None, Constant, Rank, Size };

Kind classify(Operation *def) {
  if (!def || def->getNumOperands() != 0 || def->getNumRegions() != 0)
    return Kind::None;
  if (def->hasTrait<OpTrait::ConstantLike>())
    return Kind::Constant;
  if (isa<ThreadRankOp>(def))
    return Kind::Rank;
  if (isa<ThreadSizeOp>(def))
    return Kind::Size;
  return Kind::None;
}

void rematerialize(SpawnOp spawn) {
  SmallVector<SuperstepOp> steps = ssutil::getSupersteps(spawn);
  bool setsSize = false;
  spawn.walk([&](SetSizeOp) { setsSize = true; });

  for (unsigned i = 0; i < steps.size(); ++i) {
    auto yield = cast<YieldOp>(steps[i].getBody().front().getTerminator());
    bool changed = false;
    for (auto [result, yielded] :
         llvm::zip(steps[i].getResults(), yield.getValues())) {
      Operation *def = yielded.getDefiningOp();
      Kind kind = classify(def);
      if (kind == Kind::None)
        continue;
      DenseMap<unsigned, Value> copies;
      for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
        Operation *user = use.getOwner();
        // thread.get(r, v) reads another thread's v: keep it saved.
        if (isa<GetOp>(user) && use.getOperandNumber() == 1)
          continue;
        int t = ssutil::getStepNumber(steps, user);
        if (t <= static_cast<int>(i))
          continue;
        if (kind == Kind::Rank || kind == Kind::Size) {
          bool reassigned = false;
          for (int j = i + 1; j <= t; ++j)
            reassigned |= steps[j].getRankReassigned();
          if (reassigned || (kind == Kind::Size && setsSize))
            continue;
        }
        Value &copy = copies[t];
        if (!copy) {
          Block &body = steps[t].getBody().front();
          OpBuilder b(&body, body.begin());
          Operation *clone = b.clone(*def);
          // The copy is not the named source value: keep only its position
          // so that the saved-value table lists the variable once.
          if (FileLineColLoc pos = ssutil::findFileLineCol(def->getLoc()))
            clone->setLoc(pos);
          else
            clone->setLoc(UnknownLoc::get(def->getContext()));
          copy = clone->getResult(0);
        }
        use.set(copy);
        changed = true;
      }
    }
    if (!changed)
      continue;
    SmallVector<Value> kept;
    for (auto [result, yielded] :
         llvm::zip(steps[i].getResults(), yield.getValues()))
      if (!result.use_empty())
        kept.push_back(yielded);
    steps[i] = ssutil::replaceSuperstepResults(steps[i], kept);
  }
}

struct RematerializePass
    : public bsgp::impl::BSGPRematerializePassBase<RematerializePass> {
  void runOnOperation() override {
    getOperation()->walk([&](SpawnOp spawn) { rematerialize(spawn); });
  }
};

} // namespace
