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
/// is an ordinary FunctionDecl with the template's source locations. A
/// value parameter (`int N`) is a name with no value in the pattern and a
/// literal of its argument in an instantiation (parseValueParamRef); its
/// argument is a ValueType.
///
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"
#include "bsgp/AST/ASTContext.h"
#include "bsgp/AST/ConstantEval.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/SaveAndRestore.h"

#include <cstdint>
#include <tuple>

using namespace bsgp;

namespace {
/// Binds template parameter names for the duration of a parse, restoring
/// what the names meant before: a type parameter as a typedef of its
/// argument, a value parameter (ValueTypes[I] non-null) as that argument's
/// value, or as no value where the argument is not a ValueType (the
/// pattern's placeholders).
class TemplateParamScope {
public:
  TemplateParamScope(ParseSession &S, llvm::ArrayRef<llvm::StringRef> Names,
                     llvm::ArrayRef<const Type *> ValueTypes,
                     llvm::ArrayRef<const Type *> Args)
      : Typedefs(S.getTypedefs()), Values(S.getValueParams()) {
    for (size_t I = 0; I < Names.size(); ++I) {
      auto T = Typedefs.find(Names[I]);
      auto V = Values.find(Names[I]);
      Saved.push_back(
          {Names[I], T == Typedefs.end() ? nullptr : T->second,
           V == Values.end()
               ? std::nullopt
               : std::optional<ParseSession::ValueParam>(V->second)});
      Typedefs.erase(Names[I]);
      Values.erase(Names[I]);
      if (!ValueTypes[I]) {
        Typedefs[Names[I]] = Args[I];
        continue;
      }
      std::optional<int64_t> Value;
      // Sema checked that the argument is a value of the parameter's type,
      // so its pattern is that value's.
      if (auto *VT = llvm::dyn_cast<ValueType>(Args[I]))
        Value = static_cast<int64_t>(VT->getBits());
      Values[Names[I]] = {ValueTypes[I], Value};
    }
  }
  ~TemplateParamScope() {
    for (auto &[Name, T, V] : llvm::reverse(Saved)) {
      Typedefs.erase(Name);
      Values.erase(Name);
      if (T)
        Typedefs[Name] = T;
      if (V)
        Values[Name] = *V;
    }
  }

private:
  llvm::StringMap<const Type *> &Typedefs;
  llvm::StringMap<ParseSession::ValueParam> &Values;
  llvm::SmallVector<std::tuple<llvm::StringRef, const Type *,
                               std::optional<ParseSession::ValueParam>>,
                    2>
      Saved;
};
} // namespace

/// `template <typename T, typename U> function-definition`. `template` and
/// `typename` are contextual: `template` followed by `<` at the top level.
void Parser::parseTemplate(llvm::SmallVectorImpl<Decl *> &Out) {
  SourceLocation Begin = Tok.Loc;
  consume(); // template
  consume(); // <
  if (tryConsume(tok::greater))
    return parseExplicitSpecialization(Begin, Out);
  llvm::SmallVector<llvm::StringRef, 2> Names;
  llvm::SmallVector<const Type *, 2> ValueTypes;
  do {
    const Type *VT = nullptr;
    if (Tok.is(tok::identifier) &&
        (Tok.Text == "typename" || Tok.Text == "class")) {
      consume();
    } else if (isTypeStart(Tok)) {
      // A value parameter: `int N`, `uint64 Size`, `bool B`.
      SourceLocation TB = Tok.Loc;
      VT = parseTypeName();
      if (!VT)
        return skipToStmtEnd();
      if (VT->isConst() || !VT->isInteger()) {
        Diags.report(rangeFrom(TB), diag::err_template_value_param_type)
            << VT->str();
        return skipToStmtEnd();
      }
    } else {
      Diags.report(Tok.getRange(), diag::err_expected)
          << "'typename' or an integer type";
      return skipToStmtEnd();
    }
    if (Tok.isNot(tok::identifier)) {
      Diags.report(Tok.getRange(), diag::err_expected)
          << "a template parameter name";
      return skipToStmtEnd();
    }
    if (llvm::is_contained(Names, Tok.Text))
      Diags.report(Tok.getRange(), diag::err_redefinition) << Tok.Text;
    Names.push_back(Ctx.copyString(Tok.Text));
    ValueTypes.push_back(VT);
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
      Session.addTemplateName(FileId, Ctx.copyString(Prev.Text));
  }
  llvm::SmallVector<Decl *, 1> Inner;
  {
    TemplateParamScope Scope(Session, Names, ValueTypes, Placeholders);
    parseTopLevel(Inner);
  }
  if (Inner.empty())
    return; // The error is reported.
  auto *F =
      Inner.size() == 1 ? llvm::dyn_cast<FunctionDecl>(Inner[0]) : nullptr;
  // The collective library may declare a template without defining it,
  // for the steps it defines per type by explicit specializations alone
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
  Session.addTemplateName(FileId, F->getName());
  Out.push_back(new (Ctx) FunctionTemplateDecl(
      rangeFrom(Begin), F->getLoc(), F->getName(),
      Ctx.copyArray<llvm::StringRef>(Names),
      Ctx.copyArray<const Type *>(Placeholders),
      Ctx.copyArray<const Type *>(ValueTypes), F, FileId, Offset));
}

/// `template <> R f<A, B>(params) { ... }`: the definition of the
/// instantiation of template f for A, B (Sema checks that f is a template
/// and binds the function to it), as in C++.
void Parser::parseExplicitSpecialization(SourceLocation Begin,
                                         llvm::SmallVectorImpl<Decl *> &Out) {
  llvm::SmallVector<Decl *, 1> Inner;
  {
    llvm::SaveAndRestore Saved(InExplicitSpecialization, true);
    parseTopLevel(Inner);
  }
  if (Inner.empty())
    return; // The error is reported.
  auto *F =
      Inner.size() == 1 ? llvm::dyn_cast<FunctionDecl>(Inner[0]) : nullptr;
  if (!F || !F->isExplicitSpecialization() || !F->isDefinition()) {
    Diags.report(SourceRange(Begin, PrevEnd),
                 diag::err_explicit_specialization_form);
    return;
  }
  if (F->isExternC()) {
    Diags.report(SourceRange(F->getLoc()), diag::err_template_extern);
    return;
  }
  Out.push_back(F);
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
  if (!isTypeStart(Tok))
    return parseTemplateValueArg();
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

/// A value argument (`32`, `Tile / 4`, `false`): an integer constant
/// expression without `<`, `>` and the operators after them (in
/// parentheses they may appear), as in C++.
const Type *Parser::parseTemplateValueArg() {
  SourceLocation Begin = Tok.Loc;
  Expr *E = parseBinary(RelationalPrec + 1);
  if (!E)
    return nullptr;
  bool Dependent = false;
  ConstantEvaluator Eval = constantEvaluator(&Dependent);
  std::optional<IntConstant> V = Eval.evaluate(E);
  // In the pattern, a value depending on the template's own value
  // parameters is not known; the pattern is never checked.
  if (Dependent)
    return Ctx.getValueType(0, false);
  // An argument must be exact: C++ rejects one that overflowed.
  if (V && Eval.hasOverflow()) {
    Eval.reportOverflow(Diags, /*AsError=*/true);
    return nullptr;
  }
  if (!V) {
    Diags.report(rangeFrom(Begin), diag::err_template_arg_not_constant);
    Eval.reportFailure(Diags);
    return nullptr;
  }
  return Ctx.getValueType(V->getBits(), V->isNegative());
}

const Type *Parser::declaredTypeOf(const Expr *E) const {
  if (!E)
    return nullptr;
  if (E->getType())
    return E->getType();
  switch (E->getKind()) {
  case Stmt::SK_Paren:
    return declaredTypeOf(llvm::cast<ParenExpr>(E)->getSubExpr());
  case Stmt::SK_DeclRef: {
    llvm::StringRef Name = llvm::cast<DeclRefExpr>(E)->getName();
    for (const LocalName &L : llvm::reverse(LocalNames))
      if (L.first == Name)
        return L.second;
    auto It = GlobalTypes.find(Name);
    return It == GlobalTypes.end() ? nullptr : It->second;
  }
  case Stmt::SK_Index: {
    const Type *B = declaredTypeOf(llvm::cast<IndexExpr>(E)->getBase());
    B = B ? B->getUnqualified() : nullptr;
    if (auto *AT = llvm::dyn_cast_or_null<ArrayType>(B))
      return AT->getElementType();
    if (auto *PT = llvm::dyn_cast_or_null<PointerType>(B))
      return PT->getPointee();
    return nullptr;
  }
  case Stmt::SK_Unary: {
    auto *U = llvm::cast<UnaryOperator>(E);
    if (U->getOpcode() != UnaryOperator::Deref)
      return nullptr;
    const Type *B = declaredTypeOf(U->getSubExpr());
    auto *PT =
        llvm::dyn_cast_or_null<PointerType>(B ? B->getUnqualified() : nullptr);
    return PT ? PT->getPointee() : nullptr;
  }
  case Stmt::SK_Member: {
    auto *M = llvm::cast<MemberExpr>(E);
    const Type *B = declaredTypeOf(M->getBase());
    B = B ? B->getUnqualified() : nullptr;
    if (M->isArrow()) {
      auto *PT = llvm::dyn_cast_or_null<PointerType>(B);
      B = PT ? PT->getPointee()->getUnqualified() : nullptr;
    }
    auto *ST = llvm::dyn_cast_or_null<StructType>(B);
    if (!ST || !ST->getDecl())
      return nullptr;
    for (FieldDecl *F : ST->getDecl()->getFields())
      if (F->getName() == M->getMemberName())
        return F->getType();
    return nullptr;
  }
  case Stmt::SK_Cast:
    return llvm::cast<CastExpr>(E)->getWrittenType();
  default:
    return nullptr;
  }
}

ConstantEvaluator Parser::constantEvaluator(bool *Dependent) {
  ConstantEvaluator Eval(
      [this, Dependent](const DeclRefExpr *R) -> std::optional<IntConstant> {
        if (const ParseSession::ValueParam *P =
                Session.lookupValueParam(R->getName())) {
          if (!P->Value) {
            if (Dependent)
              *Dependent = true;
            return std::nullopt;
          }
          return IntConstant::get(*integerKind(P->Ty),
                                  static_cast<uint64_t>(*P->Value));
        }
        return Session.lookupConstant(R->getName());
      });
  Eval.setTypeOf([this](const Expr *E) { return declaredTypeOf(E); });
  return Eval;
}

/// A value parameter named in an instantiation: its argument as a literal
/// of the parameter's type (`4096`, `(uint64)4096UL`, `true`), so that it
/// folds wherever a literal does, array sizes included.
Expr *Parser::parseValueParamRef(const ParseSession::ValueParam &P) {
  SourceRange R = Tok.getRange();
  ++ValueParamUses;
  consume();
  int64_t V = *P.Value;
  if (P.Ty->isBool())
    return new (Ctx) BoolLiteral(R, V != 0);
  auto *B = llvm::cast<BuiltinType>(P.Ty->getUnqualified());
  if (B->getBuiltinKind() == BuiltinType::Int && V >= 0 && V <= INT32_MAX)
    return new (Ctx) IntegerLiteral(R, uint64_t(V), false, false);
  auto *L = new (Ctx) IntegerLiteral(R, uint64_t(V), true, true);
  return new (Ctx) CastExpr(R, P.Ty, L);
}

/// In an instantiation, a condition (of `if` or `?:`) that is a constant
/// expression of value parameters: its value, and the branch not taken is
/// dropped (as C++'s `if constexpr`), so that Sema neither checks it nor
/// instantiates what it calls.
std::optional<bool> Parser::decidedCondition(const Expr *C,
                                             unsigned UsesBefore) {
  if (ValueParamUses == UsesBefore)
    return std::nullopt;
  bool Dependent = false;
  ConstantEvaluator Eval = constantEvaluator(&Dependent);
  std::optional<IntConstant> V = Eval.evaluate(C);
  if (!V || Dependent)
    return std::nullopt;
  Eval.reportOverflow(Diags, /*AsError=*/false);
  return !V->isZero();
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
  TemplateParamScope Scope(*this, T->getParamNames(), T->getValueTypes(), Args);
  return parseFunctionAt(T->getFileId(), T->getOffset());
}
