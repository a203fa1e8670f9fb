//===- ForwardSortResults.cpp - sort into the caller's output lists -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `thread.sortby(k); sorted[thread.rank] = k; ranks[thread.rank] = old;`
// reads the sorted keys and old ranks from the sort's lists after the
// barrier and writes them to the caller's lists: a copy of both lists,
// which CUB's sort does not make (its last pass writes the output). The
// library's `__bsgp_list_sort_ranks_*(input, keys, ids, spareKeys, spareIds,
// n)` says whether the sorted pairs are in its spare lists, and this pass
// makes the caller's lists the spare lists: the sort writes them (always
// on CUDA when it sorts the caller's keys, where its last pass writes the
// spare lists), the host copies the pairs there when the sort answers that
// they are in its own lists, the stores go, and the superstep's other
// reads of the sorted lists read the caller's.
//
// Right when the lists are apart: the caller's two lists from each other
// and from the sort's input if that is a list from before the spawn
// (bsgp-forward-sort-keys); the host asks the runtime whether they are
// distinct allocations and runs a copy of the spawn that forwards if so,
// the original otherwise. The superstep must read no other list from
// before the spawn (it would see the caller's lists already written) and
// touch the caller's lists only through the two stores.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "HostTests.h"
#include "MemoryChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPFORWARDSORTRESULTSPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

using ssutil::getFreshRoot;
using ssutil::isDefinedIn;
using ssutil::isPointer;
using ssutil::isRankIndex;

/// One of the sort's two result lists and the caller's list it goes to.
struct Output {
  /// The require result that is the sorted list (`keys + at`).
  Value sorted;
  /// The caller's list and the store into it, if forwarded.
  Value target;
  PtrStoreOp store;
};

/// The require result of `require` that is `base + at` for the call's
/// operand `base`, if any.
Value findSortedList(RequireOp require, Value base) {
  auto yield = cast<YieldOp>(require.getBody().front().getTerminator());
  for (auto [i, v] : llvm::enumerate(yield.getValues()))
    if (auto offset = v.getDefiningOp<PtrOffsetOp>())
      if (offset.getPtr() == base)
        return require.getResult(i);
  return {};
}

/// Finds the store that writes `out.sorted[rank]`, loaded at the top level
/// of `step`, at the rank of a list from before the spawn; false if the
/// sorted list has another use.
bool findStore(SpawnOp spawn, SuperstepOp step, Output &out) {
  for (Operation *user : out.sorted.getUsers()) {
    auto load = dyn_cast<PtrLoadOp>(user);
    if (!load || load->getParentOp() != step.getOperation() ||
        !isRankIndex(load.getIndex()))
      return false;
    for (Operation *valueUser : load.getResult().getUsers()) {
      auto store = dyn_cast<PtrStoreOp>(valueUser);
      if (!store || store->getParentOp() != step.getOperation() ||
          store.getValue() != load.getResult() ||
          !isRankIndex(store.getIndex()) ||
          isDefinedIn(spawn, store.getPtr()) ||
          store.getPtr().getType() != out.sorted.getType())
        continue;
      out.target = store.getPtr();
      out.store = store;
    }
  }
  return true;
}

/// True if `step` reads no list from before the spawn and touches the
/// targets only through their stores.
bool stepAllows(SpawnOp spawn, SuperstepOp step, ArrayRef<Output> outs) {
  WalkResult walk = step.getBody().walk([&](Operation *op) {
    for (Output out : outs)
      if (op == out.store.getOperation())
        return WalkResult::advance();
    for (Value operand : op->getOperands())
      for (const Output &out : outs)
        if (out.target && operand == out.target)
          return WalkResult::interrupt();
    if (auto load = dyn_cast<PtrLoadOp>(op)) {
      Value ptr = load.getPtr();
      bool sortedList = llvm::any_of(
          outs, [&](const Output &out) { return ptr == out.sorted; });
      if (!sortedList && !getFreshRoot(spawn, ptr))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// Host code at `b` copying `n` elements of `src` to `dst`.
void buildCopy(OpBuilder &b, Location loc, Value dst, Value src, Value n) {
  Type element = cast<PtrType>(dst.getType()).getElementType();
  unsigned bytes = element.getIntOrFloatBitWidth() / 8;
  Value size = arith::MulIOp::create(
      b, loc, n, arith::ConstantIntOp::create(b, loc, bytes, 64));
  ssutil::buildRuntimeCall(b, loc, "bsgprt_memcpy_dtod", Type(),
                           {dst, src, size});
}

/// Rewrites the sort (mapped through `mapping`) to leave its pairs in the
/// targets, and the superstep to read them there.
void rewrite(func::CallOp call, ArrayRef<Output> outs, IRMapping &mapping) {
  auto mapped =
      cast<func::CallOp>(mapping.lookupOrDefault(call.getOperation()));
  Location loc = mapped.getLoc();
  OpBuilder b(mapped->getContext());
  b.setInsertionPointAfter(mapped);
  // False: the sorted pairs are in the sort's own lists.
  Value inOwn = arith::XOrIOp::create(
      b, loc, mapped.getResult(0), arith::ConstantIntOp::create(b, loc, 1, 1));
  auto branch = scf::IfOp::create(b, loc, TypeRange(), inOwn,
                                  /*withElseRegion=*/false);
  b.setInsertionPointToStart(branch.thenBlock());
  for (auto [i, constOut] : llvm::enumerate(outs)) {
    Output out = constOut;
    buildCopy(b, loc, out.target, mapped.getOperand(kSortKeys + i),
              mapped.getOperand(kSortCount));
    mapped->setOperand(kSortSpareKeys + i, out.target);
    Value sorted = mapping.lookupOrDefault(out.sorted);
    sorted.replaceAllUsesWith(out.target);
    cast<PtrStoreOp>(mapping.lookupOrDefault(out.store.getOperation())).erase();
  }
}

void forward(SpawnOp spawn, RequireOp require, func::CallOp call) {
  auto next = dyn_cast_or_null<SuperstepOp>(require->getNextNode());
  if (!next)
    return;
  Output outs[2];
  outs[0].sorted = findSortedList(require, call.getOperand(kSortKeys));
  outs[1].sorted = findSortedList(require, call.getOperand(kSortIds));
  for (Output &out : outs)
    if (!out.sorted || !findStore(spawn, next, out))
      return;
  // Both: a spare list that stays the sort's own is `keys + n` only where
  // the sort needs one (__bsgp_sort_spare_count), and the sorted pairs
  // must end in the spare lists.
  if (!outs[0].target || !outs[1].target)
    return;
  if (!stepAllows(spawn, next, outs))
    return;
  // The lists the sort reads or writes while it writes the targets.
  SmallVector<std::pair<Value, Value>, 3> pairs;
  pairs.push_back({outs[0].target, outs[1].target});
  Value input = call.getOperand(kSortInput);
  if (!isDefinedIn(spawn, input))
    for (Output &out : outs)
      pairs.push_back({input, out.target});
  IRMapping mapping;
  OpBuilder b(spawn);
  Location loc = spawn.getLoc();
  Value test;
  for (auto [p, q] : pairs)
    test = ssutil::andTest(b, loc, test,
                           ssutil::buildDistinctAllocationsTest(b, loc, p, q));
  ssutil::versionSpawn(spawn, test, kResultVersionAttr, "sorts into the lists",
                       "copies the sorted lists", mapping);
  rewrite(call, outs, mapping);
}

struct ForwardSortResultsPass
    : public bsgp::impl::BSGPForwardSortResultsPassBase<
          ForwardSortResultsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<SpawnOp, std::pair<RequireOp, func::CallOp>>> found;
    getOperation()->walk([&](SpawnOp spawn) {
      for (Operation &op : spawn.getBody().front()) {
        auto require = dyn_cast<RequireOp>(op);
        if (!require)
          continue;
        for (Operation &inner : require.getBody().front())
          if (func::CallOp call = ssutil::getListSortCall(&inner))
            found.push_back({spawn, {require, call}});
      }
    });
    for (auto &[spawn, site] : found)
      forward(spawn, site.first, site.second);
  }
};

} // namespace
