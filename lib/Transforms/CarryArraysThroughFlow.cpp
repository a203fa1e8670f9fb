//===- CarryArraysThroughFlow.cpp - private arrays through uniform flow ---===//
//
// Part of bsgpc, the BSGP compiler.
//
// bsgp-split-uniform-flow turns a branch or loop that holds a barrier into
// host control flow around spawns; a thread-private array (`int a[4];`, a
// stack slot of the kernel) cannot outlive the spawn that made it. So that
// such an array keeps its contents through the branch or loop, as a scalar
// does, its elements go through it as SSA values: loaded before it, passed
// as loop-carried values or branch results, stored into a fresh array at
// the start of each region and after it, and loaded again at the region's
// end. The elements are then ordinary per-thread values, carried in lists
// from one spawn to the next.
//
//===----------------------------------------------------------------------===//

#include "CarryArraysThroughFlow.h"
#include "PrivateArrays.h"

#include "bsgp/Support/StreamAllocation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace bsgp;

namespace {

/// The elements of an array are its words (PrivateArray::word): its own
/// elements, or the words of an array of structs.
using Array = PrivateArray;

std::optional<Array> asArray(Operation &op) { return asPrivateArray(op); }

/// A fresh copy of `array` at `b`, holding `elements`.
Value makeCopy(OpBuilder &b, Location loc, const Array &array,
               ValueRange elements) {
  Value ptr = clonePrivateArray(b, array).ptr;
  Value words = array.wordPointer(b, loc, ptr);
  for (auto [i, element] : llvm::enumerate(elements)) {
    Value index = arith::ConstantIntOp::create(b, loc, b.getI32Type(), i);
    PtrStoreOp::create(b, loc, element, words, index);
  }
  return ptr;
}

SmallVector<Value> loadAll(OpBuilder &b, Location loc, const Array &array,
                           Value ptr) {
  SmallVector<Value> elements;
  Value words = array.wordPointer(b, loc, ptr);
  for (uint64_t i = 0; i < array.words; ++i) {
    Value index = arith::ConstantIntOp::create(b, loc, b.getI32Type(), i);
    elements.push_back(PtrLoadOp::create(b, loc, array.word, words, index));
  }
  return elements;
}

/// Uses of `ptr` inside `region` read `copy` instead.
void replaceIn(Value ptr, Value copy, Region &region) {
  ptr.replaceUsesWithIf(copy, [&](OpOperand &use) {
    return region.isAncestor(use.getOwner()->getParentRegion());
  });
}

/// Uses of `ptr` after `op` in its block (or nested in what follows it)
/// read `copy` instead.
void replaceAfter(Value ptr, Value copy, Operation *op) {
  Block *block = op->getBlock();
  ptr.replaceUsesWithIf(copy, [&](OpOperand &use) {
    Operation *top = block->findAncestorOpInBlock(*use.getOwner());
    return top && op->isBeforeInBlock(top);
  });
}

/// In `block`, a copy of the array from `args` at the start, and its
/// elements loaded again before the terminator, appended to its operands.
void threadBlock(Block &block, const Array &array, Value ptr, ValueRange args,
                 Location loc) {
  OpBuilder b = OpBuilder::atBlockBegin(&block);
  Value copy = makeCopy(b, loc, array, args);
  replaceIn(ptr, copy, *block.getParent());
  Operation *term = block.getTerminator();
  b.setInsertionPoint(term);
  SmallVector<Value> out = loadAll(b, loc, array, copy);
  unsigned at = term->getNumOperands();
  term->insertOperands(at, out);
}

Operation *threadWhile(scf::WhileOp op, const Array &array, Value ptr) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  SmallVector<Value> inits(op.getInits());
  llvm::append_range(inits, loadAll(b, loc, array, ptr));
  SmallVector<Type> types(op.getResultTypes());
  types.append(array.words, array.word);
  auto loop = scf::WhileOp::create(b, loc, types, inits);
  loop.getBefore().takeBody(op.getBefore());
  loop.getAfter().takeBody(op.getAfter());
  for (Block *block : {loop.getBeforeBody(), loop.getAfterBody()}) {
    SmallVector<Value> args;
    for (uint64_t i = 0; i < array.words; ++i)
      args.push_back(block->addArgument(array.word, loc));
    threadBlock(*block, array, ptr, args, loc);
  }
  op.replaceAllUsesWith(loop.getResults().take_front(op.getNumResults()));
  op.erase();
  b.setInsertionPointAfter(loop);
  Value after = makeCopy(
      b, loc, array, loop.getResults().drop_front(types.size() - array.words));
  replaceAfter(ptr, after, loop);
  return loop;
}

Operation *threadIf(scf::IfOp op, const Array &array, Value ptr) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  SmallVector<Value> elements = loadAll(b, loc, array, ptr);
  SmallVector<Type> types(op.getResultTypes());
  types.append(array.words, array.word);
  auto branch = scf::IfOp::create(b, loc, types, op.getCondition(),
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
  branch.getThenRegion().takeBody(op.getThenRegion());
  threadBlock(branch.getThenRegion().front(), array, ptr, elements, loc);
  if (op.getElseRegion().empty()) {
    // No else: the elements go through unchanged.
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&branch.getElseRegion());
    scf::YieldOp::create(b, loc, elements);
  } else {
    branch.getElseRegion().takeBody(op.getElseRegion());
    threadBlock(branch.getElseRegion().front(), array, ptr, elements, loc);
  }
  op.replaceAllUsesWith(branch.getResults().take_front(op.getNumResults()));
  op.erase();
  b.setInsertionPointAfter(branch);
  Value after =
      makeCopy(b, loc, array,
               branch.getResults().drop_front(types.size() - array.words));
  replaceAfter(ptr, after, branch);
  return branch;
}

/// True if `ptr` is used only by loads, stores, offsets and casts whose
/// results stay within one region (no derived pointer crosses `op`), and is
/// used inside `op` or after it.
bool needsThreading(Value ptr, Operation *op) {
  auto inOrAfter = [&](Operation *user) {
    Operation *top = op->getBlock()->findAncestorOpInBlock(*user);
    return op->isAncestor(user) || (top && op->isBeforeInBlock(top));
  };
  if (llvm::none_of(ptr.getUsers(), inOrAfter))
    return false;
  // A pointer made from the array before `op` and used in or after it is
  // left to bsgp-split-uniform-flow's error.
  for (Operation *user : ptr.getUsers()) {
    if (inOrAfter(user) || isa<PtrLoadOp>(user))
      continue;
    for (Value r : user->getResults())
      if (llvm::any_of(r.getUsers(), inOrAfter))
        return false;
  }
  return true;
}

} // namespace

void bsgp::carryArraysThroughFlow(
    SpawnOp spawn, llvm::function_ref<bool(Operation *)> isSynchronizing) {
  // Outer branches and loops first: their copies are the arrays of the
  // ones nested in them.
  SmallVector<Operation *> flow;
  spawn.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isSynchronizing(op))
      flow.push_back(op);
  });
  for (Operation *op : flow) {
    // The arrays made before `op` in a block that holds it.
    SmallVector<Array> arrays;
    for (Block *block = op->getBlock(); block;
         block = block->getParentOp() == spawn.getOperation()
                     ? nullptr
                     : block->getParentOp()->getBlock()) {
      Operation *top = block->findAncestorOpInBlock(*op);
      for (Operation &candidate : *block) {
        if (&candidate == top)
          break;
        if (std::optional<Array> array = asArray(candidate))
          arrays.push_back(*array);
      }
    }
    // Each array threaded makes `op` anew, with more results.
    for (const Array &array : arrays) {
      Value ptr = array.ptr;
      if (!array.word ||
          array.words * getStreamWordCount(array.word) >
              kMaxCarriedArrayWords ||
          !needsThreading(ptr, op))
        continue;
      if (auto loop = dyn_cast<scf::WhileOp>(op))
        op = threadWhile(loop, array, ptr);
      else
        op = threadIf(cast<scf::IfOp>(op), array, ptr);
    }
  }
}
