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

#include "FallOffEnd.h"
#include "SemaImpl.h"

#include "bsgp/AST/ConstantEval.h"

using namespace bsgp;
using namespace bsgp::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

/// A global's initializer (or an element of its initializer list) is a
/// literal, possibly negated, or an integer constant expression. Reports
/// why it is not constant (an overflow in it was reported when checked).
bool Sema::isConstantInit(Expr *I, VarDecl *V) {
  ConstantEvaluator Eval(lookupGlobalConstant);
  if (Eval.evaluate(I))
    return true;
  Expr *E = I->ignoreParenImpCasts();
  while (auto *U = dyn_cast<UnaryOperator>(E))
    E = U->getSubExpr()->ignoreParenImpCasts();
  if (isa<IntegerLiteral, FloatingLiteral, BoolLiteral, CharLiteral,
          StringLiteral, NullLiteral>(E))
    return true;
  Diags.report(I->getRange(), diag::err_global_init_not_const) << V->getName();
  Eval.reportFailure(Diags);
  return false;
}

void Sema::checkGlobal(VarDecl *V) {
  CurFn = nullptr;
  checkVarDecl(V);
  Expr *I = V->getInit();
  if (!I || I->getType()->isError())
    return;
  // Every scalar of the initializer, through the lists of struct elements.
  llvm::SmallVector<Expr *, 8> Parts{I};
  while (!Parts.empty()) {
    Expr *P = Parts.pop_back_val();
    if (auto *IL = dyn_cast_or_null<InitListExpr>(P))
      llvm::append_range(Parts, llvm::reverse(IL->getFlat()));
    else if (P && !isConstantInit(P, V))
      return;
  }
}

/// What an initializer list initializes, for its diagnostics: the
/// variable, or a struct compound literal (which has none).
static std::string initializedName(const VarDecl *V) {
  return V ? V->getName().str() : "the compound literal";
}

/// Fills \p Flat[Base, Base + size of \p AT) from \p IL as C does: an
/// expression takes the next element of the flattened array (brace
/// elision), a nested list the next whole element of \p AT. Returns false
/// after reporting.
bool Sema::fillInitList(InitListExpr *IL, const ArrayType *AT, uint64_t Base,
                        llvm::MutableArrayRef<Expr *> Flat, VarDecl *V) {
  auto *Inner = dyn_cast<ArrayType>(AT->getElementType()->getUnqualified());
  uint64_t Stride = Inner ? flatCount(Inner) : 1;
  uint64_t Total = AT->getSize() * Stride, At = 0;
  const Type *Elem = AT->getElementType()->getUnqualified();
  while (auto *A = dyn_cast<ArrayType>(Elem))
    Elem = A->getElementType()->getUnqualified();
  for (Expr *&X : IL->inits()) {
    if (auto *Sub = dyn_cast<InitListExpr>(X)) {
      // A struct element of an array of structs: the list is its fields.
      auto *ST = dyn_cast<StructType>(Elem);
      if (!Inner && ST) {
        if (At >= Total) {
          Diags.report(Sub->getRange(), diag::err_init_list_excess)
              << initializedName(V);
          return false;
        }
        if (!checkStructInitList(Sub, ST, V))
          return false;
        Flat[Base + At++] = Sub;
        continue;
      }
      if (!Inner) {
        Diags.report(Sub->getRange(), diag::err_init_list_scalar)
            << Elem->str();
        return false;
      }
      At = (At + Stride - 1) / Stride * Stride;
      if (At >= Total) {
        Diags.report(Sub->getRange(), diag::err_init_list_excess)
            << initializedName(V);
        return false;
      }
      Sub->setType(Inner);
      if (!fillInitList(Sub, Inner, Base + At, Flat, V))
        return false;
      At += Stride;
      continue;
    }
    X = rvalue(checkExpr(X));
    if (At >= Total) {
      Diags.report(X->getRange(), diag::err_init_list_excess)
          << initializedName(V);
      return false;
    }
    if (X->getType()->isError())
      return false;
    Flat[Base + At++] = convert(X, Elem);
  }
  return true;
}

/// `T a[N]... = {...}`: every element converted to the array's scalar
/// element type, or for an array of structs a struct (a nested list or a
/// struct value); what the list leaves out is zero.
/// `struct S s = {...}` as C does it: the elements initialize the fields in
/// order (a nested list a nested struct), each converted to its field's
/// type; the fields left out are zero, more elements than fields is an
/// error. The list's flat elements are its own, for the walkers of
/// expressions.
bool Sema::checkStructInitList(InitListExpr *IL, const StructType *ST,
                               VarDecl *V) {
  if (!ST->getDecl()) {
    Diags.report(IL->getRange(), diag::err_unknown_struct) << ST->getName();
    return false;
  }
  IL->setType(ST);
  auto Fields = ST->getDecl()->getFields();
  unsigned I = 0;
  for (Expr *&X : IL->inits()) {
    if (I >= Fields.size()) {
      // A compound literal has no variable: it is named as written.
      Diags.report(X->getRange(), diag::err_init_list_excess)
          << (V ? V->getName().str() : "(" + ST->str() + "){...}");
      return false;
    }
    const Type *FT = Fields[I++]->getType()->getUnqualified();
    if (auto *FAT = dyn_cast<ArrayType>(FT)) {
      // An array field takes a braced list of its elements, filled as an
      // array variable's is (its flat elements are the list's own).
      auto *Sub = dyn_cast<InitListExpr>(X);
      if (!Sub) {
        Diags.report(X->getRange(), diag::err_init_list_struct_array)
            << Fields[I - 1]->getName();
        return false;
      }
      llvm::SmallVector<Expr *, 16> Elems(flatCount(FAT), nullptr);
      if (!fillInitList(Sub, FAT, 0, Elems, V))
        return false;
      Sub->setFlat(Ctx.copyArray<Expr *>(Elems));
      Sub->setType(FAT);
      continue;
    }
    if (auto *Sub = dyn_cast<InitListExpr>(X)) {
      auto *SubST = dyn_cast<StructType>(FT);
      if (!SubST) {
        Diags.report(Sub->getRange(), diag::err_init_list_scalar) << FT->str();
        return false;
      }
      if (!checkStructInitList(Sub, SubST, V))
        return false;
      continue;
    }
    X = rvalue(checkExpr(X));
    if (X->getType()->isError())
      return false;
    X = convert(X, FT);
    if (X->getType()->isError())
      return false;
  }
  llvm::SmallVector<Expr *, 8> Flat(IL->inits().begin(), IL->inits().end());
  IL->setFlat(Ctx.copyArray<Expr *>(Flat));
  return true;
}

Expr *Sema::checkInitList(InitListExpr *IL, VarDecl *V) {
  const Type *T = V->getType() ? V->getType()->getUnqualified() : nullptr;
  if (auto *ST = dyn_cast_or_null<StructType>(T)) {
    if (!ST->getDecl())
      return error(IL); // checkVarDecl reports the incomplete type.
    return checkStructInitList(IL, ST, V) ? IL : error(IL);
  }
  auto *AT = dyn_cast_or_null<ArrayType>(T);
  if (!AT) {
    Diags.report(IL->getRange(), diag::err_init_list_type)
        << (T ? T->str() : std::string("auto"));
    return error(IL);
  }
  llvm::SmallVector<Expr *, 16> Flat(flatCount(AT), nullptr);
  if (!fillInitList(IL, AT, 0, Flat, V))
    return error(IL);
  IL->setFlat(Ctx.copyArray<Expr *>(Flat));
  IL->setType(AT);
  return IL;
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
  // Its barriers may sit under conditions on its uniform locals.
  if (F->isInline())
    computeUniformLocals(F->getBody(), F);
  checkCompound(F->getBody(), &Scopes.back());
  Scopes.pop_back();
  flushSyncPlacement();
  // -Wreturn-type: a non-void function whose end control can reach (main
  // may fall off its end, as in C, and returns 0).
  if (!Ret->isVoid() && !Ret->isError() && F->getName() != "main") {
    FallOff How = analyzeFallOff(F->getBody());
    // An instantiation is named as written (`f<0>`), not as mangled.
    std::string Name = F->getName().str();
    if (Templates.Current >= 0 && Templates.Instances[Templates.Current].F == F)
      Name = Templates.Instances[Templates.Current].Display;
    if (How != FallOff::Never)
      Diags.report(SourceRange(F->getBody()->getRange().End),
                   How == FallOff::Always
                       ? diag::warn_return_missing
                       : diag::warn_return_missing_some_paths)
          << Name;
  }
  CurFn = nullptr;
}

bool Sema::sizeUnsizedArray(VarDecl *V) {
  auto *AT = cast<ArrayType>(V->getType()->getUnqualified());
  auto *IL = dyn_cast_or_null<InitListExpr>(V->getInit());
  uint64_t N = IL ? initListArraySize(IL, AT) : 0;
  bool Ok = N > 0 && N <= (1u << 30);
  if (!Ok) {
    Diags.report(SourceRange(V->getLoc()), diag::err_unsized_array)
        << V->getName();
    // One error: a scalar initializer would also fail to convert.
    if (!llvm::isa_and_nonnull<InitListExpr>(V->getInit()))
      V->setInit(nullptr);
  }
  V->setType(Ctx.getArrayType(AT->getElementType(), Ok ? N : 1));
  return Ok;
}

void Sema::checkVarDecl(VarDecl *V) {
  if (auto *AT = dyn_cast_or_null<ArrayType>(
          V->getType() ? V->getType()->getUnqualified() : nullptr);
      AT && AT->getSize() == 0)
    (void)sizeUnsizedArray(V);
  if (auto *IL = dyn_cast_or_null<InitListExpr>(V->getInit())) {
    if (V->isGroupLocal())
      IL->setType(Ctx.getErrorType()); // checkGroupLocalDecl reports it.
    else
      V->setInit(checkInitList(IL, V));
    if (V->isAuto())
      V->setType(Ctx.getErrorType());
  } else if (Expr *I = V->getInit()) {
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
