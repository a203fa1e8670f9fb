//===- SemaExpr.cpp - checking expressions --------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every expression other than the builtins of SemaBuiltin.cpp: literals,
/// names, operators, assignments, calls, members, constructors (C's
/// conversions are SemaConvert.cpp's).
///
//===----------------------------------------------------------------------===//

#include "ConstantWarnings.h"
#include "SemaImpl.h"
#include "bsgp/AST/ConstantEval.h"

using namespace bsgp;
using namespace bsgp::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Expr *Sema::checkExpr(Expr *E) {
  Expr *R = checkExprImpl(E);
  if (!R->getType())
    R->setType(Ctx.getErrorType());
  return R;
}

/// True if global \p V is a constant: its type, or its arrays' element
/// type, is const.
static bool isConstGlobal(const VarDecl *V) {
  const Type *T = V->getType();
  while (auto *A = dyn_cast<ArrayType>(T->getUnqualified()))
    T = A->getElementType();
  return T->isConst();
}

Expr *Sema::checkDeclRef(DeclRefExpr *R) {
  if (VarDecl *V = lookup(R->getName())) {
    R->setDecl(V);
    R->setType(V->getType());
    R->setLValue(true);
    V->setRead();
    checkRequireUse(R, V);
    // A global array that is not const is host memory, which the GPU
    // targets' threads cannot reach (a scalar or struct is loaded before
    // the spawn instead). bsgpi, which shares Sema, rejects it as well.
    if (V->getStorage() == VarDecl::Global && SpawnDepth > 0 && !InRequire &&
        !InSizeof && isa<ArrayType>(V->getType()->getUnqualified()) &&
        !isConstGlobal(V))
      Diags.report(R->getRange(), diag::err_thread_read_global_array)
          << R->getName();
    if (Expr *Put = PendingPuts.lookup(V)) {
      Diags.report(R->getRange(), diag::err_put_value_used) << R->getName();
      Diags.report(Put->getRange(), diag::note_put_here) << R->getName();
      PendingPuts.erase(V);
    }
    return R;
  }
  if (FunctionDecl *F = Functions.lookup(R->getName())) {
    R->setDecl(F);
    R->setType(F->getFunctionType());
    return R;
  }
  Diags.report(R->getRange(), diag::err_undeclared) << R->getName();
  if (VarDecl *Ended = EndedLocals.lookup(R->getName()))
    Diags.report(SourceRange(Ended->getLoc()), diag::note_out_of_scope)
        << R->getName();
  return error(R);
}

Expr *Sema::checkThreadAttr(ThreadAttrExpr *T) {
  std::string Name =
      std::string("thread.") + ThreadAttrExpr::getName(T->getAttr());
  bool Dependent = ThreadAttrExpr::isThreadDependent(T->getAttr());
  if (!inParallel())
    Diags.report(T->getRange(), diag::err_thread_outside_spawn) << Name;
  else if (ThreadAttrExpr::isDomainAttr(T->getAttr()) && SpawnDepth == 0)
    Diags.report(T->getRange(), diag::err_thread_coord_outside_spawn) << Name;
  else if (InRequire && Dependent)
    Diags.report(T->getRange(), diag::err_require_device) << Name;
  T->setType(Ctx.getIntType());
  T->setLValue(T->getAttr() == ThreadAttrExpr::OldRank ||
               (T->getAttr() == ThreadAttrExpr::Size && InRequire));
  return T;
}

Expr *Sema::checkIndex(IndexExpr *I) {
  Expr *B = checkExpr(I->getBase());
  Expr *Idx = rvalue(checkExpr(I->getIndex()));
  const Type *BT = B->getType()->getUnqualified();
  I->setLValue(true);
  if (BT->isError() || Idx->getType()->isError()) {
    I->setBase(B);
    I->setIndex(Idx);
    return error(I);
  }
  if (!Idx->getType()->isInteger()) {
    Diags.report(Idx->getRange(), diag::err_typecheck_index)
        << Idx->getType()->str();
    I->setBase(B);
    I->setIndex(Idx);
    return error(I);
  }
  const Type *Elem = nullptr;
  if (auto *AT = dyn_cast<ArrayType>(BT)) {
    Elem = AT->getElementType();
    I->setLValue(B->isLValue());
  } else if (auto *PT = dyn_cast<PointerType>(BT)) {
    Elem = PT->getPointee();
  } else {
    Diags.report(B->getRange(), diag::err_typecheck_subscript) << BT->str();
    I->setBase(B);
    I->setIndex(Idx);
    return error(I);
  }
  I->setBase(B);
  I->setIndex(Idx);
  I->setType(Elem);
  return I;
}

Expr *Sema::checkCast(CastExpr *C) {
  // An array compound literal, `(int[]){1, 2}`: an unnamed array of the
  // function (C's automatic storage), initialized as a variable's list is
  // and sized by it where `[]` leaves the size out.
  if (auto *IL = dyn_cast<InitListExpr>(C->getSubExpr());
      IL && isa<ArrayType>(C->getWrittenType()->getUnqualified())) {
    auto *AT = cast<ArrayType>(C->getWrittenType()->getUnqualified());
    std::string Name =
        "(" + (AT->getSize() ? AT->str() : AT->getElementType()->str() + "[]") +
        "){...}";
    auto *V = new (Ctx) VarDecl(C->getRange(), C->getBeginLoc(),
                                Ctx.copyString(Name), AT, IL, VarDecl::Local);
    if (AT->getSize() == 0 && !sizeUnsizedArray(V))
      return error(C);
    V->setHost(!inDevice());
    Expr *Checked = checkInitList(IL, V);
    C->setSubExpr(Checked);
    C->setLiteralVar(V);
    C->setType(V->getType());
    C->setLValue(true);
    return Checked->getType()->isError() ? error(C) : C;
  }
  // A scalar compound literal, `(int){7}`: its one element initializes the
  // value, converted as an initializer is (an empty list is zero). Not an
  // lvalue, as BSGP's struct compound literals are not.
  if (auto *IL = dyn_cast<InitListExpr>(C->getSubExpr());
      IL && (C->getWrittenType()->getUnqualified()->isArithmetic() ||
             C->getWrittenType()->getUnqualified()->isPointer())) {
    const Type *To = C->getWrittenType()->getUnqualified();
    auto Inits = IL->inits();
    if (Inits.size() > 1) {
      Diags.report(Inits[1]->getRange(), diag::err_init_list_excess)
          << "(" + To->str() + "){...}";
      return error(C);
    }
    if (!Inits.empty() && isa<InitListExpr>(Inits[0])) {
      Diags.report(Inits[0]->getRange(), diag::err_init_list_scalar)
          << To->str();
      return error(C);
    }
    Expr *V = Inits.empty()
                  ? new (Ctx) IntegerLiteral(IL->getRange(), 0, false, false)
                  : Inits[0];
    V = rvalue(checkExpr(V));
    if (V->getType()->isError())
      return error(C);
    V = convert(V, To);
    if (V->getType()->isError())
      return error(C);
    C->setSubExpr(V);
    C->setType(To);
    return C;
  }
  // A vector compound literal, `(float2){x, y}` (GCC's vector extension,
  // which C compilers accept): the elements in order, each converted to the
  // element type and those left out zero, as the construction
  // `float2(x, y)` with the zeros written out.
  if (auto *IL = dyn_cast<InitListExpr>(C->getSubExpr());
      IL && isa<VectorType>(C->getWrittenType()->getUnqualified())) {
    auto *VT = cast<VectorType>(C->getWrittenType()->getUnqualified());
    auto Inits = IL->inits();
    if (Inits.size() > VT->getNumElements()) {
      Diags.report(Inits[VT->getNumElements()]->getRange(),
                   diag::err_init_list_excess)
          << "(" + VT->str() + "){...}";
      return error(C);
    }
    llvm::SmallVector<Expr *, 4> Args(Inits.begin(), Inits.end());
    for (Expr *A : Args)
      if (isa<InitListExpr>(A)) {
        Diags.report(A->getRange(), diag::err_init_list_scalar)
            << VT->getElementType()->str();
        return error(C);
      }
    while (Args.size() < VT->getNumElements())
      Args.push_back(new (Ctx) IntegerLiteral(IL->getRange(), 0, false, false));
    return checkExpr(new (Ctx) ConstructExpr(C->getRange(), VT,
                                             Ctx.copyArray<Expr *>(Args)));
  }
  // A compound literal: a struct value made of its fields' list.
  if (auto *IL = dyn_cast<InitListExpr>(C->getSubExpr())) {
    auto *ST = dyn_cast<StructType>(C->getWrittenType()->getUnqualified());
    C->setType(ST ? (const Type *)ST : Ctx.getErrorType());
    if (!ST || !ST->getDecl()) {
      Diags.report(C->getRange(), ST ? diag::err_unknown_struct
                                     : diag::err_compound_literal_type)
          << (ST ? ST->getName().str() : C->getWrittenType()->str());
      return error(C);
    }
    return checkStructInitList(IL, ST, nullptr) ? C : error(C);
  }
  Expr *S = rvalue(checkExpr(C->getSubExpr()));
  C->setSubExpr(S);
  const Type *To = C->getWrittenType()->getUnqualified();
  const Type *From = S->getType()->getUnqualified();
  C->setType(To);
  if (From->isError())
    return C;
  bool Ok = To->isVoid() || (From->isArithmetic() && To->isArithmetic()) ||
            (From->isPointer() && To->isPointer()) ||
            (From->isPointer() && To->isInteger()) ||
            (From->isInteger() && To->isPointer()) ||
            (isa<NullType>(From) && To->isPointer()) || From == To ||
            (From->isArithmetic() && To->isVector());
  if (auto *VF = dyn_cast<VectorType>(From))
    if (auto *VT = dyn_cast<VectorType>(To))
      Ok = VF->getNumElements() == VT->getNumElements();
  if (!Ok) {
    Diags.report(C->getRange(), diag::err_cast_invalid)
        << From->str() << To->str();
    return error(C);
  }
  return C;
}

Expr *Sema::checkSizeof(SizeofExpr *S) {
  const Type *T = S->getArgType();
  if (S->getArgExpr()) {
    bool Saved = InSizeof;
    InSizeof = true;
    T = checkExpr(S->getArgExpr())->getType();
    InSizeof = Saved;
  }
  if (T->isVoid() || isa<FunctionType>(T->getUnqualified())) {
    Diags.report(S->getRange(), diag::err_sizeof_void) << T->str();
    return error(S);
  }
  S->setType(Ctx.getBuiltinType(BuiltinType::UInt64));
  return S;
}

/// `dnew[n]T` and `dtempnew[n]T`: host code only.
Expr *Sema::checkNew(NewExpr *N) {
  const char *Name = N->isTemporary() ? "dtempnew" : "dnew";
  if (inDevice())
    Diags.report(N->getRange(), diag::err_dnew_in_device) << Name;
  Expr *C = rvalue(checkExpr(N->getCount()));
  if (!C->getType()->isError()) {
    if (!C->getType()->isInteger())
      Diags.report(C->getRange(), diag::err_new_count)
          << Name << C->getType()->str();
    else
      C = convert(C, Ctx.getBuiltinType(BuiltinType::UInt64));
  }
  N->setCount(C);
  if (N->getElementType()->isVoid()) {
    Diags.report(N->getRange(), diag::err_new_void);
    return error(N);
  }
  N->setType(Ctx.getPointerType(N->getElementType()));
  return N;
}

/// Dispatches on the kind of expression; each kind with more than a line
/// of checking has its own function.
Expr *Sema::checkExprImpl(Expr *E) {
  switch (E->getKind()) {
  case Stmt::SK_IntegerLiteral: // The type C gives it.
    E->setType(Ctx.getBuiltinType(integerLiteralKind(cast<IntegerLiteral>(E))));
    return E;
  case Stmt::SK_FloatingLiteral:
    E->setType(cast<FloatingLiteral>(E)->hasFloatSuffix()
                   ? Ctx.getFloatType()
                   : Ctx.getDoubleType());
    return E;
  case Stmt::SK_BoolLiteral:
    E->setType(Ctx.getBoolType());
    return E;
  case Stmt::SK_CharLiteral:
    E->setType(Ctx.getCharType());
    return E;
  case Stmt::SK_StringLiteral:
    E->setType(Ctx.getPointerType(Ctx.getConstType(Ctx.getCharType())));
    return E;
  case Stmt::SK_NullLiteral:
    E->setType(Ctx.getNullType());
    return E;
  case Stmt::SK_DeclRef:
    return checkDeclRef(cast<DeclRefExpr>(E));
  case Stmt::SK_Paren: {
    auto *P = cast<ParenExpr>(E);
    P->setSubExpr(checkExpr(P->getSubExpr()));
    P->setType(P->getSubExpr()->getType());
    P->setLValue(P->getSubExpr()->isLValue());
    return P;
  }
  case Stmt::SK_Unary:
    return checkUnary(cast<UnaryOperator>(E));
  case Stmt::SK_Binary: {
    auto *B = cast<BinaryOperator>(E);
    if (B->isAssignmentOp())
      return checkAssign(B);
    return checkBinary(B);
  }
  case Stmt::SK_Conditional:
    return checkConditional(cast<ConditionalOperator>(E));
  case Stmt::SK_Call:
    return checkCall(cast<CallExpr>(E));
  case Stmt::SK_BuiltinCall: {
    Expr *R = checkBuiltin(cast<BuiltinCallExpr>(E));
    instantiateLibraryFor(cast<BuiltinCallExpr>(E));
    return R;
  }
  case Stmt::SK_Group:
    return checkGroup(cast<GroupExpr>(E));
  case Stmt::SK_ThreadAttr:
    return checkThreadAttr(cast<ThreadAttrExpr>(E));
  case Stmt::SK_Index:
    return checkIndex(cast<IndexExpr>(E));
  case Stmt::SK_Member:
    return checkMember(cast<MemberExpr>(E));
  case Stmt::SK_Cast:
    return checkCast(cast<CastExpr>(E));
  case Stmt::SK_ImplicitCast:
    return E;
  case Stmt::SK_Construct:
    return checkConstruct(cast<ConstructExpr>(E));
  case Stmt::SK_Sizeof:
    return checkSizeof(cast<SizeofExpr>(E));
  case Stmt::SK_New:
    return checkNew(cast<NewExpr>(E));
  case Stmt::SK_TargetQuery:
    // Allowed everywhere: a constant in device code, a constant or a
    // runtime query in host code (docs/language.md).
    E->setType(Ctx.getBoolType());
    return E;
  case Stmt::SK_Atomic:
    return checkAtomic(cast<AtomicExpr>(E));
  case Stmt::SK_MathBuiltin:
    return checkMathBuiltin(cast<MathBuiltinExpr>(E));
  case Stmt::SK_InitList:
    Diags.report(E->getRange(), diag::err_init_list_context);
    return error(E);
  default:
    return error(E);
  }
}

Expr *Sema::checkAssign(BinaryOperator *B) {
  // A first assignment to an unknown name introduces an inferred local in
  // the innermost block.
  auto *LRef = dyn_cast<DeclRefExpr>(B->getLHS());
  if (LRef && B->getOpcode() == BinaryOperator::Assign &&
      !lookup(LRef->getName()) && !Functions.count(LRef->getName())) {
    Expr *R = rvalue(checkExpr(B->getRHS()));
    const Type *T = R->getType()->getUnqualified();
    if (isa<NullType>(T)) {
      Diags.report(R->getRange(), diag::err_infer_null) << LRef->getName();
      T = Ctx.getErrorType();
    } else if (T->isVoid()) {
      Diags.report(R->getRange(), diag::err_infer_void) << LRef->getName();
      T = Ctx.getErrorType();
    } else if (isa<FunctionType>(T)) {
      Diags.report(R->getRange(), diag::err_typecheck_convert)
          << T->str() << "a variable";
      T = Ctx.getErrorType();
    }
    auto *V = new (Ctx) VarDecl(LRef->getRange(), LRef->getBeginLoc(),
                                LRef->getName(), T, R, VarDecl::Local);
    V->setImplicit(true);
    V->setHost(!inDevice());
    V->setRequireDecl(InRequire);
    size_t I = Scopes.size();
    while (I > 1 && !Scopes[I - 1].Implicit)
      --I;
    Scopes[I - 1].Vars[V->getName()] = V;
    if (Scopes[I - 1].Implicit)
      Scopes[I - 1].Implicit->push_back(V);
    noteImplicitLocal(LRef, V);
    LRef->setDecl(V);
    LRef->setDefinition(true);
    LRef->setType(T);
    LRef->setLValue(true);
    B->setRHS(R);
    B->setType(T);
    return B;
  }
  Expr *L = checkExpr(B->getLHS());
  Expr *R = rvalue(checkExpr(B->getRHS()));
  B->setLHS(L);
  const Type *LT = L->getType();
  if (LT->isError() || R->getType()->isError()) {
    B->setRHS(R);
    return error(B);
  }
  Expr *LBase = L->ignoreParenImpCasts();
  if (auto *T = dyn_cast<TargetQueryExpr>(LBase)) {
    Diags.report(L->getRange(), diag::err_target_query_readonly)
        << T->getName();
    B->setRHS(R);
    return error(B);
  }
  if (auto *T = dyn_cast<ThreadAttrExpr>(LBase))
    if (T->getAttr() == ThreadAttrExpr::OldRank)
      checkStraightLine(B, diag::err_oldrank_in_control_flow,
                        /*AllowUniform=*/true);
  // §5: fork and kill adjust thread.size in a require block.
  if (auto *T = dyn_cast<ThreadAttrExpr>(LBase))
    if (T->getAttr() != ThreadAttrExpr::OldRank &&
        !(T->getAttr() == ThreadAttrExpr::Size && InRequire)) {
      Diags.report(L->getRange(), diag::err_thread_attr_readonly)
          << ThreadAttrExpr::getName(T->getAttr());
      B->setRHS(R);
      return error(B);
    }
  if (!L->isLValue() || isa<ArrayType>(LT->getUnqualified())) {
    Diags.report(L->getRange(), diag::err_not_assignable);
    B->setRHS(R);
    return error(B);
  }
  if (LT->isConst()) {
    Diags.report(L->getRange(), diag::err_assign_const) << LT->str();
    B->setRHS(R);
    return error(B);
  }
  if (reportHostWrite(L)) {
    B->setRHS(R);
    return error(B);
  }
  const Type *LU = LT->getUnqualified();
  if (B->getOpcode() == BinaryOperator::Assign) {
    B->setRHS(convert(R, LU));
  } else {
    auto Op = BinaryOperator::getBaseOp(B->getOpcode());
    const Type *RT = R->getType()->getUnqualified();
    bool PtrArith = LU->isPointer() && RT->isInteger() &&
                    (Op == BinaryOperator::Add || Op == BinaryOperator::Sub);
    bool IntOnly = Op == BinaryOperator::Rem || Op == BinaryOperator::Shl ||
                   Op == BinaryOperator::Shr || Op == BinaryOperator::And ||
                   Op == BinaryOperator::Or || Op == BinaryOperator::Xor;
    if (PtrArith) {
      B->setComputationType(LU);
      B->setRHS(R);
    } else if (LU->isArithmetic() && RT->isArithmetic() &&
               (!IntOnly || (LU->isInteger() && RT->isInteger()))) {
      const Type *CT = commonArith(LU, RT);
      B->setComputationType(CT);
      B->setRHS(convert(R, CT));
    } else if (LU->isVector() && (RT == LU || RT->isArithmetic()) && !IntOnly) {
      B->setComputationType(LU);
      B->setRHS(convert(R, LU));
    } else {
      Diags.report(B->getRange(), diag::err_typecheck_binary)
          << LU->str() << RT->str();
      B->setRHS(R);
      return error(B);
    }
  }
  B->setType(LU);
  warnDivisionByZero(B, B->getComputationType(), Diags);
  return B;
}

/// `Op(a, b)`, Op an operator type (docs/language.md, "Generic
/// functions"): `a op b` for + * & | ^, exactly as written so; for min and
/// max the value reduce combines with, `b < a ? b : a` and `a < b ? b : a`
/// with each operand evaluated once, which stays a ConstructExpr of the
/// operator type (scalar operands only, converted to their common type).
Expr *Sema::checkOperatorApply(ConstructExpr *C, const OperatorType *Op) {
  auto Args = C->args();
  if (Args.size() != 2) {
    for (Expr *&A : Args)
      A = checkExpr(A);
    Diags.report(C->getRange(), diag::err_operator_apply_arity)
        << Op->getSpelling() << unsigned(Args.size());
    return error(C);
  }
  using BO = BinaryOperator;
  llvm::StringRef S = Op->getSpelling();
  if (S != "min" && S != "max") {
    BO::Opcode K = S == "+"   ? BO::Add
                   : S == "*" ? BO::Mul
                   : S == "&" ? BO::And
                   : S == "|" ? BO::Or
                              : BO::Xor;
    auto *B = new (Ctx)
        BinaryOperator(C->getRange(), K, Args[0], Args[1], C->getBeginLoc());
    B->setWrapsOnOverflow(true);
    return checkBinary(B);
  }
  for (Expr *&A : Args)
    A = rvalue(checkExpr(A));
  const Type *LT = Args[0]->getType()->getUnqualified();
  const Type *RT = Args[1]->getType()->getUnqualified();
  if (LT->isError() || RT->isError())
    return error(C);
  if (!LT->isArithmetic() || !RT->isArithmetic()) {
    Diags.report(C->getRange(), diag::err_operator_apply_operands)
        << S << LT->str() << RT->str();
    return error(C);
  }
  const Type *CT = commonArith(LT, RT);
  Args[0] = convert(Args[0], CT);
  Args[1] = convert(Args[1], CT);
  C->setType(CT);
  return C;
}

Expr *Sema::checkBinary(BinaryOperator *B) {
  using BO = BinaryOperator;
  auto Op = B->getOpcode();
  Expr *L = rvalue(checkExpr(B->getLHS()));
  bool Logical = Op == BO::LAnd || Op == BO::LOr;
  bool Dep = Logical && inDevice() && isThreadDependent(L);
  bool Device = Logical && inDevice();
  if (Dep)
    Divergent.push_back(L);
  if (Device)
    ControlFlow.push_back({B, isTargetQuestion(L)});
  Expr *R = rvalue(checkExpr(B->getRHS()));
  if (Device)
    ControlFlow.pop_back();
  if (Dep)
    Divergent.pop_back();
  B->setLHS(L);
  B->setRHS(R);
  const Type *LT = L->getType()->getUnqualified();
  const Type *RT = R->getType()->getUnqualified();
  if (LT->isError() || RT->isError())
    return error(B);
  auto Fail = [&]() {
    Diags.report(B->getRange(), diag::err_typecheck_binary)
        << L->getType()->str() << R->getType()->str();
    return error(B);
  };
  if (Op == BO::Comma) {
    B->setType(RT);
    return B;
  }
  if (Logical) {
    if (!LT->isScalar() || !RT->isScalar())
      return Fail();
    B->setLHS(toBool(L));
    B->setRHS(toBool(R));
    B->setType(Ctx.getBoolType());
    return B;
  }
  bool Compare = Op >= BO::LT && Op <= BO::NE;
  bool IntOnly = Op == BO::Rem || Op == BO::Shl || Op == BO::Shr ||
                 Op == BO::And || Op == BO::Or || Op == BO::Xor;
  if (LT->isArithmetic() && RT->isArithmetic()) {
    if (IntOnly && (!LT->isInteger() || !RT->isInteger()))
      return Fail();
    const Type *CT = commonArith(LT, RT);
    if (Op == BO::Shl || Op == BO::Shr) {
      B->setLHS(convert(L, promote(LT)));
      B->setRHS(convert(R, promote(RT)));
      B->setType(promote(LT));
      return B;
    }
    B->setLHS(convert(L, CT));
    B->setRHS(convert(R, CT));
    B->setType(Compare ? Ctx.getBoolType() : CT);
    warnDivisionByZero(B, CT, Diags);
    warnIntegerOverflow(B, Diags);
    return B;
  }
  if (LT->isVector() || RT->isVector()) {
    const Type *VT = LT->isVector() ? LT : RT;
    const Type *Other = LT->isVector() ? RT : LT;
    auto *V = cast<VectorType>(VT);
    if (Compare || (Other != VT && !Other->isArithmetic()) ||
        (IntOnly && !V->getElementType()->isInteger()))
      return Fail();
    B->setLHS(convert(L, VT));
    B->setRHS(convert(R, VT));
    B->setType(VT);
    warnDivisionByZero(B, VT, Diags);
    return B;
  }
  // Pointers.
  bool LP = LT->isPointer(), RP = RT->isPointer();
  bool LN = isa<NullType>(LT) || (RP && isNullPointerConstant(L)),
       RN = isa<NullType>(RT) || (LP && isNullPointerConstant(R));
  if ((Op == BO::Add || Op == BO::Sub) && LP && RT->isInteger()) {
    B->setType(LT);
    return B;
  }
  if (Op == BO::Add && RP && LT->isInteger()) {
    B->setType(RT);
    return B;
  }
  if (Op == BO::Sub && LP && RP) {
    if (LT != RT)
      return Fail();
    B->setType(Ctx.getBuiltinType(BuiltinType::Int64));
    return B;
  }
  if (Compare && (LP || LN) && (RP || RN)) {
    if (LP && RN)
      B->setRHS(convert(R, LT));
    else if (RP && LN)
      B->setLHS(convert(L, RT));
    else if (LP && RP && LT != RT) {
      const Type *LE = cast<PointerType>(LT)->getPointee()->getUnqualified();
      const Type *RE = cast<PointerType>(RT)->getPointee()->getUnqualified();
      if (LE != RE && !LE->isVoid() && !RE->isVoid())
        return Fail();
    }
    B->setType(Ctx.getBoolType());
    return B;
  }
  return Fail();
}

Expr *Sema::checkUnary(UnaryOperator *U) {
  using UO = UnaryOperator;
  Expr *S = checkExpr(U->getSubExpr());
  auto Op = U->getOpcode();
  if (Op != UO::AddrOf)
    S = rvalue(S);
  U->setSubExpr(S);
  const Type *T = S->getType()->getUnqualified();
  if (T->isError())
    return error(U);
  auto Fail = [&]() {
    Diags.report(U->getRange(), diag::err_typecheck_unary)
        << S->getType()->str();
    return error(U);
  };
  switch (Op) {
  case UO::Plus:
  case UO::Minus:
    if (T->isArithmetic()) {
      U->setSubExpr(convert(S, promote(T)));
      U->setType(promote(T));
      warnIntegerOverflow(U, Diags);
      return U;
    }
    if (T->isVector()) {
      U->setType(T);
      return U;
    }
    return Fail();
  case UO::Not:
    if (!T->isScalar())
      return Fail();
    U->setSubExpr(toBool(S));
    U->setType(Ctx.getBoolType());
    return U;
  case UO::BitNot:
    if (!T->isInteger())
      return Fail();
    U->setSubExpr(convert(S, promote(T)));
    U->setType(promote(T));
    return U;
  case UO::Deref: {
    auto *P = dyn_cast<PointerType>(T);
    if (!P || P->getPointee()->isVoid()) {
      Diags.report(U->getRange(), diag::err_typecheck_deref)
          << S->getType()->str();
      return error(U);
    }
    U->setType(P->getPointee());
    U->setLValue(true);
    return U;
  }
  case UO::AddrOf:
    if (auto *TQ = dyn_cast<TargetQueryExpr>(S->ignoreParenImpCasts())) {
      Diags.report(U->getRange(), diag::err_target_query_addrof)
          << TQ->getName();
      return error(U);
    }
    if (!S->isLValue()) {
      Diags.report(U->getRange(), diag::err_addrof_rvalue)
          << S->getType()->str();
      return error(U);
    }
    U->setType(Ctx.getPointerType(S->getType()));
    return U;
  default: { // ++ and --
    if (!S->isLValue() || S->getType()->isConst() ||
        !(T->isArithmetic() || T->isPointer())) {
      Diags.report(U->getRange(), diag::err_incdec_not_lvalue)
          << UO::getSpelling(Op);
      return error(U);
    }
    if (reportHostWrite(S))
      return error(U);
    U->setType(T);
    return U;
  }
  }
}

Expr *Sema::checkCall(CallExpr *C) {
  bool Discarded = C == DiscardedCall;
  DiscardedCall = nullptr;
  Expr *Callee = C->getCallee();
  FunctionDecl *F = nullptr;
  if (auto *R = dyn_cast<DeclRefExpr>(Callee)) {
    F = Functions.lookup(R->getName());
    // A program sees its own declarations, not the collective library's.
    if (F && !Ctx.isLibraryFile(R->getRange().Begin.File) &&
        !ProgramFunctions.contains(R->getName()))
      F = nullptr;
    if (F && !lookup(R->getName())) {
      R->setDecl(F);
      R->setType(F->getFunctionType());
    } else if (!F && !lookup(R->getName())) {
      Diags.report(R->getRange(), diag::err_undeclared_function)
          << R->getName();
      for (Expr *&A : C->args())
        A = checkExpr(A);
      return error(C);
    } else {
      F = nullptr;
    }
  }
  // A generic function: the instantiation for these arguments.
  bool ArgsChecked = false;
  if (auto *R = dyn_cast<DeclRefExpr>(Callee);
      F && (R->hasTemplateArgs() || Templates.Patterns.count(F))) {
    ArgsChecked = true;
    F = instantiateForCall(C, R, F);
    if (!F)
      return error(C);
    R->setDecl(F);
    R->setType(F->getFunctionType());
  }
  if (!F) {
    Expr *E = checkExpr(Callee);
    if (!E->getType()->isError())
      Diags.report(Callee->getRange(), diag::err_call_not_function)
          << E->getType()->str();
    for (Expr *&A : C->args())
      A = checkExpr(A);
    return error(C);
  }
  // Where the callee may run.
  if (F->getFunctionKind() == FunctionDecl::FK_Collective) {
    if (!inParallel() || InRequire)
      Diags.report(C->getRange(), diag::err_collective_in_host) << F->getName();
    else {
      checkDivergence(C, diag::err_collective_divergent, F->getName());
      checkSyncPlacement(C,
                         ("call to collective '" + F->getName() + "'").str());
    }
  } else if (F->getFunctionKind() == FunctionDecl::FK_Host && inDevice() &&
             !isPrintfDecl(F)) {
    Diags.report(C->getRange(), diag::err_host_in_device) << F->getName();
    auto It = Infos.find(F);
    bool Spawns = It != Infos.end() && It->second.HasSpawn;
    auto Through = HostThroughCall.find(F);
    std::string Why =
        F->isExternC()           ? "it is declared extern \"C\""
        : F->getName() == "main" ? "it is 'main'"
        : Spawns                 ? "it contains a spawn"
        : Through != HostThroughCall.end()
            ? ("it calls '" + Through->second + "', which is host code").str()
        : It != Infos.end() && !It->second.Global.empty()
            ? ("it uses global variable '" + It->second.Global +
               "', which is not const and lives in host memory")
                  .str()
            : "it allocates with dnew or dtempnew";
    Diags.report(SourceRange(F->getLoc()), diag::note_host_because)
        << F->getName() << Why;
  }
  auto *FT = F->getFunctionType();
  auto Params = FT->getParams();
  size_t N = C->args().size();
  bool ArityOk = FT->isVarargs() ? N >= Params.size() : N == Params.size();
  if (!ArityOk) {
    Diags.report(C->getRange(), FT->isVarargs() ? diag::err_call_arity_varargs
                                                : diag::err_call_arity)
        << F->getName() << unsigned(Params.size()) << unsigned(N);
    Diags.report(SourceRange(F->getLoc()), diag::note_declared_here)
        << F->getName();
    for (Expr *&A : C->args())
      if (!ArgsChecked)
        A = checkExpr(A);
    return error(C);
  }
  for (size_t I = 0; I < N; ++I) {
    Expr *A = ArgsChecked ? C->args()[I] : rvalue(checkExpr(C->args()[I]));
    if (I < Params.size()) {
      A = convert(A, Params[I]);
    } else if (A->getType()->getUnqualified() == Ctx.getFloatType()) {
      A = convert(A, Ctx.getDoubleType()); // C default argument promotion.
    } else if (A->getType()->isInteger() &&
               promote(A->getType()) != A->getType()->getUnqualified()) {
      A = convert(A, promote(A->getType()));
    }
    C->args()[I] = A;
  }
  C->setType(FT->getReturnType()->getUnqualified());
  if (isPrintfDecl(F))
    return checkPrintfPlace(C, Discarded);
  return C;
}

/// printf in device code: in a spawn or an inline function it must be a
/// device printf; in a device function, a call whose format qualifies and
/// whose value is unused becomes one (the function may run on a GPU), and
/// any other stays a host call, which the GPU targets reject if a thread
/// reaches it.
Expr *Sema::checkPrintfPlace(CallExpr *C, bool Discarded) {
  bool DeviceFn = !SpawnDepth && !InRequire && CurFn &&
                  CurFn->getFunctionKind() == FunctionDecl::FK_Device;
  if (inDevice()) {
    if (!Discarded) {
      Diags.report(C->getRange(), diag::err_device_printf_value);
      return error(C);
    }
    if (!checkDevicePrintf(C, /*Report=*/true))
      return error(C);
  } else if (!DeviceFn || !Discarded ||
             !checkDevicePrintf(C, /*Report=*/false)) {
    return C;
  }
  C->setDevicePrintf(true);
  C->setType(Ctx.getVoidType());
  return C;
}

Expr *Sema::checkMember(MemberExpr *M) {
  Expr *Base = checkExpr(M->getBase());
  M->setBase(Base);
  const Type *T = Base->getType()->getUnqualified();
  if (T->isError())
    return error(M);
  bool LValue = Base->isLValue();
  if (M->isArrow()) {
    auto *P = dyn_cast<PointerType>(T);
    if (!P || !isa<StructType>(P->getPointee()->getUnqualified())) {
      Diags.report(Base->getRange(), diag::err_arrow_not_pointer) << T->str();
      return error(M);
    }
    M->setBase(rvalue(Base));
    T = P->getPointee()->getUnqualified();
    LValue = true;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    StructDecl *D = ST->getDecl();
    if (!D) {
      Diags.report(Base->getRange(), diag::err_unknown_struct) << ST->getName();
      return error(M);
    }
    FieldDecl *F = D->getField(M->getMemberName());
    if (!F) {
      Diags.report(SourceRange(M->getMemberLoc()), diag::err_no_member)
          << M->getMemberName() << T->str();
      return error(M);
    }
    M->setField(F);
    M->setType(F->getType());
    M->setLValue(LValue);
    return M;
  }
  if (auto *VT = dyn_cast<VectorType>(T)) {
    llvm::SmallVector<unsigned, 4> Comps;
    llvm::StringRef Name = M->getMemberName();
    bool Ok = Name.size() >= 1 && Name.size() <= 4;
    for (char C : Name) {
      int I = C == 'x' ? 0 : C == 'y' ? 1 : C == 'z' ? 2 : C == 'w' ? 3 : -1;
      if (I < 0 || unsigned(I) >= VT->getNumElements())
        Ok = false;
      else
        Comps.push_back(I);
    }
    if (!Ok || M->isArrow()) {
      Diags.report(SourceRange(M->getMemberLoc()), diag::err_bad_swizzle)
          << Name << T->str();
      return error(M);
    }
    M->setComponents(Ctx.copyArray<unsigned>(Comps));
    M->setType(Comps.size() == 1
                   ? (const Type *)VT->getElementType()
                   : Ctx.getVectorType(VT->getElementType(), Comps.size()));
    M->setLValue(LValue);
    return M;
  }
  Diags.report(Base->getRange(), diag::err_member_not_struct) << T->str();
  return error(M);
}

Expr *Sema::checkConstruct(ConstructExpr *C) {
  const Type *T = C->getConstructedType()->getUnqualified();
  if (auto *OT = dyn_cast<OperatorType>(T))
    return checkOperatorApply(C, OT);
  auto Args = C->args();
  for (Expr *&A : Args)
    A = rvalue(checkExpr(A));
  C->setType(T);
  for (Expr *A : Args)
    if (A->getType()->isError())
      return C;
  auto *VT = dyn_cast<VectorType>(T);
  if (!VT) {
    // Functional cast `int(x)`.
    if (Args.size() != 1 || T->isVoid()) {
      Diags.report(C->getRange(), diag::err_construct_arity)
          << T->str() << 1u << unsigned(Args.size());
      return error(C);
    }
    if (!Args[0]->getType()->isArithmetic()) {
      Diags.report(Args[0]->getRange(), diag::err_construct_arg)
          << T->str() << Args[0]->getType()->str();
      return error(C);
    }
    Args[0] = convert(Args[0], T);
    return C;
  }
  if (Args.size() == 1 && Args[0]->getType()->isArithmetic()) {
    Args[0] = convert(Args[0], VT->getElementType());
    return C;
  }
  unsigned Count = 0;
  for (Expr *&A : Args) {
    const Type *AT = A->getType()->getUnqualified();
    if (AT->isArithmetic()) {
      A = convert(A, VT->getElementType());
      ++Count;
    } else if (auto *AV = dyn_cast<VectorType>(AT)) {
      A = convert(
          A, Ctx.getVectorType(VT->getElementType(), AV->getNumElements()));
      Count += AV->getNumElements();
    } else {
      Diags.report(A->getRange(), diag::err_construct_arg)
          << T->str() << AT->str();
      return error(C);
    }
  }
  if (Count != VT->getNumElements()) {
    Diags.report(C->getRange(), diag::err_construct_arity)
        << T->str() << VT->getNumElements() << Count;
    return error(C);
  }
  return C;
}
