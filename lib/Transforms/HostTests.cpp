//===- HostTests.cpp - versioning a spawn on host tests -------------------===//
//
// The passes that transform a spawn only where run-time facts hold
// (pointers apart, distinct allocations) build those facts as host tests
// and keep both versions of the spawn.
//
//===----------------------------------------------------------------------===//

#include "HostTests.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace bsgp {
namespace ssutil {

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
