//===- Structurize.cpp - structured control flow for SPIR-V ---------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "SignedCompares.h"

#include "bsgp/Conversion/BSGPToSPIRV/BSGPToSPIRV.h"
#include "bsgp/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPSTRUCTURIZEFORSPIRVPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

/// SPIR-V shaders need structured control flow. MLIRGen writes early
/// returns, breaks and continues as flags, kernel bodies are one block, and
/// no pass before this one adds blocks, so every device function arrives
/// structured; a function with branches (IR written by hand) gets an error
/// here instead of SPIR-V that no driver takes.
static LogicalResult checkStructured(ModuleOp device) {
  for (func::FuncOp fn : device.getOps<func::FuncOp>()) {
    WalkResult branches = fn.walk([](Operation *op) {
      bool hasBlocks = llvm::any_of(op->getRegions(), [](Region &r) {
        return !r.empty() && !r.hasOneBlock();
      });
      return hasBlocks || isa<scf::ExecuteRegionOp>(op)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (branches.wasInterrupted())
      return fn.emitError("control flow that SPIR-V cannot express: a block "
                          "with branches in a device function");
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
    if (failed(checkStructured(device)))
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
