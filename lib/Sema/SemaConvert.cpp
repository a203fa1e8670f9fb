//===- SemaConvert.cpp - C's conversions ----------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// C's conversions: the integer promotions, the usual arithmetic
/// conversions, the implicit casts that assignments, arguments,
/// returns and initializers insert (null pointer constants included), and
/// the common type of `?:`'s arms.
///
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"
#include "bsgp/AST/ConstantEval.h"

using namespace bsgp;
using namespace bsgp::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

const Type *Sema::promote(const Type *T) {
  auto *B = dyn_cast<BuiltinType>(T->getUnqualified());
  // C's integer promotions: every type narrower than int becomes int.
  if (B && B->isInteger() && B->getBitWidth() < 32)
    return Ctx.getIntType();
  return T->getUnqualified();
}

const Type *Sema::commonArith(const Type *A, const Type *B) {
  auto *X = cast<BuiltinType>(promote(A));
  auto *Y = cast<BuiltinType>(promote(B));
  if (X->isFloating() || Y->isFloating()) {
    if (X->getBuiltinKind() == BuiltinType::Double ||
        Y->getBuiltinKind() == BuiltinType::Double)
      return Ctx.getDoubleType();
    return Ctx.getFloatType();
  }
  if (X == Y)
    return X;
  if (X->getBitWidth() != Y->getBitWidth())
    return X->getBitWidth() > Y->getBitWidth() ? X : Y;
  // Same width, different signedness: unsigned wins.
  return X->isSignedInteger() ? Y : X;
}

Expr *Sema::rvalue(Expr *E) {
  const Type *T = E->getType()->getUnqualified();
  if (auto *AT = dyn_cast<ArrayType>(T))
    return implicitCast(ImplicitCastExpr::ArrayToPointer, E,
                        Ctx.getPointerType(AT->getElementType()));
  return E;
}

Expr *Sema::toBool(Expr *E) {
  const Type *T = E->getType()->getUnqualified();
  if (T->isError() || T->isBool())
    return E;
  if (!T->isScalar()) {
    Diags.report(E->getRange(), diag::err_typecheck_cond) << T->str();
    return error(E);
  }
  return implicitCast(ImplicitCastExpr::ToBool, E, Ctx.getBoolType());
}

Expr *Sema::convert(Expr *E, const Type *To, bool Report) {
  E = rvalue(E);
  const Type *From = E->getType()->getUnqualified();
  To = To->getUnqualified();
  if (From->isError() || To->isError())
    return E;
  if (From == To) {
    if (E->getType() != From)
      return implicitCast(ImplicitCastExpr::NoOp, E, To);
    return E;
  }
  using IC = ImplicitCastExpr;
  if (From->isArithmetic() && To->isArithmetic()) {
    IC::CastKind K;
    if (To->isBool())
      K = IC::ToBool;
    else if (From->isInteger() && To->isInteger())
      K = IC::IntegralCast;
    else if (From->isInteger())
      K = IC::IntegralToFloating;
    else if (To->isInteger())
      K = IC::FloatingToIntegral;
    else
      K = IC::FloatingCast;
    return implicitCast(K, E, To);
  }
  if (To->isBool() && From->isPointer())
    return implicitCast(IC::ToBool, E, To);
  if ((isa<NullType>(From) || isNullPointerConstant(E)) && To->isPointer())
    return implicitCast(IC::NullToPointer, E, To);
  if (From->isPointer() && To->isPointer()) {
    const Type *FP = cast<PointerType>(From)->getPointee();
    const Type *TP = cast<PointerType>(To)->getPointee();
    bool AddsConst = FP->getUnqualified() == TP->getUnqualified() &&
                     (!FP->isConst() || TP->isConst());
    if (AddsConst || TP->getUnqualified()->isVoid() ||
        FP->getUnqualified()->isVoid())
      return implicitCast(IC::PointerCast, E, To);
    if (Report)
      Diags.report(E->getRange(), diag::err_incompatible_pointer)
          << From->str() << To->str();
    return error(E);
  }
  if (auto *VT = dyn_cast<VectorType>(To)) {
    if (From->isArithmetic()) {
      Expr *S = convert(E, VT->getElementType(), Report);
      return implicitCast(IC::VectorSplat, S, To);
    }
    if (auto *VF = dyn_cast<VectorType>(From))
      if (VF->getNumElements() == VT->getNumElements())
        return implicitCast(IC::VectorConvert, E, To);
  }
  if (Report)
    Diags.report(E->getRange(), diag::err_typecheck_convert)
        << E->getType()->str() << To->str();
  return error(E);
}

//===----------------------------------------------------------------------===//
// The conditional operator
//===----------------------------------------------------------------------===//

/// `c ? p : q` of pointers, as C types it: a pointer to their common
/// pointee (void where one is a `void *`) with the qualifiers of both
/// (`char *` and `const char *` give `const char *`); null for pointers to
/// different types.
static const Type *commonPointer(ASTContext &Ctx, const Type *A,
                                 const Type *B) {
  const Type *PA = cast<PointerType>(A)->getPointee();
  const Type *PB = cast<PointerType>(B)->getPointee();
  const Type *UA = PA->getUnqualified(), *UB = PB->getUnqualified();
  if (UA != UB && !UA->isVoid() && !UB->isVoid())
    return nullptr;
  const Type *P = UA->isVoid() ? UA : UB;
  return Ctx.getPointerType(PA->isConst() || PB->isConst() ? Ctx.getConstType(P)
                                                           : P);
}

Expr *Sema::checkConditional(ConditionalOperator *C) {
  C->setCond(toBool(rvalue(checkExpr(C->getCond()))));
  bool Dep = inDevice() && isThreadDependent(C->getCond());
  bool Device = inDevice();
  if (Dep)
    Divergent.push_back(C->getCond());
  if (Device)
    ControlFlow.push_back({C, isTargetQuestion(C->getCond())});
  Expr *T = rvalue(checkExpr(C->getTrueExpr()));
  Expr *F = rvalue(checkExpr(C->getFalseExpr()));
  if (Device)
    ControlFlow.pop_back();
  if (Dep)
    Divergent.pop_back();
  const Type *TT = T->getType()->getUnqualified(),
             *FT = F->getType()->getUnqualified();
  const Type *R = nullptr;
  if (TT->isError() || FT->isError())
    R = Ctx.getErrorType();
  else if (TT == FT)
    R = TT;
  else if (TT->isArithmetic() && FT->isArithmetic())
    R = commonArith(TT, FT);
  else if (TT->isPointer() && FT->isPointer())
    R = commonPointer(Ctx, TT, FT);
  else if (TT->isPointer() && (isa<NullType>(FT) || isNullPointerConstant(F)))
    R = TT;
  else if (FT->isPointer() && (isa<NullType>(TT) || isNullPointerConstant(T)))
    R = FT;
  if (!R) {
    Diags.report(C->getRange(), diag::err_cond_incompatible)
        << TT->str() << FT->str();
    C->setTrueExpr(T);
    C->setFalseExpr(F);
    return error(C);
  }
  C->setTrueExpr(convert(T, R));
  C->setFalseExpr(convert(F, R));
  C->setType(R);
  return C;
}
