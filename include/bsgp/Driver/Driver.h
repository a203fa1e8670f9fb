//===- Driver.h - the bsgpc frontend entry points ---------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// parseAndAnalyze() is the one call later stages (MLIRGen, -emit-mlir, -c)
/// need: it reads a file, parses it with its imports, runs Sema and returns
/// the checked program. runDriver() is the whole `bsgpc` command line; a new
/// action (-emit-mlir, -S, -c) is an option in lib/Driver/Options.td plus a
/// branch in runDriver() after the frontend succeeded.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_DRIVER_DRIVER_H
#define BSGP_DRIVER_DRIVER_H

#include "bsgp/AST/ASTContext.h"
#include "bsgp/Basic/Diagnostic.h"
#include "bsgp/Lex/Preprocess.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Option/ArgList.h"

#include <string>
#include <vector>

namespace bsgp {

struct FrontendOptions {
  /// Directories searched for `import "x.bsgp";` after the importing file's
  /// own directory.
  std::vector<std::string> IncludePaths;
  /// False to reject imports (the fuzzer must not read files).
  bool AllowImports = true;
  /// Stop after parsing (no Sema); for parser-only tests.
  bool ParseOnly = false;
  /// Files parsed after the main file as if it imported them: the
  /// collective library (docs/collectives.md).
  std::vector<std::string> ImplicitImports;
  /// The main file is the collective library (-fcollective-library): its
  /// internal builtins are allowed.
  bool MainIsLibrary = false;
  /// -I, -D, -U and the directory of <bsgp.h> for clang's preprocessor,
  /// which every file but the collective library goes through.
  PreprocessorOptions PP;
};

/// The collective library bsgpc imports into every program it compiles:
/// <dir of \p Argv0>/../lib/bsgp/collectives.bsgp (build tree and install
/// prefix alike). Empty if that file does not exist.
std::string findCollectiveLibrary(const char *Argv0);

/// The preprocessor options of the command line: -I, -D and -U in order,
/// and the directory of <bsgp.h> next to the compiler.
PreprocessorOptions getPreprocessorOptions(const char *Argv0,
                                           const llvm::opt::InputArgList &Args);

/// Parses \p Path ("-" is stdin) and everything it imports into \p Ctx and
/// runs Sema over the whole program. Diagnostics go to \p Diags. Returns the
/// main file's translation unit (Ctx.getTranslationUnits() has all of
/// them), or null when the file cannot be read or any error was reported.
/// On success the AST satisfies the guarantees listed in bsgp/AST/AST.h.
TranslationUnit *parseAndAnalyze(llvm::StringRef Path, ASTContext &Ctx,
                                 DiagnosticEngine &Diags,
                                 const FrontendOptions &Opts = {});

/// Same, for a buffer already added to the SourceManager as \p FileId.
TranslationUnit *parseAndAnalyzeBuffer(uint32_t FileId, ASTContext &Ctx,
                                       DiagnosticEngine &Diags,
                                       const FrontendOptions &Opts = {});

/// Runs bsgpc with \p Args (Args[0] is the program name). Returns the exit
/// status: 0 on success, 1 on any error.
int runDriver(llvm::ArrayRef<const char *> Args);

} // namespace bsgp

#endif // BSGP_DRIVER_DRIVER_H
