//===- bsgp-opt.cpp - mlir-opt for the bsgp dialect ------------------------===//
//
// Parses, verifies, transforms and prints IR of the bsgp dialect together
// with the upstream dialects that BSGP programs use. The tests of the
// dialect and of the §4 passes run through this tool.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#if BSGP_OPT_HAVE_TRANSFORMS
#include "bsgp/Transforms/Passes.h"
#endif

int main(int argc, char **argv) {
  // Upstream passes of the §4.2 step 2 clean-up and of inlining (step 1):
  // canonicalize, cse, sccp, inline, symbol-dce, mem2reg, ...
  mlir::registerTransformsPasses();

  //===--------------------------------------------------------------------===//
  // BSGP passes (lib/Transforms, the paper's §4). Registered here once the
  // BSGPTransforms library exists; see tools/bsgp-opt/CMakeLists.txt.
  //===--------------------------------------------------------------------===//
#if BSGP_OPT_HAVE_TRANSFORMS
  bsgp::registerBSGPPasses();
  bsgp::registerBSGPPipelines();
#endif

  mlir::DialectRegistry registry;
  registry.insert<bsgp::BSGPDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::LLVM::LLVMDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::vector::VectorDialect>();
  mlir::func::registerInlinerExtension(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "bsgp optimizer driver\n", registry));
}
