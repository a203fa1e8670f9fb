//===- ResolveTargetQueries.cpp - target.cpu/cuda/spirv to constants ------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `target.X` is a constant wherever the compiler knows which target runs the
// code: in device code, once a target's lowering takes a kernel, and in host
// code of an object with one target. Only host code of a fat object asks the
// runtime, which picks the backend when the program starts.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Conversion/Common/KernelBody.h"
#include "bsgp/Conversion/Passes.h"
#include "bsgp/Transforms/TargetQueries.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPRESOLVETARGETQUERIESPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

namespace {

struct ResolveTargetQueriesPass
    : public bsgp::impl::BSGPResolveTargetQueriesPassBase<
          ResolveTargetQueriesPass> {
  using BSGPResolveTargetQueriesPassBase::BSGPResolveTargetQueriesPassBase;
  void runOnOperation() override;
};

} // namespace

/// True where the query is left to the kernel lowerings: kernels, and the
/// device functions that CPU kernels share with host code.
static bool isDeviceQuery(Operation *op, bool hasCPU) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (isa<bsgp::KernelOp>(p))
      return true;
    if (hasCPU && isa<FunctionOpInterface>(p) &&
        (p->hasAttr(bsgp::BSGPDialect::getDeviceAttrName()) ||
         p->hasAttr(bsgp::BSGPDialect::getCollectiveAttrName())))
      return true;
  }
  return false;
}

/// `group.size` in host code: the work groups of the function's own target
/// (a copy made by bsgp-specialize-targets), the size every target of the
/// object shares, or else the running backend's.
static Value resolveGroupSize(OpBuilder &b, Location loc, Operation *query,
                              bsgp::TargetSet set, ModuleOp module) {
  if (auto fn = query->getParentOfType<FunctionOpInterface>())
    if (auto only = fn->getAttrOfType<StringAttr>(
            bsgp::BSGPDialect::getTargetAttrName()))
      if (std::optional<bsgp::Target> t = bsgp::parseTargetName(only))
        set = {*t};
  SmallVector<bsgp::Target, bsgp::NumTargets> targets = set.targets();
  auto sizeOf = [&](bsgp::Target t) -> Value {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                        bsgp::getTargetInfo(t).GroupSize);
  };
  Value v = sizeOf(targets.back());
  if (llvm::all_equal(llvm::map_range(targets, [](bsgp::Target t) {
        return bsgp::getTargetInfo(t).GroupSize;
      })))
    return v;
  Value got = bsgp::emitRuntimeTargetCall(b, loc, module);
  for (bsgp::Target t : llvm::reverse(ArrayRef(targets).drop_back())) {
    Value id = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                            bsgp::getTargetInfo(t).RuntimeId);
    Value is = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, got, id);
    v = arith::SelectOp::create(b, loc, is, sizeOf(t), v);
  }
  return v;
}

void ResolveTargetQueriesPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<bsgp::TargetSet> set = bsgp::parseTargetsOption(module, targets);
  if (failed(set))
    return signalPassFailure();
  bool cpu = set->contains(bsgp::Target::CPU);
  SmallVector<bsgp::TargetIsOp> queries;
  SmallVector<bsgp::GroupSizeOp> groupSizes;
  module.walk([&](Operation *op) {
    if (isDeviceQuery(op, cpu))
      return;
    if (auto q = dyn_cast<bsgp::TargetIsOp>(op))
      queries.push_back(q);
    else if (auto g = dyn_cast<bsgp::GroupSizeOp>(op))
      groupSizes.push_back(g);
  });

  for (bsgp::GroupSizeOp g : groupSizes) {
    OpBuilder b(g);
    g.getResult().replaceAllUsesWith(
        resolveGroupSize(b, g.getLoc(), g, *set, module));
    g.erase();
  }
  MLIRContext *ctx = module.getContext();
  Type i32 = IntegerType::get(ctx, 32);
  for (bsgp::TargetIsOp q : queries) {
    OpBuilder b(q);
    Location loc = q.getLoc();
    bsgp::Target t = q.getTargetKind();
    bool inObject = set->contains(t);
    Value v;
    if (set->size() == 1 || !inObject) {
      // A target without kernels in the object never runs its host code.
      v = arith::ConstantIntOp::create(b, loc, inObject ? 1 : 0, 1);
    } else {
      int64_t id = bsgp::getTargetInfo(t).RuntimeId;
      Value got = bsgp::emitRuntimeTargetCall(b, loc, module);
      v = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, got,
                                arith::ConstantIntOp::create(b, loc, i32, id));
    }
    q.getResult().replaceAllUsesWith(v);
    q.erase();
  }
}
