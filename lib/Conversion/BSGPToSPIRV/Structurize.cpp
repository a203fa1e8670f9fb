//===- Structurize.cpp - structured control flow for SPIR-V ---------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "SignedCompares.h"

#include "bsgp/Conversion/BSGPToSPIRV/BSGPToSPIRV.h"
#include "bsgp/Conversion/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CFGToSCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPSTRUCTURIZEFORSPIRVPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

/// SPIR-V shaders need structured control flow. Functions with branches
/// (early returns, or regions that scf cannot hold) go through the CFG and
/// come back as scf.if / scf.while.
static LogicalResult structurize(ModuleOp device) {
  MLIRContext *ctx = device.getContext();
  for (func::FuncOp fn : device.getOps<func::FuncOp>()) {
    bool unstructured = !fn.getBody().hasOneBlock();
    fn.walk([&](Operation *op) {
      if (isa<scf::ExecuteRegionOp>(op) ||
          (op->getNumRegions() && !op->getRegion(0).empty() &&
           !op->getRegion(0).hasOneBlock()))
        unstructured = true;
    });
    if (!unstructured)
      continue;
    RewritePatternSet patterns(ctx);
    populateSCFToControlFlowConversionPatterns(patterns);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<scf::SCFDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(fn, target, std::move(patterns))))
      return failure();
    ControlFlowToSCFTransformation transformation;
    DominanceInfo dominance(fn);
    if (failed(transformCFGToSCF(fn.getBody(), transformation, dominance)))
      return fn.emitError("control flow that SPIR-V cannot express");
  }
  return success();
}

namespace {

struct StructurizeForSPIRVPass
    : public bsgp::impl::BSGPStructurizeForSPIRVPassBase<
          StructurizeForSPIRVPass> {
  void runOnOperation() override;
};

} // namespace

void StructurizeForSPIRVPass::runOnOperation() {
  for (ModuleOp device : bsgp::getSPIRVDeviceModules(getOperation())) {
    if (failed(structurize(device)))
      return signalPassFailure();
    // Once control flow is final, so that every compare the functions keep
    // is seen.
    bsgp::rewriteSignedRemainders(device);
    bsgp::rewriteSignBitTests(device);
    bsgp::rewriteNarrowSignedMinMax(device);
    bsgp::rewriteSignExtendedWideMultiplies(device);
    bsgp::rewriteSigned64Compares(device);
    bsgp::rewriteNarrowSignedToFloat(device);
  }
}
