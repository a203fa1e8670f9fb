//===- Preprocess.h - the C preprocessor, through Clang ---------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every BSGP source goes through clang::Preprocessor before the lexer:
/// #include, #define, #if and the rest are clang's own. The tokens it
/// produces are written into a new buffer that the lexer reads instead of
/// the file (SourceManager::File::Preprocessed), with the place each token
/// was written (a header, or the use of a macro) so that diagnostics point
/// at the source. Headers become files of the SourceManager, with the
/// location of their #include.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_LEX_PREPROCESS_H
#define BSGP_LEX_PREPROCESS_H

#include "bsgp/Basic/Diagnostic.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>
#include <vector>

namespace bsgp {

struct PreprocessorOptions {
  /// -I: searched for #include "..." (after the includer's directory) and
  /// #include <...>.
  std::vector<std::string> IncludePaths;
  /// Searched last, as system headers: the directory of <bsgp.h>.
  std::vector<std::string> SystemIncludePaths;
  /// -D NAME[=VALUE] (false) and -U NAME (true), in command-line order.
  std::vector<std::pair<std::string, bool>> Macros;
};

/// Preprocesses file \p FileId of the diagnostics' SourceManager and makes
/// the lexer read the result. A file with nothing for the preprocessor to
/// do (no '#', no line splice, no "__", no -D or -U) is left as it is: it
/// would come out token for token the same. Errors are reported through
/// \p Diags; returns false if there were any.
bool preprocessFile(uint32_t FileId, DiagnosticEngine &Diags,
                    const PreprocessorOptions &Opts);

/// -E: writes file \p FileId preprocessed to \p OS as `clang -E` does, with
/// line markers. Returns false on errors.
bool printPreprocessed(uint32_t FileId, DiagnosticEngine &Diags,
                       const PreprocessorOptions &Opts, llvm::raw_ostream &OS);

/// The directory of <bsgp.h>, <bindir>/../lib/bsgp/include next to the
/// running executable (\p Argv0, \p MainAddr: the address of a function of
/// the executable), or "" if it is not there.
std::string findResourceIncludeDir(const char *Argv0, void *MainAddr);

} // namespace bsgp

#endif // BSGP_LEX_PREPROCESS_H
