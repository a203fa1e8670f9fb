//===- Codegen.cpp - from the checked AST to output files -----------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Driver/Codegen.h"

#include "bsgp/AST/ASTContext.h"
#include "bsgp/Basic/Diagnostic.h"
#include "bsgp/MLIRGen/MLIRGen.h"
#include "bsgp/Target/EmitObject.h"
#include "bsgp/Target/Passes.h"
#include "bsgp/Target/SPIRV/SPIRV.h"
#include "bsgp/Transforms/Passes.h"
#include "bsgp/Transforms/SuperstepTable.h"

#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace bsgp;

/// The BSGP source position of an MLIR location: the first file position in
/// it; for code inlined from a collective, the user's call site.
static SourceRange toSourceRange(mlir::Location loc, SourceManager &sm) {
  if (auto cs = llvm::dyn_cast<mlir::CallSiteLoc>(loc))
    return toSourceRange(cs.getCaller(), sm);
  if (auto fused = llvm::dyn_cast<mlir::FusedLoc>(loc)) {
    for (mlir::Location inner : fused.getLocations()) {
      SourceRange r = toSourceRange(inner, sm);
      if (r.isValid())
        return r;
    }
    return {};
  }
  if (auto named = llvm::dyn_cast<mlir::NameLoc>(loc))
    return toSourceRange(named.getChildLoc(), sm);
  auto fl = llvm::dyn_cast<mlir::FileLineColLoc>(loc);
  if (!fl)
    return {};
  for (unsigned id = 1; id <= sm.getNumFiles(); ++id)
    if (sm.getFileName(id) == fl.getFilename().getValue()) {
      SourceLocation l;
      l.File = id;
      l.Line = fl.getLine();
      l.Col = std::max(1u, fl.getColumn());
      return SourceRange(l);
    }
  return {};
}

/// True if an MLIR diagnostic comes from an op verifier or from MLIR itself
/// rather than from a bsgpc pass that words its errors for users: text such
/// as `'bsgp.spawn' op ...` or `operand #0 does not dominate this use` means
/// that the compiler built invalid IR from a program that Sema accepted.
static bool isInternalDiagnostic(mlir::Diagnostic &D) {
  static const llvm::Regex OpPrefix("^'[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)+' op ");
  std::string Msg = D.str();
  llvm::StringRef M(Msg);
  return OpPrefix.match(M) || M.contains("does not dominate") ||
         M.contains("__bsgp_");
}

/// The targets the object carries, for the §4 pipeline's specialization.
static BSGPSpecializeTargetsPassOptions
pipelineTargets(const CodegenOptions &Opts) {
  BSGPSpecializeTargetsPassOptions Targets;
  Targets.targets = Opts.Targets.str();
  return Targets;
}

/// Reports an MLIR diagnostic as bsgpc's, with the source line and caret. A
/// verifier's message names ops and values, which mean nothing to a user:
/// it becomes an internal compiler error at the construct's location, its
/// text shown only to those who asked for IR (`ShowIR`).
static void reportMLIRDiagnostic(mlir::Diagnostic &D, DiagnosticEngine &Diags,
                                 bool ShowIR) {
  SourceManager &SM = Diags.getSourceManager();
  if (!ShowIR && D.getSeverity() == mlir::DiagnosticSeverity::Error &&
      isInternalDiagnostic(D)) {
    Diags.report(toSourceRange(D.getLocation(), SM),
                 diag::err_codegen_internal);
    return;
  }
  diag::Kind K = D.getSeverity() == mlir::DiagnosticSeverity::Error
                     ? diag::err_codegen
                 : D.getSeverity() == mlir::DiagnosticSeverity::Warning
                     ? diag::warn_codegen
                     : diag::note_codegen;
  Diags.report(toSourceRange(D.getLocation(), SM), K) << D.str();
  for (mlir::Diagnostic &N : D.getNotes())
    Diags.report(toSourceRange(N.getLocation(), SM), diag::note_codegen)
        << N.str();
}

/// The device targets and their settings for the code generation pipelines.
static CodegenTargets codegenTargets(const CodegenOptions &Opts) {
  CodegenTargets Targets;
  Targets.targets = Opts.Targets;
  Targets.cudaChip = Opts.CUDAArch;
  Targets.cudaPath = Opts.CUDAPath;
  Targets.cudaGroupsPerBlock = Opts.CUDAGroupsPerBlock;
  Targets.lineInfo = Opts.DebugInfo;
  Targets.spirvOptLevel = Opts.OptLevel;
  return Targets;
}

/// -mlir-print-ir-after-all: the module after every pass, to `OS`.
static void printAfterEveryPass(mlir::PassManager &PM,
                                mlir::MLIRContext &Context,
                                llvm::raw_ostream &OS) {
  Context.disableMultithreading();
  PM.enableIRPrinting(
      /*shouldPrintBeforePass=*/[](mlir::Pass *,
                                   mlir::Operation *) { return false; },
      /*shouldPrintAfterPass=*/
      [](mlir::Pass *, mlir::Operation *) { return true; },
      /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
      /*printAfterOnlyOnFailure=*/false, OS);
}

/// --print-supersteps: the paper's tables (and Fig. 4) describe the
/// superstep form, before values are bound to streams.
static int printSupersteps(mlir::ModuleOp Module, const CodegenOptions &Opts,
                           llvm::raw_ostream &OS) {
  mlir::PassManager SPM(Module.getContext());
  buildBSGPSuperstepPipeline(SPM, pipelineTargets(Opts));
  if (mlir::failed(SPM.run(Module)))
    return 1;
  if (Opts.PrintSupersteps == "dot")
    writeSuperstepDot(Module, OS);
  else
    printSuperstepTable(Module, OS,
                        /*includeLibrary=*/Opts.PrintSupersteps == "all");
  return 0;
}

/// The outputs of the SPIR-V target alone: the binary (-emit-spirv), its
/// disassembly (-S) or MLIR's SPIR-V dialect (-emit-mlir -lower-mlir).
static int emitSPIRVOutput(mlir::ModuleOp Module, mlir::PassManager &PM,
                           const CodegenOptions &Opts, bool AsDialect,
                           DiagnosticEngine &Diags, llvm::raw_ostream &OS) {
  CodegenTargets Device;
  Device.targets = {Target::SPIRV};
  Device.spirvOptLevel = Opts.OptLevel;
  buildDeviceCodegenPipeline(PM, Device);
  if (mlir::failed(PM.run(Module)))
    return 1;
  llvm::StringRef Bytes;
  if (auto Spirv = Module->getAttrOfType<mlir::StringAttr>(kSPIRVAttrName))
    Bytes = Spirv.getValue();
  if (Opts.Action == CodegenOptions::EmitSPIRV) {
    OS << Bytes;
  } else if (AsDialect) {
    if (!Bytes.empty() &&
        mlir::failed(printSPIRV(Bytes, Module.getContext(), OS)))
      return 1;
  } else if (!Bytes.empty()) {
    std::string Text, Error;
    if (mlir::failed(disassembleSPIRV(Bytes, Text, Error))) {
      Diags.report(diag::err_codegen) << Error;
      return 1;
    }
    OS << Text;
  }
  return 0;
}

static HostOutputKind hostOutputKind(const CodegenOptions &Opts) {
  switch (Opts.Action) {
  case CodegenOptions::EmitLLVM:
    return HostOutputKind::LLVMIR;
  case CodegenOptions::EmitBitcode:
    return HostOutputKind::Bitcode;
  case CodegenOptions::EmitAssembly:
    return HostOutputKind::Assembly;
  default:
    return HostOutputKind::Object;
  }
}

/// Runs the pipelines for `Opts.Action` on `Module` and writes the result
/// to `Out`; 0 on success.
static int runPipelines(mlir::ModuleOp Module, const CodegenOptions &Opts,
                        DiagnosticEngine &Diags, llvm::raw_pwrite_stream &OS,
                        mlir::TimingScope &Timing) {
  mlir::MLIRContext &Context = *Module.getContext();
  HostCodegenOptions Host;
  Host.optLevel = Opts.OptLevel;
  Host.triple = Opts.Triple;
  Host.cpu = Opts.CPU;
  std::string Error;
  if (mlir::failed(prepareHostModule(Module, Host, Error))) {
    Diags.report(diag::err_codegen) << Error;
    return 1;
  }
  if (!Opts.PrintSupersteps.empty())
    return printSupersteps(Module, Opts, OS);

  mlir::PassManager PM(&Context);
  if (Opts.PrintIRAfterAll)
    printAfterEveryPass(PM, Context, OS);
  mlir::TimingScope PipelineTiming = Timing.nest("MLIR passes");
  PM.enableTiming(PipelineTiming);
  buildBSGPPipeline(PM, pipelineTargets(Opts));
  CodegenTargets Targets = codegenTargets(Opts);
  // `--target=cuda -S` writes the kernels' PTX.
  if (Opts.Action == CodegenOptions::EmitAssembly &&
      Opts.Targets.contains(Target::CUDA) &&
      !Opts.Targets.contains(Target::CPU)) {
    buildDeviceCodegenPipeline(PM, Targets);
    if (mlir::failed(PM.run(Module)))
      return 1;
    if (auto Ptx = Module->getAttrOfType<mlir::StringAttr>(
            bsgp::BSGPDialect::PtxAttrHelper::getNameStr()))
      OS << Ptx.getValue();
    return 0;
  }
  bool SPIRVOnly = Opts.Targets.getSingle() == Target::SPIRV;
  bool EmitSPIRVDialect = SPIRVOnly && !Opts.PrintIRAfterAll &&
                          Opts.Action == CodegenOptions::EmitLowered;
  if ((SPIRVOnly && Opts.Action == CodegenOptions::EmitAssembly) ||
      EmitSPIRVDialect || Opts.Action == CodegenOptions::EmitSPIRV)
    return emitSPIRVOutput(Module, PM, Opts, EmitSPIRVDialect, Diags, OS);

  if (Opts.Action != CodegenOptions::EmitMLIR) {
    buildCodegenPipeline(PM, Targets);
    // Line tables from the ops' BSGP source locations: a debugger steps
    // through kernels and host code line by line.
    if (Opts.DebugInfo) {
      PM.addPass(bsgp::createBSGPLegalizeDebugLocationsPass());
      PM.addPass(mlir::LLVM::createDIScopeForLLVMFuncOpPass());
    }
  }
  if (mlir::failed(PM.run(Module)))
    return 1;
  PipelineTiming.stop();
  if (Opts.Action == CodegenOptions::EmitMLIR)
    return 0;
  if (Opts.Action == CodegenOptions::EmitLowered) {
    Module->print(OS);
    OS << "\n";
    return 0;
  }
  Host.kind = hostOutputKind(Opts);
  mlir::TimingScope HostTiming =
      Timing.nest("LLVM: host code and CPU kernels to machine code");
  if (mlir::failed(emitHostCode(Module, Host, OS, Error))) {
    Diags.report(diag::err_codegen) << Error;
    return 1;
  }
  return 0;
}

int bsgp::runCodegen(ASTContext &Ctx, DiagnosticEngine &Diags,
                     const CodegenOptions &Opts) {
  mlir::DialectRegistry Registry;
  registerBSGPDialects(Registry);
  mlir::MLIRContext Context(Registry);
  Context.loadAllAvailableDialects();

  // The IR is for developers: printed only where they ask for IR.
  bool ShowIR = Opts.PrintIRAfterAll ||
                Opts.Action == CodegenOptions::EmitMLIR ||
                Opts.Action == CodegenOptions::EmitLowered;
  Context.printOpOnDiagnostic(ShowIR);
  mlir::ScopedDiagnosticHandler Handler(&Context, [&](mlir::Diagnostic &D) {
    reportMLIRDiagnostic(D, Diags, ShowIR);
    return mlir::success();
  });

  // -ftime-report: printed to standard error when the manager goes out of
  // scope, after every step below.
  mlir::DefaultTimingManager TimingManager;
  TimingManager.setEnabled(Opts.TimeReport);
  mlir::TimingScope Timing = TimingManager.getRootScope();
  mlir::TimingScope GenTiming = Timing.nest("MLIRGen: AST to the bsgp dialect");
  mlir::OwningOpRef<mlir::ModuleOp> Module =
      emitMLIR(Context, Ctx, Diags.getSourceManager());
  GenTiming.stop();
  if (!Module || Diags.hasErrors())
    return 1;

  std::error_code EC;
  bool Binary = Opts.Action == CodegenOptions::EmitObject ||
                Opts.Action == CodegenOptions::EmitBitcode ||
                Opts.Action == CodegenOptions::EmitSPIRV;
  llvm::ToolOutputFile Out(Opts.Output, EC,
                           Binary ? llvm::sys::fs::OF_None
                                  : llvm::sys::fs::OF_Text);
  if (EC) {
    Diags.report(diag::err_drv_cannot_open) << Opts.Output << EC.message();
    return 1;
  }
  if (Opts.Action == CodegenOptions::EmitMLIR && !Opts.PrintIRAfterAll &&
      Opts.PrintSupersteps.empty()) {
    Module->print(Out.os());
    Out.os() << "\n";
    Out.keep();
    return 0;
  }
  if (int RC = runPipelines(*Module, Opts, Diags, Out.os(), Timing))
    return RC;
  Out.keep();
  return 0;
}
