//===- SuperstepUtils.cpp - helpers shared by the §4 passes --------------===//
//
// Rebuilding supersteps with other results, and reading names and source
// positions off locations.
//
//===----------------------------------------------------------------------===//

#include "SuperstepUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace bsgp {
namespace ssutil {

SmallVector<SuperstepOp> getSupersteps(SpawnOp spawn) {
  SmallVector<SuperstepOp> steps;
  for (Operation &op : spawn.getBody().front())
    if (auto step = dyn_cast<SuperstepOp>(op))
      steps.push_back(step);
  return steps;
}

SuperstepOp replaceSuperstepResults(SuperstepOp step, ArrayRef<Value> yielded) {
  OpBuilder b(step);
  auto newStep =
      SuperstepOp::create(b, step.getLoc(), ValueRange(yielded).getTypes(),
                          step.getIndexAttr(), step.getRankReassignedAttr(),
                          step.getSourceBeginAttr(), step.getSourceEndAttr());
  for (NamedAttribute attr : step->getDiscardableAttrs())
    newStep->setAttr(attr.getName(), attr.getValue());
  newStep.getBody().takeBody(step.getBody());
  auto yield = cast<YieldOp>(newStep.getBody().front().getTerminator());
  SmallVector<Value> oldYielded(yield.getValues());
  yield.getValuesMutable().assign(yielded);
  for (auto [i, old] : llvm::enumerate(oldYielded)) {
    const auto *it = llvm::find(yielded, old);
    if (it != yielded.end())
      step.getResult(i).replaceAllUsesWith(
          newStep.getResult(it - yielded.begin()));
  }
  assert(step->use_empty() && "a dropped superstep result is still used");
  step->erase();
  return newStep;
}

SuperstepOp dropUnusedResults(SuperstepOp step) {
  if (llvm::all_of(step.getResults(),
                   [](Value result) { return !result.use_empty(); }))
    return step;
  auto yield = cast<YieldOp>(step.getBody().front().getTerminator());
  SmallVector<Value> kept;
  for (auto [result, yielded] : llvm::zip(step.getResults(), yield.getValues()))
    if (!result.use_empty())
      kept.push_back(yielded);
  return replaceSuperstepResults(step, kept);
}

FileLineColLoc findFileLineCol(Location loc) {
  // Code inlined from a collective function is attributed to its call site,
  // which is where it appears in the spawn.
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    if (FileLineColLoc caller = findFileLineCol(callSite.getCaller()))
      return caller;
  FileLineColLoc found;
  loc->walk([&](Location nested) {
    if (auto flc = dyn_cast<FileLineColLoc>(nested)) {
      found = flc;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

std::string getValueName(Value value) {
  std::string name;
  Location loc = isa<BlockArgument>(value) ? cast<BlockArgument>(value).getLoc()
                                           : value.getDefiningOp()->getLoc();
  loc->walk([&](Location nested) {
    if (auto named = dyn_cast<NameLoc>(nested)) {
      name = named.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name;
}

int getStepNumber(ArrayRef<SuperstepOp> steps, Operation *op) {
  for (auto [i, step] : llvm::enumerate(steps))
    if (step->isAncestor(op))
      return static_cast<int>(i);
  return -1;
}

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

SpawnOp versionSpawn(SpawnOp spawn, Value test, StringRef attr,
                     StringRef copyVersion, StringRef version,
                     IRMapping &mapping) {
  OpBuilder b(spawn);
  Location loc = spawn.getLoc();
  auto branch = scf::IfOp::create(b, loc, spawn.getResultTypes(), test,
                                  /*withElseRegion=*/true);
  // Without results the builder has made the yields.
  bool hasResults = spawn->getNumResults() != 0;
  b.setInsertionPointToStart(branch.thenBlock());
  auto copy = cast<SpawnOp>(b.clone(*spawn, mapping));
  if (hasResults)
    scf::YieldOp::create(b, loc, copy.getResults());
  spawn->replaceAllUsesWith(branch.getResults());
  b.setInsertionPointToStart(branch.elseBlock());
  if (hasResults)
    scf::YieldOp::create(b, loc, spawn.getResults());
  spawn->moveBefore(branch.elseBlock()->getTerminator());
  copy->setAttr(attr, b.getStringAttr(copyVersion));
  spawn->setAttr(attr, b.getStringAttr(version));
  return copy;
}

Value buildRuntimeCall(OpBuilder &b, Location loc, StringRef name, Type result,
                       ValueRange args) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  SmallVector<Value> converted;
  SmallVector<Type> types;
  for (Value arg : args) {
    if (isa<PtrType>(arg.getType()))
      arg = UnrealizedConversionCastOp::create(b, loc, ptr, arg).getResult(0);
    converted.push_back(arg);
    types.push_back(arg.getType());
  }
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  if (!fn) {
    Type type = result ? result : LLVM::LLVMVoidType::get(b.getContext());
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    fn = LLVM::LLVMFuncOp::create(mb, module.getLoc(), name,
                                  LLVM::LLVMFunctionType::get(type, types));
  }
  auto call = LLVM::CallOp::create(b, loc, fn, converted);
  return result ? call.getResult() : Value();
}

func::CallOp getListSortCall(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  if (!call || getCalledLibraryKind(call) != LibraryKind::SortRanks)
    return {};
  // The verifier checked the callee's signature.
  assert(call.getNumOperands() == kNumSortOperands);
  return call;
}

Value buildDistinctAllocationsTest(OpBuilder &b, Location loc, Value p,
                                   Value q) {
  Value distinct = buildRuntimeCall(b, loc, "bsgprt_distinct_allocations",
                                    b.getI32Type(), {p, q});
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, distinct,
                               arith::ConstantIntOp::create(b, loc, 0, 32));
}

Value buildApartTest(OpBuilder &b, Location loc, Value p, Value q, Value n,
                     bool orSame) {
  if (q.getType() != p.getType())
    q = PtrCastOp::create(b, loc, p.getType(), q);
  Value d = PtrDiffOp::create(b, loc, b.getI64Type(), q, p);
  Value negN = arith::SubIOp::create(
      b, loc, arith::ConstantIntOp::create(b, loc, 0, 64), n);
  Value apart = arith::OrIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, d, n),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, d, negN));
  if (!orSame)
    return apart;
  Value same =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d,
                            arith::ConstantIntOp::create(b, loc, 0, 64));
  return arith::OrIOp::create(b, loc, apart, same);
}

Value buildThreadCount64(OpBuilder &b, SpawnOp spawn) {
  return arith::ExtSIOp::create(b, spawn.getLoc(), b.getI64Type(),
                                spawn.getThreadCount());
}

Value andTest(OpBuilder &b, Location loc, Value all, Value test) {
  return all ? arith::AndIOp::create(b, loc, all, test) : test;
}

} // namespace ssutil
} // namespace bsgp
