//===- SegmentEndValues.cpp - uniform values the host computes ------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A uniform value that the host needs after a segment of a spawn split by
/// bsgp-split-uniform-flow is stored by rank 0 and read back, unless the
/// host can compute it. Before the segment the host computes what depends
/// only on its own values; `thread.size` after a kill or fork is known to
/// the host only at the end of the segment, in the require that reads the
/// new count. Computing such values there, rather than on the device,
/// matters beyond the copy it saves: where the segment kills every thread,
/// there is no rank 0 to store the value, and `if (thread.size == 0)
/// break;` would read a list that no thread wrote.
///
/// A thread.put whose barrier lies past the segment's end (`put; for (...)
/// { barrier; ... }`) is done at the end too: the value goes into the
/// variable's list at the put's rank.
///
//===----------------------------------------------------------------------===//

#include "SegmentEndValues.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace bsgp {

bool isHostableKind(Operation *op) {
  // A uniform `?:` or the condition of a loop with `break` (`!broke &&
  // i < n`) comes as an scf.if yielding values.
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return ifOp.getNumResults() != 0 &&
           !ifOp->walk([&](Operation *nested) {
                  if (nested == op || isa<scf::YieldOp>(nested) ||
                      isHostableKind(nested))
                    return WalkResult::advance();
                  return WalkResult::interrupt();
                })
                .wasInterrupted();
  if (op->getNumRegions() != 0 || op->getNumResults() == 0 ||
      !isMemoryEffectFree(op) || isa<SinglePassOp, UniformOp>(op))
    return false;
  if (op->getDialect() && op->getDialect()->getNamespace() == "bsgp" &&
      !isa<PtrOffsetOp, PtrCastOp, PtrNullOp>(op))
    return false;
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
          arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op)) {
    APInt divisor;
    if (!matchPattern(op->getOperand(1), m_ConstantInt(&divisor)) ||
        divisor.isZero())
      return false;
  }
  return true;
}

SmallVector<Value> getExternalUses(Operation *op) {
  llvm::SetVector<Value> uses;
  op->walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      if (!op->isAncestor(v.getParentRegion()->getParentOp()))
        uses.insert(v);
  });
  return uses.takeVector();
}

/// The top-level op of \p seg that is or holds \p op, or null.
static Operation *topLevelOf(Operation *op, ArrayRef<Operation *> seg) {
  for (Operation *top : seg)
    if (top == op || top->isProperAncestor(op))
      return top;
  return nullptr;
}

/// True if no op of \p seg after \p top (a top-level op) changes the count.
static bool countFixedAfter(Operation *top, ArrayRef<Operation *> seg) {
  auto it = llvm::find(seg, top);
  for (Operation *later : llvm::make_range(std::next(it), seg.end()))
    if (later->walk([](SetSizeOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return false;
  return true;
}

/// Collects the ops computing \p v inside \p seg, operands first, into
/// \p ops; false where one cannot be computed at the segment's end.
static bool collect(Value v, ArrayRef<Operation *> seg,
                    function_ref<bool(Value)> hostHas,
                    llvm::SetVector<Operation *> &ops) {
  Operation *def = v.getDefiningOp();
  Operation *top = def ? topLevelOf(def, seg) : nullptr;
  if (!top) {
    // From before the segment, or a block argument of an op in it.
    if (!def && llvm::any_of(seg, [&](Operation *s) {
          return s->isAncestor(
              cast<BlockArgument>(v).getOwner()->getParentOp());
        }))
      return false;
    return hostHas(v);
  }
  if (ops.contains(def))
    return true;
  // Only ops at the top level of the segment: one nested in a branch may
  // not run.
  if (top != def)
    return false;
  if (isa<ThreadSizeOp>(def)) {
    if (!countFixedAfter(top, seg))
      return false;
  } else if (!isHostableKind(def)) {
    return false;
  } else {
    for (Value operand : getExternalUses(def))
      if (!collect(operand, seg, hostHas, ops))
        return false;
  }
  ops.insert(def);
  return true;
}

bool isComputableAtSegmentEnd(Value v, ArrayRef<Operation *> seg,
                              function_ref<bool(Value)> hostHas) {
  llvm::SetVector<Operation *> ops;
  return collect(v, seg, hostHas, ops);
}

SmallVector<Value>
takeComputableAtSegmentEnd(SmallVectorImpl<Value> &values,
                           ArrayRef<Operation *> seg,
                           function_ref<bool(Value)> hostHas) {
  SmallVector<Value> taken;
  llvm::erase_if(values, [&](Value v) {
    if (!isComputableAtSegmentEnd(v, seg, hostHas))
      return false;
    taken.push_back(v);
    return true;
  });
  return taken;
}

SmallVector<Value> cloneAtSegmentEnd(OpBuilder &b, ArrayRef<Value> values,
                                     Value count, ArrayRef<Operation *> seg,
                                     const IRMapping &map) {
  llvm::SetVector<Operation *> ops;
  for (Value v : values) {
    bool ok = collect(v, seg, [](Value) { return true; }, ops);
    (void)ok;
    assert(ok && "a value not computable at the segment's end");
  }
  IRMapping cloned = map;
  for (Operation *op : ops) {
    if (isa<ThreadSizeOp>(op)) {
      cloned.map(op->getResult(0), count);
      continue;
    }
    b.clone(*op, cloned);
  }
  SmallVector<Value> out;
  for (Value v : values)
    out.push_back(cloned.lookupOrDefault(v));
  return out;
}

PutOp getPendingPut(Value v, ArrayRef<Operation *> seg) {
  auto put = v.getDefiningOp<PutOp>();
  if (!put)
    return {};
  // (A put of an earlier segment was done there.)
  auto at = llvm::find(seg, put.getOperation());
  if (at == seg.end() ||
      std::any_of(std::next(at), seg.end(), llvm::IsaPred<BarrierOp>))
    return {};
  return put;
}

void storePendingPut(OpBuilder &b, Location loc, Value value, Value list,
                     Value rank) {
  Value size = ThreadSizeOp::create(b, loc, b.getI32Type());
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
  Value valid = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, rank, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rank, size));
  auto ifOp = scf::IfOp::create(b, loc, valid, /*withElseRegion=*/false);
  OpBuilder inner = ifOp.getThenBodyBuilder();
  PtrStoreOp::create(inner, loc, value, list, rank);
}

bool storeWhereComputed(OpBuilder &b, Location loc, Value value, Value list,
                        Block *body,
                        function_ref<Value(OpBuilder &, Value)> widen) {
  while (auto sel = value.getDefiningOp<arith::SelectOp>()) {
    if (sel.getTrueValue() != sel.getFalseValue())
      break;
    value = sel.getTrueValue();
  }
  Operation *def = value.getDefiningOp();
  // A put's result is the value other threads put, defined only after the
  // next barrier: it is stored at the segment's end.
  if (!def || def->getBlock() != body || isa<PutOp>(def))
    return false;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(def);
  Value rank = ThreadRankOp::create(b, loc, b.getI32Type());
  PtrStoreOp::create(b, loc, widen(b, value), list, rank);
  return true;
}

Value getHostSource(Value v) {
  if (auto uniform = v.getDefiningOp<UniformOp>())
    v = uniform->getOperand(0);
  return isa_and_nonnull<RequireOp>(v.getDefiningOp()) ? v : Value();
}

} // namespace bsgp
