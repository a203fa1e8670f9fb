//===- Passes.h - the §4 compilation passes --------------------*- C++ -*-===//
//
// Declarations of the passes of lib/Transforms and of the pipeline that
// turns spawns into kernels and launches (BSGP paper §4.2-4.3).
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_TRANSFORMS_PASSES_H
#define BSGP_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir {
class ModuleOp;
class OpPassManager;
} // namespace mlir

namespace bsgp {

#define GEN_PASS_DECL
#include "bsgp/Transforms/Passes.h.inc"

/// Steps 1, 2 (par), 2 (clean-up), 3, 2 (rank propagation) and 5: from
/// spawns with barriers to the superstep form with exactly the saved values
/// as superstep results. printSuperstepTable reads the result.
/// `targets` are those the object carries (bsgp-specialize-targets).
void buildBSGPSuperstepPipeline(
    mlir::OpPassManager &pm,
    const BSGPSpecializeTargetsPassOptions &targets = {});

/// Steps 6, 7 and 3-4: from the superstep form to kernels and launches.
void buildBSGPStreamPipeline(mlir::OpPassManager &pm);

/// The whole §4 pipeline: buildBSGPSuperstepPipeline, then
/// buildBSGPStreamPipeline.
void buildBSGPPipeline(mlir::OpPassManager &pm,
                       const BSGPSpecializeTargetsPassOptions &targets = {});

/// Registers the pipelines above as `bsgp-superstep-pipeline`,
/// `bsgp-stream-pipeline` and `bsgp-pipeline` (for bsgp-opt).
void registerBSGPPipelines();

#define GEN_PASS_REGISTRATION
#include "bsgp/Transforms/Passes.h.inc"

} // namespace bsgp

#endif // BSGP_TRANSFORMS_PASSES_H
