//===- ForwardSortKeys.cpp - sort the caller's key list directly ----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `v = ib[thread.rank]; thread.sortby(v);` (Listing 1) copies the keys into
// the sort's list in a superstep of its own: `__bsgp_keys[thread.rank] = v`
// before the barrier, then the sort reads that list. The copy is the list
// `ib` itself in rank order, so the sort can read `ib`: the library's
// `__bsgp_list_sort_ranks_*(input, keys, ...)` takes its input apart from
// the list it sorts in (the library passes `keys` twice), and this pass
// makes `input` the caller's list and drops the store. Right only if no
// write of the superstep, nor of the host code up to the sort, can change
// the caller's list: every write must go to memory the spawn allocated or
// to work-group memory (which no pointer from before the spawn reaches).
// The sort never writes its input.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "MemoryChecks.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPFORWARDSORTKEYSPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

using ssutil::getFreshRoot;
using ssutil::isDefinedIn;
using ssutil::isPointer;
using ssutil::isRankIndex;

/// True if `op` (not its nested ops) writes only memory the spawn
/// allocated or work-group memory, and does not touch the list of
/// `keysRoot` other than through `allowed`.
bool writesOnlyFresh(SpawnOp spawn, Operation *op, Operation *keysRoot,
                     Operation *allowed) {
  // Their bodies' ops are checked one by one.
  if (op == allowed || isa<SuperstepOp, RequireOp, YieldOp>(op))
    return true;
  // Pointer arithmetic included: what goes through it is checked there.
  if (isMemoryEffectFree(op))
    return true;
  // Any other access to the sort's list (a read included) needs the copy.
  for (Value operand : op->getOperands())
    if (isPointer(operand.getType()) &&
        getFreshRoot(spawn, operand) == keysRoot)
      return false;
  if (std::optional<bool> known =
          ssutil::checkWritesBeforeEffects(spawn, op, keysRoot))
    return *known;
  SmallVector<MemoryEffects::EffectInstance> list;
  cast<MemoryEffectOpInterface>(op).getEffects(list);
  for (const MemoryEffects::EffectInstance &effect : list) {
    if (isa<MemoryEffects::Read>(effect.getEffect()) ||
        isa<ThreadStateResource>(effect.getResource()))
      continue;
    Value target = effect.getValue();
    if (!target || !getFreshRoot(spawn, target))
      return false;
  }
  return true;
}

/// Forwards the caller's list to `call` if the superstep `step` before its
/// require stores `p[thread.rank]` into the sort's input at the rank.
void forward(SpawnOp spawn, SuperstepOp step, RequireOp require,
             func::CallOp call) {
  Value keys = call.getOperand(kSortKeys);
  if (call.getOperand(kSortInput) != keys)
    return;
  Operation *keysRoot = getFreshRoot(spawn, keys);
  if (!keysRoot || isa<GroupLocalOp>(keysRoot))
    return;
  // The store, at the top level of the superstep so that every rank runs
  // it, of a load at the top level too.
  PtrStoreOp store;
  for (Operation &op : step.getBody().front()) {
    auto candidate = dyn_cast<PtrStoreOp>(op);
    if (candidate && candidate.getPtr() == keys &&
        isRankIndex(candidate.getIndex()))
      store = candidate;
  }
  if (!store)
    return;
  auto load = store.getValue().getDefiningOp<PtrLoadOp>();
  if (!load || load->getBlock() != store->getBlock() ||
      !isRankIndex(load.getIndex()) || isDefinedIn(spawn, load.getPtr()) ||
      load.getPtr().getType() != keys.getType())
    return;
  auto check = [&](Operation *op) {
    return writesOnlyFresh(spawn, op, keysRoot, store)
               ? WalkResult::advance()
               : WalkResult::interrupt();
  };
  if (step->walk(check).wasInterrupted())
    return;
  // The host code from the superstep to the sort.
  for (Operation *op = step->getNextNode(); op != require.getOperation();
       op = op->getNextNode())
    if (op->walk(check).wasInterrupted())
      return;
  for (Operation &op : require.getBody().front()) {
    if (&op == call.getOperation())
      break;
    if (op.walk(check).wasInterrupted())
      return;
  }
  call->setOperand(kSortInput, load.getPtr());
  store.erase();
}

struct ForwardSortKeysPass
    : public bsgp::impl::BSGPForwardSortKeysPassBase<ForwardSortKeysPass> {
  void runOnOperation() override {
    SmallVector<SpawnOp> spawns;
    getOperation()->walk([&](SpawnOp spawn) { spawns.push_back(spawn); });
    for (SpawnOp spawn : spawns) {
      // thread.size at the sort must be the number of ranks that loaded.
      bool setsSize = false;
      spawn.walk([&](SetSizeOp) { setsSize = true; });
      if (setsSize)
        continue;
      SuperstepOp last;
      for (Operation &op : spawn.getBody().front()) {
        if (auto step = dyn_cast<SuperstepOp>(op)) {
          last = step;
          continue;
        }
        auto require = dyn_cast<RequireOp>(op);
        if (!require || !last)
          continue;
        for (Operation &inner : require.getBody().front())
          if (func::CallOp call = ssutil::getListSortCall(&inner))
            forward(spawn, last, require, call);
      }
    }
  }
};

} // namespace
