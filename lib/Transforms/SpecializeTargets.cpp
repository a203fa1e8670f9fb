//===- SpecializeTargets.cpp - per-target copies of host functions --------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A barrier under `if (target.cuda)` is uniform (every thread takes the same
// branch) but it makes the superstep structure, and with it the host code
// that launches the kernels, depend on the target. The superstep split
// (§4.2 step 3) only cuts barriers at the top level of a spawn, so the
// function is first specialized: folded in place when the object has one
// target, copied once per target otherwise, the original becoming a
// dispatch on the backend the runtime chose.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"
#include "bsgp/Transforms/TargetQueries.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/SetVector.h"

#include <functional>

namespace bsgp {
#define GEN_PASS_DEF_BSGPSPECIALIZETARGETSPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

void bsgp::foldTargetQueries(Operation *root, Target target) {
  SmallVector<bsgp::TargetIsOp> queries;
  root->walk([&](bsgp::TargetIsOp q) { queries.push_back(q); });
  if (queries.empty())
    return;
  llvm::SetVector<Operation *> owners;
  for (bsgp::TargetIsOp q : queries) {
    if (Operation *owner =
            q->getParentWithTrait<OpTrait::IsIsolatedFromAbove>())
      owners.insert(owner);
    OpBuilder b(q);
    Value c = arith::ConstantIntOp::create(b, q.getLoc(),
                                           q.getTargetKind() == target, 1);
    q.getResult().replaceAllUsesWith(c);
    q.erase();
  }
  // The canonicalizer's patterns, but only on the functions and kernels that
  // held a query: an scf.if on a constant keeps just the branch taken.
  MLIRContext *ctx = root->getContext();
  RewritePatternSet patterns(ctx);
  for (Dialect *d : ctx->getLoadedDialects())
    d->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  FrozenRewritePatternSet frozen(std::move(patterns));
  for (Operation *owner : owners)
    for (Region &r : owner->getRegions())
      (void)applyPatternsGreedily(r, frozen);
}

FailureOr<bsgp::TargetSet> bsgp::parseTargetsOption(Operation *anchor,
                                                    StringRef option) {
  std::string bad;
  if (std::optional<TargetSet> set = TargetSet::parse(option, &bad))
    return *set;
  return anchor->emitError("unknown target '")
         << bad << "' (expected cpu, cuda or spirv)";
}

Value bsgp::emitRuntimeTargetCall(OpBuilder &b, Location loc, ModuleOp module) {
  constexpr StringLiteral name = "bsgprt_target";
  MLIRContext *ctx = module.getContext();
  Type i32 = IntegerType::get(ctx, 32);
  // A program that declares it itself (to print the backend) has it as an
  // LLVM function: adding a func.func of the same name was a redefinition.
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return LLVM::CallOp::create(b, loc, fn, ValueRange{}).getResult();
  auto fn = module.lookupSymbol<func::FuncOp>(name);
  if (!fn) {
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    fn = func::FuncOp::create(mb, module.getLoc(), name,
                              FunctionType::get(ctx, {}, {i32}));
    fn.setPrivate();
  }
  return func::CallOp::create(b, loc, fn, ValueRange{}).getResult(0);
}

namespace {

struct SpecializeTargetsPass
    : public bsgp::impl::BSGPSpecializeTargetsPassBase<SpecializeTargetsPass> {
  using BSGPSpecializeTargetsPassBase::BSGPSpecializeTargetsPassBase;
  void runOnOperation() override;
};

/// True if a barrier, require or thread.size assignment of a spawn in
/// `func` sits under a branch on a target query: the spawn's supersteps
/// then differ between targets.
bool hasTargetDependentSupersteps(func::FuncOp func) {
  return func
      .walk([](Operation *op) {
        if (!isa<bsgp::BarrierOp, bsgp::RequireOp, bsgp::SetSizeOp>(op))
          return WalkResult::advance();
        for (Operation *p = op->getParentOp(); p && !isa<bsgp::SpawnOp>(p);
             p = p->getParentOp())
          if (auto branch = dyn_cast<scf::IfOp>(p))
            if (bsgp::dependsOnTargetQuery(branch.getCondition()))
              return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// Replaces the body of `func` by calls of `copies` (target, copy), chosen
/// by the runtime's backend; the last copy is the fallback.
void emitDispatch(func::FuncOp func,
                  ArrayRef<std::pair<bsgp::Target, func::FuncOp>> copies) {
  ModuleOp module = func->getParentOfType<ModuleOp>();
  Location loc = func.getLoc();
  func.getBody().dropAllReferences();
  func.getBody().getBlocks().clear();
  Block *entry = func.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockEnd(entry);
  Value got = bsgp::emitRuntimeTargetCall(b, loc, module);
  ValueRange args = entry->getArguments();

  std::function<SmallVector<Value>(OpBuilder &, size_t)> emitFrom =
      [&](OpBuilder &ib, size_t i) -> SmallVector<Value> {
    auto call = [&](OpBuilder &cb) {
      return SmallVector<Value>(
          func::CallOp::create(cb, loc, copies[i].second, args).getResults());
    };
    if (i + 1 == copies.size())
      return call(ib);
    Value id = arith::ConstantIntOp::create(
        ib, loc, ib.getI32Type(),
        bsgp::getTargetInfo(copies[i].first).RuntimeId);
    Value is =
        arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::eq, got, id);
    auto branch = scf::IfOp::create(
        ib, loc, is,
        [&](OpBuilder &tb, Location) {
          scf::YieldOp::create(tb, loc, call(tb));
        },
        [&](OpBuilder &eb, Location) {
          scf::YieldOp::create(eb, loc, emitFrom(eb, i + 1));
        });
    return SmallVector<Value>(branch.getResults());
  };
  SmallVector<Value> values = emitFrom(b, 0);
  func::ReturnOp::create(b, loc, values);
}

} // namespace

void SpecializeTargetsPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<bsgp::TargetSet> set = bsgp::parseTargetsOption(module, targets);
  if (failed(set))
    return signalPassFailure();
  if (set->empty())
    return;

  SmallVector<func::FuncOp> funcs;
  for (func::FuncOp func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && hasTargetDependentSupersteps(func))
      funcs.push_back(func);

  SymbolTable symbols(module);
  for (func::FuncOp func : funcs) {
    if (std::optional<bsgp::Target> only = set->getSingle()) {
      bsgp::foldTargetQueries(func, *only);
      continue;
    }
    SmallVector<std::pair<bsgp::Target, func::FuncOp>> copies;
    Operation *after = func;
    for (bsgp::Target target : set->targets()) {
      StringRef name = bsgp::getTargetName(target);
      auto copy = cast<func::FuncOp>(func->clone());
      copy.setSymName((func.getSymName() + "__" + name).str());
      copy.setPrivate();
      copy->setAttr(bsgp::BSGPDialect::getTargetAttrName(),
                    StringAttr::get(&getContext(), name));
      symbols.insert(copy, std::next(Block::iterator(after)));
      after = copy;
      bsgp::foldTargetQueries(copy, target);
      copies.push_back({target, copy});
    }
    emitDispatch(func, copies);
  }
}
