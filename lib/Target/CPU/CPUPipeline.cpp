//===- CPUPipeline.cpp - from outlined kernels to LLVM for the host -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Target/Passes.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Pass/PassManager.h"

void bsgp::buildCPUCodegenPipeline(mlir::OpPassManager &pm) {
  pm.addPass(createLowerKernelsToCPU());
  pm.addPass(createLowerLaunches());
  pm.addPass(mlir::createSCFToControlFlowPass());
  pm.addPass(createConvertBSGPToLLVM());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
}
