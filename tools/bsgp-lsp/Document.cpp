//===- Document.cpp - one BSGP document of the language server ------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The document is compiled as bsgpc compiles a file (parseAndAnalyzeBuffer
// with the collective library as an implicit import). A program with errors
// still has the AST the parser and Sema built; the index walks it as it is,
// so every pointer it follows may be null.
//
//===----------------------------------------------------------------------===//

#include "Document.h"

#include "bsgp/Driver/Driver.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace bsgp;
using namespace bsgp::lspserver;
namespace lsp = llvm::lsp;

namespace {

/// Turns the compiler's diagnostics into LSP diagnostics of the main file.
/// A note is related information of the diagnostic before it; diagnostics
/// of other files (imports) are shown at the top of the document with the
/// file's name.
class Collector : public DiagnosticConsumer {
public:
  Collector(SourceManager &SM, const lsp::URIForFile &URI,
            std::vector<lsp::Diagnostic> &Out)
      : SM(SM), URI(URI), Out(Out) {}

  void handleDiagnostic(Severity Sev, SourceRange R,
                        llvm::StringRef Message) override {
    bool InMain = R.isValid() && R.Begin.File == MainFile;
    if (Sev == Severity::Note && !Out.empty()) {
      // A note in another file (an import) points into that file on disk.
      lsp::URIForFile Where = URI;
      if (!InMain) {
        if (!R.isValid())
          return;
        llvm::Expected<lsp::URIForFile> File =
            lsp::URIForFile::fromFile(SM.getFileName(R.Begin.File));
        if (!File) {
          llvm::consumeError(File.takeError());
          return;
        }
        Where = *File;
      }
      lsp::Diagnostic &Last = Out.back();
      if (!Last.relatedInformation)
        Last.relatedInformation.emplace();
      Last.relatedInformation->emplace_back(lsp::Location(Where, toLSPRange(R)),
                                            Message.str());
      return;
    }
    lsp::Diagnostic D;
    D.source = "bsgpc";
    D.severity = Sev == Severity::Warning ? lsp::DiagnosticSeverity::Warning
                 : Sev == Severity::Note  ? lsp::DiagnosticSeverity::Information
                                          : lsp::DiagnosticSeverity::Error;
    D.message = Message.str();
    if (InMain) {
      D.range = toLSPRange(R);
    } else if (R.isValid()) {
      D.message =
          llvm::formatv("{0}:{1}:{2}: {3}", SM.getFileName(R.Begin.File),
                        R.Begin.Line, R.Begin.Col, Message);
      Elsewhere.push_back({Out.size(), R.Begin.File});
    }
    Out.push_back(std::move(D));
  }

  /// Puts each diagnostic of an imported file on the `import` of the main
  /// file that brought that file in, once the imports are known.
  /// A header's go on the `#include` that entered it.
  void placeOnImports(llvm::ArrayRef<Decl *> MainDecls) {
    for (auto [Index, File] : Elsewhere) {
      SourceLocation Include = SM.getFile(File).IncludeLoc;
      if (Include.isValid() && Include.File == MainFile)
        Out[Index].range = toLSPRange(SourceRange(Include));
      for (const Decl *D : MainDecls)
        if (auto *I = llvm::dyn_cast_or_null<ImportDecl>(D))
          if (I->getImportedFile() == File && I->getRange().isValid() &&
              I->getRange().Begin.File == MainFile)
            Out[Index].range = toLSPRange(I->getRange());
    }
  }

  static lsp::Range toLSPRange(SourceRange R) {
    // bsgpc's ranges are closed and 1-based; LSP's are half-open, 0-based.
    lsp::Position Begin(R.Begin.Line - 1, R.Begin.Col - 1);
    lsp::Position End = Begin;
    if (R.End.isValid() && R.End.File == R.Begin.File)
      End = lsp::Position(R.End.Line - 1, R.End.Col);
    if (End <= Begin)
      End = lsp::Position(Begin.line, Begin.character + 1);
    return lsp::Range(Begin, End);
  }

  uint32_t MainFile = 0;

private:
  /// Diagnostics of other files: index in Out, file id.
  std::vector<std::pair<size_t, uint32_t>> Elsewhere;
  SourceManager &SM;
  const lsp::URIForFile &URI;
  std::vector<lsp::Diagnostic> &Out;
};

/// The range of a declaration's name.
SourceRange nameRange(const Decl *D) {
  SourceLocation B = D->getLoc(), E = B;
  if (!llvm::isa<ImportDecl>(D) && !D->getName().empty())
    E.Col += D->getName().size() - 1;
  return SourceRange(B, E);
}

bool contains(SourceRange R, uint32_t File, unsigned Line, unsigned Col) {
  if (!R.isValid() || R.Begin.File != File || R.End.File != File)
    return false;
  auto Before = [](unsigned L1, unsigned C1, unsigned L2, unsigned C2) {
    return L1 < L2 || (L1 == L2 && C1 <= C2);
  };
  return Before(R.Begin.Line, R.Begin.Col, Line, Col) &&
         Before(Line, Col, R.End.Line, R.End.Col);
}

/// A size to choose the innermost of the occurrences around a position.
uint64_t extent(SourceRange R) {
  return (uint64_t(R.End.Line - R.Begin.Line) << 32) +
         (R.End.Col - R.Begin.Col);
}

std::string typeString(const Type *T) {
  return T && !T->isError() ? T->str() : std::string("<unknown>");
}

} // namespace

BSGPDocument::BSGPDocument(const lsp::URIForFile &URI, llvm::StringRef Text,
                           const CompileSettings &Settings,
                           std::vector<lsp::Diagnostic> &Diagnostics)
    : URI(URI), Diags(SM, llvm::nulls()) {
  Collector C(SM, URI, Diagnostics);
  Diags.setConsumer(&C);
  // Every error is worth showing in an editor.
  Diags.setErrorLimit(0);
  MainFile = SM.addBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(Text, URI.file()), URI.file());
  C.MainFile = MainFile;
  FrontendOptions Opts;
  Opts.ImplicitImports = Settings.ImplicitImports;
  Opts.PP = Settings.PP;
  Opts.IncludePaths = Settings.IncludePaths;
  // A crash of the compiler on some text must not end the server: the
  // document then has one diagnostic saying so and no index.
  llvm::CrashRecoveryContext CRC;
  if (!CRC.RunSafely(
          [&] { parseAndAnalyzeBuffer(MainFile, Ctx, Diags, Opts); })) {
    Diags.setConsumer(nullptr);
    HasErrors = true;
    lsp::Diagnostic D;
    D.source = "bsgpc";
    D.severity = lsp::DiagnosticSeverity::Error;
    D.message = "internal compiler error: the frontend crashed on this text";
    Diagnostics.push_back(std::move(D));
    return;
  }
  HasErrors = Diags.hasErrors();
  Diags.setConsumer(nullptr);
  for (const TranslationUnit &TU : Ctx.getTranslationUnits())
    if (TU.FileId == MainFile)
      C.placeOnImports(TU.Decls);
  index();
}

//===----------------------------------------------------------------------===//
// The index
//===----------------------------------------------------------------------===//

void BSGPDocument::index() {
  for (const TranslationUnit &TU : Ctx.getTranslationUnits())
    if (TU.FileId == MainFile)
      for (const Decl *D : TU.Decls)
        if (D)
          indexDecl(D);
}

void BSGPDocument::addDeclName(const Decl *D, const SpawnStmt *Spawn) {
  if (D->getLoc().File != MainFile || D->getName().empty())
    return;
  Occurrences.push_back({nameRange(D), D, nullptr, Spawn});
  if (auto *V = llvm::dyn_cast<VarDecl>(D))
    if (Spawn && !V->isHost())
      SpawnOf.try_emplace(V, Spawn);
}

void BSGPDocument::indexDecl(const Decl *D) {
  addDeclName(D, nullptr);
  if (auto *F = llvm::dyn_cast<FunctionDecl>(D)) {
    for (const VarDecl *P : F->getParams())
      if (P)
        addDeclName(P, nullptr);
    if (F->getBody())
      indexStmt(F->getBody(), nullptr);
  } else if (auto *T = llvm::dyn_cast<FunctionTemplateDecl>(D)) {
    // The pattern is never checked; its names still lead somewhere.
    if (T->getPattern())
      for (const VarDecl *P : T->getPattern()->getParams())
        if (P)
          addDeclName(P, nullptr);
  } else if (auto *S = llvm::dyn_cast<StructDecl>(D)) {
    for (const FieldDecl *F : S->getFields())
      if (F)
        addDeclName(F, nullptr);
  } else if (auto *V = llvm::dyn_cast<VarDecl>(D)) {
    if (V->getInit())
      indexStmt(V->getInit(), nullptr);
  }
}

void BSGPDocument::indexStmt(const Stmt *S, const SpawnStmt *Spawn) {
  auto *Mutable = const_cast<Stmt *>(S);
  if (auto *Sp = llvm::dyn_cast<SpawnStmt>(S)) {
    // The `spawn` keyword: a summary of the spawn's supersteps.
    if (Sp->getBeginLoc().File == MainFile) {
      SourceLocation End = Sp->getBeginLoc();
      End.Col += 4;
      Occurrences.push_back(
          {SourceRange(Sp->getBeginLoc(), End), nullptr, nullptr, Sp});
    }
    for (Expr *E : Sp->getExtents())
      if (E)
        indexStmt(E, Spawn);
    if (Sp->getBody())
      indexStmt(Sp->getBody(), Sp);
    return;
  }
  // A require block is host code run before its superstep.
  if (auto *R = llvm::dyn_cast<RequireStmt>(S)) {
    if (R->getBody())
      indexStmt(R->getBody(), nullptr);
    return;
  }
  if (auto *C = llvm::dyn_cast<CompoundStmt>(S))
    for (const VarDecl *V : C->getImplicitDecls())
      if (V && V->getLoc().File == MainFile && !V->isHost() && Spawn)
        SpawnOf.try_emplace(V, Spawn);
  if (auto *DS = llvm::dyn_cast<DeclStmt>(S))
    for (const VarDecl *V : DS->decls())
      if (V)
        addDeclName(V, Spawn);
  if (auto *E = llvm::dyn_cast<Expr>(S)) {
    if (E->getRange().Begin.File == MainFile &&
        !llvm::isa<ImplicitCastExpr>(E)) {
      Occurrence O{E->getRange(), nullptr, E, Spawn};
      if (auto *Ref = llvm::dyn_cast<DeclRefExpr>(E)) {
        O.Target = Ref->getDecl();
        if (auto *V = llvm::dyn_cast_or_null<VarDecl>(O.Target))
          if (Spawn && !V->isHost())
            SpawnOf.try_emplace(V, Spawn);
      }
      Occurrences.push_back(O);
    }
    if (auto *M = llvm::dyn_cast<MemberExpr>(E))
      if (M->getField() && M->getMemberLoc().File == MainFile &&
          !M->getMemberName().empty()) {
        SourceLocation B = M->getMemberLoc(), End = B;
        End.Col += M->getMemberName().size() - 1;
        Occurrences.push_back({SourceRange(B, End), M->getField(), M, Spawn});
      }
  }
  forEachChild(Mutable, [&](Stmt *Child) { indexStmt(Child, Spawn); });
}

const BSGPDocument::Occurrence *
BSGPDocument::find(const lsp::Position &Pos) const {
  const Occurrence *Best = nullptr;
  if (Pos.line < 0 || Pos.character < 0)
    return nullptr;
  for (const Occurrence &O : Occurrences) {
    if (!contains(O.Range, MainFile, unsigned(Pos.line) + 1,
                  unsigned(Pos.character) + 1))
      continue;
    // The innermost; at equal extent, a name before a bare expression.
    if (!Best || extent(O.Range) < extent(Best->Range) ||
        (extent(O.Range) == extent(Best->Range) && O.Target && !Best->Target))
      Best = &O;
  }
  return Best;
}

const Decl *BSGPDocument::findTypeName(const lsp::Position &Pos,
                                       SourceRange &Range) {
  if (Pos.line < 0 || Pos.character < 0 ||
      unsigned(Pos.line) >= std::numeric_limits<uint32_t>::max())
    return nullptr;
  llvm::StringRef Line = SM.getLineText(MainFile, Pos.line + 1);
  size_t At = Pos.character;
  auto IsIdent = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  if (At >= Line.size() || !IsIdent(Line[At]))
    return nullptr;
  size_t B = At, E = At;
  while (B > 0 && IsIdent(Line[B - 1]))
    --B;
  while (E < Line.size() && IsIdent(Line[E]))
    ++E;
  llvm::StringRef Word = Line.slice(B, E);
  for (const TranslationUnit &TU : Ctx.getTranslationUnits())
    for (const Decl *D : TU.Decls)
      if (D && llvm::isa<StructDecl, TypedefDecl>(D) && D->getName() == Word) {
        SourceLocation L;
        L.File = MainFile;
        L.Line = Pos.line + 1;
        L.Col = B + 1;
        SourceLocation EndLoc = L;
        EndLoc.Col = E;
        Range = SourceRange(L, EndLoc);
        return D;
      }
  return nullptr;
}

lsp::Range BSGPDocument::toRange(SourceRange R) const {
  return lsp::Range(lsp::Position(R.Begin.Line - 1, R.Begin.Col - 1),
                    lsp::Position(R.End.Line - 1, R.End.Col));
}

//===----------------------------------------------------------------------===//
// Hover
//===----------------------------------------------------------------------===//

std::string BSGPDocument::describe(const Decl *D) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  if (auto *V = llvm::dyn_cast<VarDecl>(D)) {
    OS << "variable `" << V->getName() << "`: `" << typeString(V->getType())
       << "`";
    if (V->getStorage() == VarDecl::Global)
      OS << "\n- global: host";
    else if (V->getStorage() == VarDecl::Param)
      OS << "\n- parameter: " << (V->isHost() ? "host" : "thread-local");
    else if (V->isHost())
      OS << "\n- host"
         << (V->isRequireDecl() ? " (assigned in a require block)" : "");
    else if (const SpawnStmt *Sp = SpawnOf.lookup(V))
      OS << "\n- thread-local: one per thread of the spawn at line "
         << Sp->getBeginLoc().Line;
    else
      OS << "\n- thread-local: a local of an inline function";
    if (const SpawnStmt *Sp = SpawnOf.lookup(V))
      OS << describeSaved(V, Sp);
  } else if (auto *F = llvm::dyn_cast<FunctionDecl>(D)) {
    OS << "function `";
    // An instantiation is named by its mangled name; show it as written.
    if (const FunctionTemplateDecl *T = F->getInstantiatedFrom()) {
      OS << T->getName() << "<";
      for (auto [K, Arg] : llvm::enumerate(F->getTemplateArgs()))
        OS << (K ? ", " : "") << typeString(Arg);
      OS << ">";
    } else {
      OS << F->getName();
    }
    OS << "`";
    if (F->getFunctionType())
      OS << ": `" << F->getFunctionType()->str() << "`";
    if (!HasErrors)
      OS << "\n- "
         << (F->getFunctionKind() == FunctionDecl::FK_Host ? "host function"
             : F->getFunctionKind() == FunctionDecl::FK_Collective
                 ? "collective function (inline, with barriers or "
                   "collectives)"
                 : "device function (callable from host and device)");
  } else if (auto *F = llvm::dyn_cast<FieldDecl>(D)) {
    OS << "field `" << F->getName() << "`: `" << typeString(F->getType())
       << "`";
  } else if (auto *T = llvm::dyn_cast<StructDecl>(D)) {
    OS << "struct `" << T->getName() << "` (" << T->getFields().size()
       << " fields)";
  } else if (auto *T = llvm::dyn_cast<TypedefDecl>(D)) {
    OS << "typedef `" << T->getName() << "` = `"
       << typeString(T->getUnderlyingType()) << "`";
  } else if (llvm::isa<FunctionTemplateDecl>(D)) {
    OS << "generic function `" << D->getName() << "`";
  } else {
    OS << "`" << D->getName() << "`";
  }
  return S;
}

const SuperstepInfo &BSGPDocument::supersteps() {
  if (!Supersteps) {
    // A crash of a pass must not end the server either.
    llvm::CrashRecoveryContext CRC;
    SuperstepInfo Info;
    if (!CRC.RunSafely([&] { Info = computeSuperstepInfo(Ctx, SM); }))
      Info.Error = "the compiler crashed in the superstep pipeline";
    Supersteps = std::move(Info);
  }
  return *Supersteps;
}

llvm::SmallVector<unsigned> BSGPDocument::tablesOf(const SpawnStmt *Spawn) {
  // The tables of this spawn: a spawn that bsgp-split-uniform-flow cut or
  // a pass versioned has several; one without a barrier saves nothing.
  llvm::SmallVector<unsigned> Tables;
  llvm::StringRef MainName = SM.getFileName(MainFile);
  for (auto [T, Table] : llvm::enumerate(supersteps().Tables))
    if (Table.file == MainName && Table.numSupersteps > 1 &&
        contains(Spawn->getRange(), MainFile, Table.line, Table.col))
      Tables.push_back(T);
  return Tables;
}

/// "saved across a barrier (used in supersteps 3, 4) in temporary stream 1",
/// and where the value is saved again (after fork or kill), where.
static void printSavedRow(const SuperstepValueInfo &Row,
                          llvm::ArrayRef<StreamSave> Saves,
                          llvm::raw_ostream &OS) {
  if (!Row.saved) {
    OS << "not saved across a barrier";
    return;
  }
  OS << "saved across a barrier (used in superstep";
  if (Row.useSteps.size() > 1)
    OS << "s";
  for (auto [K, Step] : llvm::enumerate(Row.useSteps))
    OS << (K ? ", " : " ") << Step;
  OS << ")";
  bool First = true;
  for (const StreamSave &Save : Saves) {
    if (Save.Streams.empty())
      continue;
    if (!First)
      OS << "; saved again in superstep " << Save.Step;
    First = false;
    OS << " in temporary stream" << (Save.Streams.size() > 1 ? "s " : " ");
    for (auto [K, Stream] : llvm::enumerate(Save.Streams))
      OS << (K ? ", " : "") << Stream;
  }
}

std::string BSGPDocument::describeSaved(const VarDecl *V,
                                        const SpawnStmt *Spawn) {
  if (HasErrors)
    return "";
  const SuperstepInfo &Info = supersteps();
  if (!Info.Error.empty())
    return "\n- superstep analysis unavailable: " + Info.Error;
  llvm::StringRef MainName = SM.getFileName(MainFile);
  llvm::SmallVector<unsigned> Tables = tablesOf(Spawn);
  if (Tables.empty())
    return "\n- not saved: its spawn has no barrier (one superstep)";
  // One line per saved value (code inlined from a collective may give
  // several rows the same name and position: they are one line); the
  // unsaved values only say where they are defined.
  std::vector<std::string> Saved;
  llvm::SmallVector<unsigned> UnsavedSteps;
  unsigned NumSteps = 0;
  for (unsigned T : Tables) {
    const SpawnSuperstepTable &Table = Info.Tables[T];
    for (auto [R, Row] : llvm::enumerate(Table.values)) {
      if (Row.name != V->getName() || Row.file != MainName ||
          !contains(Spawn->getRange(), MainFile, Row.line, Row.col))
        continue;
      if (!Row.saved) {
        if (!llvm::is_contained(UnsavedSteps, Row.defStep))
          UnsavedSteps.push_back(Row.defStep);
        NumSteps = Table.numSupersteps;
        continue;
      }
      std::string Line;
      llvm::raw_string_ostream OS(Line);
      OS << "\n- value of line " << Row.line << ": defined in superstep "
         << Row.defStep << " of " << Table.numSupersteps;
      if (!Table.version.empty())
        OS << " (the copy that " << Table.version << ")";
      OS << ", ";
      printSavedRow(Row, Info.Saves[T][R], OS);
      if (!llvm::is_contained(Saved, Line))
        Saved.push_back(std::move(Line));
    }
  }
  if (!Saved.empty())
    return llvm::join(Saved, "");
  std::string S = "\n- not saved across a barrier";
  if (UnsavedSteps.empty())
    return S;
  llvm::sort(UnsavedSteps);
  S += UnsavedSteps.size() > 1 ? " (defined in supersteps "
                               : " (defined in superstep ";
  for (auto [K, Step] : llvm::enumerate(UnsavedSteps))
    S += (K ? ", " : "") + std::to_string(Step);
  return S + " of " + std::to_string(NumSteps) + ")";
}

std::string BSGPDocument::describeSpawn(const SpawnStmt *Spawn) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "spawn at line " << Spawn->getBeginLoc().Line;
  if (HasErrors)
    return S;
  const SuperstepInfo &Info = supersteps();
  if (!Info.Error.empty())
    return S + "\n- superstep analysis unavailable: " + Info.Error;
  llvm::SmallVector<unsigned> Tables = tablesOf(Spawn);
  if (Tables.empty())
    return S + "\n- one superstep: nothing is saved across a barrier";
  for (unsigned T : Tables) {
    const SpawnSuperstepTable &Table = Info.Tables[T];
    unsigned Streams = Info.NumStreams[T];
    OS << "\n- " << Table.numSupersteps << " supersteps";
    if (!Table.version.empty())
      OS << " (the copy that " << Table.version << ")";
    OS << ", " << Streams << " temporary stream" << (Streams == 1 ? "" : "s");
    for (auto [R, Row] : llvm::enumerate(Table.values)) {
      if (!Row.saved)
        continue;
      OS << "\n- `" << Row.name << "`";
      if (Row.line)
        OS << " (line " << Row.line << ")";
      OS << ", defined in superstep " << Row.defStep << ": ";
      printSavedRow(Row, Info.Saves[T][R], OS);
    }
  }
  return S;
}

const MacroExpansion *BSGPDocument::macroAt(const lsp::Position &Pos,
                                            SourceRange &NameRange) const {
  if (Pos.line < 0 || Pos.character < 0)
    return nullptr;
  unsigned Line = Pos.line + 1, Col = Pos.character + 1;
  // The tokens a macro use expands to are all placed at the use's name,
  // with the innermost expansion they come from; the use is the outermost.
  for (const PPTokenLoc &T : SM.getFile(MainFile).TokenLocs) {
    if (!T.Loc.Macro || T.Loc.File != MainFile || T.Loc.Line != Line ||
        T.Loc.Col > Col)
      continue;
    const MacroExpansion *E = &SM.getMacroExpansion(T.Loc.Macro);
    while (E->Parent)
      E = &SM.getMacroExpansion(E->Parent);
    if (Col >= T.Loc.Col + E->Name.size())
      continue;
    NameRange = SourceRange(T.Loc, T.Loc);
    NameRange.Begin.Macro = NameRange.End.Macro = 0;
    NameRange.End.Col += E->Name.size() - 1;
    return E;
  }
  return nullptr;
}

/// Where macro \p E is defined: the name in its `#define` line, found from
/// a token of its body (DefLoc); invalid for one defined on the command
/// line.
SourceRange BSGPDocument::macroNameRange(const MacroExpansion &E) {
  if (!E.DefLoc.isValid())
    return {};
  llvm::StringRef Text = SM.getLineText(E.DefLoc.File, E.DefLoc.Line);
  size_t Define = Text.find("define");
  size_t At = Define == llvm::StringRef::npos ? llvm::StringRef::npos
                                              : Text.find(E.Name, Define + 6);
  SourceLocation B = E.DefLoc;
  B.Macro = 0;
  B.Col = At == llvm::StringRef::npos ? 1 : At + 1;
  SourceLocation End = B;
  End.Col += At == llvm::StringRef::npos ? 0 : E.Name.size() - 1;
  return SourceRange(B, End);
}

std::optional<lsp::Hover> BSGPDocument::hover(const lsp::Position &Pos) {
  SourceRange Range;
  std::string Text;
  // A macro use: what it is defined as, rather than what it expanded to.
  if (const MacroExpansion *M = macroAt(Pos, Range)) {
    Text = "macro `" + M->Name + "`";
    if (SourceRange Def = macroNameRange(*M); Def.isValid()) {
      Text += "\n```c\n" +
              SM.getLineText(Def.Begin.File, Def.Begin.Line).trim().str() +
              "\n```";
      // -D macros are defined in the preprocessor's <built-in> buffer.
      if (SM.getFile(Def.Begin.File).IsVirtual)
        Text += "\n- defined on the command line (-D)";
    }
    lsp::Hover H(toRange(Range));
    H.contents.value = std::move(Text);
    return H;
  }
  const Occurrence *O = find(Pos);
  if (O) {
    Range = O->Range;
    if (O->Target) {
      Text = describe(O->Target);
    } else if (!O->E && O->Spawn) {
      Text = describeSpawn(O->Spawn);
    } else if (O->E) {
      Text = "expression: `" + typeString(O->E->getType()) + "`";
      if (O->Spawn)
        Text += "\n- in the spawn at line " +
                std::to_string(O->Spawn->getBeginLoc().Line);
    }
  } else if (const Decl *T = findTypeName(Pos, Range)) {
    Text = describe(T);
  }
  if (Text.empty())
    return std::nullopt;
  lsp::Hover H(toRange(Range));
  H.contents.value = std::move(Text);
  return H;
}

//===----------------------------------------------------------------------===//
// Definition and symbols
//===----------------------------------------------------------------------===//

std::optional<lsp::Location> BSGPDocument::locationOf(const Decl *D) {
  return locationOf(nameRange(D));
}

std::optional<lsp::Location> BSGPDocument::locationOf(SourceRange R) {
  if (!R.isValid())
    return std::nullopt;
  if (R.Begin.File == MainFile)
    return lsp::Location(URI, toRange(R));
  // An import or the collective library: a file on disk.
  llvm::Expected<lsp::URIForFile> File =
      lsp::URIForFile::fromFile(SM.getFileName(R.Begin.File));
  if (!File) {
    llvm::consumeError(File.takeError());
    return std::nullopt;
  }
  return lsp::Location(*File, toRange(R));
}

void BSGPDocument::definition(const lsp::Position &Pos,
                              std::vector<lsp::Location> &Locations) {
  SourceRange Use;
  if (const MacroExpansion *M = macroAt(Pos, Use)) {
    SourceRange Def = macroNameRange(*M);
    if (!Def.isValid() || SM.getFile(Def.Begin.File).IsVirtual)
      return;
    if (std::optional<lsp::Location> L = locationOf(Def))
      Locations.push_back(*L);
    return;
  }
  const Decl *Target = nullptr;
  if (const Occurrence *O = find(Pos))
    Target = O->Target;
  SourceRange Ignored;
  if (!Target)
    Target = findTypeName(Pos, Ignored);
  // A generic function's instantiation is defined where its template is.
  if (auto *F = llvm::dyn_cast_or_null<FunctionDecl>(Target))
    if (F->getInstantiatedFrom())
      Target = F->getInstantiatedFrom();
  if (Target)
    if (std::optional<lsp::Location> L = locationOf(Target))
      Locations.push_back(*L);
}

void BSGPDocument::symbols(std::vector<lsp::DocumentSymbol> &Symbols) {
  for (const TranslationUnit &TU : Ctx.getTranslationUnits()) {
    if (TU.FileId != MainFile)
      continue;
    for (const Decl *D : TU.Decls) {
      if (!D || D->getLoc().File != MainFile || D->getName().empty() ||
          llvm::isa<ImportDecl>(D))
        continue;
      SourceRange Whole = D->getRange();
      if (!Whole.isValid() || Whole.Begin.File != MainFile)
        Whole = nameRange(D);
      lsp::SymbolKind Kind = llvm::isa<StructDecl>(D) ? lsp::SymbolKind::Struct
                             : llvm::isa<VarDecl>(D) ? lsp::SymbolKind::Variable
                             : llvm::isa<TypedefDecl>(D)
                                 ? lsp::SymbolKind::TypeParameter
                                 : lsp::SymbolKind::Function;
      lsp::DocumentSymbol Sym(D->getName(), Kind, toRange(Whole),
                              toRange(nameRange(D)));
      if (auto *F = llvm::dyn_cast<FunctionDecl>(D)) {
        if (F->getFunctionType())
          Sym.detail = F->getFunctionType()->str();
        // The spawns of a host function, in order.
        unsigned N = 0;
        std::function<void(Stmt *)> Walk = [&](Stmt *S) {
          if (auto *Sp = llvm::dyn_cast<SpawnStmt>(S)) {
            if (Sp->getRange().Begin.File != MainFile)
              return;
            SourceRange Key(Sp->getBeginLoc(), Sp->getBeginLoc());
            Key.End.Col += 4;
            Sym.children.emplace_back("spawn " + llvm::Twine(N++),
                                      lsp::SymbolKind::Event,
                                      toRange(Sp->getRange()), toRange(Key));
            return;
          }
          forEachChild(S, Walk);
        };
        if (F->getBody())
          Walk(F->getBody());
      } else if (auto *S = llvm::dyn_cast<StructDecl>(D)) {
        for (const FieldDecl *F : S->getFields()) {
          if (!F || F->getLoc().File != MainFile)
            continue;
          lsp::DocumentSymbol Field(F->getName(), lsp::SymbolKind::Field,
                                    toRange(nameRange(F)),
                                    toRange(nameRange(F)));
          Field.detail = typeString(F->getType());
          Sym.children.push_back(std::move(Field));
        }
      } else if (auto *V = llvm::dyn_cast<VarDecl>(D)) {
        Sym.detail = typeString(V->getType());
      }
      Symbols.push_back(std::move(Sym));
    }
  }
}
