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
  static const char *Names[] = {"+",  "-",  "!",  "~",  "*",
                                "&",  "++", "--", "++", "--"};
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
      "*",  "/",  "%",  "+",  "-",  "<<",  ">>",  "<",  ">",  "<=",
      ">=", "==", "!=", "&",  "^",  "|",   "&&",  "||", "=",  "*=",
      "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|=", ","};
  return Names[Op];
}

const char *BuiltinCallExpr::getName(BuiltinKind K) {
  static const char *Names[] = {"thread.get",    "thread.put",   "thread.fork",
                                "thread.kill",   "thread.sortby", "thread.split",
                                "reduce",        "scan",         "compact",
                                "split",         "sort_idx"};
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
    return false;
  default:
    return true;
  }
}

const char *ThreadAttrExpr::getName(Attr A) {
  static const char *Names[] = {"rank", "size", "oldrank"};
  return Names[A];
}

const char *ImplicitCastExpr::getCastKindName(CastKind K) {
  static const char *Names[] = {
      "IntegralCast",  "IntegralToFloating", "FloatingToIntegral",
      "FloatingCast",  "ToBool",             "ArrayToPointer",
      "NullToPointer", "PointerCast",        "VectorSplat",
      "VectorConvert", "NoOp"};
  return Names[K];
}
