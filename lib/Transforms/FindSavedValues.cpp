//===- FindSavedValues.cpp - the saved values of §4.2 step 5 -------------===//
//
// A value is saved iff a superstep other than its defining one uses it. In
// the superstep form those values are the superstep results, so the pass
// only drops results that no longer have uses (after rematerialization or
// dead code elimination), making the results exactly Table 1's "yes" rows.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"
#include "bsgp/Transforms/SuperstepTable.h"

#include "Supersteps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPFINDSAVEDVALUESPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

void pruneResults(SpawnOp spawn) {
  for (SuperstepOp step : ssutil::getSupersteps(spawn))
    ssutil::dropUnusedResults(step);
}

/// The `local` array that `value`, a pointer, points into, if any: a work
/// group's array lives for one kernel, so it cannot be a saved value.
GroupLocalOp findGroupLocal(Value value) {
  for (unsigned depth = 0; value && depth < 64; ++depth) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return nullptr;
    if (auto local = dyn_cast<GroupLocalOp>(def))
      return local;
    if (auto offset = dyn_cast<PtrOffsetOp>(def))
      value = offset.getPtr();
    else if (auto cast = dyn_cast<PtrCastOp>(def))
      value = cast.getPtr();
    else
      return nullptr;
  }
  return nullptr;
}

LogicalResult checkGroupLocals(SpawnOp spawn) {
  LogicalResult result = success();
  // Several saved values (an element pointer and its cast) can point into
  // one array: one error for each array.
  llvm::SmallPtrSet<Operation *, 4> reported;
  for (SuperstepOp step : ssutil::getSupersteps(spawn)) {
    auto yield = cast<YieldOp>(step.getBody().front().getTerminator());
    for (auto [saved, yielded] :
         llvm::zip(step.getResults(), yield.getValues())) {
      GroupLocalOp local = findGroupLocal(yielded);
      if (!local || !reported.insert(local).second)
        continue;
      Operation *user = *saved.getUsers().begin();
      InFlightDiagnostic diag =
          user->emitError("a 'local' array is used after a barrier that ends "
                          "the superstep declaring it; 'local' arrays live "
                          "for one superstep (use group.barrier() inside a "
                          "superstep, or global memory across barriers)");
      diag.attachNote(local.getLoc()) << "the 'local' array is declared here";
      result = failure();
    }
  }
  return result;
}

struct FindSavedValuesPass
    : public bsgp::impl::BSGPFindSavedValuesPassBase<FindSavedValuesPass> {
  using Base::Base;
  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](SpawnOp spawn) {
      pruneResults(spawn);
      failed |= mlir::failed(checkGroupLocals(spawn));
    });
    if (failed)
      return signalPassFailure();
    if (!printTable && !printDot)
      return;
    auto module = dyn_cast<ModuleOp>(getOperation());
    if (!module)
      module = getOperation()->getParentOfType<ModuleOp>();
    if (!module)
      return;
    if (printTable)
      printSuperstepTable(module, llvm::outs());
    if (printDot)
      writeSuperstepDot(module, llvm::outs());
  }
};

} // namespace
