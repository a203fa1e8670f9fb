//===- FuseUniformLoops.cpp - a uniform loop of supersteps as one kernel --===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// bsgp-split-uniform-flow turns a uniform loop with barriers into a host
// loop that launches the body's supersteps once per iteration. A launch
// costs the host some microseconds, which a loop of small supersteps (a
// wavefront, a row-by-row DP, a smoothing step) pays thousands of times.
// Where the loop's host work is arithmetic, launches and the temporary
// streams the iterations hand each other, the whole loop becomes one
// kernel: every thread runs the loop's arithmetic (the same values in every
// thread, as they are uniform), runs each superstep's ranks a grid stride
// apart and waits for the others at a grid-wide barrier where the host
// waited for the launch. The streams an iteration allocates and the next
// frees alternate between two lists allocated once.
//
// The backend decides at run time: where it can keep all the kernel's
// blocks resident (CUDA's cooperative launch, a Vulkan device whose
// workgroups it knows to be resident) or run it on a team of threads with a
// team barrier (the CPU), the host launches the kernel and runs the loop's
// arithmetic alone to learn its results; elsewhere (other Vulkan devices,
// several devices) the original loop runs.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPFUSEUNIFORMLOOPSPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

/// The runtime's temporary lists, as bsgp-allocate-streams and
/// bsgp-split-uniform-flow call them.
constexpr llvm::StringLiteral kTempAlloc = "bsgprt_temp_alloc_elements";
constexpr llvm::StringLiteral kTempFree = "bsgprt_temp_free";

/// A temporary list allocated in the loop body (a runtime call, or a
/// bsgp.stream_alloc of the values saved between two of its supersteps):
/// either freed in the same iteration, or handed to the next iteration as
/// the loop-carried value `carried`, which that iteration frees.
struct BodyList {
  Operation *alloc;
  /// The list as the kernels see it (the cast of the call's result, or the
  /// stream).
  Value list;
  /// The loop-carried position it is yielded to, or -1.
  int carried = -1;
};

/// What fusing one loop needs.
struct LoopPlan {
  scf::WhileOp loop;
  SmallVector<BodyList> lists;
  /// The frees in the body (each of a BodyList or of a carried list).
  SmallVector<Operation *> frees;
  SmallVector<LaunchOp> launches;
};

struct FuseUniformLoopsPass
    : public bsgp::impl::BSGPFuseUniformLoopsPassBase<FuseUniformLoopsPass> {
  void runOnOperation() override;
};

bool isCallTo(Operation *op, StringRef name) {
  auto call = dyn_cast<LLVM::CallOp>(op);
  return call && call.getCallee() && *call.getCallee() == name;
}

/// `v` through unrealized casts, to the value they started from.
Value stripCasts(Value v) {
  while (auto cast = v.getDefiningOp<UnrealizedConversionCastOp>()) {
    if (cast->getNumOperands() != 1)
      break;
    v = cast->getOperand(0);
  }
  return v;
}

bool definedOutside(Value v, Operation *loop) {
  return !loop->isAncestor(v.getParentRegion()->getParentOp());
}

/// True if `a` and `b` are the same value or equal constants.
bool sameValue(Value a, Value b) {
  if (a == b)
    return true;
  Attribute ca, cb;
  return matchPattern(a, m_Constant(&ca)) && matchPattern(b, m_Constant(&cb)) &&
         ca == cb;
}

/// Kernel parameters the grid-loop kernel can take.
bool isPassable(Type t) {
  return isa<IntegerType, FloatType, PtrType, StreamType, VectorType>(t);
}

/// The one target `op` is compiled for (bsgp-specialize-targets' copies of
/// a host function), or null.
StringAttr getOnlyTarget(Operation *op) {
  return op->getAttrOfType<StringAttr>(BSGPDialect::getTargetAttrName());
}

/// True if `launch` runs a kernel that a grid loop can run: one without
/// work-group operations (they need the block shape they were compiled
/// for) or per-chunk accumulators (their chunks are the launch's, which a
/// grid loop does not make), and compiled for the targets the loop is.
bool isGridLaunchable(LaunchOp launch, ModuleOp module) {
  auto kernel = module.lookupSymbol<KernelOp>(launch.getKernelAttr());
  if (!kernel)
    return false;
  if (kernel
          .walk([](Operation *k) {
            return isGroupOp(k) || isa<ChunkReduceOp, ChunkScanOp>(k)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted())
    return false;
  StringAttr only = getOnlyTarget(kernel);
  return !only ||
         only == getOnlyTarget(launch->getParentOfType<func::FuncOp>());
}

/// Adds the launches of `op`, an scf branch or loop of the body, to `plan`;
/// failure where it holds anything but arithmetic, such branches and loops,
/// and launches (no temporary lists: their lifetimes would depend on the
/// branch taken).
LogicalResult planNestedFlow(Operation *op, LoopPlan &plan, ModuleOp module) {
  if (!isa<scf::IfOp, scf::ForOp, scf::WhileOp>(op))
    return failure();
  SmallVector<LaunchOp> launches;
  WalkResult walk = op->walk([&](Operation *inner) {
    if (inner == op)
      return WalkResult::advance();
    if (auto launch = dyn_cast<LaunchOp>(inner)) {
      if (!isGridLaunchable(launch, module))
        return WalkResult::interrupt();
      launches.push_back(launch);
      return WalkResult::advance();
    }
    if (isa<scf::IfOp, scf::ForOp, scf::WhileOp>(inner) ||
        isa<UnrealizedConversionCastOp>(inner) ||
        (inner->getNumRegions() == 0 && isMemoryEffectFree(inner)))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return failure();
  plan.launches.append(launches);
  return success();
}

/// Plans the fusion of `loop`; failure where the loop does anything but
/// arithmetic, launches of grid-stride kernels and its temporary lists.
FailureOr<LoopPlan> planLoop(scf::WhileOp loop, ModuleOp module) {
  LoopPlan plan;
  plan.loop = loop;
  Block &before = loop.getBefore().front();
  Block &after = loop.getAfter().front();
  if (!loop.getBefore().hasOneBlock() || !loop.getAfter().hasOneBlock())
    return failure();
  // The condition forwards the iteration's values unchanged, so that the
  // body's block arguments are the carried values.
  auto cond = cast<scf::ConditionOp>(before.getTerminator());
  if (cond.getArgs().size() != before.getNumArguments())
    return failure();
  for (auto [arg, fwd] : llvm::zip(before.getArguments(), cond.getArgs()))
    if (arg != fwd)
      return failure();
  for (Operation &op : before.without_terminator())
    if (!isMemoryEffectFree(&op))
      return failure();
  // The host and the kernel each run the loop's arithmetic and must agree
  // on its trip count and results. Integer arithmetic does; floating
  // point need not (NVPTX contracts a multiply and an add into an fma), so
  // a loop carrying a floating-point value or testing one stays a host
  // loop.
  auto isFloating = [](Type t) {
    return isa<FloatType>(getElementTypeOrSelf(t));
  };
  if (llvm::any_of(before.getArgumentTypes(), isFloating))
    return failure();
  for (Operation &op : before.without_terminator())
    if (llvm::any_of(op.getResultTypes(), isFloating))
      return failure();

  auto yield = cast<scf::YieldOp>(after.getTerminator());
  DenseMap<Value, int> listIndex;
  for (Operation &op : after.without_terminator()) {
    if (auto launch = dyn_cast<LaunchOp>(op)) {
      if (!isGridLaunchable(launch, module))
        return failure();
      plan.launches.push_back(launch);
      continue;
    }
    if (isCallTo(&op, kTempAlloc)) {
      auto call = cast<LLVM::CallOp>(op);
      for (Value operand : call.getArgOperands())
        if (!definedOutside(operand, loop))
          return failure();
      // The list as a typed pointer: one cast of the call's result.
      if (!call.getResult().hasOneUse())
        return failure();
      auto cast =
          dyn_cast<UnrealizedConversionCastOp>(*call.getResult().user_begin());
      if (!cast || cast->getNumResults() != 1 ||
          !isa<PtrType>(cast->getResult(0).getType()))
        return failure();
      BodyList list{call, cast->getResult(0), -1};
      for (OpOperand &use : list.list.getUses())
        if (use.getOwner() == yield) {
          if (list.carried >= 0)
            return failure();
          list.carried = int(use.getOperandNumber());
        }
      listIndex[list.list] = int(plan.lists.size());
      plan.lists.push_back(list);
      continue;
    }
    if (auto stream = dyn_cast<StreamAllocOp>(op)) {
      if (!definedOutside(stream.getSize(), loop))
        return failure();
      listIndex[stream.getStream()] = int(plan.lists.size());
      plan.lists.push_back({&op, stream.getStream(), -1});
      continue;
    }
    if (isCallTo(&op, kTempFree) || isa<StreamFreeOp>(op)) {
      plan.frees.push_back(&op);
      continue;
    }
    if (isa<UnrealizedConversionCastOp>(op) || isMemoryEffectFree(&op))
      continue;
    // A uniform branch or loop nested in the body (`if (i == 2) { ...;
    // barrier; }`): every thread takes it alike, so it may hold launches.
    if (succeeded(planNestedFlow(&op, plan, module)))
      continue;
    return failure();
  }
  if (plan.launches.empty())
    return failure();

  // Every free is of a list of this iteration that is not carried, or of
  // the carried list the previous iteration allocated; each such list is
  // freed exactly once.
  DenseSet<Value> freed;
  for (Operation *free : plan.frees) {
    Value v = stripCasts(free->getOperand(0));
    if (!freed.insert(v).second)
      return failure();
    if (auto it = listIndex.find(v); it != listIndex.end()) {
      if (plan.lists[it->second].carried >= 0)
        return failure();
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != &after)
      return failure();
    bool allocated = llvm::any_of(plan.lists, [&](const BodyList &l) {
      return l.carried == int(arg.getArgNumber());
    });
    if (!allocated)
      return failure();
  }
  for (BodyList &list : plan.lists) {
    if (list.carried < 0) {
      if (!freed.count(list.list))
        return failure();
      continue;
    }
    if (isa<StreamAllocOp>(list.alloc))
      return failure();
    // The carried list alternates between the list the loop starts with
    // and one more of the same size.
    Value arg = after.getArgument(list.carried);
    if (!freed.count(arg) || arg.getType() != list.list.getType())
      return failure();
    Value init = stripCasts(loop.getInits()[list.carried]);
    auto initAlloc = init.getDefiningOp<LLVM::CallOp>();
    auto bodyAlloc = cast<LLVM::CallOp>(list.alloc);
    if (!initAlloc || !isCallTo(initAlloc, kTempAlloc) ||
        initAlloc.getArgOperands().size() != bodyAlloc.getArgOperands().size())
      return failure();
    for (auto [a, b] :
         llvm::zip(initAlloc.getArgOperands(), bodyAlloc.getArgOperands()))
      if (!sameValue(a, b))
        return failure();
    // The first list is used only as the loop's first carried value.
    if (before.getArgument(list.carried).getType() != arg.getType())
      return failure();
  }
  return plan;
}

/// The values the loop uses from outside, other than those only its
/// temporary lists use; constants are left out, since the kernel makes its
/// own.
/// The ops of the loop that neither the kernel nor the host's copy keeps:
/// the temporary lists' allocations and frees.
DenseSet<Operation *> listOps(LoopPlan &plan) {
  DenseSet<Operation *> ops;
  for (BodyList &list : plan.lists)
    ops.insert(list.alloc);
  for (Operation *free : plan.frees)
    ops.insert(free);
  return ops;
}

FailureOr<SmallVector<Value>> capturedValues(LoopPlan &plan) {
  llvm::SetVector<Value> captured;
  DenseSet<Operation *> skipped = listOps(plan);
  auto visit = [&](Value v) {
    if (!definedOutside(v, plan.loop))
      return;
    if (Operation *def = v.getDefiningOp();
        def && def->hasTrait<OpTrait::ConstantLike>())
      return;
    captured.insert(v);
  };
  for (Value init : plan.loop.getInits())
    visit(init);
  plan.loop->walk([&](Operation *op) {
    if (skipped.count(op))
      return;
    for (Value operand : op->getOperands())
      visit(operand);
  });
  for (Value v : captured)
    if (!isPassable(v.getType()))
      return failure();
  return SmallVector<Value>(captured.begin(), captured.end());
}

/// Clones `plan.loop` at `b` with `mapping`, the lists each iteration
/// allocates replaced by `buffers` (one per BodyList) and their frees
/// dropped. A carried list is the one of {its initial list, its buffer}
/// that the iteration does not read. Launches are kept for the caller.
scf::WhileOp cloneLoop(OpBuilder &b, LoopPlan &plan, IRMapping &mapping,
                       ArrayRef<Value> buffers) {
  auto clone = cast<scf::WhileOp>(b.clone(*plan.loop, mapping));
  Block &after = clone.getAfter().front();
  // The cloned ops, by the original op's position in the body.
  DenseMap<Operation *, Operation *> cloned;
  for (auto [orig, copy] :
       llvm::zip(plan.loop.getAfter().front(), clone.getAfter().front()))
    cloned[&orig] = &copy;
  for (auto [list, buffer] : llvm::zip(plan.lists, buffers)) {
    Operation *alloc = cloned[list.alloc];
    if (isa<StreamAllocOp>(alloc)) {
      alloc->getResult(0).replaceAllUsesWith(buffer);
      alloc->erase();
      continue;
    }
    Operation *call = alloc;
    Operation *cast = *call->getResult(0).user_begin();
    OpBuilder lb(cast);
    Value replacement = buffer;
    if (list.carried >= 0) {
      Value read = after.getArgument(list.carried);
      Value first = mapping.lookupOrDefault(plan.loop.getInits()[list.carried]);
      Value isFirst = PtrCmpOp::create(lb, cast->getLoc(), lb.getI1Type(),
                                       arith::CmpIPredicate::eq, read, first);
      replacement =
          arith::SelectOp::create(lb, cast->getLoc(), isFirst, buffer, first);
    }
    cast->getResult(0).replaceAllUsesWith(replacement);
    cast->erase();
    call->erase();
  }
  for (Operation *free : plan.frees) {
    Operation *copy = cloned[free];
    Value operand = copy->getOperand(0);
    copy->erase();
    if (auto cast = operand.getDefiningOp<UnrealizedConversionCastOp>();
        cast && cast->use_empty())
      cast->erase();
  }
  return clone;
}

/// The kernel running the whole loop on the device.
KernelOp buildGridLoopKernel(LoopPlan &plan, ArrayRef<Value> captured,
                             ModuleOp module, StringRef name) {
  MLIRContext *ctx = module.getContext();
  Location loc = plan.loop.getLoc();
  SmallVector<Type> types;
  for (Value v : captured)
    types.push_back(v.getType());
  for (BodyList &list : plan.lists)
    types.push_back(list.list.getType());
  OpBuilder kb = OpBuilder::atBlockEnd(module.getBody());
  auto kernel =
      KernelOp::create(kb, loc, StringAttr::get(ctx, name),
                       TypeAttr::get(FunctionType::get(ctx, types, {})),
                       nullptr, nullptr, nullptr);
  kernel->setAttr(BSGPDialect::GridLoopAttrHelper::getNameStr(),
                  UnitAttr::get(ctx));
  // The targets of the function the loop is in.
  if (StringAttr only =
          getOnlyTarget(plan.loop->getParentOfType<func::FuncOp>()))
    kernel->setAttr(BSGPDialect::getTargetAttrName(), only);
  // The loop's source range: the first kernel's, whose srcloc names its
  // superstep, is close enough for a fault report.
  if (auto first =
          module.lookupSymbol<KernelOp>(plan.launches.front().getKernelAttr()))
    if (Attribute where = first->getAttr(BSGPDialect::getSourceLocAttrName()))
      kernel->setAttr(BSGPDialect::getSourceLocAttrName(), where);
  Block *entry = new Block;
  kernel.getBody().push_back(entry);
  IRMapping mapping;
  for (Value v : captured)
    mapping.map(v, entry->addArgument(v.getType(), v.getLoc()));
  SmallVector<Value> buffers;
  for (BodyList &list : plan.lists)
    buffers.push_back(entry->addArgument(list.list.getType(), loc));
  OpBuilder b = OpBuilder::atBlockEnd(entry);
  // Constants the loop uses from outside.
  DenseSet<Operation *> skipped = listOps(plan);
  plan.loop->walk([&](Operation *op) {
    if (skipped.count(op))
      return;
    for (Value operand : op->getOperands())
      if (definedOutside(operand, plan.loop) && !mapping.contains(operand))
        if (Operation *def = operand.getDefiningOp();
            def && def->hasTrait<OpTrait::ConstantLike>())
          mapping.map(operand, b.clone(*def)->getResult(0));
  });
  scf::WhileOp clone = cloneLoop(b, plan, mapping, buffers);
  SmallVector<LaunchOp> launches;
  clone.walk([&](LaunchOp l) { launches.push_back(l); });
  for (LaunchOp l : launches) {
    OpBuilder lb(l);
    GridLaunchOp::create(lb, l.getLoc(), l.getKernelAttr(), l.getThreadCount(),
                         l.getArgs());
    l.erase();
  }
  b.setInsertionPointToEnd(entry);
  ReturnOp::create(b, loc);
  return kernel;
}

/// Replaces `plan.loop` by: if the backend runs the grid-loop kernel, the
/// kernel and the loop's arithmetic on the host; else the loop.
void fuseLoop(LoopPlan &plan, ArrayRef<Value> captured, KernelOp kernel,
              LLVM::LLVMFuncOp freeFn) {
  scf::WhileOp loop = plan.loop;
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  // The kernel's threads: as many as the largest launch where every count
  // is known before the loop; else all the device keeps resident.
  Type i32 = b.getI32Type();
  Value count;
  for (LaunchOp l : plan.launches) {
    Value n = l.getThreadCount();
    if (!definedOutside(n, loop)) {
      count = arith::ConstantOp::create(
          b, loc, i32,
          b.getI32IntegerAttr(std::numeric_limits<int32_t>::max()));
      break;
    }
    if (!count)
      count = n;
    else if (count != n)
      count = arith::MaxSIOp::create(b, loc, count, n);
  }
  Value ok = CanLaunchGridLoopOp::create(
      b, loc, b.getI1Type(), FlatSymbolRefAttr::get(kernel.getSymNameAttr()),
      count);
  auto branch = scf::IfOp::create(b, loc, loop.getResultTypes(), ok,
                                  /*withElseRegion=*/true);
  {
    OpBuilder tb = OpBuilder::atBlockBegin(&branch.getThenRegion().front());
    SmallVector<Value> buffers;
    for (BodyList &list : plan.lists) {
      Operation *alloc = tb.clone(*list.alloc);
      if (isa<StreamAllocOp>(alloc)) {
        buffers.push_back(alloc->getResult(0));
        continue;
      }
      buffers.push_back(UnrealizedConversionCastOp::create(
                            tb, loc, list.list.getType(), alloc->getResult(0))
                            .getResult(0));
    }
    SmallVector<Value> args(captured);
    args.append(buffers);
    LaunchOp::create(tb, loc, FlatSymbolRefAttr::get(kernel.getSymNameAttr()),
                     count, args);
    // The loop's arithmetic alone gives the host the loop's results: the
    // kernel computes the same uniform values.
    IRMapping mapping;
    scf::WhileOp skeleton = cloneLoop(tb, plan, mapping, buffers);
    skeleton.walk([](LaunchOp l) { l.erase(); });
    // What the loop freed: each list but the last carried one.
    Type llvmPtr = LLVM::LLVMPointerType::get(b.getContext());
    auto free = [&](Value list) {
      Value p = UnrealizedConversionCastOp::create(tb, loc, llvmPtr, list)
                    .getResult(0);
      LLVM::CallOp::create(tb, loc, freeFn, ValueRange{p});
    };
    for (auto [list, buffer] : llvm::zip(plan.lists, buffers)) {
      if (isa<StreamAllocOp>(list.alloc)) {
        StreamFreeOp::create(tb, loc, buffer);
        continue;
      }
      if (list.carried < 0) {
        free(buffer);
        continue;
      }
      Value last = skeleton.getResult(list.carried);
      Value first = loop.getInits()[list.carried];
      Value lastIsFirst = PtrCmpOp::create(
          tb, loc, tb.getI1Type(), arith::CmpIPredicate::eq, last, first);
      free(arith::SelectOp::create(tb, loc, lastIsFirst, buffer, first));
    }
    scf::YieldOp::create(tb, loc, skeleton.getResults());
  }
  {
    OpBuilder eb = OpBuilder::atBlockBegin(&branch.getElseRegion().front());
    loop->moveBefore(eb.getInsertionBlock(), eb.getInsertionBlock()->end());
    eb.setInsertionPointToEnd(eb.getInsertionBlock());
    auto yield = scf::YieldOp::create(eb, loc, loop.getResults());
    (void)yield;
  }
  for (auto [orig, fused] : llvm::zip(loop.getResults(), branch.getResults()))
    orig.replaceUsesWithIf(fused, [&](OpOperand &use) {
      return !branch.getElseRegion().isAncestor(
          use.getOwner()->getParentRegion());
    });
}

} // namespace

void FuseUniformLoopsPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<scf::WhileOp> loops;
  for (auto fn : module.getOps<func::FuncOp>()) {
    // Device code has no host loops; a collective's host code is inlined
    // into its callers' already.
    if (fn.isExternal() || fn->hasAttr(BSGPDialect::getDeviceAttrName()) ||
        isCollectiveFunction(fn))
      continue;
    fn.walk([&](scf::WhileOp loop) { loops.push_back(loop); });
  }
  unsigned index = 0;
  for (scf::WhileOp loop : loops) {
    // Loops inside a loop fused already are gone with it; a loop holding
    // another is not fused (its body does more than launch).
    FailureOr<LoopPlan> plan = planLoop(loop, module);
    if (failed(plan))
      continue;
    FailureOr<SmallVector<Value>> captured = capturedValues(*plan);
    if (failed(captured))
      continue;
    // The free the host needs after the loop: the body's own.
    auto freeFn = module.lookupSymbol<LLVM::LLVMFuncOp>(kTempFree);
    if (!freeFn && !plan->lists.empty())
      continue;
    auto fn = loop->getParentOfType<func::FuncOp>();
    std::string name;
    do
      name = (fn.getSymName() + "_loop" + Twine(index++)).str();
    while (module.lookupSymbol(name));
    KernelOp kernel = buildGridLoopKernel(*plan, *captured, module, name);
    fuseLoop(*plan, *captured, kernel, freeFn);
  }
}
