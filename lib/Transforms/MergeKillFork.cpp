//===- MergeKillFork.cpp - a kill followed by a fork as one fork ----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `thread.kill(culled); int level = levelOf(...); int child =
// thread.fork(level * level);` (the paper's tessellator, §5) changes the
// ranks twice: the kill scans the live flags, reads their count back and
// moves every saved value to the survivors' new ranks, and the fork does
// the same for the children. thread.fork(n) replaces each thread by
// max(n, 0) children, ranked in their parents' order, so a killed thread
// is one with no children: when nothing between the two calls reads
// memory or thread state, `thread.fork(culled ? 0 : n)` leaves the same
// children with the same values at the same ranks, and the kill's launches
// and its wait for the device go away.
//
// The code between the calls runs only in the threads the kill keeps (an
// scf.if around it), so that a killed thread computes nothing it did not
// compute before (a division by zero, a loop that does not end). What
// could tell the two forms apart is the parents' ranks, which differ: the
// merge is left out when code that may run after the fork reads ranks of
// an earlier superstep (thread.oldrank, thread.get, thread.put).
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPMERGEKILLFORKPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

struct MergeKillForkPass
    : public bsgp::impl::BSGPMergeKillForkPassBase<MergeKillForkPass> {
  void runOnOperation() override;
};

bool isLibraryCall(Operation *op, LibraryKind kind) {
  return isa<func::CallOp>(op) && getCalledLibraryKind(op) == kind;
}

/// True if `op` computes from its operands alone: no memory, no thread
/// state (thread.rank, thread.size, ...), no barrier, in its regions and in
/// the functions it calls (up to a few calls deep) as well.
bool isLocalComputation(Operation *op, SymbolTableCollection &symbols,
                        unsigned depth = 0) {
  WalkResult result = op->walk([&](Operation *nested) {
    if (auto call = dyn_cast<CallOpInterface>(nested)) {
      auto callee =
          dyn_cast_or_null<func::FuncOp>(call.resolveCallableInTable(&symbols));
      if (!callee || callee.isExternal() || depth >= 4 ||
          isCollectiveFunction(callee))
        return WalkResult::interrupt();
      for (Operation &calleeOp : callee.getBody().getOps())
        if (!isLocalComputation(&calleeOp, symbols, depth + 1))
          return WalkResult::interrupt();
      return WalkResult::skip();
    }
    if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
        isMemoryEffectFree(nested))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

/// True if code that may run after `fork` in its spawn reads ranks of an
/// earlier superstep (the old rank, or values of the superstep before: a
/// get or a put), which the merge would change: the ops after it, or every
/// op of the spawn when a loop around the fork runs the ops before it
/// again.
bool readsParentRanks(Operation *fork) {
  auto spawn = fork->getParentOfType<SpawnOp>();
  bool inLoop = false;
  for (Operation *op = fork->getParentOp(); op != spawn; op = op->getParentOp())
    inLoop |= isa<scf::WhileOp, scf::ForOp>(op);
  bool after = inLoop;
  return spawn
      ->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op == fork)
          after = true;
        else if (after && isa<OldRankOp, GetOp, PutOp>(op))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

void moveIntoSurvivors(OpBuilder &b, Location loc, Value killed,
                       ArrayRef<Operation *> between, ArrayRef<Value> escaping,
                       ArrayRef<Type> types);

/// Folds `kill` into the fork that follows it in its block, if the ops
/// between are local computations and the result is the same program.
void mergeKill(func::CallOp kill, SymbolTableCollection &symbols) {
  SmallVector<Operation *> between;
  Operation *fork = nullptr;
  for (Operation *op = kill->getNextNode(); op; op = op->getNextNode()) {
    if (isLibraryCall(op, LibraryKind::ThreadFork)) {
      fork = op;
      break;
    }
    if (!isLocalComputation(op, symbols))
      return;
    between.push_back(op);
  }
  if (!fork || readsParentRanks(fork))
    return;
  // The values computed between the calls that the fork and the code after
  // it use: the survivors' branch yields them, the killed threads' zeros
  // (they have no children, which would read them).
  llvm::SmallPtrSet<Operation *, 16> moved(between.begin(), between.end());
  SmallVector<Value> escaping;
  for (Operation *op : between)
    for (Value v : op->getResults())
      if (llvm::any_of(v.getUsers(), [&](Operation *user) {
            return !moved.contains(
                op->getBlock()->findAncestorOpInBlock(*user));
          }))
        escaping.push_back(v);
  OpBuilder b(kill);
  Location loc = kill.getLoc();
  SmallVector<Type> types;
  for (Value v : escaping) {
    if (!isa_and_present<TypedAttr>(b.getZeroAttr(v.getType())))
      return;
    types.push_back(v.getType());
  }
  Value killed = kill.getOperand(0);
  if (!between.empty())
    moveIntoSurvivors(b, loc, killed, between, escaping, types);
  // The killed threads fork no child.
  b.setInsertionPoint(fork);
  Value count = fork->getOperand(0);
  Value none = arith::ConstantIntOp::create(b, loc, 0, 32);
  fork->setOperand(0, arith::SelectOp::create(b, loc, killed, none, count));
  kill.erase();
}

/// Moves `between` into `scf.if (!killed)` at `b`, which yields `escaping`
/// (of `types`) to the code after it, zeros for the killed threads.
void moveIntoSurvivors(OpBuilder &b, Location loc, Value killed,
                       ArrayRef<Operation *> between, ArrayRef<Value> escaping,
                       ArrayRef<Type> types) {
  SmallVector<Value> zeros;
  Value alive = arith::XOrIOp::create(
      b, loc, killed, arith::ConstantIntOp::create(b, loc, 1, 1));
  auto branch = scf::IfOp::create(b, loc, types, alive, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    // With results, the builder leaves both blocks without a terminator.
    Block *then = branch.thenBlock(), *otherwise = branch.elseBlock();
    bool needYield = !types.empty();
    b.setInsertionPointToEnd(then);
    if (needYield)
      scf::YieldOp::create(b, loc, escaping);
    for (Operation *op : between)
      op->moveBefore(then->getTerminator());
    b.setInsertionPointToEnd(otherwise);
    for (Type t : types)
      zeros.push_back(arith::ConstantOp::create(
          b, loc, t, cast<TypedAttr>(b.getZeroAttr(t))));
    if (needYield)
      scf::YieldOp::create(b, loc, zeros);
  }
  for (auto [old, result] : llvm::zip(escaping, branch.getResults())) {
    Value v = old;
    v.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !branch->isAncestor(use.getOwner());
    });
  }
}

void MergeKillForkPass::runOnOperation() {
  SymbolTableCollection symbols;
  SmallVector<func::CallOp> kills;
  getOperation().walk([&](func::CallOp call) {
    if (isLibraryCall(call, LibraryKind::ThreadKill) &&
        call->getParentOfType<SpawnOp>())
      kills.push_back(call);
  });
  for (func::CallOp kill : kills)
    mergeKill(kill, symbols);
}

} // namespace
