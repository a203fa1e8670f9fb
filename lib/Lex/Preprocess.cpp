//===- Preprocess.cpp - the C preprocessor, through Clang -----------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs clang::Preprocessor (a CompilerInstance for C) over a BSGP file and
/// hands its tokens to the BSGP lexer as a new buffer, one token after the
/// other, with the place each was written. The lexer, the parser and the
/// re-parsing of generic functions keep working on offsets of one buffer;
/// only Lexer::locAt looks the offsets up (SourceManager::TokenLocs).
///
/// Clang's locations are turned into BSGP ones here: every file clang reads
/// becomes a SourceManager file (its text, for the caret line, and the
/// location of its #include), and a token from a macro body is placed at
/// the macro's use, with a MacroExpansion chain for the "expanded from
/// macro" notes.
///
//===----------------------------------------------------------------------===//

#include "bsgp/Lex/Preprocess.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/LangStandard.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/PreprocessorOutputOptions.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"

using namespace bsgp;

namespace {

/// Turns clang's locations into BSGP ones, adding the files and macro
/// expansions it meets to the BSGP SourceManager.
class LocationMapper {
public:
  LocationMapper(SourceManager &SM, uint32_t MainId) : SM(SM), MainId(MainId) {}

  void setClang(const clang::SourceManager &CSM, const clang::LangOptions &LO) {
    this->CSM = &CSM;
    this->LO = &LO;
  }

  /// The BSGP file of clang file \p FID, added on first use.
  uint32_t fileFor(clang::FileID FID);
  /// A location in a file (not in a macro).
  SourceLocation mapFileLoc(clang::SourceLocation L);
  /// Any location: a token of a macro body goes to the macro's use (or, for
  /// a macro argument, to where the argument was written), with the chain
  /// of macros it came through.
  SourceLocation mapLoc(clang::SourceLocation L);

private:
  SourceManager &SM;
  uint32_t MainId;
  const clang::SourceManager *CSM = nullptr;
  const clang::LangOptions *LO = nullptr;
  llvm::DenseMap<clang::FileID, uint32_t> Files;
  llvm::DenseMap<clang::SourceLocation::UIntTy, uint32_t> Macros;
};

} // namespace

uint32_t LocationMapper::fileFor(clang::FileID FID) {
  if (FID == CSM->getMainFileID())
    return MainId;
  auto It = Files.find(FID);
  if (It != Files.end())
    return It->second;
  clang::OptionalFileEntryRef FE = CSM->getFileEntryRefForID(FID);
  std::string Name = FE ? FE->getName().str()
                        : CSM->getBufferOrFake(FID).getBufferIdentifier().str();
  // A header read by several files (or again by an import) is one file.
  uint32_t Id = SM.findFile(Name);
  if (!Id) {
    SourceLocation IncludeLoc;
    clang::SourceLocation Inc = CSM->getIncludeLoc(FID);
    if (Inc.isValid())
      IncludeLoc = mapFileLoc(Inc);
    Id = SM.addBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(CSM->getBufferData(FID), Name),
        Name);
    SourceManager::File &F = SM.getFileMutable(Id);
    F.IncludeLoc = IncludeLoc;
    F.IsVirtual = !FE;
  }
  Files[FID] = Id;
  return Id;
}

SourceLocation LocationMapper::mapFileLoc(clang::SourceLocation L) {
  if (L.isInvalid())
    return {};
  L = CSM->getFileLoc(L);
  auto [FID, Offset] = CSM->getDecomposedLoc(L);
  return SourceLocation{fileFor(FID), CSM->getLineNumber(FID, Offset),
                        CSM->getColumnNumber(FID, Offset)};
}

SourceLocation LocationMapper::mapLoc(clang::SourceLocation L) {
  if (L.isFileID() || L.isInvalid())
    return mapFileLoc(L);
  // Innermost first: each level is a macro body the token was written in.
  llvm::SmallVector<clang::SourceLocation, 4> Levels;
  while (L.isMacroID() && Levels.size() < 64) {
    if (CSM->isMacroArgExpansion(L)) {
      L = CSM->getImmediateSpellingLoc(L);
      continue;
    }
    Levels.push_back(L);
    L = CSM->getImmediateExpansionRange(L).getBegin();
  }
  SourceLocation Use = mapFileLoc(L);
  uint32_t Parent = 0;
  for (clang::SourceLocation Level : llvm::reverse(Levels)) {
    uint32_t &Id = Macros[Level.getRawEncoding()];
    if (!Id) {
      MacroExpansion E;
      E.Name = clang::Lexer::getImmediateMacroName(Level, *CSM, *LO).str();
      E.DefLoc = mapFileLoc(CSM->getSpellingLoc(Level));
      E.Parent = Parent;
      Id = SM.addMacroExpansion(std::move(E));
    }
    Parent = Id;
  }
  Use.Macro = Parent;
  return Use;
}

namespace {

/// Reports clang's diagnostics through the BSGP engine, at BSGP locations.
class DiagForwarder : public clang::DiagnosticConsumer {
public:
  DiagForwarder(DiagnosticEngine &Diags, LocationMapper &Map)
      : Diags(Diags), Map(Map) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
    diag::Kind K;
    switch (Level) {
    case clang::DiagnosticsEngine::Ignored:
    case clang::DiagnosticsEngine::Remark:
      return;
    case clang::DiagnosticsEngine::Note:
      K = diag::note_pp;
      break;
    case clang::DiagnosticsEngine::Warning:
      K = diag::warn_pp;
      break;
    case clang::DiagnosticsEngine::Error:
      K = diag::err_pp;
      break;
    case clang::DiagnosticsEngine::Fatal:
      K = diag::fatal_pp;
      break;
    }
    llvm::SmallString<128> Msg;
    Info.FormatDiagnostic(Msg);
    if (Level == clang::DiagnosticsEngine::Warning) {
      llvm::StringRef Flag =
          Info.getDiags()->getDiagnosticIDs()->getWarningOptionForDiag(
              Info.getID());
      if (!Flag.empty())
        Msg += (" [-W" + Flag + "]").str();
    }
    SourceRange R;
    if (Info.getLocation().isValid() && Info.hasSourceManager())
      R = SourceRange(Map.mapLoc(Info.getLocation()));
    Diags.report(R, K) << Msg.str();
  }

private:
  DiagnosticEngine &Diags;
  LocationMapper &Map;
};

/// Adds every header to the SourceManager as it is entered, so that -MD
/// lists the headers that produced no token too.
class FileTracker : public clang::PPCallbacks {
public:
  FileTracker(const clang::SourceManager &CSM, LocationMapper &Map)
      : CSM(CSM), Map(Map) {}

  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override {
    if (Reason != EnterFile || Loc.isInvalid())
      return;
    clang::FileID FID = CSM.getFileID(Loc);
    if (CSM.getFileEntryRefForID(FID))
      Map.fileFor(FID);
  }

private:
  const clang::SourceManager &CSM;
  LocationMapper &Map;
};

/// A CompilerInstance set up to preprocess one BSGP file as C.
class ClangSession {
public:
  ClangSession(uint32_t FileId, DiagnosticEngine &Diags,
               const PreprocessorOptions &Opts);

  /// False if the preprocessor could not be made (reported).
  bool ok() const { return PP != nullptr; }
  clang::Preprocessor &getPreprocessor() { return *PP; }
  LocationMapper &getMapper() { return Map; }

private:
  void setOptions(const PreprocessorOptions &Opts);

  LocationMapper Map;
  DiagForwarder Forwarder;
  clang::CompilerInstance CI;
  clang::Preprocessor *PP = nullptr;
};

} // namespace

void ClangSession::setOptions(const PreprocessorOptions &Opts) {
  clang::CompilerInvocation &Inv = CI.getInvocation();
  llvm::Triple T(llvm::sys::getDefaultTargetTriple());
  std::vector<std::string> Includes;
  clang::LangOptions &LO = Inv.getLangOpts();
  clang::LangOptions::setLangDefaults(LO, clang::Language::C, T, Includes,
                                      clang::LangStandard::lang_gnu11);
  // BSGP has none of these: `<:` or `%:` must stay two tokens, and `$` is
  // not part of a name.
  LO.Digraphs = false;
  LO.Trigraphs = false;
  LO.DollarIdents = false;
  Inv.getTargetOpts().Triple = T.str();

  clang::HeaderSearchOptions &HS = Inv.getHeaderSearchOpts();
  HS.UseBuiltinIncludes = false;
  HS.UseStandardSystemIncludes = false;
  HS.UseStandardCXXIncludes = false;
  for (const std::string &Dir : Opts.IncludePaths)
    HS.AddPath(Dir, clang::frontend::Angled, /*IsFramework=*/false,
               /*IgnoreSysRoot=*/true);
  for (const std::string &Dir : Opts.SystemIncludePaths)
    HS.AddPath(Dir, clang::frontend::System, false, true);

  // None of the host's predefined macros (__x86_64__, __STDC__...): the
  // program is BSGP, whatever the machine that compiles it.
  clang::PreprocessorOptions &PO = Inv.getPreprocessorOpts();
  PO.UsePredefines = false;
  PO.addMacroDef("__BSGP__=1");
  for (const auto &[Macro, Undef] : Opts.Macros) {
    if (Undef)
      PO.addMacroUndef(Macro);
    else
      PO.addMacroDef(Macro);
  }
}

ClangSession::ClangSession(uint32_t FileId, DiagnosticEngine &Diags,
                           const PreprocessorOptions &Opts)
    : Map(Diags.getSourceManager(), FileId), Forwarder(Diags, Map) {
  setOptions(Opts);
  CI.createVirtualFileSystem();
  CI.createDiagnostics(&Forwarder, /*ShouldOwnClient=*/false);
  // An unterminated string or character literal reaches the BSGP lexer,
  // which reports it as an error, as it does in a file it reads itself.
  CI.getDiagnostics().setSeverityForGroup(clang::diag::Flavor::WarningOrError,
                                          "invalid-pp-token",
                                          clang::diag::Severity::Ignored);
  if (!CI.createTarget())
    return;
  CI.createFileManager();
  CI.createSourceManager();
  clang::SourceManager &CSM = CI.getSourceManager();
  // The main file is read from the BSGP SourceManager's buffer (it may be
  // stdin), under its name, so that "..." includes start from its directory.
  SourceManager &SM = Diags.getSourceManager();
  llvm::StringRef Name = SM.getFileName(FileId);
  llvm::StringRef Text = SM.getBuffer(FileId);
  clang::FileEntryRef FE =
      CI.getFileManager().getVirtualFileRef(Name, Text.size(), 0);
  CSM.overrideFileContents(FE, llvm::MemoryBufferRef(Text, Name));
  CSM.setMainFileID(
      CSM.createFileID(FE, clang::SourceLocation(), clang::SrcMgr::C_User));
  CI.createPreprocessor(clang::TU_Complete);
  PP = &CI.getPreprocessor();
  Map.setClang(CSM, CI.getLangOpts());
  PP->addPPCallbacks(std::make_unique<FileTracker>(CSM, Map));
}

/// Whether the preprocessor could change anything in \p Text: without a
/// directive, a line splice, a predefined macro (all start with "__") or a
/// -D, it hands the tokens on as they are written.
static bool needsPreprocessing(llvm::StringRef Text,
                               const PreprocessorOptions &Opts) {
  return !Opts.Macros.empty() || Text.contains('#') || Text.contains("__") ||
         Text.contains("\\\n") || Text.contains("\\\r\n");
}

bool bsgp::preprocessFile(uint32_t FileId, DiagnosticEngine &Diags,
                          const PreprocessorOptions &Opts) {
  SourceManager &SM = Diags.getSourceManager();
  if (!needsPreprocessing(SM.getBuffer(FileId), Opts))
    return true;
  unsigned ErrorsBefore = Diags.getNumErrors();
  ClangSession S(FileId, Diags, Opts);
  if (!S.ok())
    return false;
  clang::Preprocessor &PP = S.getPreprocessor();
  LocationMapper &Map = S.getMapper();
  std::string Out;
  std::vector<PPTokenLoc> Locs;
  llvm::SmallString<64> Scratch;
  clang::Token Tok;
  PP.EnterMainSourceFile();
  for (PP.Lex(Tok); Tok.isNot(clang::tok::eof); PP.Lex(Tok)) {
    if (Tok.isAnnotation())
      continue;
    // Tokens keep their lines, and a space apart within one, so that the
    // BSGP lexer sees each on its own even when a macro glued them.
    if (!Out.empty())
      Out += Tok.isAtStartOfLine() ? '\n' : ' ';
    llvm::StringRef Spelling = PP.getSpelling(Tok, Scratch);
    Locs.push_back({uint32_t(Out.size()), uint32_t(Spelling.size()),
                    Map.mapLoc(Tok.getLocation())});
    Out += Spelling;
  }
  Out += '\n';
  // The end of the main file, where "expected '}'" and the like point: as
  // the lexer places it in a file it reads itself, after the last character
  // (clang puts its eof on the last newline).
  llvm::StringRef Text = SM.getBuffer(FileId);
  size_t LastLine = Text.rfind('\n') + 1; // npos + 1 == 0
  SourceLocation End{FileId, uint32_t(Text.count('\n') + 1),
                     uint32_t(Text.size() - LastLine + 1)};
  Locs.push_back({uint32_t(Out.size()), 0, End});
  SourceManager::File &F = SM.getFileMutable(FileId);
  F.Preprocessed = llvm::MemoryBuffer::getMemBufferCopy(Out, F.Name);
  F.TokenLocs = std::move(Locs);
  return Diags.getNumErrors() == ErrorsBefore;
}

bool bsgp::printPreprocessed(uint32_t FileId, DiagnosticEngine &Diags,
                             const PreprocessorOptions &Opts,
                             llvm::raw_ostream &OS) {
  unsigned ErrorsBefore = Diags.getNumErrors();
  ClangSession S(FileId, Diags, Opts);
  if (!S.ok())
    return false;
  clang::PreprocessorOutputOptions POpts;
  POpts.ShowCPP = 1;
  POpts.ShowLineMarkers = 1;
  clang::DoPrintPreprocessedInput(S.getPreprocessor(), &OS, POpts);
  return Diags.getNumErrors() == ErrorsBefore;
}

std::string bsgp::findResourceIncludeDir(const char *Argv0, void *MainAddr) {
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, MainAddr);
  if (Exe.empty())
    return "";
  llvm::SmallString<256> Dir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Dir, "lib", "bsgp", "include");
  llvm::SmallString<256> Header(Dir);
  llvm::sys::path::append(Header, "bsgp.h");
  if (!llvm::sys::fs::exists(Header))
    return "";
  return std::string(Dir);
}
