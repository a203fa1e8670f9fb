//===- Parser.h - BSGP parser -----------------------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A recursive-descent parser producing the AST of docs/language.md. It
/// recovers from errors by skipping to the next `;` or `}` so that one run
/// reports several problems, and it bounds its recursion (MaxNestingDepth)
/// so that no input can overflow the stack.
///
/// ParseSession drives the parser over a main file and everything it
/// imports: an `import` is resolved (importing file's directory first, then
/// the -I paths) and parsed when it is met, so that its typedefs and structs
/// are known to the rest of the importing file. Each file is parsed once,
/// which makes import cycles harmless.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_PARSE_PARSER_H
#define BSGP_PARSE_PARSER_H

#include "bsgp/AST/ASTContext.h"
#include "bsgp/AST/ConstantEval.h"
#include "bsgp/Basic/Diagnostic.h"
#include "bsgp/Lex/Preprocess.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

#include <optional>

namespace bsgp {

class ParseSession {
public:
  /// Limit on nested parentheses, brackets, unary operators, blocks and
  /// statements, like clang's -fbracket-depth.
  static constexpr unsigned MaxNestingDepth = 256;
  /// Limit on the height of a declaration's statement/expression tree,
  /// which also bounds the recursion of every later pass. Long operator
  /// chains (`a + b + c + ...`) are the usual way to reach it. 1024 levels
  /// overflowed Sema's 8 MiB stack in the AddressSanitizer build that the
  /// fuzzer uses (a chain of 1000 additions).
  static constexpr unsigned MaxTreeDepth = 512;

  ParseSession(ASTContext &Ctx, DiagnosticEngine &Diags);
  ~ParseSession();

  void setIncludePaths(std::vector<std::string> Paths) {
    IncludePaths = std::move(Paths);
  }
  /// When false, `import` reports an error instead of reading files (used by
  /// the fuzzer, which must not touch the file system).
  void setAllowImports(bool V) { AllowImports = V; }
  /// Runs clang's preprocessor over every file parsed from now on (the main
  /// file and imports, not the collective library) with \p Opts; without
  /// it the lexer reads the files as they are (the fuzzers).
  void setPreprocessorOptions(PreprocessorOptions Opts) {
    PPOpts = std::move(Opts);
    Preprocess = true;
  }

  /// Parses the file already in the SourceManager as \p FileId and, through
  /// it, every imported file. Translation units are appended to the
  /// ASTContext in the order their parsing finishes.
  void parseMainFile(uint32_t FileId);

  /// Resolves and parses an import met in file \p FromFile. Returns the file
  /// id, or 0 (after reporting) when the file cannot be found.
  uint32_t handleImport(ImportDecl *D, uint32_t FromFile);

  llvm::StringMap<const Type *> &getTypedefs() { return Typedefs; }

  /// Generic functions (ParseTemplate.cpp). A name declared by a template
  /// so far in file \p File or in a file it imports (transitively): there
  /// `f<int>(...)` is an explicit instantiation, elsewhere `f < x` a
  /// comparison, so that a program's template does not change how the
  /// collective library (or another file) parses.
  bool isTemplateName(uint32_t File, llvm::StringRef Name) const {
    auto It = TemplateNames.find(File);
    return It != TemplateNames.end() && It->second.count(Name);
  }
  void addTemplateName(uint32_t File, llvm::StringRef Name) {
    TemplateNames[File].insert(Name);
  }
  /// A template value parameter (`int N` of `template <int N>`) bound while
  /// its template is parsed: to its argument in an instantiation, to no
  /// value in the pattern (which is never checked).
  struct ValueParam {
    const Type *Ty;
    std::optional<int64_t> Value;
  };
  const ValueParam *lookupValueParam(llvm::StringRef Name) const {
    auto It = ValueParams.find(Name);
    return It == ValueParams.end() ? nullptr : &It->second;
  }
  llvm::StringMap<ValueParam> &getValueParams() { return ValueParams; }
  /// The global integer constants declared so far (`const int N = 4;`),
  /// which array sizes may name, with their types.
  void defineConstant(llvm::StringRef Name, IntConstant V) {
    Constants[Name] = V;
  }
  std::optional<IntConstant> lookupConstant(llvm::StringRef Name) const {
    auto It = Constants.find(Name);
    if (It == Constants.end())
      return std::nullopt;
    return It->second;
  }
  /// The instantiation of \p T for \p Args: its definition parsed again
  /// with each template parameter a typedef of its argument. Unchecked and
  /// named like the template; null after a parse error.
  FunctionDecl *instantiateTemplate(FunctionTemplateDecl *T,
                                    llvm::ArrayRef<const Type *> Args);
  /// Parses the one function definition at byte \p Offset of \p FileId.
  FunctionDecl *parseFunctionAt(uint32_t FileId, size_t Offset);

private:
  void parseFile(uint32_t FileId);
  /// Makes the template names visible in \p From visible in \p Into (which
  /// imports it).
  void importTemplateNames(uint32_t Into, uint32_t From);

  ASTContext &Ctx;
  DiagnosticEngine &Diags;
  std::vector<std::string> IncludePaths;
  bool AllowImports = true;
  bool Preprocess = false;
  PreprocessorOptions PPOpts;
  /// Canonical path -> file id of every file read so far.
  llvm::StringMap<uint32_t> Loaded;
  /// Typedef names are global to the whole program.
  llvm::StringMap<const Type *> Typedefs;
  /// Names of every user function declared so far, across files.
  llvm::StringSet<> Functions;
  unsigned ImportDepth = 0;
  /// File id -> the template names visible in it (its own and its
  /// imports').
  llvm::DenseMap<uint32_t, llvm::StringSet<>> TemplateNames;
  llvm::StringMap<ValueParam> ValueParams;
  llvm::StringMap<IntConstant> Constants;
};

} // namespace bsgp

#endif // BSGP_PARSE_PARSER_H
