//===- CodegenPipeline.cpp - from outlined kernels to LLVM for the host ---===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Target/Passes.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Pass/PassManager.h"

void bsgp::buildDeviceCodegenPipeline(mlir::OpPassManager &pm,
                                      const CodegenTargets &targets) {
  if (targets.cuda) {
    LowerKernelsToNVVMOptions options;
    options.chip = targets.cudaChip;
    options.cudaPath = targets.cudaPath;
    options.lineInfo = targets.lineInfo;
    options.groupsPerBlock = targets.cudaGroupsPerBlock;
    pm.addPass(createLowerKernelsToNVVM(options));
  }
  if (targets.spirv) {
    LowerKernelsToSPIRVOptions options;
    options.optLevel = targets.spirvOptLevel;
    pm.addPass(createLowerKernelsToSPIRV(options));
  }
  // Each kernel lowering folds the target queries of the device code it
  // compiles to its own constants. The GPU targets fold their copies; then
  // host code is resolved, and the CPU target, last, folds the kernels and
  // device functions in place.
  ResolveTargetQueriesOptions queries;
  queries.cpu = targets.cpu;
  queries.cuda = targets.cuda;
  queries.spirv = targets.spirv;
  pm.addPass(createResolveTargetQueries(queries));
  if (targets.cpu)
    pm.addPass(createLowerKernelsToCPU());
}

void bsgp::buildCodegenPipeline(mlir::OpPassManager &pm,
                                const CodegenTargets &targets) {
  buildDeviceCodegenPipeline(pm, targets);
  pm.addPass(createLowerLaunches());
  pm.addPass(mlir::createSCFToControlFlowPass());
  pm.addPass(createConvertBSGPToLLVM());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
}
