//===- GroupOps.cpp - work-group and subgroup operations on SPIR-V --------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A BSGP work group is a Vulkan workgroup of bsgp::kSPIRVWorkgroupSize
// invocations and a subgroup is a Vulkan subgroup. Group barriers become
// OpControlBarrier, shuffles OpGroupNonUniformShuffle with the source lane
// computed here (so that CUDA's rule, "a lane outside the subgroup gives the
// thread its own value", holds), votes OpGroupNonUniformAny/All/Ballot.
// Kernels that synchronize keep their invocations past the thread count
// alive up to the end, with their memory operations predicated off.
//
//===----------------------------------------------------------------------===//

#include "GroupOps.h"
#include "SPIRVCommon.h"

#include "bsgp/Conversion/BSGPToSPIRV/BSGPToSPIRV.h"
#include "bsgp/Conversion/Common/KernelBody.h"
#include "bsgp/Conversion/Passes.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPLOWERGROUPOPSTOSPIRVPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

spirv::GlobalVariableOp bsgp::SPIRVBuiltins::get(spirv::BuiltIn builtin) {
  auto key = static_cast<unsigned>(builtin);
  if (spirv::GlobalVariableOp v = vars.lookup(key))
    return v;
  MLIRContext *ctx = module.getContext();
  // bsgp_global_invocation_id, bsgp_subgroup_size, ...
  std::string name = "bsgp";
  for (char c : spirv::stringifyBuiltIn(builtin)) {
    if (llvm::isUpper(c))
      name += '_';
    name += llvm::toLower(c);
  }
  // An earlier pass may have declared it (the kernels' ranks).
  if (auto v = module.lookupSymbol<spirv::GlobalVariableOp>(name)) {
    vars[key] = v;
    return v;
  }
  Type i32 = IntegerType::get(ctx, 32);
  bool vector3 = builtin == spirv::BuiltIn::GlobalInvocationId ||
                 builtin == spirv::BuiltIn::NumWorkgroups ||
                 builtin == spirv::BuiltIn::WorkgroupId ||
                 builtin == spirv::BuiltIn::LocalInvocationId;
  Type type = vector3 ? Type(VectorType::get({3}, i32)) : i32;
  // Declarations go after those already made, before the functions.
  OpBuilder b(ctx);
  auto globals = module.getBody()->getOps<spirv::GlobalVariableOp>();
  if (globals.empty())
    b.setInsertionPointToStart(module.getBody());
  else
    b.setInsertionPointAfter(*std::prev(globals.end()));
  auto v = spirv::GlobalVariableOp::create(
      b, module.getLoc(),
      spirv::PointerType::get(type, spirv::StorageClass::Input), name, builtin);
  vars[key] = v;
  return v;
}

Value bsgp::SPIRVBuiltins::load(OpBuilder &b, Location loc,
                                spirv::BuiltIn builtin, int32_t component) {
  Value v = spirv::LoadOp::create(
      b, loc, spirv::AddressOfOp::create(b, loc, get(builtin)));
  if (component >= 0)
    v = spirv::CompositeExtractOp::create(b, loc, v, {component});
  return v;
}

Value bsgp::emitGroupRank(OpBuilder &b, Location loc, SPIRVBuiltins &builtins) {
  Value id = builtins.load(b, loc, spirv::BuiltIn::SubgroupId);
  Value size = builtins.load(b, loc, spirv::BuiltIn::SubgroupSize);
  Value lane = builtins.load(b, loc, spirv::BuiltIn::SubgroupLocalInvocationId);
  return arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, id, size),
                               lane);
}

Value bsgp::emitGroupId(OpBuilder &b, Location loc, SPIRVBuiltins &builtins) {
  Value x = builtins.load(b, loc, spirv::BuiltIn::WorkgroupId, 0);
  Value y = builtins.load(b, loc, spirv::BuiltIn::WorkgroupId, 1);
  Value row = builtins.load(b, loc, spirv::BuiltIn::NumWorkgroups, 0);
  Value local =
      arith::AddIOp::create(b, loc, x, arith::MulIOp::create(b, loc, y, row));
  // Plus the workgroups of the slices before: first (push constant 2) /
  // 256, a whole number on every slice.
  auto device =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  Value first = bsgp::spv::loadPushConstant(b, loc, device, 2);
  Value firstGroup =
      arith::DivUIOp::create(b, loc, first,
                             arith::ConstantIntOp::create(
                                 b, loc, b.getI64Type(), kSPIRVWorkgroupSize));
  return arith::AddIOp::create(
      b, loc, local,
      arith::TruncIOp::create(b, loc, b.getI32Type(), firstGroup));
}

//===----------------------------------------------------------------------===//
// Predication of the ranks past the thread count
//===----------------------------------------------------------------------===//

namespace {

/// Ops every invocation of a subgroup or workgroup must execute together.
bool isGroupSync(Operation *op) {
  return isa<bsgp::GroupBarrierOp, bsgp::SubgroupShuffleOp,
             bsgp::SubgroupVoteOp, bsgp::SubgroupReduceOp>(op);
}

bool containsGroupSync(Operation *op) {
  return op
      ->walk([](Operation *o) {
        return isGroupSync(o) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Ops that the missing ranks run too: they compute values without touching
/// memory, or declare an array (whose accesses are predicated). Group
/// queries count as computations wherever they are nested.
bool runsEverywhere(Operation *op) {
  WalkResult r = op->walk([](Operation *o) {
    if (isa<bsgp::GroupLocalOp, bsgp::GroupRankOp, bsgp::GroupSizeOp,
            bsgp::GroupIdOp, bsgp::GroupCountOp, bsgp::GroupThreadsOp,
            bsgp::SubgroupRankOp, bsgp::SubgroupSizeOp, LLVM::AllocaOp>(o) ||
        o->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(o);
    return effects && effects.hasNoEffect() ? WalkResult::advance()
                                            : WalkResult::interrupt();
  });
  return !r.wasInterrupted();
}

/// The value a missing rank sees for a result of a predicated op.
Value getZero(OpBuilder &b, Location loc, Type t) {
  if (isa<IntegerType, IndexType, FloatType>(t))
    return arith::ConstantOp::create(b, loc, cast<TypedAttr>(b.getZeroAttr(t)));
  if (auto vt = dyn_cast<VectorType>(t))
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(vt, b.getZeroAttr(vt.getElementType())));
  if (auto pt = dyn_cast<bsgp::PtrType>(t))
    return bsgp::PtrNullOp::create(b, loc, pt);
  return ub::PoisonOp::create(b, loc, t);
}

/// True if `op`, or an op nested in it, uses a value defined by an op of
/// `ops` (top-level ops of `block`).
bool dependsOn(Operation *op, const llvm::SmallPtrSetImpl<Operation *> &ops,
               Block *block) {
  WalkResult r = op->walk([&](Operation *nested) {
    for (Value v : nested->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (!def)
        def = v.getParentBlock()->getParentOp();
      if (def && op->isAncestor(def))
        continue;
      Operation *top = def ? block->findAncestorOpInBlock(*def) : nullptr;
      if (top && ops.contains(top))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

/// Moves the consecutive ops `run` into `scf.if inRange`, whose results
/// replace the values used after it. The ops of the run that every rank
/// may run and that do not depend on the predicated ones move before it
/// instead, so that a missing rank computes them too: a bound of a loop
/// that holds a barrier must be the same for every rank of the group.
void predicateRun(ArrayRef<Operation *> ops, Value inRange) {
  Block *block = ops.front()->getBlock();
  llvm::SmallPtrSet<Operation *, 8> inRun(ops.begin(), ops.end());
  SmallVector<Operation *> run;
  for (Operation *op : ops) {
    if (runsEverywhere(op) && !dependsOn(op, inRun, block)) {
      inRun.erase(op);
      op->moveBefore(ops.front());
      continue;
    }
    run.push_back(op);
  }
  SmallVector<Value> escaping;
  for (Operation *op : run)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *user) {
            Operation *top = block->findAncestorOpInBlock(*user);
            return !top || !inRun.contains(top);
          }))
        escaping.push_back(r);
  Location loc = run.front()->getLoc();
  OpBuilder b(run.front());
  SmallVector<Type> types;
  for (Value v : escaping)
    types.push_back(v.getType());
  auto guard = scf::IfOp::create(b, loc, types, inRange,
                                 /*withElseRegion=*/true);
  // Without results the builder gave both blocks an scf.yield; each block
  // gets its own, last, below.
  for (Block *branch : {guard.thenBlock(), guard.elseBlock()})
    if (!branch->empty())
      branch->back().erase();
  Block *then = guard.thenBlock();
  for (Operation *op : run)
    op->moveBefore(then, then->end());
  OpBuilder tb = OpBuilder::atBlockEnd(then);
  scf::YieldOp::create(tb, loc, escaping);
  OpBuilder eb = OpBuilder::atBlockEnd(guard.elseBlock());
  SmallVector<Value> zeros;
  for (Type t : types)
    zeros.push_back(getZero(eb, loc, t));
  scf::YieldOp::create(eb, loc, zeros);
  for (auto [v, r] : llvm::zip(escaping, guard.getResults()))
    v.replaceUsesWithIf(r, [&](OpOperand &use) {
      return !guard->isProperAncestor(use.getOwner());
    });
}

/// The values of a kernel body that may differ between the ranks of a work
/// group: those computed from the rank, a lane, a shuffle or vote, a
/// private array, a stream or an atomic, and what control flow over them
/// yields. The others ("uniform") are the same for every rank of the group,
/// so a load from a uniform address is one that the group's ranks in range
/// make too, which the missing ranks may then make with them.
class Varying {
public:
  Varying(Block &block, Block::iterator begin, ArrayRef<Value> seeds) {
    for (Value v : seeds)
      set.insert(v);
    bool changed;
    auto mark = [&](Value v) { changed |= set.insert(v).second; };
    auto markAll = [&](ValueRange vs) {
      for (Value v : vs)
        mark(v);
    };
    do {
      changed = false;
      for (Operation &top : llvm::make_range(begin, block.end()))
        top.walk([&](Operation *op) { visit(op, mark, markAll); });
    } while (changed);
  }

  bool contains(Value v) const { return set.contains(v); }

private:
  template <typename Mark, typename MarkAll>
  void visit(Operation *op, Mark &mark, MarkAll &markAll) {
    auto varying = [&](ValueRange vs) {
      return llvm::any_of(vs, [&](Value v) { return contains(v); });
    };
    // A coherent load (an atomic load) may see another value in each rank,
    // whatever its address: other work groups write the word meanwhile.
    auto load = dyn_cast<bsgp::PtrLoadOp>(op);
    if (isa<bsgp::GroupRankOp, bsgp::SubgroupRankOp, bsgp::SubgroupShuffleOp,
            bsgp::SubgroupVoteOp, bsgp::SubgroupReduceOp, bsgp::AtomicRMWOp,
            bsgp::AtomicCASOp, bsgp::LoadOp, LLVM::AllocaOp, func::CallOp>(
            op) ||
        (load && load.getCoherent())) {
      markAll(op->getResults());
      return;
    }
    if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op);
        cast && llvm::any_of(cast.getInputs(), [](Value v) {
          return v.getDefiningOp<LLVM::AllocaOp>();
        })) {
      markAll(op->getResults());
      return;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      bool cond = contains(ifOp.getCondition());
      for (unsigned i = 0; i < ifOp.getNumResults(); ++i)
        if (cond || contains(ifOp.thenYield().getOperand(i)) ||
            contains(ifOp.elseYield().getOperand(i)))
          mark(ifOp.getResult(i));
      return;
    }
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      bool bounds = varying(
          {forOp.getLowerBound(), forOp.getUpperBound(), forOp.getStep()});
      if (bounds)
        mark(forOp.getInductionVar());
      auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
      for (unsigned i = 0; i < forOp.getNumResults(); ++i)
        if (bounds || contains(forOp.getInitArgs()[i]) ||
            contains(yield.getOperand(i))) {
          mark(forOp.getRegionIterArgs()[i]);
          mark(forOp.getResult(i));
        }
      return;
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      scf::ConditionOp cond = whileOp.getConditionOp();
      scf::YieldOp yield = whileOp.getYieldOp();
      for (unsigned i = 0; i < whileOp.getInits().size(); ++i)
        if (contains(whileOp.getInits()[i]) || contains(yield.getOperand(i)))
          mark(whileOp.getBeforeArguments()[i]);
      bool exit = contains(cond.getCondition());
      for (unsigned i = 0; i < whileOp.getNumResults(); ++i)
        if (exit || contains(cond.getArgs()[i])) {
          mark(whileOp.getAfterArguments()[i]);
          mark(whileOp.getResult(i));
        }
      return;
    }
    if (op->getNumRegions() != 0) {
      // Anything else with regions: its results may vary.
      markAll(op->getResults());
      return;
    }
    if (varying(op->getOperands()))
      markAll(op->getResults());
  }

  llvm::DenseSet<Value> set;
};

/// A load from device or local memory at a uniform address.
bool isUniformLoad(Operation *op, const Varying &varying) {
  auto load = dyn_cast<bsgp::PtrLoadOp>(op);
  return load && !varying.contains(load.getResult());
}

/// True if `op` is control flow that every rank of the group takes alike
/// (an scf.if on a uniform condition, an scf.for with uniform bounds, an
/// scf.while with a uniform condition) and yields a uniform value.
/// Predicated as a whole, it would give the missing ranks zeros for that
/// value, which the group's ranks must agree on: the counter of a loop with
/// a subgroup operation and a break (`if (it == 1) break; ...; ++it`) is
/// yielded by such an scf.if, and a missing rank whose counter stayed 0
/// would never leave the loop. Its regions are predicated instead, so that
/// the missing ranks follow the same path and compute the uniform values.
bool isUniformFlowWithUniformResult(Operation *op, const Varying &varying) {
  bool uniform = false;
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    uniform = !varying.contains(ifOp.getCondition());
  else if (auto forOp = dyn_cast<scf::ForOp>(op))
    uniform = !varying.contains(forOp.getLowerBound()) &&
              !varying.contains(forOp.getUpperBound()) &&
              !varying.contains(forOp.getStep());
  else if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    uniform = !varying.contains(whileOp.getConditionOp().getCondition());
  return uniform && llvm::any_of(op->getResults(),
                                 [&](Value r) { return !varying.contains(r); });
}

LogicalResult predicateBlock(Block &block, Block::iterator begin, Value inRange,
                             const Varying &varying) {
  // A run starts and ends with an op that must be predicated; ops that
  // every rank may run wait in `pending` until the next such op.
  SmallVector<Operation *> run, pending;
  auto flush = [&] {
    if (!run.empty())
      predicateRun(run, inRange);
    run.clear();
    pending.clear();
  };
  for (Operation &op :
       llvm::make_early_inc_range(llvm::make_range(begin, block.end()))) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      break;
    if (!containsGroupSync(&op)) {
      // A uniform load runs everywhere, in its place among the predicated
      // stores: a loop bound or branch it gives stays the group's.
      if (isUniformLoad(&op, varying)) {
        flush();
        continue;
      }
      if (runsEverywhere(&op)) {
        if (!run.empty())
          pending.push_back(&op);
        continue;
      }
      if (isUniformFlowWithUniformResult(&op, varying)) {
        flush();
        for (Region &region : op.getRegions())
          if (failed(predicateBlock(region.front(), region.front().begin(),
                                    inRange, varying)))
            return failure();
        continue;
      }
      run.append(pending);
      pending.clear();
      run.push_back(&op);
      continue;
    }
    flush();
    if (auto vote = dyn_cast<bsgp::SubgroupVoteOp>(&op)) {
      // A missing rank votes false for any and ballot, true for all.
      OpBuilder b(vote);
      Location loc = vote.getLoc();
      Value p = vote.getPredicate();
      if (vote.getMode() == "all") {
        Value missing = arith::XOrIOp::create(
            b, loc, inRange, arith::ConstantIntOp::create(b, loc, 1, 1));
        p = arith::OrIOp::create(b, loc, p, missing);
      } else {
        p = arith::AndIOp::create(b, loc, p, inRange);
      }
      vote.getPredicateMutable().assign(p);
      continue;
    }
    if (auto reduce = dyn_cast<bsgp::SubgroupReduceOp>(&op)) {
      // A missing rank contributes the identity of the combination.
      OpBuilder b(reduce);
      Location loc = reduce.getLoc();
      Value id =
          bsgp::getCombineIdentity(b, loc, reduce.getKind(), reduce.getType());
      reduce.getValueMutable().assign(
          arith::SelectOp::create(b, loc, inRange, reduce.getValue(), id));
      continue;
    }
    if (isGroupSync(&op))
      continue;
    if (llvm::any_of(op.getRegions(),
                     [](Region &r) { return !r.empty() && !r.hasOneBlock(); }))
      return op.emitError("a work-group barrier or subgroup operation in "
                          "control flow with early returns or breaks is not "
                          "supported by the SPIR-V target");
    if (!isa<scf::IfOp, scf::ForOp, scf::WhileOp, scf::IndexSwitchOp,
             scf::ExecuteRegionOp>(op))
      return op.emitError("a work-group barrier or subgroup operation inside "
                          "'")
             << op.getName() << "' is not supported by the SPIR-V target";
    for (Region &region : op.getRegions())
      if (!region.empty() &&
          failed(predicateBlock(region.front(), region.front().begin(), inRange,
                                varying)))
        return failure();
  }
  flush();
  return success();
}

} // namespace

LogicalResult bsgp::predicateMissingRanks(Block &block, Block::iterator begin,
                                          Value inRange,
                                          ArrayRef<Value> rankValues) {
  Varying varying(block, begin, rankValues);
  return predicateBlock(block, begin, inRange, varying);
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

LogicalResult bsgp::lowerGroupOpsToSPIRV(
    func::FuncOp fn, SPIRVBuiltins &builtins,
    llvm::function_ref<Value(OpBuilder &, Location)> loadSize) {
  SmallVector<Operation *> ops;
  fn.walk([&](Operation *op) {
    if (isa<bsgp::GroupRankOp, bsgp::GroupSizeOp, bsgp::GroupIdOp,
            bsgp::GroupCountOp, bsgp::GroupThreadsOp, bsgp::SubgroupRankOp,
            bsgp::SubgroupSizeOp, bsgp::GroupBarrierOp, bsgp::SubgroupShuffleOp,
            bsgp::SubgroupVoteOp, bsgp::SubgroupReduceOp>(op))
      ops.push_back(op);
  });
  MLIRContext *ctx = fn.getContext();
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  auto subgroup = spirv::ScopeAttr::get(ctx, spirv::Scope::Subgroup);
  auto workgroup = spirv::ScopeAttr::get(ctx, spirv::Scope::Workgroup);
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto constant = [&](Type t, int64_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, t, v);
    };
    Value v;
    if (isa<bsgp::GroupRankOp>(op)) {
      v = emitGroupRank(b, loc, builtins);
    } else if (isa<bsgp::GroupSizeOp>(op)) {
      v = constant(i32, kSPIRVWorkgroupSize);
    } else if (isa<bsgp::GroupIdOp>(op)) {
      v = emitGroupId(b, loc, builtins);
    } else if (isa<bsgp::GroupCountOp>(op)) {
      // The workgroups holding ranks: a 2D launch may have more.
      Value n = arith::AddIOp::create(b, loc, loadSize(b, loc),
                                      constant(i64, kSPIRVWorkgroupSize - 1));
      n = arith::DivUIOp::create(b, loc, n, constant(i64, kSPIRVWorkgroupSize));
      v = arith::TruncIOp::create(b, loc, i32, n);
    } else if (isa<bsgp::GroupThreadsOp>(op)) {
      // min(thread.size - group.id * group.size, group.size).
      Value id =
          arith::ExtUIOp::create(b, loc, i64, emitGroupId(b, loc, builtins));
      Value left = arith::SubIOp::create(
          b, loc, loadSize(b, loc),
          arith::MulIOp::create(b, loc, id,
                                constant(i64, kSPIRVWorkgroupSize)));
      left = arith::MinUIOp::create(b, loc, left,
                                    constant(i64, kSPIRVWorkgroupSize));
      v = arith::TruncIOp::create(b, loc, i32, left);
    } else if (isa<bsgp::SubgroupRankOp>(op)) {
      v = builtins.load(b, loc, spirv::BuiltIn::SubgroupLocalInvocationId);
    } else if (isa<bsgp::SubgroupSizeOp>(op)) {
      v = builtins.load(b, loc, spirv::BuiltIn::SubgroupSize);
    } else if (isa<bsgp::GroupBarrierOp>(op)) {
      // Like __syncthreads: local arrays and device memory written before
      // the barrier are visible to the work group after it.
      spirv::ControlBarrierOp::create(
          b, loc, workgroup, workgroup,
          spirv::MemorySemanticsAttr::get(
              ctx, spirv::MemorySemantics::AcquireRelease |
                       spirv::MemorySemantics::WorkgroupMemory |
                       spirv::MemorySemantics::UniformMemory));
    } else if (auto shuffle = dyn_cast<bsgp::SubgroupShuffleOp>(op)) {
      Value lane =
          builtins.load(b, loc, spirv::BuiltIn::SubgroupLocalInvocationId);
      Value size = builtins.load(b, loc, spirv::BuiltIn::SubgroupSize);
      Value n = shuffle.getLane();
      StringRef mode = shuffle.getMode();
      Value src, valid;
      if (mode == "idx") {
        src = arith::RemUIOp::create(b, loc, n, size);
      } else if (mode == "up") {
        src = arith::SubIOp::create(b, loc, lane, n);
        valid =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, lane, n);
      } else {
        src = mode == "xor" ? Value(arith::XOrIOp::create(b, loc, lane, n))
                            : Value(arith::AddIOp::create(b, loc, lane, n));
        valid =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, src, size);
      }
      if (valid)
        src = arith::SelectOp::create(b, loc, valid, src, lane);
      v = spirv::GroupNonUniformShuffleOp::create(b, loc, subgroup,
                                                  shuffle.getValue(), src);
    } else if (auto reduce = dyn_cast<bsgp::SubgroupReduceOp>(op)) {
      // The op class as a tag: one builder call for the eight kinds.
      auto make = [&](auto tag) -> Value {
        using SPIRVOp = decltype(tag);
        return SPIRVOp::create(b, loc, i32, subgroup.getValue(),
                               spirv::GroupOperation::Reduce, reduce.getValue(),
                               Value());
      };
      StringRef kind = reduce.getKind();
      if (kind == "add")
        v = make(spirv::GroupNonUniformIAddOp());
      else if (kind == "mins")
        v = make(spirv::GroupNonUniformSMinOp());
      else if (kind == "minu")
        v = make(spirv::GroupNonUniformUMinOp());
      else if (kind == "maxs")
        v = make(spirv::GroupNonUniformSMaxOp());
      else if (kind == "maxu")
        v = make(spirv::GroupNonUniformUMaxOp());
      else if (kind == "and")
        v = make(spirv::GroupNonUniformBitwiseAndOp());
      else if (kind == "or")
        v = make(spirv::GroupNonUniformBitwiseOrOp());
      else
        v = make(spirv::GroupNonUniformBitwiseXorOp());
    } else if (auto vote = dyn_cast<bsgp::SubgroupVoteOp>(op)) {
      Value p = vote.getPredicate();
      if (vote.getMode() == "any") {
        v = spirv::GroupNonUniformAnyOp::create(b, loc, subgroup, p);
      } else if (vote.getMode() == "all") {
        v = spirv::GroupNonUniformAllOp::create(b, loc, subgroup, p);
      } else {
        // Subgroups have at most 64 lanes: the first two words of the mask.
        Value mask = spirv::GroupNonUniformBallotOp::create(
            b, loc, VectorType::get({4}, i32), subgroup, p);
        Value lo = arith::ExtUIOp::create(
            b, loc, i64, spirv::CompositeExtractOp::create(b, loc, mask, {0}));
        Value hi = arith::ExtUIOp::create(
            b, loc, i64, spirv::CompositeExtractOp::create(b, loc, mask, {1}));
        v = arith::OrIOp::create(
            b, loc, lo, arith::ShLIOp::create(b, loc, hi, constant(i64, 32)));
      }
    }
    if (op->getNumResults() == 1)
      op->getResult(0).replaceAllUsesWith(v);
    op->erase();
  }
  return success();
}

namespace {

struct LowerGroupOpsToSPIRVPass
    : public bsgp::impl::BSGPLowerGroupOpsToSPIRVPassBase<
          LowerGroupOpsToSPIRVPass> {
  void runOnOperation() override;
};

} // namespace

void LowerGroupOpsToSPIRVPass::runOnOperation() {
  for (ModuleOp device : bsgp::getSPIRVDeviceModules(getOperation())) {
    bsgp::SPIRVBuiltins builtins(device);
    // group.count divides the thread count, the push constants' `size`.
    auto loadSize = [&](OpBuilder &b, Location loc) {
      return bsgp::spv::loadPushConstant(b, loc, device, 1);
    };
    for (func::FuncOp fn : device.getOps<func::FuncOp>())
      if (failed(bsgp::lowerGroupOpsToSPIRV(fn, builtins, loadSize)))
        return signalPassFailure();
  }
}
