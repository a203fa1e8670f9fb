//===- ParseTemplate.cpp - generic functions ------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Generic functions (docs/language.md, "Generic functions"): the template
/// header, explicit template arguments, and parsing a definition again for
/// an instantiation.
///
/// A template is read once with each parameter a typedef of a placeholder
/// type (a struct named `$T<file>.<offset>.<name>`, which no program can
/// name): that pattern is never checked; Sema deduces from its parameter
/// types and classifies calls by it. An instantiation parses the same
/// tokens again, the parameters now typedefs of the argument types, so it
/// is an ordinary FunctionDecl with the template's source locations.
///
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"
#include "bsgp/AST/ASTContext.h"

#include "llvm/ADT/STLExtras.h"

using namespace bsgp;

namespace {
/// Binds template parameter names as typedefs for the duration of a parse,
/// restoring what the names meant before.
class TemplateParamScope {
public:
  TemplateParamScope(llvm::StringMap<const Type *> &Typedefs,
                     llvm::ArrayRef<llvm::StringRef> Names,
                     llvm::ArrayRef<const Type *> Types)
      : Typedefs(Typedefs) {
    for (size_t I = 0; I < Names.size(); ++I) {
      auto It = Typedefs.find(Names[I]);
      Saved.push_back({Names[I], It == Typedefs.end() ? nullptr : It->second});
      Typedefs[Names[I]] = Types[I];
    }
  }
  ~TemplateParamScope() {
    for (auto &[Name, T] : llvm::reverse(Saved)) {
      if (T)
        Typedefs[Name] = T;
      else
        Typedefs.erase(Name);
    }
  }

private:
  llvm::StringMap<const Type *> &Typedefs;
  llvm::SmallVector<std::pair<llvm::StringRef, const Type *>, 2> Saved;
};
} // namespace

/// `template <typename T, typename U> function-definition`. `template` and
/// `typename` are contextual: `template` followed by `<` at the top level.
void Parser::parseTemplate(llvm::SmallVectorImpl<Decl *> &Out) {
  SourceLocation Begin = Tok.Loc;
  consume(); // template
  consume(); // <
  llvm::SmallVector<llvm::StringRef, 2> Names;
  do {
    if (Tok.isNot(tok::identifier) ||
        (Tok.Text != "typename" && Tok.Text != "class")) {
      Diags.report(Tok.getRange(), diag::err_expected) << "'typename'";
      skipToStmtEnd();
      return;
    }
    consume();
    if (Tok.isNot(tok::identifier)) {
      Diags.report(Tok.getRange(), diag::err_expected)
          << "a template parameter name";
      skipToStmtEnd();
      return;
    }
    if (llvm::is_contained(Names, Tok.Text))
      Diags.report(Tok.getRange(), diag::err_redefinition) << Tok.Text;
    Names.push_back(Ctx.copyString(Tok.Text));
    consume();
  } while (tryConsume(tok::comma));
  if (!expect(tok::greater)) {
    skipToStmtEnd();
    return;
  }
  llvm::StringRef Buf = Diags.getSourceManager().getLexBuffer(FileId);
  size_t Offset = Tok.Text.data() - Buf.data();
  llvm::SmallVector<const Type *, 2> Placeholders;
  for (llvm::StringRef N : Names)
    Placeholders.push_back(Ctx.getStructType(
        Ctx.copyString("$T" + std::to_string(FileId) + "." +
                       std::to_string(Offset) + "." + N.str())));
  // The function's name is a template name in its own body (`f<T *>(...)`):
  // it is the identifier before the first '('.
  {
    Lexer Ahead(FileId, Buf, Diags);
    Ahead.seek(Offset);
    Token Prev, T = Ahead.lex();
    // The library's `[[library(kind)]]` before the function.
    if (T.is(tok::l_square))
      while (T.isNot(tok::eof) &&
             !(Prev.is(tok::r_square) && T.is(tok::r_square))) {
        Prev = T;
        T = Ahead.lex();
      }
    if (T.is(tok::r_square))
      T = Ahead.lex();
    while (T.isNot(tok::eof) && T.isNot(tok::l_paren) &&
           T.isNot(tok::l_brace) && T.isNot(tok::semi)) {
      Prev = T;
      T = Ahead.lex();
    }
    if (T.is(tok::l_paren) && Prev.is(tok::identifier))
      Session.addTemplateName(Ctx.copyString(Prev.Text));
  }
  llvm::SmallVector<Decl *, 1> Inner;
  {
    TemplateParamScope Scope(Session.getTypedefs(), Names, Placeholders);
    parseTopLevel(Inner);
  }
  if (Inner.empty())
    return; // The error is reported.
  auto *F =
      Inner.size() == 1 ? llvm::dyn_cast<FunctionDecl>(Inner[0]) : nullptr;
  // The collective library may declare a template without defining it,
  // for the functions it defines per type under the instantiations' names
  // (docs/collectives.md).
  if (!F || (!F->isDefinition() && !Ctx.isLibraryFile(FileId))) {
    Diags.report(SourceRange(Begin, PrevEnd), diag::err_template_not_function);
    return;
  }
  if (F->isDefinition() && !checkTreeDepth(F))
    return;
  if (F->isExternC() || F->isVarargs()) {
    Diags.report(SourceRange(F->getLoc()), diag::err_template_extern);
    return;
  }
  Session.addTemplateName(F->getName());
  Out.push_back(new (Ctx) FunctionTemplateDecl(
      rangeFrom(Begin), F->getLoc(), F->getName(),
      Ctx.copyArray<llvm::StringRef>(Names),
      Ctx.copyArray<const Type *>(Placeholders), F, FileId, Offset));
}

/// `f<int, float *>`, f being a template declared before: a reference with
/// explicit template arguments.
Expr *Parser::parseTemplateRef() {
  Token Name = Tok;
  consume(); // name
  consume(); // <
  llvm::SmallVector<const Type *, 2> Args;
  do {
    const Type *T = parseTemplateArg();
    if (!T)
      return nullptr;
    Args.push_back(T);
  } while (tryConsume(tok::comma));
  if (!expect(tok::greater, "'>' after the template arguments"))
    return nullptr;
  auto *R =
      new (Ctx) DeclRefExpr(rangeFrom(Name.Loc), Ctx.copyString(Name.Text));
  R->setTemplateArgs(Ctx.copyArray<const Type *>(Args));
  return R;
}

const Type *Parser::parseTemplateArg() {
  if (Next.is(tok::comma) || Next.is(tok::greater)) {
    llvm::StringRef S = Tok.Text;
    if (Tok.is(tok::plus) || Tok.is(tok::star) || Tok.is(tok::amp) ||
        Tok.is(tok::pipe) || Tok.is(tok::caret) ||
        (Tok.is(tok::identifier) && (S == "min" || S == "max"))) {
      consume();
      return Ctx.getOperatorType(S);
    }
  }
  // A template parameter bound to an operator, given on as it is: not
  // const, not a pointer (an operator has no values to point to).
  Token Start = Tok, Name = Start.is(tok::kw_const) ? Next : Tok;
  bool Saved = AllowOperatorType;
  AllowOperatorType = true;
  const Type *T = parseBaseType();
  AllowOperatorType = Saved;
  if (!T)
    return nullptr;
  if (auto *OT = llvm::dyn_cast<OperatorType>(T->getUnqualified())) {
    if (T->isConst() || Tok.is(tok::star)) {
      Diags.report(SourceRange(Start.Loc, PrevEnd), diag::err_operator_type_use)
          << Name.Text << OT->getSpelling();
      return nullptr;
    }
    return T;
  }
  return parsePointers(T);
}

FunctionDecl *Parser::parseFunctionOnly() {
  llvm::SmallVector<Decl *, 1> Out;
  parseTopLevel(Out);
  if (Out.size() != 1)
    return nullptr;
  auto *F = llvm::dyn_cast<FunctionDecl>(Out[0]);
  if (!F || !F->isDefinition() || !checkTreeDepth(F))
    return nullptr;
  return F;
}

ParseSession::ParseSession(ASTContext &Ctx, DiagnosticEngine &Diags)
    : Ctx(Ctx), Diags(Diags) {
  Ctx.setTemplateParser(
      [this](FunctionTemplateDecl *T, llvm::ArrayRef<const Type *> Args) {
        return instantiateTemplate(T, Args);
      });
}

ParseSession::~ParseSession() { Ctx.setTemplateParser(nullptr); }

FunctionDecl *ParseSession::parseFunctionAt(uint32_t FileId, size_t Offset) {
  Parser P(*this, Ctx, Diags, FileId, Functions, Offset);
  return P.parseFunctionOnly();
}

FunctionDecl *
ParseSession::instantiateTemplate(FunctionTemplateDecl *T,
                                  llvm::ArrayRef<const Type *> Args) {
  TemplateParamScope Scope(Typedefs, T->getParamNames(), Args);
  return parseFunctionAt(T->getFileId(), T->getOffset());
}
