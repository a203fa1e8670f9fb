//===- EmitObject.cpp - LLVM-dialect modules to host code -----------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Target/EmitObject.h"
#include "bsgp/Target/LLVMPassWorkarounds.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <memory>

using namespace mlir;

namespace {

/// Turns off x86's conversion of cmov groups into branches (as
/// `-mllvm -x86-cmov-converter=false` would) unless it was set already. Its
/// cost model expects the branch to be predictable; in a rank loop a
/// select's condition is each thread's data (a min over a neighbour's
/// value), which it rarely is: Rodinia's pathfinder ran 3.4 times slower
/// than the same loop kept branchless (bench/README.md, "Small supersteps
/// on the CPU"). GPUs, like the cmov, select without branching.
void keepSelectsBranchless() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("x86-cmov-converter");
  if (it != options.end() && it->second->getNumOccurrences() == 0)
    (void)it->second->addOccurrence(0, "x86-cmov-converter", "false");
}

std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const bsgp::HostCodegenOptions &options,
                    std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
  llvm::Triple triple(options.triple.empty()
                          ? llvm::sys::getDefaultTargetTriple()
                          : options.triple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  std::string cpu = options.cpu;
  if (cpu == "native")
    cpu = llvm::sys::getHostCPUName().str();
  llvm::CodeGenOptLevel level = llvm::CodeGenOptLevel::Default;
  switch (options.optLevel) {
  case 0:
    level = llvm::CodeGenOptLevel::None;
    break;
  case 1:
    level = llvm::CodeGenOptLevel::Less;
    break;
  case 3:
    level = llvm::CodeGenOptLevel::Aggressive;
    break;
  default:
    break;
  }
  keepSelectsBranchless();
  llvm::TargetOptions targetOptions;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, cpu, /*Features=*/"", targetOptions,
      options.pic ? llvm::Reloc::PIC_ : llvm::Reloc::Static, std::nullopt,
      level));
}

void optimize(llvm::Module &module, llvm::TargetMachine &tm,
              unsigned optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = optLevel >= 2;
  tuning.SLPVectorization = optLevel >= 2;
  llvm::PassInstrumentationCallbacks pic;
  bsgp::registerLLVMPassWorkarounds(pic);
  llvm::PassBuilder pb(&tm, tuning, std::nullopt, &pic);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  switch (optLevel) {
  case 0:
    mpm = pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
    break;
  case 1:
    mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O1);
    break;
  case 2:
    mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
    break;
  default:
    mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    break;
  }
  mpm.run(module, mam);
}

} // namespace

LogicalResult bsgp::prepareHostModule(ModuleOp module,
                                      const HostCodegenOptions &options,
                                      std::string &error) {
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
  if (!tm)
    return failure();
  Builder b(module.getContext());
  module->setAttr(LLVM::LLVMDialect::getTargetTripleAttrName(),
                  b.getStringAttr(tm->getTargetTriple().str()));
  module->setAttr(
      LLVM::LLVMDialect::getDataLayoutAttrName(),
      b.getStringAttr(tm->createDataLayout().getStringRepresentation()));
  return success();
}

LogicalResult bsgp::emitHostCode(ModuleOp module,
                                 const HostCodegenOptions &options,
                                 llvm::raw_pwrite_stream &os,
                                 std::string &error) {
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
  if (!tm)
    return failure();

  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  module.getContext()->appendDialectRegistry(registry);

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule) {
    error = "cannot translate the module to LLVM IR";
    return failure();
  }
  llvmModule->setTargetTriple(tm->getTargetTriple());
  llvmModule->setDataLayout(tm->createDataLayout());
  if (llvm::verifyModule(*llvmModule, &llvm::errs())) {
    error = "the generated LLVM IR is invalid";
    return failure();
  }

  optimize(*llvmModule, *tm, options.optLevel);

  switch (options.kind) {
  case HostOutputKind::LLVMIR:
    llvmModule->print(os, nullptr);
    return success();
  case HostOutputKind::Bitcode:
    llvm::WriteBitcodeToFile(*llvmModule, os);
    return success();
  case HostOutputKind::Object:
  case HostOutputKind::Assembly:
    break;
  }
  llvm::legacy::PassManager codegen;
  auto fileType = options.kind == HostOutputKind::Object
                      ? llvm::CodeGenFileType::ObjectFile
                      : llvm::CodeGenFileType::AssemblyFile;
  if (tm->addPassesToEmitFile(codegen, os, nullptr, fileType)) {
    error = "the target cannot emit this kind of file";
    return failure();
  }
  codegen.run(*llvmModule);
  return success();
}
