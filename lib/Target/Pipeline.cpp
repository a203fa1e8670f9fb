//===- Pipeline.cpp - from outlined kernels to LLVM for the host ----------===//
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
  // Saved values take the same stream words on every target: split once.
  pm.addPass(createBSGPSplitSavedWordsPass());
  // Each GPU target's device module is serialized before the next target
  // builds its own, so that no pass sees another target's device module.
  if (targets.targets.contains(Target::CUDA)) {
    BSGPCoarsenGroupsPassOptions coarsen;
    coarsen.groupsPerBlock = targets.cudaGroupsPerBlock;
    pm.addPass(createBSGPCoarsenGroupsPass(coarsen));
    pm.addPass(createBSGPLowerKernelsToNVVMPass());
    pm.addPass(createBSGPLowerLookbackPass());
    BSGPLowerGroupOpsToNVVMPassOptions groupOps;
    groupOps.chip = targets.cudaChip;
    pm.addPass(createBSGPLowerGroupOpsToNVVMPass(groupOps));
    pm.addPass(createBSGPConvertToNVVMPass());
    BSGPSerializeToPTXPassOptions ptx;
    ptx.chip = targets.cudaChip;
    ptx.cudaPath = targets.cudaPath;
    ptx.lineInfo = targets.lineInfo;
    pm.addPass(createBSGPSerializeToPTXPass(ptx));
  }
  if (targets.targets.contains(Target::SPIRV)) {
    // Unrolling is an optimization, as for LLVM's targets: not at -O0.
    BSGPLowerKernelsToSPIRVPassOptions kernels;
    kernels.unrollLoops = targets.spirvOptLevel > 0;
    pm.addPass(createBSGPLowerKernelsToSPIRVPass(kernels));
    pm.addPass(createBSGPLowerGroupOpsToSPIRVPass());
    pm.addPass(createBSGPLegalizeForSPIRVPass());
    pm.addPass(createBSGPLowerLocalArraysToSPIRVPass());
    pm.addPass(createBSGPStructurizeForSPIRVPass());
    pm.addPass(createBSGPConvertToSPIRVPass());
    BSGPSerializeSPIRVPassOptions spirv;
    spirv.optLevel = targets.spirvOptLevel;
    pm.addPass(createBSGPSerializeSPIRVPass(spirv));
  }
  // Each kernel lowering folds the target queries of the device code it
  // compiles to its own constants. The GPU targets fold their copies; then
  // host code is resolved, and the CPU target, last, folds the kernels and
  // device functions in place.
  BSGPResolveTargetQueriesPassOptions queries;
  queries.targets = targets.targets.str();
  pm.addPass(createBSGPResolveTargetQueriesPass(queries));
  if (targets.targets.contains(Target::CPU)) {
    pm.addPass(createBSGPLowerKernelsToCPUPass());
    pm.addPass(createBSGPSplitRankLoopRowsPass());
  }
}

void bsgp::buildCodegenPipeline(mlir::OpPassManager &pm,
                                const CodegenTargets &targets) {
  buildDeviceCodegenPipeline(pm, targets);
  pm.addPass(createBSGPLowerLaunchesPass());
  pm.addPass(mlir::createSCFToControlFlowPass());
  pm.addPass(createBSGPConvertToLLVMPass());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
}
