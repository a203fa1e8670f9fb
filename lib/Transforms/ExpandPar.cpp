//===- ExpandPar.cpp - bundle the supersteps of par branches (§5) --------===//
//
// `par { s1; s2; }` declares its statements independent, so the k-th
// superstep of every branch can run in the same kernel (Fig. 5, Listing 8).
// The pass replaces the par by its branches' pieces interleaved: piece k of
// each branch, in branch order (the branch that reassigns ranks at the
// preceding barrier first), then one barrier, for k = 0 .. max barrier
// count. A branch with fewer barriers simply has no pieces at the end.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/IR/Builders.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPEXPANDPARPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

LogicalResult expandPar(ParOp par) {
  unsigned numBranches = par.getBranches().size();
  SmallVector<SmallVector<SmallVector<Operation *>>> pieces(numBranches);
  SmallVector<SmallVector<BarrierOp>> barriers(numBranches);
  size_t numPieces = 0;
  for (auto [r, region] : llvm::enumerate(par.getBranches())) {
    pieces[r].emplace_back();
    for (Operation &op : region.front().without_terminator()) {
      if (auto barrier = dyn_cast<BarrierOp>(op)) {
        barriers[r].push_back(barrier);
        pieces[r].emplace_back();
        continue;
      }
      pieces[r].back().push_back(&op);
    }
    numPieces = std::max(numPieces, pieces[r].size());
  }

  // The aligned barriers become one; two branches may not both reassign
  // ranks there, since each would set thread.oldrank.
  SmallVector<std::pair<Location, bool>> merged;
  for (size_t k = 0; k + 1 < numPieces; ++k) {
    std::optional<Location> loc;
    unsigned reassigning = 0;
    for (unsigned r = 0; r < numBranches; ++r) {
      if (k >= barriers[r].size())
        continue;
      if (!loc)
        loc = barriers[r][k].getLoc();
      reassigning += barriers[r][k].getRankReassigned();
    }
    if (reassigning > 1)
      return par.emitError("branches of a par reassign ranks at the same "
                           "aligned barrier (#")
             << k + 1 << ")";
    merged.emplace_back(*loc, reassigning == 1);
  }

  OpBuilder b(par);
  for (size_t k = 0; k < numPieces; ++k) {
    // After a rank-reassigning barrier the branch that reassigned goes
    // first: its set_oldrank must precede every use of a value from before
    // the barrier (bsgp-save-restore loads them right after it).
    SmallVector<unsigned> order;
    for (unsigned r = 0; r < numBranches; ++r)
      if (k > 0 && k - 1 < barriers[r].size() &&
          barriers[r][k - 1].getRankReassigned())
        order.insert(order.begin(), r);
      else
        order.push_back(r);
    for (unsigned r : order)
      if (k < pieces[r].size())
        for (Operation *op : pieces[r][k])
          op->moveBefore(par);
    if (k + 1 < numPieces)
      BarrierOp::create(b, merged[k].first, merged[k].second);
  }
  SmallVector<Value> results;
  for (Region &region : par.getBranches())
    llvm::append_range(
        results, cast<YieldOp>(region.front().getTerminator()).getValues());
  par.replaceAllUsesWith(results);
  par->erase();
  return success();
}

struct ExpandParPass : public bsgp::impl::BSGPExpandParPassBase<ExpandParPass> {
  void runOnOperation() override {
    // Post-order: inner pars are expanded into their branch first.
    SmallVector<ParOp> pars;
    getOperation()->walk([&](ParOp par) { pars.push_back(par); });
    for (ParOp par : pars)
      if (failed(expandPar(par)))
        return signalPassFailure();
  }
};

} // namespace
