//===- AST.cpp - BSGP AST nodes -------------------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/AST/AST.h"

using namespace bsgp;

const Type *FunctionDecl::getReturnType() const {
  return FnTy ? FnTy->getReturnType() : WrittenRet;
}

Expr *Expr::ignoreParenImpCasts() {
  Expr *E = this;
  for (;;) {
    if (auto *P = llvm::dyn_cast<ParenExpr>(E))
      E = P->getSubExpr();
    else if (auto *C = llvm::dyn_cast<ImplicitCastExpr>(E))
      E = C->getSubExpr();
    else
      return E;
  }
}

FunctionDecl *CallExpr::getDirectCallee() const {
  if (auto *R = llvm::dyn_cast<DeclRefExpr>(Callee->ignoreParenImpCasts()))
    return llvm::dyn_cast_or_null<FunctionDecl>(R->getDecl());
  return nullptr;
}

const char *UnaryOperator::getSpelling(Opcode Op) {
  static const char *Names[] = {"+", "-",  "!",  "~",  "*",
                                "&", "++", "--", "++", "--"};
  return Names[Op];
}

BinaryOperator::Opcode BinaryOperator::getBaseOp(Opcode Op) {
  switch (Op) {
  case MulAssign:
    return Mul;
  case DivAssign:
    return Div;
  case RemAssign:
    return Rem;
  case AddAssign:
    return Add;
  case SubAssign:
    return Sub;
  case ShlAssign:
    return Shl;
  case ShrAssign:
    return Shr;
  case AndAssign:
    return And;
  case XorAssign:
    return Xor;
  case OrAssign:
    return Or;
  default:
    return Op;
  }
}

const char *BinaryOperator::getSpelling(Opcode Op) {
  static const char *Names[] = {
      "*",  "/",  "%",  "+",  "-",   "<<",  ">>", "<",  ">",  "<=",
      ">=", "==", "!=", "&",  "^",   "|",   "&&", "||", "=",  "*=",
      "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|=", ","};
  return Names[Op];
}

const char *BuiltinCallExpr::getName(BuiltinKind K) {
  static const char *Names[] = {"thread.get",
                                "thread.put",
                                "thread.fork",
                                "thread.kill",
                                "thread.sortby",
                                "thread.split",
                                "reduce",
                                "scan",
                                "compact",
                                "split",
                                "sort_idx",
                                "thread.rebind",
                                "__bsgp_chunk_reduce",
                                "__bsgp_chunk_scan",
                                "__bsgp_group_lookback",
                                "__bsgp_single_pass",
                                "segreduce",
                                "segscan",
                                "__bsgp_native_reduce",
                                "__bsgp_native_scan_exclusive",
                                "__bsgp_native_sort_pairs"};
  return Names[K];
}

const char *BuiltinCallExpr::getOpSpelling(ReduceOp Op) {
  static const char *Names[] = {"", "+", "*", "min", "max", "&", "|", "^"};
  return Names[Op];
}

bool BuiltinCallExpr::isCollective(BuiltinKind K) {
  switch (K) {
  case ThreadGet:
  case ThreadPut:
  case ThreadRebind:
  case NativeReduce:
  case NativeScanExclusive:
  case NativeSortPairs:
    return false;
  default:
    return true;
  }
}

const char *ThreadAttrExpr::getName(Attr A) {
  static const char *Names[] = {"rank", "size", "oldrank", "x", "y",
                                "z",    "nx",   "ny",      "nz"};
  return Names[A];
}

const char *AtomicExpr::getName(AtomicOp Op) {
  static const char *Names[] = {"atomicAdd",  "atomicSub",    "atomicMin",
                                "atomicMax",  "atomicAnd",    "atomicOr",
                                "atomicXor",  "atomicExch",   "atomicCAS",
                                "atomicLoad", "__threadfence"};
  return Names[Op];
}

const char *MathBuiltinExpr::getName(MathOp Op) {
  static const char *Names[] = {"min", "max", "clamp", "abs"};
  return Names[Op];
}

bool GroupExpr::isQuery(GroupOp Op) {
  switch (Op) {
  case GroupRank:
  case GroupSize:
  case GroupId:
  case GroupCount:
  case GroupThreads:
  case SubgroupRank:
  case SubgroupSize:
    return true;
  default:
    return false;
  }
}

const char *GroupExpr::getName(GroupOp Op) {
  static const char *Names[] = {
      "group.rank",           "group.size",          "group.id",
      "group.count",          "group.threads",       "group.barrier",
      "subgroup.rank",        "subgroup.size",       "subgroup.shuffle",
      "subgroup.shuffle_xor", "subgroup.shuffle_up", "subgroup.shuffle_down",
      "subgroup.any",         "subgroup.all",        "subgroup.ballot",
      "subgroup.add",         "subgroup.min",        "subgroup.max",
      "subgroup.and",         "subgroup.or",         "subgroup.xor",
      "subgroup.match"};
  return Names[Op];
}

const char *ImplicitCastExpr::getCastKindName(CastKind K) {
  static const char *Names[] = {"IntegralCast",
                                "IntegralToFloating",
                                "FloatingToIntegral",
                                "FloatingCast",
                                "ToBool",
                                "ArrayToPointer",
                                "NullToPointer",
                                "PointerCast",
                                "VectorSplat",
                                "VectorConvert",
                                "NoOp"};
  return Names[K];
}

uint64_t bsgp::initListArraySize(const InitListExpr *IL, const ArrayType *AT) {
  // A row's scalars: the product of the inner dimensions.
  uint64_t Stride = 1;
  const Type *E = AT->getElementType()->getUnqualified();
  bool Rows = false;
  while (auto *A = llvm::dyn_cast<ArrayType>(E)) {
    Stride *= A->getSize();
    E = A->getElementType()->getUnqualified();
    Rows = true;
  }
  uint64_t At = 0;
  for (Expr *X : IL->inits())
    At = llvm::isa<InitListExpr>(X) && Rows
             ? (At + Stride - 1) / Stride * Stride + Stride
             : At + 1;
  return (At + Stride - 1) / Stride;
}

void bsgp::forEachChild(Stmt *S, llvm::function_ref<void(Stmt *)> F) {
  auto C = [&](Stmt *X) {
    if (X)
      F(X);
  };
  switch (S->getKind()) {
  case Stmt::SK_Compound:
    for (Stmt *X : llvm::cast<CompoundStmt>(S)->body())
      C(X);
    break;
  case Stmt::SK_Decl:
    for (VarDecl *V : llvm::cast<DeclStmt>(S)->decls())
      C(V->getInit());
    break;
  case Stmt::SK_Expr:
    C(llvm::cast<ExprStmt>(S)->getExpr());
    break;
  case Stmt::SK_If: {
    auto *I = llvm::cast<IfStmt>(S);
    C(I->getCond());
    C(I->getThen());
    C(I->getElse());
    break;
  }
  case Stmt::SK_For: {
    auto *I = llvm::cast<ForStmt>(S);
    C(I->getInit());
    C(I->getCond());
    C(I->getInc());
    C(I->getBody());
    break;
  }
  case Stmt::SK_While:
    C(llvm::cast<WhileStmt>(S)->getCond());
    C(llvm::cast<WhileStmt>(S)->getBody());
    break;
  case Stmt::SK_Do:
    C(llvm::cast<DoStmt>(S)->getBody());
    C(llvm::cast<DoStmt>(S)->getCond());
    break;
  case Stmt::SK_Return:
    C(llvm::cast<ReturnStmt>(S)->getValue());
    break;
  case Stmt::SK_Delete:
    C(llvm::cast<DeleteStmt>(S)->getList());
    break;
  case Stmt::SK_Spawn:
    for (Expr *E : llvm::cast<SpawnStmt>(S)->getExtents())
      C(E);
    C(llvm::cast<SpawnStmt>(S)->getBody());
    break;
  case Stmt::SK_Require:
    C(llvm::cast<RequireStmt>(S)->getBody());
    break;
  case Stmt::SK_Par:
    C(llvm::cast<ParStmt>(S)->getBody());
    break;
  case Stmt::SK_Paren:
    C(llvm::cast<ParenExpr>(S)->getSubExpr());
    break;
  case Stmt::SK_Unary:
    C(llvm::cast<UnaryOperator>(S)->getSubExpr());
    break;
  case Stmt::SK_Binary:
    C(llvm::cast<BinaryOperator>(S)->getLHS());
    C(llvm::cast<BinaryOperator>(S)->getRHS());
    break;
  case Stmt::SK_Conditional: {
    auto *I = llvm::cast<ConditionalOperator>(S);
    C(I->getCond());
    C(I->getTrueExpr());
    C(I->getFalseExpr());
    break;
  }
  case Stmt::SK_Call:
    C(llvm::cast<CallExpr>(S)->getCallee());
    for (Expr *A : llvm::cast<CallExpr>(S)->args())
      C(A);
    break;
  case Stmt::SK_BuiltinCall:
    for (Expr *A : llvm::cast<BuiltinCallExpr>(S)->args())
      C(A);
    break;
  case Stmt::SK_Index:
    C(llvm::cast<IndexExpr>(S)->getBase());
    C(llvm::cast<IndexExpr>(S)->getIndex());
    break;
  case Stmt::SK_Member:
    C(llvm::cast<MemberExpr>(S)->getBase());
    break;
  case Stmt::SK_Cast:
    C(llvm::cast<CastExpr>(S)->getSubExpr());
    break;
  case Stmt::SK_ImplicitCast:
    C(llvm::cast<ImplicitCastExpr>(S)->getSubExpr());
    break;
  case Stmt::SK_Construct:
    for (Expr *A : llvm::cast<ConstructExpr>(S)->args())
      C(A);
    break;
  case Stmt::SK_Sizeof:
    C(llvm::cast<SizeofExpr>(S)->getArgExpr());
    break;
  case Stmt::SK_New:
    C(llvm::cast<NewExpr>(S)->getCount());
    break;
  case Stmt::SK_Atomic:
    for (Expr *A : llvm::cast<AtomicExpr>(S)->args())
      C(A);
    break;
  case Stmt::SK_MathBuiltin:
    for (Expr *A : llvm::cast<MathBuiltinExpr>(S)->args())
      C(A);
    break;
  case Stmt::SK_InitList: {
    // After Sema, the converted elements (which wrap the written ones).
    auto *IL = llvm::cast<InitListExpr>(S);
    if (!IL->getFlat().empty()) {
      for (Expr *A : IL->getFlat())
        C(A);
    } else {
      for (Expr *A : IL->inits())
        C(A);
    }
    break;
  }
  case Stmt::SK_Group:
    for (Expr *A : llvm::cast<GroupExpr>(S)->args())
      C(A);
    break;
  default:
    break;
  }
}
