//===- SemaDecl.cpp - checking declarations -------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Global variables, function bodies (parameters and the return type) and
/// local variable declarations, including work-group `local` arrays.
///
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

using namespace bsgp;
using namespace bsgp::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

void Sema::checkGlobal(VarDecl *V) {
  CurFn = nullptr;
  checkVarDecl(V);
  if (Expr *I = V->getInit()) {
    Expr *E = I->ignoreParenImpCasts();
    while (auto *U = dyn_cast<UnaryOperator>(E))
      E = U->getSubExpr()->ignoreParenImpCasts();
    if (!isa<IntegerLiteral, FloatingLiteral, BoolLiteral, CharLiteral,
             StringLiteral, NullLiteral>(E) &&
        !I->getType()->isError())
      Diags.report(I->getRange(), diag::err_global_init_not_const)
          << V->getName();
  }
}

void Sema::checkFunction(FunctionDecl *F) {
  CurFn = F;
  SpawnDepth = 0;
  InRequire = false;
  LoopDepth = 0;
  Divergent.clear();
  ControlFlow.clear();
  EndedLocals.clear();
  PendingPuts.clear();
  LoopExit = ReturnExit = ExitInfo();
  LoopDivBase = 0;
  const Type *Ret = F->getReturnType();
  if (F->getName() == "main" && !Ret->isVoid() &&
      Ret->getUnqualified() != Ctx.getIntType())
    Diags.report(SourceRange(F->getLoc()), diag::err_main_returns);
  Scopes.emplace_back();
  for (VarDecl *P : F->getParams()) {
    // An inline function's parameters hold each calling thread's values.
    P->setHost(!F->isInline());
    declare(P);
  }
  checkCompound(F->getBody(), &Scopes.back());
  Scopes.pop_back();
  flushSyncPlacement();
  // A cheap -Wreturn-type: the body of a non-void function must end in a
  // return statement (main may fall off its end, as in C).
  auto Body = F->getBody()->body();
  if (!Ret->isVoid() && F->getName() != "main" &&
      (Body.empty() || !isa<ReturnStmt>(Body.back())))
    Diags.report(SourceRange(F->getBody()->getRange().End),
                 diag::warn_return_missing)
        << F->getName();
  CurFn = nullptr;
}

void Sema::checkVarDecl(VarDecl *V) {
  if (Expr *I = V->getInit()) {
    I = rvalue(checkExpr(I));
    if (V->isAuto()) {
      const Type *T = I->getType()->getUnqualified();
      if (isa<NullType>(T)) {
        Diags.report(I->getRange(), diag::err_infer_null) << V->getName();
        T = Ctx.getErrorType();
      } else if (T->isVoid()) {
        Diags.report(I->getRange(), diag::err_infer_void) << V->getName();
        T = Ctx.getErrorType();
      }
      V->setType(T);
    } else if (V->isGroupLocal() &&
               isa<ArrayType>(V->getType()->getUnqualified())) {
      // checkGroupLocalDecl rejects the initializer of a `local` array
      // whatever it is; converting it as well would report one mistake
      // twice (`local int a[2] = 3;`).
    } else {
      I = convert(I, V->getType()->getUnqualified());
    }
    V->setInit(I);
  }
  if (V->getType() && V->getType()->isVoid()) {
    Diags.report(SourceRange(V->getLoc()), diag::err_void_var) << V->getName();
    V->setType(Ctx.getErrorType());
  }
  if (auto *ST = dyn_cast_or_null<StructType>(V->getType()->getUnqualified()))
    if (!ST->getDecl())
      Diags.report(SourceRange(V->getLoc()), diag::err_incomplete_var)
          << V->getName() << V->getType()->str();
  V->setHost(!inDevice());
  V->setRequireDecl(InRequire);
  if (V->isGroupLocal())
    checkGroupLocalDecl(V);
  if (V->getStorage() != VarDecl::Global || Scopes.size() == 1)
    declare(V);
}

void Sema::checkGroupLocalDecl(VarDecl *V) {
  const Type *T = V->getType();
  if (!T || T->isError())
    return;
  if (!isa<ArrayType>(T->getUnqualified())) {
    Diags.report(SourceRange(V->getLoc()), diag::err_local_not_array)
        << V->getName() << T->str();
    return;
  }
  if (V->getInit())
    Diags.report(V->getInit()->getRange(), diag::err_local_init)
        << V->getName();
  // A spawn body becomes kernels; so does an inline function, which is
  // inlined into every caller when it uses work-group operations
  // (bsgp-inline-collectives), and whose group operations are device code.
  else if ((SpawnDepth == 0 && !(CurFn && CurFn->isInline())) || InRequire)
    Diags.report(SourceRange(V->getLoc()), diag::err_local_outside_spawn)
        << V->getName();
}
