//===- PTX.cpp - LLVM-dialect device modules to PTX -----------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Target/CUDA/PTX.h"

#include "UnrollPrivateArrays.h"
#include "bsgp/Target/LLVMPassWorkarounds.h"
#include "bsgp/Target/Passes.h"

#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

using namespace mlir;

/// libdevice's bitcode, from the CUDA toolkit bsgpc compiles with.
static std::string findLibDevice(const bsgp::PTXOptions &options) {
  SmallVector<std::string> roots;
  if (!options.cudaPath.empty())
    roots.push_back(options.cudaPath);
  if (std::optional<std::string> env = llvm::sys::Process::GetEnv("CUDA_PATH"))
    roots.push_back(*env);
  roots.push_back("/usr/local/cuda");
  roots.push_back("/usr/lib/cuda");
  for (const std::string &root : roots) {
    llvm::SmallString<256> p(root);
    llvm::sys::path::append(p, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(p))
      return std::string(p);
  }
  return "";
}

static void initializeNVPTX() {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
}

bool bsgp::isKnownCUDAArch(llvm::StringRef chip) {
  initializeNVPTX();
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return false;
  // Made for the default chip: made for an unknown one, it would complain
  // on stderr.
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(triple, "", ""));
  return sti && sti->isCPUStringValid(chip);
}

LogicalResult bsgp::compileToPTX(ModuleOp device, const PTXOptions &options,
                                 std::string &ptx, std::string &error) {
  initializeNVPTX();
  if (!isKnownCUDAArch(options.chip)) {
    error = "unknown CUDA architecture '" + options.chip + "'";
    return failure();
  }

  if (options.lineInfo) {
    // Line directives from the ops' BSGP locations: profilers map each PTX
    // instruction to a BSGP source line. Directives only, as nvcc's
    // -lineinfo: line tables make NVPTX declare a debug target, which
    // ptxas compiles less tightly (more registers).
    PassManager pm(device.getContext());
    pm.addPass(bsgp::createBSGPLegalizeDebugLocationsPass());
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(
        {LLVM::DIEmissionKind::DebugDirectivesOnly}));
    if (failed(pm.run(device))) {
      error = "cannot attach line information";
      return failure();
    }
  }

  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  device.getContext()->appendDialectRegistry(registry);

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(device, llvmContext, "bsgp-device");
  if (!module) {
    error = "cannot translate the device module to LLVM IR";
    return failure();
  }

  llvm::Triple triple("nvptx64-nvidia-cuda");
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return failure();
  llvm::TargetOptions targetOptions;
  // The warp operations are the .sync forms (shfl.sync, vote.sync), which
  // need PTX ISA 6.0; LLVM's default for architectures before sm_70 is
  // older, and it would fail to select them.
  unsigned sm = 0;
  llvm::StringRef(options.chip).drop_front(3).getAsInteger(10, sm);
  std::string features = sm < 70 ? "+ptx60" : "";
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, options.chip, features, targetOptions, std::nullopt, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!tm) {
    error = "cannot create an NVPTX target machine for " + options.chip;
    return failure();
  }
  module->setTargetTriple(triple);
  module->setDataLayout(tm->createDataLayout());

  // libdevice asks these through __nvvm_reflect; the answers are nvcc's
  // defaults: IEEE square roots and divisions, denormals kept.
  module->addModuleFlag(llvm::Module::Override, "nvvm-reflect-prec-sqrt",
                        uint32_t(1));
  module->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                        uint32_t(0));

  bool needsLibDevice =
      llvm::any_of(module->functions(), [](llvm::Function &f) {
        return f.isDeclaration() && f.getName().starts_with("__nv_");
      });
  if (needsLibDevice) {
    std::string path = findLibDevice(options);
    if (path.empty()) {
      error = "device code uses math functions from libdevice, which was not "
              "found (set CUDA_PATH or --cuda-path)";
      return failure();
    }
    llvm::SMDiagnostic diag;
    std::unique_ptr<llvm::Module> libdevice =
        llvm::parseIRFile(path, diag, llvmContext);
    if (!libdevice) {
      error = "cannot read " + path;
      return failure();
    }
    libdevice->setTargetTriple(triple);
    libdevice->setDataLayout(module->getDataLayout());
    if (llvm::Linker::linkModules(*module, std::move(libdevice),
                                  llvm::Linker::Flags::LinkOnlyNeeded)) {
      error = "cannot link libdevice";
      return failure();
    }
    // libdevice's functions are for this module only.
    for (llvm::Function &f : module->functions())
      if (!f.isDeclaration() && f.getName().starts_with("__nv_"))
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  // The rest of the module's functions are internal too, kernels aside.
  for (llvm::Function &f : module->functions())
    if (!f.isDeclaration() &&
        f.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      f.setLinkage(llvm::GlobalValue::InternalLinkage);

  if (llvm::verifyModule(*module, &llvm::errs())) {
    error = "the generated device LLVM IR is invalid";
    return failure();
  }

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassInstrumentationCallbacks pic;
  bsgp::registerLLVMPassWorkarounds(pic);
  llvm::PassBuilder pb(tm.get(), llvm::PipelineTuningOptions(), std::nullopt,
                       &pic);
  bsgp::registerUnrollPrivateArrays(pb);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm =
      pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(*module, mam);

  llvm::raw_string_ostream os(ptx);
  llvm::buffer_ostream bos(os);
  llvm::legacy::PassManager codegen;
  if (tm->addPassesToEmitFile(codegen, bos, nullptr,
                              llvm::CodeGenFileType::AssemblyFile)) {
    error = "the NVPTX back end cannot emit PTX";
    return failure();
  }
  codegen.run(*module);
  return success();
}
