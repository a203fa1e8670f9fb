//===- bsgp-mlirgen-fuzzer.cpp - libFuzzer entry for MLIRGen and §4 -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs what `bsgpc -emit-mlir` and the §4 pipeline run on arbitrary bytes:
/// lexer, parser and Sema with the collective library, then, for a program
/// Sema accepts, MLIRGen, the MLIR verifier, and the pass pipeline up to
/// kernel outlining with the verifier after every pass.
///
/// Rejecting the input with diagnostics at BSGP source locations is the
/// expected outcome for bad programs. A finding (abort) is: a crash,
/// sanitizer report or assertion; a module MLIRGen returns that does not
/// verify; IR that no longer verifies after a pass that succeeded; and a
/// failure of MLIRGen or a pass that reports no error at a source location
/// (bsgpc would exit 1 with no message, or with one that names no line);
/// and an error whose text shows the compiler's internals (an op name, an
/// IR dump, a library function's internal name) instead of the user's
/// program.
///
/// The collective library is read once, from ../lib/bsgp/collectives.bsgp
/// next to the fuzzer (the build tree's layout), or from the file named by
/// BSGP_COLLECTIVES. Imports are disabled so that no input reads the file
/// system.
///
//===----------------------------------------------------------------------===//

#include "bsgp/MLIRGen/MLIRGen.h"
#include "bsgp/Parse/Parser.h"
#include "bsgp/Sema/Sema.h"
#include "bsgp/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace {

std::unique_ptr<llvm::MemoryBuffer> Library;
mlir::DialectRegistry *Registry;
/// Every MLIR error of the current input, printed with a finding.
std::string ErrorLog;

/// True if \p Loc leads to a line of a BSGP file, as the driver's
/// location mapping requires to print `file:line:col`.
bool hasSourceLocation(mlir::Location Loc) {
  if (auto CS = llvm::dyn_cast<mlir::CallSiteLoc>(Loc))
    return hasSourceLocation(CS.getCaller());
  if (auto Fused = llvm::dyn_cast<mlir::FusedLoc>(Loc))
    return llvm::any_of(Fused.getLocations(), hasSourceLocation);
  if (auto Named = llvm::dyn_cast<mlir::NameLoc>(Loc))
    return hasSourceLocation(Named.getChildLoc());
  auto FL = llvm::dyn_cast<mlir::FileLineColLoc>(Loc);
  return FL && FL.getFilename().getValue().ends_with(".bsgp") && FL.getLine();
}

/// True if \p D, though placed in the source, speaks of the compiler's
/// internals, which no message to a user may: an op verifier's wording
/// ("'bsgp.get' op ..."), an IR dump ("see current operation"), or a
/// collective library function's internal name ("__bsgp_...").
bool isInternalMessage(mlir::Diagnostic &D) {
  auto Shows = [](llvm::StringRef M) {
    return M.contains("__bsgp_") || M.contains("see current operation") ||
           (M.starts_with("'") && M.contains("' op "));
  };
  if (Shows(D.str()))
    return true;
  return llvm::any_of(D.getNotes(),
                      [&](mlir::Diagnostic &N) { return Shows(N.str()); });
}

[[noreturn]] void finding(llvm::StringRef What) {
  llvm::errs() << "bsgp-mlirgen-fuzzer: " << What << "\n";
  if (!ErrorLog.empty())
    llvm::errs() << "errors reported:\n" << ErrorLog;
  llvm::errs().flush();
  std::abort();
}

/// Verifies the module after every pass that succeeded: MLIR's own
/// verification after a pass reports a broken IR as that pass's failure,
/// which this fuzzer must tell apart from a pass rejecting the program.
struct VerifyAfterPass : public mlir::PassInstrumentation {
  void runAfterPass(mlir::Pass *P, mlir::Operation *Op) override {
    if (mlir::failed(mlir::verify(Op)))
      finding(("the IR does not verify after " + P->getArgument()).str());
  }
};

} // namespace

extern "C" int LLVMFuzzerInitialize(int *Argc, char ***Argv) {
  std::string Path;
  if (const char *Env = std::getenv("BSGP_COLLECTIVES")) {
    Path = Env;
  } else {
    std::string Exe = llvm::sys::fs::getMainExecutable(
        (*Argv)[0], reinterpret_cast<void *>(&LLVMFuzzerInitialize));
    llvm::SmallString<256> P(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
    llvm::sys::path::append(P, "lib", "bsgp", "collectives.bsgp");
    Path = std::string(P);
  }
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf) {
    llvm::errs() << "bsgp-mlirgen-fuzzer: cannot read the collective library '"
                 << Path << "': " << Buf.getError().message()
                 << " (build bsgp-collectives or set BSGP_COLLECTIVES)\n";
    std::exit(1);
  }
  Library = std::move(*Buf);
  Registry = new mlir::DialectRegistry();
  bsgp::registerBSGPDialects(*Registry);
  return 0;
}

/// Parses the input as the main file and, with \p WithLibrary, the
/// collective library after it (as the driver does), then runs Sema.
/// Returns false if any of it reported an error.
static bool parseAndCheck(llvm::StringRef Input, bool WithLibrary,
                          bsgp::SourceManager &SM, bsgp::ASTContext &Ctx) {
  llvm::raw_null_ostream Null;
  bsgp::DiagnosticEngine Diags(SM, Null);
  Diags.setErrorLimit(0);
  uint32_t Id = SM.addBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(Input, "fuzz.bsgp"), "fuzz.bsgp");
  bsgp::ParseSession PS(Ctx, Diags);
  PS.setAllowImports(false);
  Ctx.setMainFileId(Id);
  PS.parseMainFile(Id);
  if (Diags.hasErrors())
    return false;
  if (WithLibrary) {
    uint32_t LibId = SM.addBuffer(
        llvm::MemoryBuffer::getMemBuffer(Library->getMemBufferRef()),
        "collectives.bsgp");
    Ctx.addLibraryFileId(LibId);
    PS.parseMainFile(LibId);
    if (Diags.hasErrors())
      return false;
  }
  bsgp::analyzeProgram(Ctx, Diags);
  return !Diags.hasErrors();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Input(reinterpret_cast<const char *>(Data), Size);
  // Sema's verdict on the program does not depend on the library (the
  // collectives are builtins), and the library costs far more to parse and
  // check than a mutated input: reject what Sema rejects without it first.
  // (A program calling a library function by its internal name is lost.)
  {
    bsgp::SourceManager SM;
    bsgp::ASTContext Ctx;
    if (!parseAndCheck(Input, /*WithLibrary=*/false, SM, Ctx))
      return 0;
  }
  bsgp::SourceManager SM;
  bsgp::ASTContext Ctx;
  if (!parseAndCheck(Input, /*WithLibrary=*/true, SM, Ctx))
    return 0;

  ErrorLog.clear();
  mlir::MLIRContext Context(*Registry, mlir::MLIRContext::Threading::DISABLED);
  Context.loadAllAvailableDialects();
  bool SourceError = false;
  std::string Unplaced, Internal;
  mlir::ScopedDiagnosticHandler Handler(&Context, [&](mlir::Diagnostic &D) {
    if (D.getSeverity() != mlir::DiagnosticSeverity::Error)
      return mlir::success();
    llvm::raw_string_ostream OS(ErrorLog);
    OS << "  " << D.getLocation() << ": " << D.str() << "\n";
    if (!hasSourceLocation(D.getLocation()))
      Unplaced += D.str() + "\n";
    else if (isInternalMessage(D))
      Internal += D.str() + "\n";
    else
      SourceError = true;
    return mlir::success();
  });

  mlir::OwningOpRef<mlir::ModuleOp> Module = bsgp::emitMLIR(Context, Ctx, SM);
  if (!Unplaced.empty())
    finding("an error without a source location:\n" + Unplaced);
  if (!Internal.empty())
    finding("an error that shows the compiler's internals:\n" + Internal);
  if (!Module) {
    if (!SourceError)
      finding("MLIRGen failed without an error at a source location");
    return 0;
  }
  if (SourceError)
    return 0;
  if (mlir::failed(mlir::verify(*Module)))
    finding("the module MLIRGen made does not verify");

  mlir::PassManager PM(&Context);
  PM.enableVerifier(false);
  PM.addInstrumentation(std::make_unique<VerifyAfterPass>());
  bsgp::buildBSGPPipeline(PM);
  bool Failed = mlir::failed(PM.run(*Module));
  if (!Unplaced.empty())
    finding("a pass reported an error without a source location:\n" + Unplaced);
  if (!Internal.empty())
    finding("a pass reported an error that shows the compiler's "
            "internals:\n" +
            Internal);
  if (Failed && !SourceError)
    finding("a pass failed without an error at a source location");
  return 0;
}
