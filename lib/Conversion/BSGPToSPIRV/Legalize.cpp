//===- Legalize.cpp - atomics and float division for SPIR-V ---------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Rewrites, still in bsgp and arith ops, of what SPIR-V lacks (an atomic
// load, a float atomic add, the transcendental functions of doubles) or
// what Vulkan computes less exactly than the other targets (float
// division) or a driver wrongly (64-bit integer division).
//
//===----------------------------------------------------------------------===//

#include "DoubleMath.h"
#include "SPIRVCommon.h"
#include "WideDivision.h"

#include "bsgp/Conversion/BSGPToSPIRV/BSGPToSPIRV.h"

#include "bsgp/Conversion/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPLEGALIZEFORSPIRVPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

/// Vulkan lets OpFDiv be off by 2.5 ULP (NVIDIA's driver multiplies by an
/// approximate reciprocal), but BSGP gives IEEE results on every target. A
/// float quotient is therefore computed in double precision and rounded
/// once: the exact quotient of two floats is either a float midpoint, which
/// a double holds exactly, or at least 2^-48 (relative) away from one, far
/// more than a double division's error, so the rounding to float is the
/// IEEE one.
static void divideFloatsInDouble(Operation *root) {
  SmallVector<arith::DivFOp> divs;
  root->walk([&](arith::DivFOp div) {
    if (getElementTypeOrSelf(div.getType()).isF32())
      divs.push_back(div);
  });
  for (arith::DivFOp div : divs) {
    OpBuilder b(div);
    Location loc = div.getLoc();
    Type f64 = b.getF64Type();
    Type wide = f64;
    if (auto vec = dyn_cast<VectorType>(div.getType()))
      wide = VectorType::get(vec.getShape(), f64);
    Value lhs = arith::ExtFOp::create(b, loc, wide, div.getLhs());
    Value rhs = arith::ExtFOp::create(b, loc, wide, div.getRhs());
    Value q = arith::DivFOp::create(b, loc, lhs, rhs);
    Value narrow = arith::TruncFOp::create(b, loc, div.getType(), q);
    div.replaceAllUsesWith(narrow);
    div.erase();
  }
}

void bsgp::spv::rewriteAtomicLoads(Operation *root) {
  SmallVector<bsgp::AtomicLoadOp> loads;
  root->walk([&](bsgp::AtomicLoadOp op) { loads.push_back(op); });
  for (bsgp::AtomicLoadOp op : loads) {
    OpBuilder b(op);
    auto load = bsgp::PtrLoadOp::create(
        b, op.getLoc(), op.getType(), op.getPtr(),
        arith::ConstantIntOp::create(b, op.getLoc(), b.getI32Type(), 0));
    load.setCoherent(true);
    op.replaceAllUsesWith(load.getResult());
    op.erase();
  }
}

/// `atomicAdd(p, v)` of a float as a compare-exchange loop on the bits,
///   old = *p; while ((seen = cas(p, old, old + v)) != old) old = seen;
/// whose result, the value the successful exchange replaced, is the old
/// value the op returns.
static Value emitCompareExchangeAdd(OpBuilder &b, Location loc, Value ptr,
                                    Value v) {
  Type t = v.getType();
  Type intTy = b.getIntegerType(t.getIntOrFloatBitWidth());
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  Value init = bsgp::PtrLoadOp::create(b, loc, t, ptr, zero);
  auto loop = scf::WhileOp::create(b, loc, TypeRange{t}, ValueRange{init});
  OpBuilder::InsertionGuard guard(b);
  Block *before = b.createBlock(&loop.getBefore(), {}, {t}, {loc});
  Value old = before->getArgument(0);
  Value sum = arith::AddFOp::create(b, loc, old, v);
  Value seen = bsgp::AtomicCASOp::create(b, loc, t, ptr, old, sum);
  // Bits, not float equality: a NaN or -0.0 in memory must still end it.
  Value differ =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            arith::BitcastOp::create(b, loc, intTy, seen),
                            arith::BitcastOp::create(b, loc, intTy, old));
  scf::ConditionOp::create(b, loc, differ, ValueRange{seen});
  Block *after = b.createBlock(&loop.getAfter(), {}, {t}, {loc});
  scf::YieldOp::create(b, loc, after->getArgument(0));
  return loop.getResult(0);
}

/// SPIR-V has no float atomic add without an extension: each
/// `bsgp.atomic_rmw addf` becomes a compare-exchange loop. Where every
/// active lane of a subgroup adds to the same address (an accumulator),
/// the first of them adds the subgroup's sum and each lane's old value is
/// its share of that add (the old value plus the lanes' values before it):
/// with each lane in the loop, a round lets one thread through, and 3·10^5
/// threads adding to one float ran past NVIDIA's watchdog, which lost the
/// device. The group operations are those of the active lanes, so the
/// rewrite holds in divergent code (lowered after the group operations,
/// which have kept inactive ranks out of the code that reaches memory).
static void expandFloatAtomicAdds(Operation *root) {
  SmallVector<bsgp::AtomicRMWOp> adds;
  root->walk([&](bsgp::AtomicRMWOp op) {
    if (op.getKind() == arith::AtomicRMWKind::addf)
      adds.push_back(op);
  });
  for (bsgp::AtomicRMWOp op : adds) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value ptr = op.getPtr(), v = op.getValue();
    auto ptrType = dyn_cast<bsgp::PtrType>(ptr.getType());
    if (!ptrType) {
      op.getResult().replaceAllUsesWith(emitCompareExchangeAdd(b, loc, ptr, v));
      op.erase();
      continue;
    }
    Type t = v.getType(), i32 = b.getI32Type(), i1 = b.getI1Type();
    auto subgroup =
        spirv::ScopeAttr::get(b.getContext(), spirv::Scope::Subgroup);
    Value address = bsgp::PtrDiffOp::create(
        b, loc, b.getI64Type(), ptr, bsgp::PtrNullOp::create(b, loc, ptrType));
    Value oneAddress =
        spirv::GroupNonUniformAllEqualOp::create(b, loc, i1, subgroup, address);
    auto branch = scf::IfOp::create(b, loc, TypeRange{t}, oneAddress,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(branch.thenBlock());
      auto op = [&](spirv::GroupOperation kind) -> Value {
        return spirv::GroupNonUniformFAddOp::create(
            b, loc, t, subgroup,
            spirv::GroupOperationAttr::get(b.getContext(), kind), v, Value());
      };
      Value total = op(spirv::GroupOperation::Reduce);
      Value earlier = op(spirv::GroupOperation::ExclusiveScan);
      Value leader =
          spirv::GroupNonUniformElectOp::create(b, loc, i1, subgroup);
      auto lead = scf::IfOp::create(b, loc, TypeRange{t}, leader,
                                    /*withElseRegion=*/true);
      b.setInsertionPointToStart(lead.thenBlock());
      scf::YieldOp::create(b, loc, emitCompareExchangeAdd(b, loc, ptr, total));
      b.setInsertionPointToStart(lead.elseBlock());
      Value none = arith::ConstantOp::create(b, loc, b.getFloatAttr(t, 0.0));
      scf::YieldOp::create(b, loc, none);
      b.setInsertionPointAfter(lead);
      // The elected lane is the lowest active one.
      Value active = spirv::GroupNonUniformBallotOp::create(
          b, loc, VectorType::get({4}, i32), subgroup,
          arith::ConstantIntOp::create(b, loc, i1, 1));
      Value first = spirv::GroupNonUniformBallotFindLSBOp::create(
          b, loc, i32, subgroup, active);
      Value old = spirv::GroupNonUniformShuffleOp::create(
          b, loc, t, subgroup, lead.getResult(0), first);
      scf::YieldOp::create(
          b, loc, ValueRange{arith::AddFOp::create(b, loc, old, earlier)});
      b.setInsertionPointToStart(branch.elseBlock());
      scf::YieldOp::create(b, loc, emitCompareExchangeAdd(b, loc, ptr, v));
    }
    op.getResult().replaceAllUsesWith(branch.getResult(0));
    op.erase();
  }
}

namespace {

struct LegalizeForSPIRVPass
    : public bsgp::impl::BSGPLegalizeForSPIRVPassBase<LegalizeForSPIRVPass> {
  void runOnOperation() override;
};

} // namespace

void LegalizeForSPIRVPass::runOnOperation() {
  for (ModuleOp device : bsgp::getSPIRVDeviceModules(getOperation())) {
    bsgp::spv::rewriteAtomicLoads(device);
    expandFloatAtomicAdds(device);
    divideFloatsInDouble(device);
    bsgp::spv::expandDoubleMath(device);
    bsgp::spv::expandWideDivision(device);
  }
}
