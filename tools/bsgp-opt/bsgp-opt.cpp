//===- bsgp-opt.cpp - mlir-opt for the bsgp dialect -----------------------===//
//
// Parses, verifies, transforms and prints IR of the bsgp dialect together
// with the upstream dialects that BSGP programs use. The tests of the
// dialect and of the §4 passes run through this tool.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Target/Passes.h"
#include "bsgp/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/InlinerInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  // Upstream passes of the §4.2 step 2 clean-up and of inlining (step 1):
  // canonicalize, cse, sccp, inline, symbol-dce, mem2reg, ...
  mlir::registerTransformsPasses();
  // The two upstream conversions of the CPU pipeline; mlir/Conversion/Passes.h
  // would register every conversion there is.
  mlir::registerPass([] { return mlir::createSCFToControlFlowPass(); });
  mlir::registerPass([] { return mlir::createReconcileUnrealizedCastsPass(); });

  // BSGP passes (lib/Transforms, the paper's §4).
  bsgp::registerBSGPPasses();
  bsgp::registerBSGPPipelines();
  // Code generation: the conversions (lib/Conversion) and the device
  // module serialization (lib/Target).
  bsgp::registerBSGPConversionPasses();
  bsgp::registerBSGPTargetPasses();

  // The dialects of every stage: the frontend's output (bsgp, func, arith,
  // math, scf, cf, vector), the §4 passes' (memref, index for stream
  // indexing) and the three back ends (gpu + nvvm + llvm, spirv, llvm).
  // `ub` is listed because arith canonicalization creates ub.poison.
  mlir::DialectRegistry registry;
  registry.insert<bsgp::BSGPDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::gpu::GPUDialect, mlir::index::IndexDialect,
                  mlir::LLVM::LLVMDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::NVVM::NVVMDialect,
                  mlir::scf::SCFDialect, mlir::spirv::SPIRVDialect,
                  mlir::ub::UBDialect, mlir::vector::VectorDialect>();

  // Only the extensions these dialects need, not registerAllExtensions():
  // inlining of func.call and of LLVM functions (§4.2 step 1), and the
  // ConvertToLLVMPatternInterface models that `convert-to-llvm` looks up on
  // each dialect (it fails on a dialect that promises one and lacks it).
  mlir::func::registerInlinerExtension(registry);
  mlir::LLVM::registerInlinerInterface(registry);
  mlir::NVVM::registerInlinerInterface(registry);
  mlir::arith::registerConvertArithToLLVMInterface(registry);
  mlir::cf::registerConvertControlFlowToLLVMInterface(registry);
  mlir::registerConvertFuncToLLVMInterface(registry);
  mlir::index::registerConvertIndexToLLVMInterface(registry);
  mlir::registerConvertMathToLLVMInterface(registry);
  mlir::registerConvertMemRefToLLVMInterface(registry);
  mlir::registerConvertNVVMToLLVMInterface(registry);
  mlir::ub::registerConvertUBToLLVMInterface(registry);
  mlir::vector::registerConvertVectorToLLVMInterface(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "bsgp optimizer driver\n", registry));
}
