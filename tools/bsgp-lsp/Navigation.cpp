//===- Navigation.cpp - references, highlights, rename, spawn hints -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// What the document's index of names (Document.cpp) answers besides hover
// and definition: every place a declaration is named in the document, a
// rename of it, and the inlay hint after each `spawn (n)` that says what the
// compiler makes of the spawn (supersteps, temporary streams).
//
//===----------------------------------------------------------------------===//

#include "Document.h"

#include "llvm/ADT/StringExtras.h"

using namespace bsgp;
using namespace bsgp::lspserver;
namespace lsp = llvm::lsp;

/// The declarations a reference may name for \p D: an instantiation of a
/// generic function is named as its template.
static const Decl *canonical(const Decl *D) {
  if (auto *F = llvm::dyn_cast_or_null<FunctionDecl>(D))
    if (F->getInstantiatedFrom())
      return F->getInstantiatedFrom();
  return D;
}

const Decl *BSGPDocument::declAt(const lsp::Position &Pos) const {
  const Occurrence *O = find(Pos);
  return O ? canonical(O->Target) : nullptr;
}

std::vector<BSGPDocument::NameRef> BSGPDocument::namesOf(const Decl *D) const {
  std::vector<NameRef> Names;
  for (const Occurrence &O : Occurrences) {
    if (!O.Target || canonical(O.Target) != D)
      continue;
    // A member expression's occurrence is the member's name; the whole
    // expression `q.id` names no declaration.
    SourceRange R = O.Range;
    if (llvm::any_of(Names, [&](const NameRef &N) {
          return N.Range.Begin.Line == R.Begin.Line &&
                 N.Range.Begin.Col == R.Begin.Col;
        }))
      continue;
    // The name of a declaration (an implicit one is declared where it is
    // first assigned, which is also a reference).
    bool IsDecl = D->getLoc().File == R.Begin.File &&
                  D->getLoc().Line == R.Begin.Line &&
                  D->getLoc().Col == R.Begin.Col;
    Names.push_back({R, IsDecl});
  }
  llvm::sort(Names, [](const NameRef &A, const NameRef &B) {
    return std::make_pair(A.Range.Begin.Line, A.Range.Begin.Col) <
           std::make_pair(B.Range.Begin.Line, B.Range.Begin.Col);
  });
  return Names;
}

void BSGPDocument::references(const lsp::Position &Pos, bool IncludeDecl,
                              std::vector<lsp::Location> &Locations) {
  const Decl *D = declAt(Pos);
  if (!D)
    return;
  // The declaration may be in another file (an import, the library): it
  // is the definition's place, where go-to-definition leads.
  if (IncludeDecl && D->getLoc().File != MainFile)
    if (std::optional<lsp::Location> L = locationOf(D))
      Locations.push_back(*L);
  for (const NameRef &N : namesOf(D))
    if (IncludeDecl || !N.IsDecl)
      Locations.emplace_back(URI, toRange(N.Range));
}

std::vector<lsp::Range> BSGPDocument::highlights(const lsp::Position &Pos) {
  std::vector<lsp::Range> Ranges;
  if (const Decl *D = declAt(Pos))
    for (const NameRef &N : namesOf(D))
      Ranges.push_back(toRange(N.Range));
  return Ranges;
}

/// Why the declaration \p D cannot be renamed in this document, or "".
std::string BSGPDocument::whyNotRenamable(const Decl *D) const {
  if (!D)
    return "there is no name to rename here";
  if (D->getLoc().File != MainFile)
    return "'" + D->getName().str() +
           "' is declared in another file (an import or the collective "
           "library)";
  // Type names are not nodes of the AST: their uses cannot all be found.
  if (!llvm::isa<VarDecl, FieldDecl, FunctionDecl>(D))
    return "only variables, parameters, fields and functions can be renamed";
  if (HasErrors)
    return "the document has errors: some uses of '" + D->getName().str() +
           "' may not be known";
  return "";
}

std::optional<lsp::Range>
BSGPDocument::prepareRename(const lsp::Position &Pos) {
  const Occurrence *O = find(Pos);
  if (!O || !O->Target || !whyNotRenamable(canonical(O->Target)).empty())
    return std::nullopt;
  return toRange(O->Range);
}

static bool isKeyword(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
#define KEYWORD(Id, Spelling) .Case(Spelling, true)
#include "bsgp/Lex/TokenKinds.def"
      .Default(false);
}

llvm::Expected<std::vector<lsp::TextEdit>>
BSGPDocument::rename(const lsp::Position &Pos, llvm::StringRef NewName) {
  const Decl *D = declAt(Pos);
  std::string Why = whyNotRenamable(D);
  auto Fail = [](const llvm::Twine &Message) {
    return llvm::make_error<lsp::LSPError>(Message.str(),
                                           lsp::ErrorCode::InvalidRequest);
  };
  if (!Why.empty())
    return Fail("cannot rename: " + Why);
  bool Identifier =
      !NewName.empty() && (llvm::isAlpha(NewName[0]) || NewName[0] == '_') &&
      llvm::all_of(NewName,
                   [](char C) { return llvm::isAlnum(C) || C == '_'; });
  if (!Identifier)
    return Fail("cannot rename: '" + NewName + "' is not an identifier");
  if (isKeyword(NewName))
    return Fail("cannot rename: '" + NewName + "' is a keyword");
  if (NewName.starts_with("__bsgp"))
    return Fail("cannot rename: names starting with '__bsgp' belong to the "
                "collective library");
  std::vector<lsp::TextEdit> Edits;
  for (const NameRef &N : namesOf(D)) {
    lsp::TextEdit E;
    E.range = toRange(N.Range);
    E.newText = NewName.str();
    Edits.push_back(std::move(E));
  }
  return Edits;
}

void BSGPDocument::inlayHints(const lsp::Range &Visible,
                              std::vector<lsp::InlayHint> &Hints) {
  for (const Occurrence &O : Occurrences) {
    // The `spawn` keyword's occurrence (Document.cpp, indexStmt).
    if (O.Target || O.E || !O.Spawn)
      continue;
    const SpawnStmt *Sp = O.Spawn;
    // The hint follows the last extent of `spawn (nx, ny)`.
    const Expr *Count =
        Sp->getExtents().empty() ? nullptr : Sp->getExtents().back();
    if (!Count || !Count->getRange().isValid() ||
        Count->getRange().End.File != MainFile)
      continue;
    // After the `)` of `spawn (n)`.
    SourceLocation After = Count->getRange().End;
    llvm::StringRef Line = SM.getLineText(MainFile, After.Line);
    size_t Col = After.Col; // 0-based, just past the count
    while (Col < Line.size() && Line[Col] != ')')
      ++Col;
    if (Col < Line.size())
      ++Col;
    lsp::Position At(After.Line - 1, Col);
    if (At < Visible.start || Visible.end < At)
      continue;
    std::string Label = spawnSummary(Sp);
    if (Label.empty())
      continue;
    lsp::InlayHint H(lsp::InlayHintKind::Type, At);
    H.label = std::move(Label);
    H.paddingLeft = true;
    Hints.push_back(std::move(H));
  }
}

std::string BSGPDocument::spawnSummary(const SpawnStmt *Spawn) {
  if (HasErrors)
    return "";
  const SuperstepInfo &Info = supersteps();
  if (!Info.Error.empty())
    return "";
  llvm::SmallVector<unsigned> Tables = tablesOf(Spawn);
  if (Tables.empty())
    return "1 superstep";
  std::vector<std::string> Parts;
  for (unsigned T : Tables) {
    unsigned Steps = Info.Tables[T].numSupersteps;
    unsigned Streams = Info.NumStreams[T];
    Parts.push_back(std::to_string(Steps) + " supersteps, " +
                    std::to_string(Streams) + " stream" +
                    (Streams == 1 ? "" : "s"));
  }
  // A spawn that uniform control flow cut into several runs as several.
  if (Parts.size() > 1)
    return std::to_string(Parts.size()) + " spawns: " + llvm::join(Parts, "; ");
  return Parts.front();
}
