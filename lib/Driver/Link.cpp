//===- Link.cpp - linking programs through Clang's driver -----------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `bsgpc a.bsgp main.cpp -o app` must behave like clang++: compile what it
// must and link with the right libraries. Clang's driver library knows the
// toolchain (crt files, libstdc++, the linker); bsgpc adds only its runtime.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Driver/Link.h"

#include "bsgp/Basic/Diagnostic.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/TargetParser/Host.h"

using namespace bsgp;

static std::string getInstallDir(const char *Argv0) {
  // Any function of this binary serves as the anchor for its path.
  std::string Exe = llvm::sys::fs::getMainExecutable(
      Argv0, reinterpret_cast<void *>(&getInstallDir));
  llvm::SmallString<256> Dir(Exe);
  llvm::sys::path::remove_filename(Dir); // bin
  llvm::sys::path::remove_filename(Dir); // prefix
  return std::string(Dir);
}

std::string bsgp::getLibraryDir(const char *Argv0) {
  llvm::SmallString<256> P(getInstallDir(Argv0));
  llvm::sys::path::append(P, "lib");
  return std::string(P);
}

std::string bsgp::getIncludeDir(const char *Argv0) {
  llvm::SmallString<256> P(getInstallDir(Argv0));
  llvm::sys::path::append(P, "include");
  return std::string(P);
}

/// The clang executable Clang's driver runs for its compile jobs: the one of
/// the LLVM bsgpc was built with, else the first on PATH.
static std::string findClang() {
#ifdef BSGP_CLANG_PATH
  if (llvm::sys::fs::can_execute(BSGP_CLANG_PATH))
    return BSGP_CLANG_PATH;
#endif
  for (const char *Name : {"clang++-22", "clang++", "clang-22", "clang"})
    if (llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName(Name))
      return *P;
  return "";
}

int bsgp::runLink(const char *Argv0, const LinkOptions &Opts,
                  DiagnosticEngine &Diags) {
  std::string Clang = findClang();
  if (Clang.empty()) {
    Diags.report(diag::err_drv_no_clang);
    return 1;
  }
  std::string LibDir = getLibraryDir(Argv0);
  std::string IncDir = getIncludeDir(Argv0);

  // In gcc mode Clang's driver compiles each input as its extension says
  // (g++ mode would compile .c files as C++); the link adds the C++
  // standard library itself, which the runtime and C++ inputs need.
  std::vector<std::string> Args = {Clang, "--driver-mode=gcc"};
  Args.push_back("-I" + IncDir);
  if (Opts.Action == LinkOptions::Mode::CompileObject)
    Args.push_back("-c");
  else if (Opts.Action == LinkOptions::Mode::CompileAssembly)
    Args.push_back("-S");
  for (const std::string &In : Opts.Inputs)
    Args.push_back(In);
  for (const std::string &A : Opts.ExtraArgs)
    Args.push_back(A);
  if (Opts.Action != LinkOptions::Mode::Link) {
    // Nothing to link: no runtime library.
  } else if (Opts.StaticRuntime) {
    Args.push_back("-L" + LibDir);
    llvm::SmallString<256> A(LibDir);
    llvm::sys::path::append(A, "libbsgprt.a");
    Args.push_back(std::string(A));
    Args.push_back("-fopenmp");
    Args.push_back("-ldl");
  } else {
    Args.push_back("-L" + LibDir);
    Args.push_back("-lbsgprt");
    // The program finds the runtime where it was linked from.
    Args.push_back("-Wl,-rpath," + LibDir);
  }
  if (Opts.Action == LinkOptions::Mode::Link) {
    Args.push_back("-lstdc++");
    Args.push_back("-lm");
  }
  Args.push_back("-o");
  Args.push_back(Opts.Output);
  if (Opts.Verbose)
    Args.push_back("-v");

  std::vector<const char *> CArgs;
  for (const std::string &A : Args)
    CArgs.push_back(A.c_str());

  clang::DiagnosticOptions DiagOpts;
  clang::TextDiagnosticPrinter Printer(llvm::errs(), DiagOpts);
  // Every driver error starts with `bsgpc:`, Clang's driver's too.
  Printer.setPrefix("bsgpc");
  clang::DiagnosticsEngine ClangDiags(clang::DiagnosticIDs::create(), DiagOpts,
                                      &Printer, /*ShouldOwnClient=*/false);
  clang::driver::Driver D(Clang, llvm::sys::getDefaultTargetTriple(),
                          ClangDiags, "bsgpc");
  std::unique_ptr<clang::driver::Compilation> C(D.BuildCompilation(CArgs));
  if (!C || C->containsError())
    return 1;
  llvm::SmallVector<std::pair<int, const clang::driver::Command *>, 4> Failing;
  int Res = D.ExecuteCompilation(*C, Failing);
  for (auto &F : Failing)
    if (F.first)
      return F.first < 0 ? 1 : F.first;
  return Res == 0 ? 0 : 1;
}
