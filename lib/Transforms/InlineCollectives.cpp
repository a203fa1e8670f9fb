//===- InlineCollectives.cpp - inline collectives (§4.2 step 1) ----------===//
//
// Barriers may only be cut at the top level of a spawn body, so every call
// to a function that contains a barrier (a collective function, Appendix A)
// is inlined into the spawns, repeatedly until none is left: collectives
// may call collectives. The inlined functions are then erased, because nothing
// can call them any more: they only exist to be inlined. Last, each
// bsgp.rebind (`thread.rebind(x, e)`, which thread.sortby uses for its key)
// makes the uses of x it dominates read e.
//
//===----------------------------------------------------------------------===//

#include "Uniformity.h"
#include "bsgp/Transforms/Inlining.h"
#include "bsgp/Transforms/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/SetVector.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPINLINECOLLECTIVESPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

/// Nesting depth after which a chain of collective calls counts as
/// recursion, which cannot be inlined.
constexpr unsigned kMaxInlineRounds = 64;

/// The dialect verifier only admits barriers outside spawns in functions
/// marked bsgp.collective, so the attribute is the whole test.
bool isCollective(func::FuncOp func) { return isCollectiveFunction(func); }

/// True if `func` itself uses an op that only means something in its
/// caller's kernel: a work-group or subgroup op (the targets lower those
/// only inside kernels, where the work group is known), a bsgp.get
/// (bsgp-save-restore makes it a load of the caller's saved value, in the
/// caller's superstep), or thread.rank, thread.size and thread.oldrank of
/// an inline function (the caller's threads, whose ranks the kernel
/// knows). Ops in a spawn of `func` do not count: that spawn
/// becomes the kernels around them, so a host function spawning such code
/// (even a recursive one, like the library's scan) stays a call.
bool usesKernelOps(func::FuncOp func) {
  // group.size in a host function is the running target's (Sema allows it
  // in host functions and device code only).
  bool host = !func->hasAttr(BSGPDialect::getDeviceAttrName()) &&
              !func->hasAttr(BSGPDialect::getCollectiveAttrName());
  return func
      .walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isa<SpawnOp>(op) || (host && isa<GroupSizeOp>(op)))
          return WalkResult::skip();
        if (isGroupOp(op) ||
            isa<GetOp, OldRankOp, ThreadRankOp, ThreadSizeOp>(op))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// Inlines every call of an (inline) function that uses work-group ops,
/// thread.get or thread.oldrank, at any depth of control flow, until no call is
/// left: unlike collectives, such functions need no superstep level, only a
/// kernel around them. Functions left without callers are erased, since they
/// cannot be compiled on their own.
template <typename CloneCallback>
LogicalResult inlineGroupFunctions(ModuleOp module, InlinerInterface &interface,
                                   CloneCallback cloneCallback) {
  llvm::SetVector<func::FuncOp> inlined;
  for (unsigned round = 0;; ++round) {
    SmallVector<std::pair<func::CallOp, func::FuncOp>> calls;
    module.walk([&](func::CallOp call) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (callee && !callee.isExternal() && usesKernelOps(callee))
        calls.emplace_back(call, callee);
    });
    if (calls.empty())
      break;
    if (round == kMaxInlineRounds)
      return calls.front().first.emitError(
          "recursive function using work-group operations, thread.get, "
          "thread.rank or thread.size cannot be inlined");
    for (auto [call, callee] : calls) {
      if (!callee.getBody().hasOneBlock() ||
          failed(inlineCall(interface, cloneCallback, call, callee,
                            &callee.getBody())))
        return call.emitError("cannot inline function '")
               << callee.getSymName()
               << "', which uses work-group operations, thread.get, "
                  "thread.rank or thread.size";
      call.erase();
      inlined.insert(callee);
    }
  }
  for (func::FuncOp func : inlined)
    if (func.isPrivate() && SymbolTable::symbolKnownUseEmpty(func, module))
      func.erase();
  return success();
}

/// The value `v` had in thread `rank` at the end of the previous superstep,
/// computed before `get`: a value saved across a barrier is read with a
/// bsgp.get; host values, constants and thread.size are the same in every
/// thread; a pure op computed since the barrier is recomputed from its
/// operands as thread `rank` had them. Fails on anything else (a load, a
/// thread attribute), returning the op that has no such value.
FailureOr<Value> valueInThread(OpBuilder &b, Value rank, Value v, GetOp get,
                               SpawnOp spawn, Operation *&culprit) {
  Operation *scope = v.getParentRegion()->getParentOp();
  if (!spawn->isAncestor(scope))
    return v;
  if (isSeparatedByBarrier(v, get))
    return GetOp::create(b, get.getLoc(), v.getType(), rank, v).getResult();
  Operation *def = v.getDefiningOp();
  if (def && (def->hasTrait<OpTrait::ConstantLike>() ||
              isa<RequireOp, ThreadSizeOp, TargetIsOp>(def)))
    return v;
  if (!def || !isPure(def) || def->getNumRegions() != 0) {
    culprit = def ? def : v.getParentRegion()->getParentOp();
    return failure();
  }
  IRMapping map;
  for (Value operand : def->getOperands()) {
    FailureOr<Value> mapped =
        valueInThread(b, rank, operand, get, spawn, culprit);
    if (failed(mapped))
      return failure();
    map.map(operand, *mapped);
  }
  return b.clone(*def, map)->getResult(cast<OpResult>(v).getResultNumber());
}

/// Once inline functions are inlined, a bsgp.get of one of their
/// parameters reads the caller's argument, which may be an expression
/// computed after the barrier (`nb(r, a + 1)`): the get then distributes
/// over it (valueInThread). An argument with no value in another thread is
/// an error.
LogicalResult resolveInlinedGets(ModuleOp module) {
  SmallVector<GetOp> gets;
  module.walk([&](GetOp get) { gets.push_back(get); });
  // Inlined into a host function: Sema lets host code call an inline
  // function, which only becomes host code here. Checked first, as the get
  // compares its rank with thread.size (below).
  for (GetOp get : gets)
    if (!isInDeviceCode(get))
      return emitError(get.getLoc(),
                       "'thread.get' reached host code through an inline "
                       "function: a function that uses it must be called "
                       "in a spawn");
  // thread.rank and thread.size of an inline function called from host
  // code (which Sema allows) are not anyone's.
  WalkResult attrs = module.walk([&](Operation *op) {
    if (!isa<ThreadRankOp, ThreadSizeOp>(op) || op->getParentOfType<SpawnOp>())
      return WalkResult::advance();
    auto fn = op->getParentOfType<func::FuncOp>();
    if (fn && (isCollectiveFunction(fn) ||
               fn->hasAttr(BSGPDialect::getDeviceAttrName())))
      return WalkResult::advance();
    emitError(op->getLoc())
        << "'" << (isa<ThreadRankOp>(op) ? "thread.rank" : "thread.size")
        << "' reached host code through an inline function: a function "
           "that uses it must be called in a spawn";
    return WalkResult::interrupt();
  });
  if (attrs.wasInterrupted())
    return failure();
  for (GetOp get : gets) {
    Value v = get.getValue();
    auto spawn = get->getParentOfType<SpawnOp>();
    if (!spawn || (spawn->isAncestor(v.getParentRegion()->getParentOp()) &&
                   isSeparatedByBarrier(v, get)))
      continue;
    OpBuilder b(get);
    Operation *culprit = nullptr;
    FailureOr<Value> value =
        valueInThread(b, get.getRank(), v, get, spawn, culprit);
    if (failed(value)) {
      InFlightDiagnostic diag = emitError(
          get.getLoc(), "'thread.get' reads a value as another thread had it "
                        "at the end of the previous superstep, but the "
                        "argument it reads is computed after the last "
                        "barrier from something no other thread can give "
                        "(a memory access, a call, a thread attribute): "
                        "pass a variable assigned before the barrier");
      diag.attachNote(culprit->getLoc()) << "computed here";
      return failure();
    }
    get.replaceAllUsesWith(*value);
    get.erase();
  }
  return success();
}

struct InlineCollectivesPass
    : public bsgp::impl::BSGPInlineCollectivesPassBase<InlineCollectivesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    RequiredInliner interface(&getContext());
    auto cloneCallback = [](OpBuilder &, Region *src, Block *inlineBlock,
                            Block *postInsertBlock, IRMapping &mapper,
                            bool shouldCloneInlinedRegion) {
      Region *insertRegion = inlineBlock->getParent();
      if (shouldCloneInlinedRegion)
        src->cloneInto(insertRegion, postInsertBlock->getIterator(), mapper);
      else
        insertRegion->getBlocks().splice(postInsertBlock->getIterator(),
                                         src->getBlocks(), src->begin(),
                                         src->end());
    };

    llvm::SetVector<func::FuncOp> inlined;
    for (unsigned round = 0;; ++round) {
      SmallVector<std::pair<func::CallOp, func::FuncOp>> calls;
      module.walk([&](func::CallOp call) {
        // Calls inside collectives are inlined once their caller has been
        // inlined into a spawn; inlining collectives into each other would
        // grow recursive ones exponentially.
        auto caller = call->getParentOfType<func::FuncOp>();
        if (caller && isCollective(caller))
          return;
        auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        if (callee && isCollective(callee))
          calls.emplace_back(call, callee);
      });
      if (calls.empty())
        break;
      if (round == kMaxInlineRounds) {
        calls.front().first.emitError(
            "recursive collective function cannot be inlined");
        return signalPassFailure();
      }
      for (auto [call, callee] : calls) {
        // Branches on target queries and bsgp.single_pass are gone before
        // the split, as for the callee's barriers; other branches and loops
        // must be uniform, which bsgp-split-uniform-flow checks.
        Operation *parent = getSyncParent(call);
        if (!isa<SpawnOp, ParOp>(parent) && !isCollectiveFunction(parent)) {
          call.emitError("collective function '")
              << callee.getSymName()
              << "' must be called in a spawn body, a par branch or "
                 "another collective function, directly or under uniform "
                 "branches and loops (its barriers cannot be in host code "
                 "or thread-dependent control flow, §4.4)";
          return signalPassFailure();
        }
        if (callee.isExternal()) {
          call.emitError("collective function '")
              << callee.getSymName()
              << "' has no body to inline (is its definition missing?)";
          return signalPassFailure();
        }
        if (!callee.getBody().hasOneBlock()) {
          call.emitError("collective function '")
              << callee.getSymName()
              << "' must have a body of a single block to be inlined";
          return signalPassFailure();
        }
        if (failed(inlineCall(interface, cloneCallback, call, callee,
                              &callee.getBody()))) {
          call.emitError("cannot inline collective function '")
              << callee.getSymName() << "'";
          return signalPassFailure();
        }
        call.erase();
        inlined.insert(callee);
      }
    }
    // Private collectives that were never called go too (most of the
    // collective library in every program): they cannot be lowered alone.
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPrivate() && isCollective(func))
        inlined.insert(func);
    // Until nothing changes: a collective may be used only by another
    // (the library's scan without a total calls the scan with one).
    SmallVector<func::FuncOp> pending(inlined.begin(), inlined.end());
    for (bool erased = true; erased;) {
      erased = false;
      for (func::FuncOp &func : pending)
        if (func && SymbolTable::symbolKnownUseEmpty(func, module)) {
          func.erase();
          func = nullptr;
          erased = true;
        }
    }
    if (failed(inlineGroupFunctions(module, interface, cloneCallback)) ||
        failed(resolveInlinedGets(module)))
      return signalPassFailure();
    applyRebinds(module);
  }

  /// `thread.rebind(x, e)` (bsgp.rebind): the uses of x that the op
  /// dominates read e instead. Inlining has put the library's rebinds in
  /// the caller, where x is the caller's variable: after thread.sortby(k),
  /// k is the sorted key list at the new rank instead of a value saved
  /// before the barrier and gathered by old rank after it. A key every
  /// thread shares (a uniform loop counter) keeps its value: the sorted
  /// list holds that value at every rank, and a list load would make
  /// uniform control flow that Sema accepted look per-thread.
  static void applyRebinds(ModuleOp module) {
    SmallVector<RebindOp> rebinds;
    module.walk([&](RebindOp op) { rebinds.push_back(op); });
    if (rebinds.empty())
      return;
    DominanceInfo dom(module);
    llvm::DenseMap<Operation *, std::unique_ptr<UniformityInfo>> uniformity;
    for (RebindOp op : rebinds) {
      if (auto spawn = op->getParentOfType<SpawnOp>()) {
        auto &info = uniformity[spawn];
        if (!info)
          info = std::make_unique<UniformityInfo>(spawn);
        if (info->isUniform(op.getValue())) {
          op.erase();
          continue;
        }
      }
      // A thread.get in the rebind's own superstep reads the value the
      // variable had at the end of the previous one, not e: it keeps x,
      // and bsgp-save-restore reports a get right after a rank
      // reassignment, as bsgpi does.
      Value replacement = op.getReplacement();
      op.getValue().replaceUsesWithIf(replacement, [&](OpOperand &use) {
        if (auto get = dyn_cast<GetOp>(use.getOwner()))
          if (use.get() == get.getValue() &&
              !isSeparatedByBarrier(replacement, get))
            return false;
        return dom.properlyDominates(op.getOperation(), use.getOwner());
      });
      op.erase();
    }
  }
};

} // namespace
