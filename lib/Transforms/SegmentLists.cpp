//===- SegmentLists.cpp - the lists a split spawn's host code frees -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "SegmentLists.h"

#include "HostTests.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace bsgp;

unsigned bsgp::listElementBytes(Type t) {
  if (isa<PtrType>(t))
    return 8;
  if (auto vt = dyn_cast<VectorType>(t))
    return llvm::PowerOf2Ceil(vt.getNumElements() *
                              listElementBytes(vt.getElementType()));
  return (t.getIntOrFloatBitWidth() + 7) / 8;
}

Value bsgp::allocSegmentList(OpBuilder &b, Location loc, Type listTy,
                             Value count) {
  Value n = arith::ExtSIOp::create(b, loc, b.getI64Type(), count);
  Value bytes = arith::ConstantIntOp::create(
      b, loc, listElementBytes(cast<PtrType>(listTy).getElementType()), 64);
  Value srcloc =
      LLVM::ZeroOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()));
  Value p = ssutil::buildRuntimeCall(b, loc, "bsgprt_temp_alloc_elements",
                                     LLVM::LLVMPointerType::get(b.getContext()),
                                     {n, bytes, srcloc});
  // The allocator touches only its own state, which no program reaches:
  // memory the program can see is unchanged across the call (what
  // bsgp-keep-uniforms-on-device asks of the host code it looks past).
  using LLVM::ModRefInfo;
  p.getDefiningOp()->setAttr(
      "memory_effects",
      LLVM::MemoryEffectsAttr::get(
          b.getContext(),
          {ModRefInfo::NoModRef, ModRefInfo::NoModRef, ModRefInfo::ModRef,
           ModRefInfo::NoModRef, ModRefInfo::NoModRef, ModRefInfo::NoModRef}));
  return UnrealizedConversionCastOp::create(b, loc, listTy, p).getResult(0);
}

void bsgp::freeSegmentList(OpBuilder &b, Location loc, Value list) {
  ssutil::buildRuntimeCall(b, loc, "bsgprt_temp_free", Type(), {list});
}

namespace {

/// True for a call of the runtime or of the collective library, neither of
/// which keeps a pointer it is given.
bool keepsNoPointer(CallOpInterface call) {
  auto callee = dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
  return (callee &&
          callee.getLeafReference().getValue().starts_with("bsgprt_")) ||
         getCalledLibraryKind(call.getOperation()).has_value();
}

/// True if a value made from `v` (by pointer arithmetic, casts, selects,
/// branch and loop results: anything but a read through it) reaches a
/// terminator of a region of `owner`, so that it may be used after the
/// code of that region ends, or is stored to memory, or is given to a
/// function that might keep it.
bool leaves(Value v, Operation *owner) {
  SmallVector<Value> work{v};
  llvm::DenseSet<Value> seen{v};
  auto push = [&](Value x) {
    if (seen.insert(x).second)
      work.push_back(x);
  };
  auto pushInside = [&](Operation *op) {
    for (Value r : op->getResults())
      push(r);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument a : block.getArguments())
          push(a);
  };
  while (!work.empty()) {
    Value x = work.pop_back_val();
    for (OpOperand &use : x.getUses()) {
      Operation *user = use.getOwner();
      if (user->hasTrait<OpTrait::IsTerminator>()) {
        if (user->getParentOp() == owner)
          return true;
        pushInside(user->getParentOp());
        continue;
      }
      if (auto call = dyn_cast<CallOpInterface>(user)) {
        if (!keepsNoPointer(call))
          return true;
        continue;
      }
      if (auto memory = dyn_cast<MemoryEffectOpInterface>(user)) {
        // Through `x`: a read or write of its list, which makes no pointer.
        SmallVector<MemoryEffects::EffectInstance> effects;
        memory.getEffectsOnValue(x, effects);
        if (!effects.empty())
          continue;
        // Writing memory, not through `x`: `x` is what is stored.
        if (memory.hasEffect<MemoryEffects::Write>())
          return true;
      }
      pushInside(user);
    }
  }
  return false;
}

} // namespace

TempListPlan
bsgp::planTempLists(SpawnOp spawn,
                    llvm::function_ref<bool(Operation *)> isStructural) {
  TempListPlan plan;
  Block *body = &spawn.getBody().front();
  SmallVector<DTempNewOp> lists;
  spawn.getBody().walk([&](DTempNewOp list) { lists.push_back(list); });
  auto mark = [](DTempNewOp list) {
    list->setAttr(BSGPDialect::FreedByFlowAttrHelper::getNameStr(),
                  UnitAttr::get(list.getContext()));
  };
  auto defer = [&](DTempNewOp list) {
    OpBuilder b(list->getBlock(),
                std::next(Block::iterator(list.getOperation())));
    ssutil::buildRuntimeCall(b, list.getLoc(), "bsgprt_temp_defer_free", Type(),
                             {list.getResult()});
    mark(list);
    plan.deferred = true;
  };
  for (DTempNewOp list : lists) {
    auto require = list->getParentOfType<RequireOp>();
    if (!require || !spawn->isProperAncestor(require))
      continue;
    // The block of the spawn's structure that holds the require, and its
    // op holding it.
    Operation *top = require;
    Block *block = require->getBlock();
    while (block != body && !isStructural(block->getParentOp())) {
      top = block->getParentOp();
      block = top->getBlock();
    }
    Operation *owner = block == body ? nullptr : block->getParentOp();
    if (top != require) {
      // A branch on a target query stays within one segment, which frees
      // the list at its end, after the branch.
      if (leaves(list.getResult(), top))
        defer(list);
      continue;
    }
    Value named;
    Block &requireBody = require.getBody().front();
    if (list->getBlock() == &requireBody)
      for (auto [i, v] :
           llvm::enumerate(requireBody.getTerminator()->getOperands()))
        if (v == list.getResult()) {
          named = require->getResult(i);
          break;
        }
    if (named && (!owner || !leaves(named, owner))) {
      plan.freeAtEnd[block].push_back(named);
      mark(list);
      continue;
    }
    defer(list);
  }
  return plan;
}
