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
// Either list may be forwarded alone (`idx[thread.rank] = sort_idx(k)`
// stores only the old ranks): the other spare list stays the sort's own,
// `keys + n` or `ids + n`. That list exists wherever the sort can answer
// that the pairs are in its spare lists: the library allocates n spare
// elements whenever its radix sort may run (__bsgp_sort_spare_count), and
// the native sort leaves the pairs in its own lists, where the host copies
// the forwarded one out.
//
// Right when the lists are apart: the caller's lists from each other and
// from the sort's input if that is a list from before the spawn
// (bsgp-forward-sort-keys); the host asks the runtime whether they are
// distinct allocations and runs a copy of the spawn that forwards if so,
// the original otherwise (with nothing to test, the spawn itself
// forwards). The superstep must read no other list from before the spawn
// (it would see the caller's lists already written) and touch the
// caller's lists only through the forwarded stores.
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

/// findStore's search, which may leave a target behind when it fails.
bool findStoreIn(SpawnOp spawn, SuperstepOp step, Output &out) {
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

/// Finds the store that writes `out.sorted[rank]`, loaded at the top level
/// of `step`, at the rank of a list from before the spawn; none if the
/// sorted list has another use.
void findStore(SpawnOp spawn, SuperstepOp step, Output &out) {
  if (!findStoreIn(spawn, step, out)) {
    out.target = {};
    out.store = {};
  }
}

/// True if `step` reads no list from before the spawn and touches the
/// targets only through their stores. `others` gets the lists from before
/// the spawn that the step writes otherwise (or takes apart): they must be
/// apart from the targets, which the sort writes before those writes where
/// the original wrote the targets in program order among them.
bool stepAllows(SpawnOp spawn, SuperstepOp step, ArrayRef<Output> outs,
                SmallVectorImpl<Value> &others) {
  auto isSorted = [&](Value ptr) {
    return llvm::any_of(outs,
                        [&](const Output &out) { return ptr == out.sorted; });
  };
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
      if (!isSorted(ptr) && !getFreshRoot(spawn, ptr))
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    for (Value operand : op->getOperands()) {
      if (!isPointer(operand.getType()) || isSorted(operand) ||
          getFreshRoot(spawn, operand))
        continue;
      if (!isDefinedIn(spawn, operand)) {
        if (!llvm::is_contained(others, operand))
          others.push_back(operand);
        continue;
      }
      // A pointer made in the step is followed to its operands there; one
      // made elsewhere in the spawn cannot be told apart from the targets.
      if (!step->isAncestor(operand.getParentBlock()->getParentOp()))
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
    if (!out.target)
      continue;
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
  // A sorted list with another use stays in the sort's lists, unchanged.
  for (Output &out : outs)
    if (out.sorted)
      findStore(spawn, next, out);
  if (!outs[0].target && !outs[1].target)
    return;
  SmallVector<Value, 4> others;
  if (!stepAllows(spawn, next, outs, others))
    return;
  // The lists the sort reads or writes while it writes the targets, and
  // those the step writes after the sort.
  Value input = call.getOperand(kSortInput);
  if (!isDefinedIn(spawn, input) && !llvm::is_contained(others, input))
    others.push_back(input);
  SmallVector<std::pair<Value, Value>, 4> pairs;
  if (outs[0].target && outs[1].target)
    pairs.push_back({outs[0].target, outs[1].target});
  for (Value other : others)
    for (Output &out : outs)
      if (out.target)
        pairs.push_back({other, out.target});
  // One list on both sides (`key[r] = sort_idx(key[r])`) is never apart.
  if (llvm::any_of(pairs, [](auto pair) { return pair.first == pair.second; }))
    return;
  IRMapping mapping;
  if (pairs.empty()) {
    rewrite(call, outs, mapping);
    return;
  }
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
