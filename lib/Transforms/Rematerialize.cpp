//===- Rematerialize.cpp - recompute instead of saving (§4.2 step 2) -----===//
//
// thread.rank is the same value in every superstep that no rank-reassigning
// barrier separates from its definition (Listing 3: rk1 is replaced by
// thread.rank and not saved). The pass generalizes this to every superstep
// result computed, in a few side-effect-free ops, from constants, host
// values, bsgp.thread_rank (no rank reassignment in between) and
// bsgp.thread_size (no rank reassignment and no set_size in the spawn):
// each using superstep recomputes it, and the result is dropped. The rank
// itself, used after the set_oldrank of the first rank-reassigning
// superstep after it, is the old rank there (`int old = thread.rank;
// thread.sortby(k);` needs no saved old).
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "SourceNames.h"
#include "Supersteps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPREMATERIALIZEPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

/// Most ops recomputed for one saved value: recomputing must stay cheaper
/// than a store and a load per thread.
constexpr unsigned kMaxRecipeOps = 6;

/// The ops that recompute a superstep result, in definition order.
struct Recipe {
  SmallVector<Operation *, 4> ops;
  /// Values of the defining superstep taken from its results (which the
  /// using superstep loads anyway), with those results.
  SmallVector<std::pair<Value, Value>, 2> fromResults;
  bool readsRank = false;
  bool readsSize = false;
};

/// Adds the computation of `value` (defined in `step` or on the host) to
/// `recipe`; false if it cannot be recomputed elsewhere. Values in
/// `available` are taken from the superstep results they map to.
bool collect(Value value, SuperstepOp step, Recipe &recipe,
             const DenseMap<Value, Value> *available = nullptr) {
  // Host values (function arguments, require results) are available in
  // every superstep.
  if (!step->getParentOp()->isAncestor(value.getParentRegion()->getParentOp()))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<RequireOp>(def))
    return true;
  if (available) {
    auto it = available->find(value);
    if (it != available->end()) {
      recipe.fromResults.push_back(*it);
      return true;
    }
  }
  // Results of other supersteps would have to be loaded instead.
  if (def->getParentOp() != step)
    return false;
  if (llvm::is_contained(recipe.ops, def))
    return true;
  if (recipe.ops.size() == kMaxRecipeOps || def->getNumRegions() != 0 ||
      def->getNumResults() != 1)
    return false;
  if (isa<ThreadRankOp>(def)) {
    recipe.readsRank = true;
  } else if (isa<ThreadSizeOp>(def)) {
    recipe.readsSize = true;
  } else if (!isMemoryEffectFree(def)) {
    return false;
  }
  for (Value operand : def->getOperands())
    if (!collect(operand, step, recipe, available))
      return false;
  recipe.ops.push_back(def);
  return true;
}

/// Location of a copy: the source position without the variable name, so
/// that the saved-value table lists the variable once.
Location copyLoc(Operation *op) {
  if (FileLineColLoc pos = ssutil::findFileLineCol(op->getLoc()))
    return pos;
  return UnknownLoc::get(op->getContext());
}

/// The set_oldrank directly in `body`, if any.
SetOldRankOp findSetOldRank(Block &body) {
  for (Operation &op : body)
    if (auto setOld = dyn_cast<SetOldRankOp>(op))
      return setOld;
  return {};
}

/// True if `use` reads the value of its own thread (thread.get(r, v) reads
/// rank r's v).
bool isOwnValueUse(OpOperand &use) {
  return !(isa<GetOp>(use.getOwner()) && use.getOperandNumber() == 1);
}

/// Copies `recipe` at `b` (after `lastCopy`, the last copy into the same
/// place, which it updates) and returns the copy of `yielded`. Values the
/// recipe takes from results map to those results; with `fromOldRank` the
/// rank is the old rank.
Value copyRecipe(OpBuilder &b, const Recipe &recipe, Value yielded,
                 IRMapping &mapping, Operation *&lastCopy,
                 SetOldRankOp fromOldRank = {}) {
  if (lastCopy)
    b.setInsertionPointAfter(lastCopy);
  for (auto [value, fromResult] : recipe.fromResults)
    mapping.map(value, fromResult);
  for (Operation *op : recipe.ops) {
    if (fromOldRank && isa<ThreadRankOp>(op))
      mapping.map(op->getResult(0), fromOldRank.getOldRank());
    if (mapping.contains(op->getResult(0)))
      continue;
    lastCopy = b.clone(*op, mapping);
    lastCopy->setLoc(copyLoc(op));
  }
  return mapping.lookupOrDefault(yielded);
}

void rematerialize(SpawnOp spawn) {
  SmallVector<SuperstepOp> steps = ssutil::getSupersteps(spawn);
  bool setsSize = false;
  spawn.walk([&](SetSizeOp) { setsSize = true; });

  for (unsigned i = 0; i < steps.size(); ++i) {
    auto yield = cast<YieldOp>(steps[i].getBody().front().getTerminator());
    bool changed = false;
    // One mapping per using superstep, so shared subexpressions are copied
    // once.
    DenseMap<unsigned, IRMapping> copies;
    DenseMap<unsigned, Operation *> lastCopies;
    for (auto [result, yielded] :
         llvm::zip(steps[i].getResults(), yield.getValues())) {
      Recipe recipe;
      if (!collect(yielded, steps[i], recipe))
        continue;
      for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
        Operation *user = use.getOwner();
        // thread.get(r, v) reads another thread's v: keep it saved.
        if (!isOwnValueUse(use))
          continue;
        int t = ssutil::getStepNumber(steps, user);
        if (t <= static_cast<int>(i))
          continue;
        Block &body = steps[t].getBody().front();
        SetOldRankOp fromOldRank;
        if (recipe.readsRank || recipe.readsSize) {
          bool reassigned = false;
          for (int j = i + 1; j < t; ++j)
            reassigned |= steps[j].getRankReassigned();
          if (reassigned || (recipe.readsSize && setsSize))
            continue;
          if (steps[t].getRankReassigned()) {
            // The thread that had rank r before the barrier has
            // thread.oldrank r now, so the rank of before is the old rank,
            // once it is known: no store before the barrier and random
            // gather after it, for the rank and for values computed from it
            // (Listing 1's f = rk / 3, which the paper's Table 1 saves).
            if (!recipe.readsRank)
              continue;
            fromOldRank = findSetOldRank(body);
            Operation *top = body.findAncestorOpInBlock(*user);
            if (!fromOldRank || !top || !fromOldRank->isBeforeInBlock(top))
              continue;
          }
        }
        // Copies from the old rank go after its set_oldrank, the others
        // first in the superstep; each in order, so that they dominate
        // every use and each other.
        unsigned key = fromOldRank ? t + steps.size() : t;
        IRMapping &mapping = copies[key];
        Operation *&lastCopy = lastCopies[key];
        OpBuilder b(&body, body.begin());
        if (fromOldRank)
          b.setInsertionPointAfter(fromOldRank);
        use.set(copyRecipe(b, recipe, yielded, mapping, lastCopy, fromOldRank));
        changed = true;
      }
    }
    if (changed)
      steps[i] = ssutil::dropUnusedResults(steps[i]);
  }
}

/// A result computed by a few side-effect-free ops from other results of
/// its superstep is recomputed in a using superstep that loads those
/// results anyway: `int x = in[r]; compact(out, x, (x & 1) != 0, ...)`
/// saves x alone, not x, the flag and the count made from it.
void recomputeFromResults(SpawnOp spawn) {
  SmallVector<SuperstepOp> steps = ssutil::getSupersteps(spawn);
  for (unsigned i = 0; i < steps.size(); ++i) {
    auto yield = cast<YieldOp>(steps[i].getBody().front().getTerminator());
    bool changed = false;
    DenseMap<unsigned, IRMapping> copies;
    DenseMap<unsigned, Operation *> lastCopies;
    for (auto [k, result] : llvm::enumerate(steps[i].getResults())) {
      for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
        int t = ssutil::getStepNumber(steps, use.getOwner());
        // After a rank reassignment results are loaded after the
        // set_oldrank; keep to the plain case.
        if (!isOwnValueUse(use) || t <= static_cast<int>(i) ||
            steps[t].getRankReassigned())
          continue;
        DenseMap<Value, Value> available;
        for (auto [j, other] : llvm::enumerate(steps[i].getResults())) {
          if (j == k)
            continue;
          for (OpOperand &otherUse : other.getUses())
            if (isOwnValueUse(otherUse) &&
                ssutil::getStepNumber(steps, otherUse.getOwner()) == t) {
              available[yield.getValues()[j]] = other;
              break;
            }
        }
        Recipe recipe;
        if (available.empty() ||
            !collect(yield.getValues()[k], steps[i], recipe, &available) ||
            recipe.fromResults.empty() || recipe.readsRank || recipe.readsSize)
          continue;
        Block &body = steps[t].getBody().front();
        IRMapping &mapping = copies[t];
        Operation *&lastCopy = lastCopies[t];
        OpBuilder b(&body, body.begin());
        use.set(copyRecipe(b, recipe, yield.getValues()[k], mapping, lastCopy));
        changed = true;
      }
    }
    if (changed)
      steps[i] = ssutil::dropUnusedResults(steps[i]);
  }
}

struct RematerializePass
    : public bsgp::impl::BSGPRematerializePassBase<RematerializePass> {
  void runOnOperation() override {
    getOperation()->walk([&](SpawnOp spawn) {
      rematerialize(spawn);
      recomputeFromResults(spawn);
    });
  }
};

} // namespace
