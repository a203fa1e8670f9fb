//===- SinglePass.cpp - may a collective skip its barrier -----------------===//
//
// `int x = in[thread.rank]; scan(+, x); out[thread.rank] = x;` needs no
// barrier inside the scan: each work group can learn the sum of the groups
// before it within the kernel (decoupled look-back), and the list is read
// and written once instead of read twice. The barrier is still what BSGP
// promises: every rank's code before the scan runs before any rank's code
// after it. Skipping it is right when the caller's code cannot tell, which
// needs two things of the superstep around the question:
//
//  - after it, in the single-pass form and in the caller's code to the
//    superstep's end, no write to what a rank read before it in another
//    rank: with look-back a work group runs its part after the question
//    once the groups before it are past theirs, but later groups may not
//    have read yet, and
//  - no read or write after it of what another rank wrote before it (a
//    later group may not have written yet).
//
// Like bsgp-rematerialize-loads, the pass clears pairs of a read and a
// write either statically (memory the spawn allocated, the same element at
// thread.rank) or by a test on the host, and then versions the spawn.
// Every spawn with a yes is versioned: the copy that runs in one pass is
// taken where the host tests hold and the runtime says the single-pass
// forms pay (bsgprt_single_pass_forms: not on several GPUs, where a
// look-back kernel's slices run one device after another).
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "HostTests.h"
#include "MemoryChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPSINGLEPASSPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

/// A read or write of memory outside the work group's arrays.
struct Access {
  Value ptr;
  /// `ptr[thread.rank]`, the rank's own element of the list `ptr`.
  bool atRank;
};

/// A host test one answer needs: the element ranges of an access before
/// the question and one after it apart (or the same), or two allocations.
struct Test {
  Value first, second;
  bool apart;
};

/// What one bsgp.single_pass gets: no (failure), or yes if every test
/// holds.
using Verdict = FailureOr<SmallVector<Test>>;

bool isGroupLocal(SpawnOp spawn, Value ptr) {
  Operation *root = ssutil::getFreshRoot(spawn, ptr);
  return root && isa<GroupLocalOp>(root);
}

/// True if `op` calls the collective library (a function marked
/// `bsgp.library`) or the runtime (`bsgprt_*`).
bool isCollectiveCall(Operation *op) {
  if (getCalledLibraryKind(op))
    return true;
  auto call = dyn_cast<CallOpInterface>(op);
  auto callee =
      call ? dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee())
           : SymbolRefAttr();
  return callee && callee.getLeafReference().getValue().starts_with("bsgprt_");
}

/// True if `op` calls a function of the module that reaches no memory: its
/// body, and those of the functions it calls, hold only ops free of memory
/// effects (a device function computing from its arguments, as most are).
bool callsMemoryFreeFunction(Operation *op, unsigned depth = 0) {
  auto call = dyn_cast<CallOpInterface>(op);
  auto callee =
      call ? dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee())
           : SymbolRefAttr();
  auto fn = callee ? dyn_cast_if_present<FunctionOpInterface>(
                         SymbolTable::lookupNearestSymbolFrom(op, callee))
                   : FunctionOpInterface();
  if (!fn || fn.isExternal() || depth > 8)
    return false;
  WalkResult walk = fn.getFunctionBody().walk([&](Operation *nested) {
    if (isa<CallOpInterface>(nested))
      return callsMemoryFreeFunction(nested, depth + 1)
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    return isMemoryEffectFree(nested) ||
                   nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>()
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

/// Adds the accesses of `op` itself (not its nested ops) to `reads` and
/// `writes`; with a null `writes` a write fails. Failure also for an access
/// nothing can clear.
LogicalResult collectAccesses(SpawnOp spawn, Operation *op,
                              SmallVectorImpl<Access> &reads,
                              SmallVectorImpl<Access> *writes) {
  if (isMemoryEffectFree(op) ||
      op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return success();
  if ((isGroupOp(op) && !isa<GroupLookbackOp>(op)) || isa<SinglePassOp>(op))
    return success();
  if (isa<CallOpInterface>(op)) {
    if (callsMemoryFreeFunction(op))
      return success();
    // The library's host functions and the runtime reach memory only
    // through their pointer arguments; anything else may touch anything.
    if (!isCollectiveCall(op))
      return failure();
    for (Value v : op->getOperands()) {
      if (!ssutil::isPointer(v.getType()) || isGroupLocal(spawn, v))
        continue;
      if (!writes)
        return failure();
      reads.push_back({v, false});
      writes->push_back({v, false});
    }
    return success();
  }
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return failure();
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  for (const MemoryEffects::EffectInstance &effect : list) {
    if (isa<ThreadStateResource>(effect.getResource()) ||
        isa<MemoryEffects::Allocate>(effect.getEffect()))
      continue;
    Value target = effect.getValue();
    if (!target)
      return failure();
    if (isGroupLocal(spawn, target))
      continue;
    bool atRank = false;
    if (auto load = dyn_cast<PtrLoadOp>(op))
      atRank = load.getPtr() == target && ssutil::isRankIndex(load.getIndex());
    if (auto store = dyn_cast<PtrStoreOp>(op))
      atRank =
          store.getPtr() == target && ssutil::isRankIndex(store.getIndex());
    SmallVectorImpl<Access> *into =
        isa<MemoryEffects::Read>(effect.getEffect()) ? &reads : writes;
    if (!into)
      return failure();
    into->push_back({target, atRank});
  }
  return success();
}

/// Collects the accesses of `op` and its nested ops. Require blocks of the
/// part before run on the host before the superstep in both forms;
/// `skipRequires` says whether they may be skipped (true) or rule the
/// answer out (false).
LogicalResult collectNested(SpawnOp spawn, Operation *op, bool skipRequires,
                            SmallVectorImpl<Access> &reads,
                            SmallVectorImpl<Access> *writes) {
  WalkResult walk = op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
    if (isa<RequireOp>(nested))
      return skipRequires ? WalkResult::skip() : WalkResult::interrupt();
    return succeeded(collectAccesses(spawn, nested, reads, writes))
               ? WalkResult::advance()
               : WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

/// Collects the accesses of the ops from `from` back to the barrier that
/// starts its superstep, or with `forward` on to the one that ends it,
/// leaving enclosing `if`s as needed. An op holding a barrier counts whole,
/// which only adds accesses.
LogicalResult collectToBarrier(SpawnOp spawn, Operation *from, bool forward,
                               bool skipRequires,
                               SmallVectorImpl<Access> &reads,
                               SmallVectorImpl<Access> *writes) {
  auto step = [&](Operation *op) {
    return forward ? op->getNextNode() : op->getPrevNode();
  };
  for (Operation *cur = from; cur != spawn; cur = cur->getParentOp())
    for (Operation *op = step(cur); op; op = step(op)) {
      if (isa<BarrierOp>(op))
        return success();
      if (failed(collectNested(spawn, op, skipRequires, reads, writes)))
        return failure();
    }
  return success();
}

/// Clears the pair of `first`, an access before the question, and
/// `second`, one after it (of which at least one writes): statically, or
/// by a test added to `tests`. Failure where nothing can.
LogicalResult clearPair(SpawnOp spawn, const Access &first,
                        const Access &second, bool setsSize,
                        SmallVectorImpl<Test> &tests) {
  // Each rank's own element, read or written by the rank itself.
  if (first.ptr == second.ptr && first.atRank && second.atRank)
    return success();
  if (first.ptr == second.ptr)
    return failure();
  // Memory the spawn allocated is out of a host pointer's reach.
  Operation *rootFirst = ssutil::getFreshRoot(spawn, first.ptr);
  Operation *rootSecond = ssutil::getFreshRoot(spawn, second.ptr);
  if (rootFirst || rootSecond)
    return failure(rootFirst == rootSecond);
  auto firstPtr = dyn_cast<PtrType>(first.ptr.getType());
  auto secondPtr = dyn_cast<PtrType>(second.ptr.getType());
  if (ssutil::isDefinedIn(spawn, first.ptr) ||
      ssutil::isDefinedIn(spawn, second.ptr) || !firstPtr || !secondPtr)
    return failure();
  bool apart = first.atRank && second.atRank && !setsSize &&
               ssutil::sameElementWidth(firstPtr, secondPtr);
  if (!llvm::any_of(tests, [&](const Test &t) {
        return t.first == first.ptr && t.second == second.ptr &&
               t.apart == apart;
      }))
    tests.push_back({first.ptr, second.ptr, apart});
  return success();
}

/// The answer for `query` in `spawn`.
Verdict decide(SpawnOp spawn, SinglePassOp query, bool setsSize) {
  if (!query->hasOneUse())
    return failure();
  auto branch = dyn_cast<scf::IfOp>(*query->user_begin());
  if (!branch || branch.getCondition() != query.getResult())
    return failure();
  // The question's superstep must run once per rank: no loop around it.
  for (Operation *p = branch->getParentOp(); p != spawn; p = p->getParentOp())
    if (!p || !isa<scf::IfOp>(p))
      return failure();

  // Accesses before the question against those after it: a read before
  // against a write after (a later group may not have read yet), a write
  // before against a read or write after (a later group may not have
  // written yet).
  SmallVector<Access> reads, writes, earlierWrites, laterReads;
  // The single-pass form: its own requires allocate its status words. A
  // barrier at its top level ends the question's superstep there.
  bool endsSuperstep = false;
  for (Operation &op : *branch.thenBlock()) {
    if (isa<BarrierOp>(op)) {
      endsSuperstep = true;
      break;
    }
    if (failed(collectNested(spawn, &op, /*skipRequires=*/true, laterReads,
                             &writes)))
      return failure();
  }
  if (failed(collectToBarrier(spawn, branch, /*forward=*/false,
                              /*skipRequires=*/true, reads, &earlierWrites)) ||
      (!endsSuperstep &&
       failed(collectToBarrier(spawn, branch, /*forward=*/true,
                               /*skipRequires=*/false, laterReads, &writes))))
    return failure();

  SmallVector<Test> tests;
  for (const Access &r : reads)
    for (const Access &w : writes)
      if (failed(clearPair(spawn, r, w, setsSize, tests)))
        return failure();
  for (const Access &w : earlierWrites) {
    for (const Access &r : laterReads)
      if (failed(clearPair(spawn, w, r, setsSize, tests)))
        return failure();
    for (const Access &later : writes)
      if (failed(clearPair(spawn, w, later, setsSize, tests)))
        return failure();
  }
  return tests;
}

/// Replaces `query` by `yes` and keeps only the branch taken: an `if`
/// holding a barrier or a require is valid only on a question (or target
/// query) that is still open.
void answer(SinglePassOp query, bool yes) {
  OpBuilder b(query);
  query.getResult().replaceAllUsesWith(
      arith::ConstantIntOp::create(b, query.getLoc(), yes, 1));
  query.erase();
}

void keepBranchesTaken(Operation *root) {
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  scf::IfOp::getCanonicalizationPatterns(patterns, ctx);
  FrozenRewritePatternSet frozen(std::move(patterns));
  for (Region &r : root->getRegions())
    (void)applyPatternsGreedily(r, frozen);
}

void runOnSpawn(SpawnOp spawn) {
  SmallVector<SinglePassOp> queries;
  spawn.walk([&](SinglePassOp q) { queries.push_back(q); });
  if (queries.empty())
    return;
  bool setsSize = false;
  spawn.walk([&](SetSizeOp) { setsSize = true; });

  SmallVector<Test> tests;
  SmallVector<SinglePassOp> tested;
  for (SinglePassOp q : queries) {
    Verdict v = decide(spawn, q, setsSize);
    if (failed(v)) {
      answer(q, false);
    } else {
      llvm::append_range(tests, *v);
      tested.push_back(q);
    }
  }
  if (tested.empty()) {
    keepBranchesTaken(spawn);
    return;
  }

  // Every yes also asks the runtime: on several GPUs a look-back kernel's
  // slices run one device after another, and the two-level forms of the
  // copy that keeps the barrier run on all of them at once.
  OpBuilder b(spawn);
  Location loc = spawn.getLoc();
  Value forms = ssutil::buildRuntimeCall(b, loc, "bsgprt_single_pass_forms",
                                         b.getI32Type(), {});
  Value all =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, forms,
                            arith::ConstantIntOp::create(b, loc, 0, 32));
  Value n = tests.empty() ? Value() : ssutil::buildThreadCount64(b, spawn);
  for (const Test &t : tests)
    all = ssutil::andTest(
        b, loc, all,
        t.apart
            ? ssutil::buildApartTest(b, loc, t.first, t.second, n,
                                     /*orSame=*/true)
            : ssutil::buildDistinctAllocationsTest(b, loc, t.first, t.second));
  IRMapping mapping;
  SpawnOp copy =
      ssutil::versionSpawn(spawn, all, kPassVersionAttr, "runs in one pass",
                           "keeps the barrier", mapping);
  for (SinglePassOp q : tested) {
    answer(cast<SinglePassOp>(mapping.lookup(q.getOperation())), true);
    answer(q, false);
  }
  keepBranchesTaken(copy);
  keepBranchesTaken(spawn);
}

struct SinglePassPass
    : public bsgp::impl::BSGPSinglePassPassBase<SinglePassPass> {
  void runOnOperation() override {
    SmallVector<SpawnOp> spawns;
    getOperation()->walk([&](SpawnOp spawn) { spawns.push_back(spawn); });
    for (SpawnOp spawn : spawns)
      runOnSpawn(spawn);
    // A question outside any spawn has no superstep to ask about.
    SmallVector<SinglePassOp> left;
    getOperation()->walk([&](SinglePassOp q) { left.push_back(q); });
    for (SinglePassOp q : left) {
      Operation *owner = q->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
      answer(q, false);
      keepBranchesTaken(owner);
    }
  }
};

} // namespace
