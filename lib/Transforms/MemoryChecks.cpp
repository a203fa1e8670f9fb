//===- MemoryChecks.cpp - what a superstep's accesses reach ---------------===//
//
// What the passes that move or drop memory accesses (bsgp-forward-sort-*,
// bsgp-rematerialize-loads, bsgp-single-pass) can tell of a pointer or a
// write: where it points into, whether a call writes only through its
// arguments, and which call is the library's sort. Private to
// lib/Transforms.
//
//===----------------------------------------------------------------------===//

#include "MemoryChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace bsgp {
namespace ssutil {

bool isDefinedIn(SpawnOp spawn, Value value) {
  return spawn.getBody().isAncestor(value.getParentRegion());
}

bool isRankIndex(Value index) {
  while (Operation *def = index.getDefiningOp()) {
    if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::IndexCastOp,
            arith::IndexCastUIOp>(def)) {
      index = def->getOperand(0);
      continue;
    }
    return isa<ThreadRankOp>(def);
  }
  return false;
}

Operation *getFreshRoot(SpawnOp spawn, Value ptr) {
  while (true) {
    if (!isDefinedIn(spawn, ptr))
      return nullptr;
    Operation *def = ptr.getDefiningOp();
    if (!def)
      return nullptr;
    if (isa<DNewOp, DTempNewOp, GroupLocalOp>(def))
      return def;
    if (isa<PtrCastOp, PtrOffsetOp>(def)) {
      ptr = def->getOperand(0);
      continue;
    }
    if (auto require = dyn_cast<RequireOp>(def)) {
      auto yield = cast<YieldOp>(require.getBody().front().getTerminator());
      ptr = yield.getValues()[cast<OpResult>(ptr).getResultNumber()];
      continue;
    }
    return nullptr;
  }
}

bool isPointer(Type type) { return isa<PtrType, LLVM::LLVMPointerType>(type); }

std::optional<bool> checkWritesBeforeEffects(SpawnOp spawn, Operation *op,
                                             Operation *excludedRoot) {
  if (isMemoryEffectFree(op) ||
      op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return true;
  // Work-group communication touches work-group memory and registers only.
  if (isGroupOp(op) && !isa<GroupLookbackOp>(op))
    return true;
  if (auto call = dyn_cast<CallOpInterface>(op)) {
    auto callee =
        dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
    if (!callee)
      return false;
    if (!getCalledLibraryKind(op) &&
        !callee.getLeafReference().getValue().starts_with("bsgprt_"))
      return false;
    return llvm::all_of(op->getOperands(), [&](Value v) {
      if (!isPointer(v.getType()))
        return true;
      Operation *root = getFreshRoot(spawn, v);
      return root && root != excludedRoot;
    });
  }
  if (!isa<MemoryEffectOpInterface>(op))
    return false;
  return std::nullopt;
}

bool sameElementWidth(PtrType a, PtrType b) {
  Type x = a.getElementType(), y = b.getElementType();
  return x == y || (x.isIntOrFloat() && y.isIntOrFloat() &&
                    x.getIntOrFloatBitWidth() == y.getIntOrFloatBitWidth());
}

func::CallOp getListSortCall(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  if (!call || getCalledLibraryKind(call) != LibraryKind::SortRanks)
    return {};
  // The verifier checked the callee's signature.
  assert(call.getNumOperands() == kNumSortOperands);
  return call;
}

} // namespace ssutil
} // namespace bsgp
