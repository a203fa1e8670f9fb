//===- CarryPrivateArrays.cpp - private arrays across barriers -----------===//
//
// A thread-private array (`int a[3];` in a spawn) is a stack slot of the
// kernel that runs its superstep; the next superstep is another kernel,
// where that slot no longer exists. So that such an array keeps its
// contents across a barrier like a scalar variable does, the pass copies
// it through SSA values: before the barrier every element is loaded, after
// it a fresh slot of the next superstep gets them back, and the code after
// the barrier uses the fresh slot. The loaded elements are then ordinary
// saved values (§4.2 step 5): bsgp-save-restore stores them to temporary
// streams allocated by the minimum flow of §4.3 and, after a
// rank-reassigning barrier, loads them by old rank.
//
//===----------------------------------------------------------------------===//

#include "PrivateArrays.h"
#include "bsgp/Transforms/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPCARRYPRIVATEARRAYSPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

/// The private array that `op` casts to a !bsgp.ptr, if its slot is
/// directly in `body`.
std::optional<PrivateArray> asPrivateArray(Operation &op, Block &body) {
  std::optional<PrivateArray> array = bsgp::asPrivateArray(op);
  if (!array || array->slot->getBlock() != &body)
    return std::nullopt;
  return array;
}

/// The pointers into `array`: the array itself and what ptr.offset and
/// ptr.cast make of it, in program order (each after what it is made of).
/// Returns failure and the op if some other op makes a pointer of one (a
/// select, a branch result), which the pass cannot follow across a barrier.
LogicalResult derivedPointers(Value array, SmallVectorImpl<Value> &out,
                              Operation *&other) {
  llvm::SetVector<Value> seen;
  seen.insert(array);
  for (size_t i = 0; i < seen.size(); ++i)
    for (Operation *user : seen[i].getUsers()) {
      if (isa<PtrOffsetOp, PtrCastOp>(user) && user->getOperand(0) == seen[i]) {
        seen.insert(user->getResult(0));
        continue;
      }
      if (llvm::any_of(user->getResultTypes(),
                       [](Type t) { return isa<PtrType>(t); }) &&
          !isa<PtrLoadOp>(user)) {
        other = user;
        return failure();
      }
    }
  out.assign(seen.begin(), seen.end());
  return success();
}

/// True if `v` is defined before `barrier` and used after it, at the top
/// level of `body` or nested in an op there.
bool crosses(Value v, Operation *barrier, Block &body) {
  Operation *def = body.findAncestorOpInBlock(*v.getDefiningOp());
  if (!def || !def->isBeforeInBlock(barrier))
    return false;
  return llvm::any_of(v.getUsers(), [&](Operation *user) {
    Operation *top = body.findAncestorOpInBlock(*user);
    return top && barrier->isBeforeInBlock(top);
  });
}

/// Where the copy after `barrier` goes: after a rank-reassigning barrier,
/// after the thread.oldrank assignment, which must precede every use of a
/// value from before the barrier (bsgp-save-restore loads them there).
Operation *copyPoint(BarrierOp barrier) {
  Operation *next = barrier->getNextNode();
  if (!barrier.getRankReassigned())
    return next;
  for (Operation *op = next; op && !isa<BarrierOp>(op); op = op->getNextNode())
    if (isa<SetOldRankOp>(op))
      return op->getNextNode();
  return next;
}

/// Copies `array` across `barrier`; returns the array of the code after it.
FailureOr<PrivateArray> carryAcross(PrivateArray array, BarrierOp barrier,
                                    ArrayRef<Value> derived, Block &body) {
  if (!array.word)
    return emitError(array.slot.getLoc())
           << "a thread-private array of this element type cannot be kept "
              "across a barrier; keep it within one superstep or store it to "
              "a list";
  uint64_t words = array.words * getStreamWordCount(array.word);
  if (words > kMaxCarriedArrayWords)
    return emitError(array.slot.getLoc())
           << "a thread-private array of " << array.count
           << " elements is used after a barrier: its " << words
           << " words would each be saved in a stream of their own (at most "
           << kMaxCarriedArrayWords
           << "); keep it within one superstep or store it to a list";

  Location loc = barrier.getLoc();
  OpBuilder b(barrier);
  Type i32 = b.getI32Type();
  // The elements are named `a[i]` in the superstep tables (the words of an
  // array of structs by the word's index).
  auto name = dyn_cast<NameLoc>(array.ptr.getDefiningOp()->getLoc());
  SmallVector<Value> elements;
  Value contents = array.wordPointer(b, loc, array.ptr);
  for (uint64_t i = 0; i < array.words; ++i) {
    Value index = arith::ConstantIntOp::create(b, loc, i32, int64_t(i));
    Location elementLoc =
        name
            ? Location(NameLoc::get(b.getStringAttr(name.getName().str() + "[" +
                                                    std::to_string(i) + "]"),
                                    loc))
            : loc;
    elements.push_back(
        PtrLoadOp::create(b, elementLoc, array.word, contents, index));
  }

  Operation *point = copyPoint(barrier);
  b.setInsertionPoint(point);
  PrivateArray fresh = clonePrivateArray(b, array);
  Value ptr = fresh.ptr;
  Value freshWords = fresh.wordPointer(b, loc, ptr);
  IRMapping map;
  for (auto [i, element] : llvm::enumerate(elements)) {
    Value index = arith::ConstantIntOp::create(b, loc, i32, int64_t(i));
    PtrStoreOp::create(b, loc, element, freshWords, index);
  }
  // The pointers made before the barrier and used after it are made again
  // from the copy, with the pointers they are made of (`&a[i].f` is a cast
  // of an offset of a cast of a[i], and only the last crosses).
  map.map(array.ptr, ptr);
  llvm::SmallPtrSet<Value, 8> remade;
  for (Value v : llvm::reverse(derived)) {
    if (v == array.ptr || (!remade.contains(v) && !crosses(v, barrier, body)))
      continue;
    remade.insert(v);
    remade.insert(v.getDefiningOp()->getOperand(0));
  }
  for (Value v : derived)
    if (v != array.ptr && remade.contains(v))
      map.map(v, b.clone(*v.getDefiningOp(), map)->getResult(0));
  for (Value v : derived) {
    Value copy = map.lookupOrNull(v);
    if (!copy)
      continue;
    v.replaceUsesWithIf(copy, [&](OpOperand &use) {
      Operation *top = body.findAncestorOpInBlock(*use.getOwner());
      return top && (top == point || point->isBeforeInBlock(top));
    });
  }
  return fresh;
}

LogicalResult carryArrays(SpawnOp spawn) {
  Block &body = spawn.getBody().front();
  SmallVector<PrivateArray> arrays;
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (std::optional<PrivateArray> array = asPrivateArray(op, body)) {
      // The copies made after a rank-reassigning barrier come later in the
      // block and are already tracked.
      if (llvm::none_of(arrays, [&](const PrivateArray &known) {
            return known.ptr == array->ptr;
          }))
        arrays.push_back(*array);
      continue;
    }
    auto barrier = dyn_cast<BarrierOp>(op);
    if (!barrier)
      continue;
    // Arrays copied at this barrier are, after it, their copies.
    for (PrivateArray &array : arrays) {
      SmallVector<Value> derived;
      Operation *other = nullptr;
      if (failed(derivedPointers(array.ptr, derived, other))) {
        if (llvm::any_of(other->getResults(),
                         [&](Value v) { return crosses(v, barrier, body); }))
          return emitError(other->getLoc())
                 << "a pointer into a thread-private array is chosen here "
                    "and used after a barrier; index the array itself "
                    "after the barrier";
        continue;
      }
      if (llvm::none_of(derived,
                        [&](Value v) { return crosses(v, barrier, body); }))
        continue;
      FailureOr<PrivateArray> copy = carryAcross(array, barrier, derived, body);
      if (failed(copy))
        return failure();
      array = *copy;
    }
  }
  return success();
}

struct CarryPrivateArraysPass
    : public bsgp::impl::BSGPCarryPrivateArraysPassBase<
          CarryPrivateArraysPass> {
  void runOnOperation() override {
    SmallVector<SpawnOp> spawns;
    getOperation()->walk([&](SpawnOp spawn) { spawns.push_back(spawn); });
    for (SpawnOp spawn : spawns)
      if (failed(carryArrays(spawn)))
        return signalPassFailure();
  }
};

} // namespace
