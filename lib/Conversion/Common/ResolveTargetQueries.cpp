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

void ResolveTargetQueriesPass::runOnOperation() {
  ModuleOp module = getOperation();
  SmallVector<bsgp::TargetIsOp> queries;
  module.walk([&](bsgp::TargetIsOp q) {
    if (!isDeviceQuery(q, cpu))
      queries.push_back(q);
  });
  if (queries.empty())
    return;

  unsigned numTargets = unsigned(cpu) + unsigned(cuda) + unsigned(spirv);
  MLIRContext *ctx = module.getContext();
  Type i32 = IntegerType::get(ctx, 32);
  for (bsgp::TargetIsOp q : queries) {
    OpBuilder b(q);
    Location loc = q.getLoc();
    StringRef t = q.getTarget();
    bool inObject =
        (t == "cpu" && cpu) || (t == "cuda" && cuda) || (t == "spirv" && spirv);
    Value v;
    if (numTargets == 1 || !inObject) {
      // A target without kernels in the object never runs its host code.
      v = arith::ConstantIntOp::create(b, loc, inObject ? 1 : 0, 1);
    } else {
      int64_t id = bsgp::getRuntimeTargetId(t);
      Value got = bsgp::emitRuntimeTargetCall(b, loc, module);
      v = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, got,
                                arith::ConstantIntOp::create(b, loc, i32, id));
    }
    q.getResult().replaceAllUsesWith(v);
    q.erase();
  }
}
