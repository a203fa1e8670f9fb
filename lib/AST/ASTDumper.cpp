//===- ASTDumper.cpp - textual dump of the AST ----------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/AST/ASTDumper.h"
#include "bsgp/AST/ASTContext.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"

#include <functional>

using namespace bsgp;

namespace {

/// One child of a node: either a Decl or a Stmt, or a synthetic line with
/// children of its own (used for "implicit" groups).
struct Child {
  const Decl *D = nullptr;
  const Stmt *S = nullptr;
  std::string Label;
};

class Dumper {
public:
  Dumper(SourceManager &SM, llvm::raw_ostream &OS) : SM(SM), OS(OS) {}

  void dumpDecl(const Decl *D);
  void dumpStmt(const Stmt *S);
  void dumpTopLevel(llvm::ArrayRef<Decl *> Decls);

private:
  void printRange(SourceRange R) {
    OS << " <" << R.Begin.Line << ':' << R.Begin.Col << ", " << R.End.Line
       << ':' << R.End.Col << '>';
  }
  void printType(const Type *T) {
    OS << " '" << (T ? T->str() : std::string("<unresolved>")) << '\'';
  }
  void children(llvm::ArrayRef<Child> Kids);
  void head(const Stmt *S, const char *Name);
  void exprTail(const Expr *E);
  void implicitDecls(llvm::SmallVectorImpl<Child> &Kids,
                     llvm::ArrayRef<VarDecl *> Ds);
  bool dumpStatementHead(const Stmt *S, llvm::SmallVectorImpl<Child> &Kids);
  bool dumpOperandHead(const Stmt *S, llvm::SmallVectorImpl<Child> &Kids);
  bool dumpOtherExprHead(const Stmt *S, llvm::SmallVectorImpl<Child> &Kids);
  void child(const Child &C) {
    if (C.D)
      dumpDecl(C.D);
    else if (C.S)
      dumpStmt(C.S);
    else
      OS << "<<<NULL>>>\n";
  }

  SourceManager &SM;
  llvm::raw_ostream &OS;
  std::string Prefix;
};

static Child decl(const Decl *D) {
  Child C;
  C.D = D;
  return C;
}
static Child stmt(const Stmt *S) {
  Child C;
  C.S = S;
  if (!S)
    C.Label = "<<<NULL>>>";
  return C;
}

} // namespace

void Dumper::children(llvm::ArrayRef<Child> Kids) {
  for (size_t I = 0; I < Kids.size(); ++I) {
    bool Last = I + 1 == Kids.size();
    OS << Prefix << (Last ? "`-" : "|-");
    std::string Saved = Prefix;
    Prefix += Last ? "  " : "| ";
    if (!Kids[I].Label.empty() && !Kids[I].D && !Kids[I].S)
      OS << Kids[I].Label << '\n';
    else
      child(Kids[I]);
    Prefix = Saved;
  }
}

void Dumper::dumpDecl(const Decl *D) {
  llvm::SmallVector<Child, 8> Kids;
  switch (D->getKind()) {
  case Decl::DK_Var: {
    auto *V = llvm::cast<VarDecl>(D);
    OS << (V->getStorage() == VarDecl::Param ? "ParmVarDecl" : "VarDecl");
    printRange(D->getRange());
    OS << ' ' << D->getName();
    printType(V->getType());
    if (V->isAuto())
      OS << " auto";
    if (V->isImplicit())
      OS << " implicit";
    if (V->getStorage() == VarDecl::Global)
      OS << " global";
    else if (V->getStorage() == VarDecl::Local)
      OS << (V->isHost() ? " host" : " thread-local");
    if (V->isRequireDecl())
      OS << " require";
    if (V->isGroupLocal())
      OS << " group-local";
    OS << '\n';
    if (V->getInit() && !V->isImplicit())
      Kids.push_back(stmt(V->getInit()));
    break;
  }
  case Decl::DK_Function: {
    auto *F = llvm::cast<FunctionDecl>(D);
    OS << "FunctionDecl";
    printRange(D->getRange());
    OS << ' ' << D->getName();
    if (F->getFunctionType())
      printType(F->getFunctionType());
    if (F->isExternC())
      OS << " extern_c";
    if (F->isInline())
      OS << " inline";
    if (!F->getWrittenReturnType())
      OS << " implicit_void";
    switch (F->getFunctionKind()) {
    case FunctionDecl::FK_Host:
      OS << " host";
      break;
    case FunctionDecl::FK_Collective:
      OS << " collective";
      break;
    case FunctionDecl::FK_Device:
      OS << " device";
      break;
    }
    if (F->getInstantiatedFrom()) {
      OS << " instantiation <";
      llvm::interleave(
          F->getTemplateArgs(), OS, [&](const Type *T) { OS << T->str(); },
          ", ");
      OS << '>';
    }
    OS << '\n';
    for (VarDecl *P : F->getParams())
      Kids.push_back(decl(P));
    if (F->getBody())
      Kids.push_back(stmt(F->getBody()));
    break;
  }
  case Decl::DK_Struct: {
    auto *S = llvm::cast<StructDecl>(D);
    OS << "StructDecl";
    printRange(D->getRange());
    OS << ' ' << D->getName() << '\n';
    for (FieldDecl *F : S->getFields())
      Kids.push_back(decl(F));
    break;
  }
  case Decl::DK_Field:
    OS << "FieldDecl";
    printRange(D->getRange());
    OS << ' ' << D->getName();
    printType(llvm::cast<FieldDecl>(D)->getType());
    OS << '\n';
    break;
  case Decl::DK_Typedef:
    OS << "TypedefDecl";
    printRange(D->getRange());
    OS << ' ' << D->getName();
    printType(llvm::cast<TypedefDecl>(D)->getUnderlyingType());
    OS << '\n';
    break;
  case Decl::DK_FunctionTemplate: {
    auto *T = llvm::cast<FunctionTemplateDecl>(D);
    OS << "FunctionTemplateDecl";
    printRange(D->getRange());
    OS << ' ' << D->getName() << " <";
    llvm::interleave(T->getParamNames(), OS, ", ");
    OS << ">\n";
    break;
  }
  case Decl::DK_Import: {
    auto *I = llvm::cast<ImportDecl>(D);
    OS << "ImportDecl";
    printRange(D->getRange());
    OS << " \"" << D->getName() << '"';
    if (I->getImportedFile())
      OS << " -> '" << SM.getFileName(I->getImportedFile()) << '\'';
    OS << '\n';
    break;
  }
  }
  children(Kids);
}

static void printEscaped(llvm::raw_ostream &OS, llvm::StringRef S) {
  for (unsigned char C : S) {
    if (C == '\\' || C == '"')
      OS << '\\' << C;
    else if (C == '\n')
      OS << "\\n";
    else if (C == '\t')
      OS << "\\t";
    else if (C < 0x20 || C >= 0x7f)
      OS << "\\x" << llvm::format_hex_no_prefix(C, 2);
    else
      OS << C;
  }
}

void Dumper::head(const Stmt *S, const char *Name) {
  OS << Name;
  printRange(S->getRange());
}

void Dumper::exprTail(const Expr *E) {
  printType(E->getType());
  if (E->isLValue())
    OS << " lvalue";
}

void Dumper::implicitDecls(llvm::SmallVectorImpl<Child> &Kids,
                           llvm::ArrayRef<VarDecl *> Ds) {
  for (VarDecl *V : Ds)
    Kids.push_back(decl(V));
}

/// Prints the line of a statement that is not an expression and collects
/// its children; false for an expression.
bool Dumper::dumpStatementHead(const Stmt *S,
                               llvm::SmallVectorImpl<Child> &Kids) {
  switch (S->getKind()) {
  case Stmt::SK_Compound: {
    auto *C = llvm::cast<CompoundStmt>(S);
    head(S, "CompoundStmt");
    implicitDecls(Kids, C->getImplicitDecls());
    for (Stmt *X : C->body())
      Kids.push_back(stmt(X));
    break;
  }
  case Stmt::SK_Decl:
    head(S, "DeclStmt");
    for (VarDecl *V : llvm::cast<DeclStmt>(S)->decls())
      Kids.push_back(decl(V));
    break;
  case Stmt::SK_Expr:
    head(S, "ExprStmt");
    Kids.push_back(stmt(llvm::cast<ExprStmt>(S)->getExpr()));
    break;
  case Stmt::SK_Null:
    head(S, "NullStmt");
    break;
  case Stmt::SK_If: {
    auto *I = llvm::cast<IfStmt>(S);
    head(S, "IfStmt");
    if (I->getElse())
      OS << " has_else";
    Kids.push_back(stmt(I->getCond()));
    Kids.push_back(stmt(I->getThen()));
    if (I->getElse())
      Kids.push_back(stmt(I->getElse()));
    break;
  }
  case Stmt::SK_For: {
    auto *F = llvm::cast<ForStmt>(S);
    head(S, "ForStmt");
    implicitDecls(Kids, F->getImplicitDecls());
    Kids.push_back(stmt(F->getInit()));
    Kids.push_back(stmt(F->getCond()));
    Kids.push_back(stmt(F->getInc()));
    Kids.push_back(stmt(F->getBody()));
    break;
  }
  case Stmt::SK_While: {
    auto *W = llvm::cast<WhileStmt>(S);
    head(S, "WhileStmt");
    Kids.push_back(stmt(W->getCond()));
    Kids.push_back(stmt(W->getBody()));
    break;
  }
  case Stmt::SK_Do: {
    auto *D = llvm::cast<DoStmt>(S);
    head(S, "DoStmt");
    Kids.push_back(stmt(D->getBody()));
    Kids.push_back(stmt(D->getCond()));
    break;
  }
  case Stmt::SK_Break:
    head(S, "BreakStmt");
    break;
  case Stmt::SK_Continue:
    head(S, "ContinueStmt");
    break;
  case Stmt::SK_Return:
    head(S, "ReturnStmt");
    if (auto *V = llvm::cast<ReturnStmt>(S)->getValue())
      Kids.push_back(stmt(V));
    break;
  case Stmt::SK_Spawn: {
    auto *Sp = llvm::cast<SpawnStmt>(S);
    head(S, "SpawnStmt");
    for (Expr *E : Sp->getExtents())
      Kids.push_back(stmt(E));
    Kids.push_back(stmt(Sp->getBody()));
    break;
  }
  case Stmt::SK_Barrier:
    head(S, "BarrierStmt");
    if (llvm::cast<BarrierStmt>(S)->isRankReassigned())
      OS << " RANK_REASSIGNED";
    break;
  case Stmt::SK_Require:
    head(S, "RequireStmt");
    Kids.push_back(stmt(llvm::cast<RequireStmt>(S)->getBody()));
    break;
  case Stmt::SK_Delete:
    head(S, "DeleteStmt");
    Kids.push_back(stmt(llvm::cast<DeleteStmt>(S)->getList()));
    break;
  case Stmt::SK_Par:
    head(S, "ParStmt");
    Kids.push_back(stmt(llvm::cast<ParStmt>(S)->getBody()));
    break;
  default:
    return false;
  }
  return true;
}

/// Prints the line of a literal, a name, a thread attribute, a target
/// query or an operator and collects its children; false for other nodes.
bool Dumper::dumpOperandHead(const Stmt *S,
                             llvm::SmallVectorImpl<Child> &Kids) {
  switch (S->getKind()) {
  case Stmt::SK_IntegerLiteral: {
    auto *L = llvm::cast<IntegerLiteral>(S);
    head(S, "IntegerLiteral");
    exprTail(llvm::cast<Expr>(S));
    OS << ' ' << L->getValue();
    break;
  }
  case Stmt::SK_FloatingLiteral: {
    auto *L = llvm::cast<FloatingLiteral>(S);
    head(S, "FloatingLiteral");
    exprTail(llvm::cast<Expr>(S));
    OS << ' ' << L->getValue();
    break;
  }
  case Stmt::SK_BoolLiteral:
    head(S, "BoolLiteral");
    exprTail(llvm::cast<Expr>(S));
    OS << (llvm::cast<BoolLiteral>(S)->getValue() ? " true" : " false");
    break;
  case Stmt::SK_CharLiteral:
    head(S, "CharLiteral");
    exprTail(llvm::cast<Expr>(S));
    OS << ' ' << unsigned(llvm::cast<CharLiteral>(S)->getValue());
    break;
  case Stmt::SK_StringLiteral:
    head(S, "StringLiteral");
    exprTail(llvm::cast<Expr>(S));
    OS << " \"";
    printEscaped(OS, llvm::cast<StringLiteral>(S)->getValue());
    OS << '"';
    break;
  case Stmt::SK_NullLiteral:
    head(S, "NullLiteral");
    exprTail(llvm::cast<Expr>(S));
    break;
  case Stmt::SK_DeclRef: {
    auto *R = llvm::cast<DeclRefExpr>(S);
    head(S, "DeclRefExpr");
    exprTail(llvm::cast<Expr>(S));
    OS << ' ';
    if (auto *D = R->getDecl()) {
      if (llvm::isa<FunctionDecl>(D))
        OS << "Function";
      else if (auto *V = llvm::dyn_cast<VarDecl>(D))
        OS << (V->getStorage() == VarDecl::Param ? "ParmVar" : "Var");
      OS << " '" << D->getName() << '\'';
      OS << " <" << D->getLoc().Line << ':' << D->getLoc().Col << '>';
    } else {
      OS << '\'' << R->getName() << '\'';
    }
    if (R->isDefinition())
      OS << " defines";
    break;
  }
  case Stmt::SK_Paren:
    head(S, "ParenExpr");
    exprTail(llvm::cast<Expr>(S));
    Kids.push_back(stmt(llvm::cast<ParenExpr>(S)->getSubExpr()));
    break;
  case Stmt::SK_Unary: {
    auto *U = llvm::cast<UnaryOperator>(S);
    head(S, "UnaryOperator");
    exprTail(llvm::cast<Expr>(S));
    bool Post = U->getOpcode() == UnaryOperator::PostInc ||
                U->getOpcode() == UnaryOperator::PostDec;
    OS << (Post ? " postfix '" : " prefix '")
       << UnaryOperator::getSpelling(U->getOpcode()) << '\'';
    Kids.push_back(stmt(U->getSubExpr()));
    break;
  }
  case Stmt::SK_Binary: {
    auto *B = llvm::cast<BinaryOperator>(S);
    head(S, B->isCompoundAssignmentOp() ? "CompoundAssignOperator"
                                        : "BinaryOperator");
    exprTail(llvm::cast<Expr>(S));
    OS << " '" << BinaryOperator::getSpelling(B->getOpcode()) << '\'';
    Kids.push_back(stmt(B->getLHS()));
    Kids.push_back(stmt(B->getRHS()));
    break;
  }
  case Stmt::SK_Conditional: {
    auto *C = llvm::cast<ConditionalOperator>(S);
    head(S, "ConditionalOperator");
    exprTail(llvm::cast<Expr>(S));
    Kids.push_back(stmt(C->getCond()));
    Kids.push_back(stmt(C->getTrueExpr()));
    Kids.push_back(stmt(C->getFalseExpr()));
    break;
  }
  case Stmt::SK_ThreadAttr:
    head(S, "ThreadAttrExpr");
    exprTail(llvm::cast<Expr>(S));
    OS << " thread."
       << ThreadAttrExpr::getName(llvm::cast<ThreadAttrExpr>(S)->getAttr());
    break;
  case Stmt::SK_TargetQuery:
    head(S, "TargetQueryExpr");
    exprTail(llvm::cast<Expr>(S));
    OS << " target." << llvm::cast<TargetQueryExpr>(S)->getName();
    break;
  default:
    return false;
  }
  return true;
}

/// Prints the line of a call, builtin, access, cast or allocation and
/// collects its children; false for other nodes.
bool Dumper::dumpOtherExprHead(const Stmt *S,
                               llvm::SmallVectorImpl<Child> &Kids) {
  switch (S->getKind()) {
  case Stmt::SK_Call: {
    auto *C = llvm::cast<CallExpr>(S);
    head(S, "CallExpr");
    exprTail(llvm::cast<Expr>(S));
    if (C->isDevicePrintf())
      OS << " device_printf";
    Kids.push_back(stmt(C->getCallee()));
    for (Expr *A : C->args())
      Kids.push_back(stmt(A));
    break;
  }
  case Stmt::SK_BuiltinCall: {
    auto *B = llvm::cast<BuiltinCallExpr>(S);
    head(S, "BuiltinCallExpr");
    exprTail(llvm::cast<Expr>(S));
    OS << ' ' << BuiltinCallExpr::getName(B->getBuiltinKind());
    if (B->getReduceOp() != BuiltinCallExpr::None)
      OS << " op '" << BuiltinCallExpr::getOpSpelling(B->getReduceOp()) << '\'';
    for (Expr *A : B->args())
      Kids.push_back(stmt(A));
    break;
  }
  case Stmt::SK_Index: {
    auto *I = llvm::cast<IndexExpr>(S);
    head(S, "IndexExpr");
    exprTail(llvm::cast<Expr>(S));
    Kids.push_back(stmt(I->getBase()));
    Kids.push_back(stmt(I->getIndex()));
    break;
  }
  case Stmt::SK_Member: {
    auto *M = llvm::cast<MemberExpr>(S);
    head(S, "MemberExpr");
    exprTail(llvm::cast<Expr>(S));
    OS << ' ' << (M->isArrow() ? "->" : ".") << M->getMemberName();
    if (!M->getComponents().empty()) {
      OS << " components";
      for (unsigned C : M->getComponents())
        OS << ' ' << C;
    }
    Kids.push_back(stmt(M->getBase()));
    break;
  }
  case Stmt::SK_Cast: {
    auto *C = llvm::cast<CastExpr>(S);
    head(S, "CastExpr");
    exprTail(llvm::cast<Expr>(S));
    Kids.push_back(stmt(C->getSubExpr()));
    break;
  }
  case Stmt::SK_ImplicitCast: {
    auto *C = llvm::cast<ImplicitCastExpr>(S);
    head(S, "ImplicitCastExpr");
    exprTail(llvm::cast<Expr>(S));
    OS << " <" << ImplicitCastExpr::getCastKindName(C->getCastKind()) << '>';
    Kids.push_back(stmt(C->getSubExpr()));
    break;
  }
  case Stmt::SK_Construct: {
    auto *C = llvm::cast<ConstructExpr>(S);
    head(S, "ConstructExpr");
    exprTail(llvm::cast<Expr>(S));
    for (Expr *A : C->args())
      Kids.push_back(stmt(A));
    break;
  }
  case Stmt::SK_Sizeof: {
    auto *Z = llvm::cast<SizeofExpr>(S);
    head(S, "SizeofExpr");
    exprTail(llvm::cast<Expr>(S));
    if (Z->getArgType())
      OS << " type '" << Z->getArgType()->str() << '\'';
    else
      Kids.push_back(stmt(Z->getArgExpr()));
    break;
  }
  case Stmt::SK_New: {
    auto *N = llvm::cast<NewExpr>(S);
    head(S, N->isTemporary() ? "NewExpr dtempnew" : "NewExpr dnew");
    exprTail(llvm::cast<Expr>(S));
    OS << " elem '" << N->getElementType()->str() << '\'';
    Kids.push_back(stmt(N->getCount()));
    break;
  }
  case Stmt::SK_Atomic: {
    auto *A = llvm::cast<AtomicExpr>(S);
    head(S, "AtomicExpr");
    exprTail(llvm::cast<Expr>(S));
    OS << ' ' << AtomicExpr::getName(A->getOp());
    for (Expr *X : A->args())
      Kids.push_back(stmt(X));
    break;
  }
  case Stmt::SK_InitList: {
    auto *IL = llvm::cast<InitListExpr>(S);
    head(S, "InitListExpr");
    exprTail(llvm::cast<Expr>(S));
    for (Expr *X : IL->inits())
      Kids.push_back(stmt(X));
    break;
  }
  case Stmt::SK_MathBuiltin: {
    auto *M = llvm::cast<MathBuiltinExpr>(S);
    head(S, "MathBuiltinExpr");
    exprTail(llvm::cast<Expr>(S));
    OS << ' ' << MathBuiltinExpr::getName(M->getOp());
    for (Expr *X : M->args())
      Kids.push_back(stmt(X));
    break;
  }
  case Stmt::SK_Group: {
    auto *G = llvm::cast<GroupExpr>(S);
    head(S, "GroupExpr");
    exprTail(llvm::cast<Expr>(S));
    OS << ' ' << GroupExpr::getName(G->getGroupOp());
    for (Expr *A : G->args())
      Kids.push_back(stmt(A));
    break;
  }

  default:
    return false;
  }
  return true;
}

void Dumper::dumpStmt(const Stmt *S) {
  llvm::SmallVector<Child, 8> Kids;
  if (!dumpStatementHead(S, Kids) && !dumpOperandHead(S, Kids))
    dumpOtherExprHead(S, Kids);
  OS << '\n';
  children(Kids);
}

void Dumper::dumpTopLevel(llvm::ArrayRef<Decl *> Decls) {
  llvm::SmallVector<Child, 16> Kids;
  for (Decl *D : Decls)
    Kids.push_back(decl(D));
  children(Kids);
}

void bsgp::dumpAST(ASTContext &Ctx, SourceManager &SM, llvm::raw_ostream &OS) {
  for (const TranslationUnit &TU : Ctx.getTranslationUnits()) {
    OS << "TranslationUnit '" << SM.getFileName(TU.FileId) << "'\n";
    Dumper(SM, OS).dumpTopLevel(TU.Decls);
  }
}
