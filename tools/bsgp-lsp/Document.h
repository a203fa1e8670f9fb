//===- Document.h - one BSGP document of the language server ----*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A BSGPDocument is the text of one open file, parsed and checked by the
/// compiler's own frontend (with the collective library imported, as bsgpc
/// does), its diagnostics captured by a DiagnosticConsumer instead of being
/// printed, and an index of where each name and expression of the main file
/// is, for hover and go to definition. For thread-local variables, the
/// hover also tells whether the value is saved across a barrier and in
/// which temporary stream: the tables of `bsgpc --print-supersteps`, read
/// off the superstep form of the document, and the streams that
/// bsgp-allocate-streams binds (SuperstepInfo.cpp), computed on the first
/// hover that needs them.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_TOOLS_BSGP_LSP_DOCUMENT_H
#define BSGP_TOOLS_BSGP_LSP_DOCUMENT_H

#include "bsgp/AST/AST.h"
#include "bsgp/AST/ASTContext.h"
#include "bsgp/Basic/Diagnostic.h"
#include "bsgp/Basic/SourceManager.h"
#include "bsgp/Lex/Preprocess.h"
#include "bsgp/Transforms/SuperstepTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/LSP/Protocol.h"

#include <optional>
#include <string>
#include <vector>

namespace bsgp {
namespace lspserver {

/// What every document is compiled with: the collective library and the
/// preprocessor's system include directory, found next to the executable.
struct CompileSettings {
  std::vector<std::string> ImplicitImports;
  PreprocessorOptions PP;
  std::vector<std::string> IncludePaths;
};

/// One bsgp.save of a value: the superstep that saves it (from 1) and the
/// temporary streams of its words, numbered in the order the spawn
/// allocates them.
struct StreamSave {
  unsigned Step = 0;
  std::vector<unsigned> Streams;
};

/// The saved-value rows of the spawns of a document, from the superstep
/// form; `Error` says why there are none when the analysis could not run.
struct SuperstepInfo {
  llvm::SmallVector<SpawnSuperstepTable, 2> Tables;
  /// Per table, per row: the saves of the row's value (none for an unsaved
  /// row; more than one where a value is saved again after fork or kill
  /// changed the number of threads).
  std::vector<std::vector<std::vector<StreamSave>>> Saves;
  /// Per table: how many temporary streams the spawn allocates.
  std::vector<unsigned> NumStreams;
  std::string Error;
};

/// Runs MLIRGen and the superstep pipeline of `bsgpc --print-supersteps`
/// on the checked AST and collects the tables, then bsgp-save-restore and
/// bsgp-allocate-streams, whose streams are mapped back to the rows.
SuperstepInfo computeSuperstepInfo(ASTContext &Ctx, SourceManager &SM);

class BSGPDocument {
public:
  BSGPDocument(const llvm::lsp::URIForFile &URI, llvm::StringRef Text,
               const CompileSettings &Settings,
               std::vector<llvm::lsp::Diagnostic> &Diagnostics);
  BSGPDocument(const BSGPDocument &) = delete;

  std::optional<llvm::lsp::Hover> hover(const llvm::lsp::Position &Pos);
  void definition(const llvm::lsp::Position &Pos,
                  std::vector<llvm::lsp::Location> &Locations);
  void symbols(std::vector<llvm::lsp::DocumentSymbol> &Symbols);

  // Navigation.cpp.
  /// Where the declaration named at `Pos` is named in this document (and,
  /// with `IncludeDecl`, declared, in whatever file).
  void references(const llvm::lsp::Position &Pos, bool IncludeDecl,
                  std::vector<llvm::lsp::Location> &Locations);
  /// The names in this document of the declaration named at `Pos`.
  std::vector<llvm::lsp::Range> highlights(const llvm::lsp::Position &Pos);
  /// The name at `Pos`, if it can be renamed.
  std::optional<llvm::lsp::Range> prepareRename(const llvm::lsp::Position &Pos);
  /// The edits renaming the declaration named at `Pos` to `NewName`, or
  /// why it cannot be renamed.
  llvm::Expected<std::vector<llvm::lsp::TextEdit>>
  rename(const llvm::lsp::Position &Pos, llvm::StringRef NewName);
  /// After each `spawn (n)` in `Visible`: its supersteps and temporary
  /// streams.
  void inlayHints(const llvm::lsp::Range &Visible,
                  std::vector<llvm::lsp::InlayHint> &Hints);

  // SemanticTokens.cpp.
  /// The token types and modifiers of semanticTokens(), for the server's
  /// capabilities.
  static llvm::json::Object semanticTokensLegend();
  /// The names of the document as the protocol encodes semantic tokens
  /// (five numbers each, relative to the token before).
  std::vector<uint32_t> semanticTokens();

  // Completion.cpp.
  void completion(const llvm::lsp::Position &Pos,
                  llvm::lsp::CompletionList &List);
  std::optional<llvm::lsp::SignatureHelp>
  signatureHelp(const llvm::lsp::Position &Pos);

private:
  /// A place in the main file that hover and definition answer for.
  struct Occurrence {
    SourceRange Range;
    /// The declaration named there (declared or referred to), if any.
    const Decl *Target = nullptr;
    /// The expression there, if any (for its type).
    const Expr *E = nullptr;
    /// The spawn the occurrence is in, if any; with neither Target nor E,
    /// the occurrence is the `spawn` keyword itself.
    const SpawnStmt *Spawn = nullptr;
  };

  void index();
  void indexDecl(const Decl *D);
  void indexStmt(const Stmt *S, const SpawnStmt *Spawn);
  void addDeclName(const Decl *D, const SpawnStmt *Spawn);
  const Occurrence *find(const llvm::lsp::Position &Pos) const;
  /// The struct or typedef named by the identifier at `Pos` (type names
  /// are not nodes of the AST).
  const Decl *findTypeName(const llvm::lsp::Position &Pos, SourceRange &Range);
  std::string describe(const Decl *D);
  std::string describeSaved(const VarDecl *V, const SpawnStmt *Spawn);
  std::string describeSpawn(const SpawnStmt *Spawn);
  /// The superstep tables, computed on first use.
  const SuperstepInfo &supersteps();
  /// Indices in supersteps().Tables of the tables of `Spawn` that have
  /// more than one superstep.
  llvm::SmallVector<unsigned> tablesOf(const SpawnStmt *Spawn);
  std::optional<llvm::lsp::Location> locationOf(const Decl *D);
  /// The place of `R`, in this document or in a file on disk.
  std::optional<llvm::lsp::Location> locationOf(SourceRange R);
  /// The macro used at `Pos` (the outermost expansion), with the range of
  /// its name there.
  const MacroExpansion *macroAt(const llvm::lsp::Position &Pos,
                                SourceRange &NameRange) const;
  SourceRange macroNameRange(const MacroExpansion &E);
  llvm::lsp::Range toRange(SourceRange R) const;

  /// A place where a declaration is named: its declaration or a use.
  struct NameRef {
    SourceRange Range;
    bool IsDecl = false;
  };
  /// The declaration named at `Pos` (a generic function's, not its
  /// instantiation's).
  const Decl *declAt(const llvm::lsp::Position &Pos) const;
  /// The names of `D` in this document, in order.
  std::vector<NameRef> namesOf(const Decl *D) const;
  std::string whyNotRenamable(const Decl *D) const;
  /// "3 supersteps, 2 streams" for the inlay hint of `Spawn`.
  std::string spawnSummary(const SpawnStmt *Spawn);
  /// The offset in the main file of `Pos`.
  size_t offsetOf(const llvm::lsp::Position &Pos) const;
  /// The variable of that name declared last before `Pos`.
  const VarDecl *lastVarNamed(llvm::StringRef Name,
                              const llvm::lsp::Position &Pos) const;
  /// `int f(int a, float *x)`; each parameter's text into `Params`.
  static std::string signatureOf(const FunctionDecl *F,
                                 std::vector<std::string> *Params = nullptr);

  llvm::lsp::URIForFile URI;
  SourceManager SM;
  DiagnosticEngine Diags;
  ASTContext Ctx;
  uint32_t MainFile = 0;
  bool HasErrors = false;
  std::vector<Occurrence> Occurrences;
  llvm::DenseMap<const VarDecl *, const SpawnStmt *> SpawnOf;
  std::optional<SuperstepInfo> Supersteps;
};

} // namespace lspserver
} // namespace bsgp

#endif // BSGP_TOOLS_BSGP_LSP_DOCUMENT_H
