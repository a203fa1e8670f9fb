//===- Pipeline.cpp - the §4 pass pipeline -------------------------------===//
//
// The order of §4.2: inline collectives (1), turn the threads' printfs
// into records of a print buffer, specialize host functions whose
// supersteps depend on the target, expand pars, clean up (2), let
// collectives run without their barrier where the caller allows it, copy
// private arrays across barriers, split into supersteps (3), propagate
// thread.rank (2), find the saved values (5), save and load them (6), share
// streams (7, §4.3) and outline kernels (3-4), leave the uniform values
// only kernels use on the device; with CUDA among the targets, make
// uniform loops of supersteps one kernel each.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

void bsgp::buildBSGPSuperstepPipeline(
    mlir::OpPassManager &pm, const BSGPSpecializeTargetsPassOptions &targets) {
  pm.addPass(createBSGPMergeKillForkPass());
  pm.addPass(createBSGPInlineCollectivesPass());
  pm.addPass(createBSGPLowerDevicePrintfPass());
  pm.addPass(createBSGPSpecializeTargetsPass(targets));
  pm.addPass(createBSGPExpandParPass());
  pm.addPass(createBSGPResolveOldRankPass());
  pm.addPass(createBSGPSplitUniformFlowPass());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createSCCPPass());
  pm.addPass(createBSGPSinglePassPass());
  pm.addPass(createBSGPCarryPrivateArraysPass());
  pm.addPass(createBSGPSplitSuperstepsPass());
  pm.addPass(createBSGPForwardSortKeysPass());
  pm.addPass(createBSGPRematerializePass());
  pm.addPass(createBSGPForwardSortResultsPass());
  pm.addPass(createBSGPRematerializeLoadsPass());
  pm.addPass(createBSGPFindSavedValuesPass());
}

void bsgp::buildBSGPStreamPipeline(mlir::OpPassManager &pm) {
  pm.addPass(createBSGPSaveRestorePass());
  pm.addPass(createBSGPAllocateStreamsPass());
  pm.addPass(createBSGPOutlineKernelsPass());
  pm.addPass(createBSGPNarrowSingleRankPass());
  pm.addPass(createBSGPKeepUniformsOnDevicePass());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}

void bsgp::buildBSGPPipeline(mlir::OpPassManager &pm,
                             const BSGPSpecializeTargetsPassOptions &targets) {
  buildBSGPSuperstepPipeline(pm, targets);
  buildBSGPStreamPipeline(pm);
  // Loops of supersteps as one kernel, which the backend at run time
  // launches where it can keep the kernel's work groups all resident (CUDA,
  // the CPU, a Vulkan device it knows); elsewhere the loop runs as it is.
  pm.addPass(createBSGPFuseUniformLoopsPass());
}

void bsgp::registerBSGPPipelines() {
  mlir::PassPipelineRegistration<>(
      "bsgp-superstep-pipeline",
      "§4.2 steps 1-5: spawns with barriers to the superstep form",
      [](mlir::OpPassManager &pm) { buildBSGPSuperstepPipeline(pm); });
  mlir::PassPipelineRegistration<>(
      "bsgp-stream-pipeline",
      "§4.2 steps 6-7 and 3-4: superstep form to kernels and launches",
      buildBSGPStreamPipeline);
  mlir::PassPipelineRegistration<>(
      "bsgp-pipeline", "the whole §4 pipeline: spawns to kernels",
      [](mlir::OpPassManager &pm) { buildBSGPPipeline(pm); });
}
