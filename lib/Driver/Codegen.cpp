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
  Targets.cpu = Opts.TargetCPU;
  Targets.cuda = Opts.TargetCUDA;
  Targets.spirv = Opts.TargetSPIRV;
  return Targets;
}

int bsgp::runCodegen(ASTContext &Ctx, DiagnosticEngine &Diags,
                     const CodegenOptions &Opts) {
  SourceManager &SM = Diags.getSourceManager();
  mlir::DialectRegistry Registry;
  registerBSGPDialects(Registry);
  mlir::MLIRContext Context(Registry);
  Context.loadAllAvailableDialects();

  // The IR is for developers: printed only where they ask for IR.
  bool ShowIR = Opts.PrintIRAfterAll || Opts.Action == CodegenOptions::EmitMLIR ||
                Opts.Action == CodegenOptions::EmitLowered;
  Context.printOpOnDiagnostic(ShowIR);
  // MLIR's diagnostics become bsgpc's, with the source line and caret. A
  // verifier's message names ops and values, which mean nothing to a user:
  // it becomes an internal compiler error at the construct's location, its
  // text shown only to those who asked for IR.
  mlir::ScopedDiagnosticHandler Handler(&Context, [&](mlir::Diagnostic &D) {
    if (!ShowIR && D.getSeverity() == mlir::DiagnosticSeverity::Error &&
        isInternalDiagnostic(D)) {
      Diags.report(toSourceRange(D.getLocation(), SM),
                   diag::err_codegen_internal);
      return mlir::success();
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
    return mlir::success();
  });

  mlir::OwningOpRef<mlir::ModuleOp> Module = emitMLIR(Context, Ctx, SM);
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

  HostCodegenOptions Host;
  Host.optLevel = Opts.OptLevel;
  Host.triple = Opts.Triple;
  Host.cpu = Opts.CPU;
  std::string Error;
  if (mlir::failed(prepareHostModule(*Module, Host, Error))) {
    Diags.report(diag::err_codegen) << Error;
    return 1;
  }

  if (!Opts.PrintSupersteps.empty()) {
    // The paper's tables (and Fig. 4) describe the superstep form, before
    // values are bound to streams.
    mlir::PassManager SPM(&Context);
    buildBSGPSuperstepPipeline(SPM, pipelineTargets(Opts));
    if (mlir::failed(SPM.run(*Module)))
      return 1;
    if (Opts.PrintSupersteps == "dot")
      writeSuperstepDot(*Module, Out.os());
    else
      printSuperstepTable(*Module, Out.os());
    Out.keep();
    return 0;
  }

  mlir::PassManager PM(&Context);
  if (Opts.PrintIRAfterAll) {
    Context.disableMultithreading();
    PM.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](mlir::Pass *, mlir::Operation *) {
          return false;
        },
        /*shouldPrintAfterPass=*/[](mlir::Pass *, mlir::Operation *) {
          return true;
        },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false, Out.os());
  }
  buildBSGPPipeline(PM, pipelineTargets(Opts));
  CodegenTargets Targets;
  Targets.cpu = Opts.TargetCPU;
  Targets.cuda = Opts.TargetCUDA;
  Targets.spirv = Opts.TargetSPIRV;
  Targets.cudaChip = Opts.CUDAArch;
  Targets.cudaPath = Opts.CUDAPath;
  Targets.cudaGroupsPerBlock = Opts.CUDAGroupsPerBlock;
  Targets.lineInfo = Opts.DebugInfo;
  Targets.spirvOptLevel = Opts.OptLevel;
  // `--target=cuda -S` writes the kernels' PTX.
  bool EmitPTX = Opts.Action == CodegenOptions::EmitAssembly &&
                 Opts.TargetCUDA && !Opts.TargetCPU;
  if (EmitPTX) {
    buildDeviceCodegenPipeline(PM, Targets);
    if (mlir::failed(PM.run(*Module)))
      return 1;
    if (auto Ptx = (*Module)->getAttrOfType<mlir::StringAttr>(
            bsgp::BSGPDialect::PtxAttrHelper::getNameStr()))
      Out.os() << Ptx.getValue();
    Out.keep();
    return 0;
  }
  // `--target=spirv -S` prints the SPIR-V module as spirv-dis does;
  // `--target=spirv -emit-mlir -lower-mlir` prints it as the MLIR SPIR-V
  // dialect (read back from the binary); -emit-spirv writes the binary.
  bool SPIRVOnly = Opts.TargetSPIRV && !Opts.TargetCPU && !Opts.TargetCUDA;
  bool EmitSPIRVText =
      SPIRVOnly && Opts.Action == CodegenOptions::EmitAssembly;
  bool EmitSPIRVDialect = SPIRVOnly && !Opts.PrintIRAfterAll &&
                          Opts.Action == CodegenOptions::EmitLowered;
  if (EmitSPIRVText || EmitSPIRVDialect ||
      Opts.Action == CodegenOptions::EmitSPIRV) {
    CodegenTargets Device;
    Device.cpu = false;
    Device.spirv = true;
    Device.spirvOptLevel = Opts.OptLevel;
    buildDeviceCodegenPipeline(PM, Device);
    if (mlir::failed(PM.run(*Module)))
      return 1;
    llvm::StringRef Bytes;
    if (auto Spirv =
            (*Module)->getAttrOfType<mlir::StringAttr>(kSPIRVAttrName))
      Bytes = Spirv.getValue();
    if (Opts.Action == CodegenOptions::EmitSPIRV) {
      Out.os() << Bytes;
    } else if (EmitSPIRVDialect) {
      if (!Bytes.empty() &&
          mlir::failed(printSPIRV(Bytes, &Context, Out.os())))
        return 1;
    } else if (!Bytes.empty()) {
      std::string Text;
      if (mlir::failed(disassembleSPIRV(Bytes, Text, Error))) {
        Diags.report(diag::err_codegen) << Error;
        return 1;
      }
      Out.os() << Text;
    }
    Out.keep();
    return 0;
  }
  if (Opts.Action != CodegenOptions::EmitMLIR) {
    buildCodegenPipeline(PM, Targets);
    // Line tables from the ops' BSGP source locations: a debugger steps
    // through kernels and host code line by line.
    if (Opts.DebugInfo)
      PM.addPass(mlir::LLVM::createDIScopeForLLVMFuncOpPass());
  }
  if (mlir::failed(PM.run(*Module)))
    return 1;
  if (Opts.Action == CodegenOptions::EmitMLIR) {
    Out.keep();
    return 0;
  }
  if (Opts.Action == CodegenOptions::EmitLowered) {
    Module->print(Out.os());
    Out.os() << "\n";
    Out.keep();
    return 0;
  }

  switch (Opts.Action) {
  case CodegenOptions::EmitLLVM:
    Host.kind = HostOutputKind::LLVMIR;
    break;
  case CodegenOptions::EmitBitcode:
    Host.kind = HostOutputKind::Bitcode;
    break;
  case CodegenOptions::EmitAssembly:
    Host.kind = HostOutputKind::Assembly;
    break;
  default:
    Host.kind = HostOutputKind::Object;
    break;
  }
  if (mlir::failed(emitHostCode(*Module, Host, Out.os(), Error))) {
    Diags.report(diag::err_codegen) << Error;
    return 1;
  }
  Out.keep();
  return 0;
}
