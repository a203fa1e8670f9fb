//===- Parser.cpp - BSGP recursive-descent parser -------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Translation units, the bound on a declaration's tree depth, and
/// ParseSession, which resolves imports and parses each file once. The parse
/// functions themselves are in ParseDecl.cpp, ParseStmt.cpp, ParseExpr.cpp
/// and ParseTemplate.cpp;
/// ParserImpl.h says how they report errors and bound their recursion.
///
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace bsgp;

//===----------------------------------------------------------------------===//
// Translation units
//===----------------------------------------------------------------------===//

bool Parser::checkTreeDepth(Decl *D) {
  Stmt *Root = nullptr;
  if (auto *F = llvm::dyn_cast<FunctionDecl>(D))
    Root = F->getBody();
  else if (auto *V = llvm::dyn_cast<VarDecl>(D))
    Root = V->getInit();
  if (!Root)
    return true;
  // Iterative walk: the tree may be deeper than the stack could recurse.
  // Operator chains (`a+a+...`, `x------`) are built by loops, not by
  // recursion, so the parser's own depth bound does not cover them.
  llvm::SmallVector<std::pair<Stmt *, unsigned>, 64> Work{{Root, 1}};
  while (!Work.empty()) {
    auto [S, Depth] = Work.pop_back_val();
    if (Depth > ParseSession::MaxTreeDepth) {
      Diags.report(SourceRange(S->getBeginLoc()), diag::err_nesting_too_deep)
          << ParseSession::MaxTreeDepth;
      return false;
    }
    forEachChild(S, [&, D = Depth](Stmt *C) { Work.push_back({C, D + 1}); });
  }
  return true;
}

TranslationUnit Parser::parseTranslationUnit() {
  llvm::SmallVector<Decl *, 16> Decls;
  while (Tok.isNot(tok::eof)) {
    const char *Before = Tok.Text.data();
    size_t NumBefore = Decls.size();
    parseTopLevel(Decls);
    // Drop declarations whose tree is too deep for the recursive passes
    // after the parser (Sema, the dumper, MLIRGen).
    for (size_t I = NumBefore; I < Decls.size(); ++I)
      if (!checkTreeDepth(Decls[I]))
        Decls.erase(Decls.begin() + I--);
    if (Tok.isNot(tok::eof) && Tok.Text.data() == Before)
      consume(); // Guarantee progress on garbage.
  }
  TranslationUnit TU;
  TU.FileId = FileId;
  TU.Decls = Ctx.copyArray<Decl *>(Decls);
  return TU;
}

//===----------------------------------------------------------------------===//
// ParseSession
//===----------------------------------------------------------------------===//

void ParseSession::parseMainFile(uint32_t FileId) {
  llvm::SmallString<256> Real;
  llvm::StringRef Name = Diags.getSourceManager().getFileName(FileId);
  if (!llvm::sys::fs::real_path(Name, Real))
    Loaded[Real] = FileId;
  parseFile(FileId);
}

void ParseSession::parseFile(uint32_t FileId) {
  // The library is large and has no directives; it is read as it is.
  if (Preprocess && !Ctx.isLibraryFile(FileId)) {
    preprocessFile(FileId, Diags, PPOpts);
    // A missing header: what follows would only add confusion.
    if (Diags.hasFatalError())
      return;
  }
  Parser P(*this, Ctx, Diags, FileId, Functions);
  Ctx.getTranslationUnits().push_back(P.parseTranslationUnit());
}

void ParseSession::importTemplateNames(uint32_t Into, uint32_t From) {
  auto It = TemplateNames.find(From);
  if (It == TemplateNames.end() || Into == From)
    return;
  // Copied, not referred to: the map may grow (and move its sets) below.
  std::vector<llvm::StringRef> Names;
  for (const auto &N : It->second)
    Names.push_back(N.getKey());
  llvm::StringSet<> &To = TemplateNames[Into];
  for (llvm::StringRef N : Names)
    To.insert(N);
}

uint32_t ParseSession::handleImport(ImportDecl *D, uint32_t FromFile) {
  if (!AllowImports) {
    Diags.report(D->getRange(), diag::err_import_disabled);
    return 0;
  }
  SourceManager &SM = Diags.getSourceManager();
  llvm::SmallVector<std::string, 4> Candidates;
  llvm::SmallString<256> Dir(SM.getFileName(FromFile));
  llvm::sys::path::remove_filename(Dir);
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, D->getName());
  Candidates.push_back(std::string(P));
  for (const std::string &I : IncludePaths) {
    llvm::SmallString<256> Q(I);
    llvm::sys::path::append(Q, D->getName());
    Candidates.push_back(std::string(Q));
  }
  for (const std::string &C : Candidates) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::is_directory(C) || llvm::sys::fs::real_path(C, Real))
      continue;
    auto It = Loaded.find(Real);
    if (It != Loaded.end()) {
      D->setImportedFile(It->second);
      importTemplateNames(FromFile, It->second);
      return It->second;
    }
    auto Buf = llvm::MemoryBuffer::getFile(C);
    if (!Buf)
      continue;
    uint32_t Id = SM.addBuffer(std::move(*Buf), C);
    Loaded[Real] = Id;
    D->setImportedFile(Id);
    if (++ImportDepth > MaxNestingDepth) {
      Diags.report(D->getRange(), diag::err_nesting_too_deep)
          << MaxNestingDepth;
    } else {
      parseFile(Id);
    }
    --ImportDepth;
    importTemplateNames(FromFile, Id);
    return Id;
  }
  Diags.report(D->getRange(), diag::err_import_not_found) << D->getName();
  return 0;
}
