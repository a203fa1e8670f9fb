//===- SemaBuiltin.cpp - checking builtins, atomics and groups ------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The builtin calls (thread.*, collectives, shuffles, the library's chunk
/// operations), thread.get's recomputable expressions, atomics, and the
/// work-group and subgroup operations.
///
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

using namespace bsgp;
using namespace bsgp::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;

/// The type of `E` if it is a 32-bit or 64-bit scalar (an integer one with
/// `IntegerOnly`): the words that shuffles, subgroup.match and the CPU
/// chunk ops move. Null otherwise.
static const BuiltinType *getWordScalarType(const Expr *E, bool IntegerOnly) {
  const auto *T = dyn_cast<BuiltinType>(E->getType()->getUnqualified());
  if (!T || !(IntegerOnly ? T->isInteger() : T->isArithmetic()) ||
      (T->getBitWidth() != 32 && T->getBitWidth() != 64))
    return nullptr;
  return T;
}

//===----------------------------------------------------------------------===//
// Builtins and atomics
//===----------------------------------------------------------------------===//

/// `thread.get(r, e)` is the value e had in thread r at the end of the
/// previous superstep, which is defined when e only combines variables
/// (each read from thread r), constants and operators: MLIRGen gets every
/// thread-local variable of e and recomputes e here. Returns the first part
/// of e that has no such value (a memory access, a call, a thread
/// attribute, a side effect, a private array) and how to call it.
std::pair<Expr *, const char *> Sema::findUngettable(Expr *E) {
  using Result = std::pair<Expr *, const char *>;
  if (!E)
    return {nullptr, nullptr};
  switch (E->getKind()) {
  case Stmt::SK_IntegerLiteral:
  case Stmt::SK_FloatingLiteral:
  case Stmt::SK_BoolLiteral:
  case Stmt::SK_CharLiteral:
  case Stmt::SK_NullLiteral:
  case Stmt::SK_Sizeof:
  case Stmt::SK_TargetQuery:
    return {nullptr, nullptr};
  case Stmt::SK_DeclRef: {
    auto *V = dyn_cast_or_null<VarDecl>(cast<DeclRefExpr>(E)->getDecl());
    if (!V)
      return Result{E, "a function"};
    if (isa<ArrayType>(V->getType()->getUnqualified()))
      return Result{E, "a thread-private array"};
    return {nullptr, nullptr};
  }
  case Stmt::SK_Paren:
    return findUngettable(cast<ParenExpr>(E)->getSubExpr());
  case Stmt::SK_Unary: {
    auto *U = cast<UnaryOperator>(E);
    switch (U->getOpcode()) {
    case UnaryOperator::Deref:
      return Result{E, "a memory access"};
    case UnaryOperator::AddrOf:
      return Result{E, "an address"};
    case UnaryOperator::PreInc:
    case UnaryOperator::PreDec:
    case UnaryOperator::PostInc:
    case UnaryOperator::PostDec:
      return Result{E, "an increment or decrement"};
    default:
      return findUngettable(U->getSubExpr());
    }
  }
  case Stmt::SK_Binary: {
    auto *Bin = cast<BinaryOperator>(E);
    if (Bin->isAssignmentOp())
      return Result{E, "an assignment"};
    if (Result R = findUngettable(Bin->getLHS()); R.first)
      return R;
    return findUngettable(Bin->getRHS());
  }
  case Stmt::SK_Conditional: {
    auto *C = cast<ConditionalOperator>(E);
    for (Expr *X : {C->getCond(), C->getTrueExpr(), C->getFalseExpr()})
      if (Result R = findUngettable(X); R.first)
        return R;
    return {nullptr, nullptr};
  }
  case Stmt::SK_Cast:
    return findUngettable(cast<CastExpr>(E)->getSubExpr());
  case Stmt::SK_ImplicitCast:
    return findUngettable(cast<ImplicitCastExpr>(E)->getSubExpr());
  case Stmt::SK_Construct:
    for (Expr *X : cast<ConstructExpr>(E)->args())
      if (Result R = findUngettable(X); R.first)
        return R;
    return {nullptr, nullptr};
  case Stmt::SK_Member: {
    auto *M = cast<MemberExpr>(E);
    if (M->isArrow())
      return Result{E, "a memory access"};
    return findUngettable(M->getBase());
  }
  case Stmt::SK_Index: {
    // v[i] of a vector variable is a lane; anything else reads memory.
    auto *I = cast<IndexExpr>(E);
    const Type *BT = I->getBase()->getType();
    if (!BT || !BT->getUnqualified()->isVector())
      return Result{E, "a memory access"};
    if (Result R = findUngettable(I->getBase()); R.first)
      return R;
    return findUngettable(I->getIndex());
  }
  case Stmt::SK_ThreadAttr:
    if (!ThreadAttrExpr::isThreadDependent(cast<ThreadAttrExpr>(E)->getAttr()))
      return {nullptr, nullptr};
    return Result{E, "a thread attribute that differs between threads"};
  case Stmt::SK_Call:
    return Result{E, "a function call"};
  case Stmt::SK_BuiltinCall:
  case Stmt::SK_Group:
    return Result{E, "a thread primitive"};
  case Stmt::SK_Atomic:
    return Result{E, "an atomic operation"};
  case Stmt::SK_MathBuiltin:
    for (Expr *X : cast<MathBuiltinExpr>(E)->args())
      if (Result R = findUngettable(X); R.first)
        return R;
    return {nullptr, nullptr};
  default:
    return Result{E, "this expression"};
  }
}

/// `reduce(op, x)` and `scan(op, x)`: x arithmetic or a vector.
/// `segreduce(op, x, head)` and `segscan(op, x, head)`: x a scalar of 32 or
/// 64 bits (the element types of the library's list primitives, whose
/// operators' identities the segmented forms need), head a scalar
/// condition; segscan has no value. The bitwise operators only on
/// integers; scan and segscan assign x.
Expr *Sema::checkReduceOrScan(BuiltinCallExpr *B) {
  using BK = BuiltinCallExpr;
  auto K = B->getBuiltinKind();
  bool Segmented = K == BK::SegReduce || K == BK::SegScan;
  auto Args = B->args();
  if ((K == BK::Scan || K == BK::SegScan) && !builtinLValueArg(B, 0))
    return error(B);
  if (K == BK::Reduce || K == BK::SegReduce)
    Args[0] = rvalue(Args[0]);
  const Type *T = Args[0]->getType()->getUnqualified();
  if (Segmented) {
    auto *BT = dyn_cast<BuiltinType>(T);
    if (!BT || BT->getBitWidth() < 32)
      return builtinArgError(B, 0,
                             "an int, uint, int64, uint64, float or double");
  } else if (!T->isArithmetic() && !T->isVector()) {
    return builtinArgError(B, 0, "an arithmetic value");
  }
  auto Op = B->getReduceOp();
  const Type *Elem = T->isVector() ? cast<VectorType>(T)->getElementType() : T;
  if ((Op == BK::OpAnd || Op == BK::OpOr || Op == BK::OpXor) &&
      Elem->isFloating()) {
    Diags.report(B->getReduceOpRange(), diag::err_builtin_bitop_float)
        << BK::getOpSpelling(Op) << BK::getName(K) << T->str();
    return error(B);
  }
  if (Segmented && !builtinBoolArg(B, 1))
    return builtinArgError(B, 1, "a scalar condition");
  B->setType(K == BK::SegScan ? (const Type *)Ctx.getVoidType() : T);
  return B;
}

/// `__bsgp_chunk_reduce(x, list)` and `__bsgp_chunk_scan(x, list)`, the
/// library's CPU chunk operations (bsgp.chunk_reduce and bsgp.chunk_scan).
Expr *Sema::checkChunkOp(BuiltinCallExpr *B) {
  using BK = BuiltinCallExpr;
  auto K = B->getBuiltinKind();
  std::string Name = BuiltinCallExpr::getName(B->getBuiltinKind());
  auto Args = B->args();
  // The element types of the bsgp.chunk_* ops; the list holds one value
  // per CPU chunk, of exactly the value's type.
  Args[0] = rvalue(Args[0]);
  const BuiltinType *T = getWordScalarType(Args[0], /*IntegerOnly=*/false);
  if (!T)
    return builtinArgError(
        B, 0,
        "a 32-bit or 64-bit scalar (int, uint, int64, uint64, "
        "float or double)");
  auto Op = B->getReduceOp();
  if ((Op == BK::OpAnd || Op == BK::OpOr || Op == BK::OpXor) &&
      T->isFloating()) {
    Diags.report(B->getReduceOpRange(), diag::err_builtin_bitop_float)
        << BK::getOpSpelling(Op) << Name << T->str();
    return error(B);
  }
  Args[1] = rvalue(Args[1]);
  const auto *P = dyn_cast<PointerType>(Args[1]->getType()->getUnqualified());
  if (!P || P->getPointee()->getUnqualified() != T ||
      (K == BK::ChunkReduce && P->getPointee()->isConst()))
    return builtinArgError(B, 1,
                           "a pointer to a list of the first argument's type");
  B->setType(K == BK::ChunkScan ? (const Type *)T : Ctx.getVoidType());
  return B;
}

/// The element type of a list argument of the runtime's list primitives:
/// a pointer to a 32-bit or 64-bit scalar. Null otherwise.
static const BuiltinType *getListElementType(const Expr *E) {
  const auto *P = dyn_cast<PointerType>(E->getType()->getUnqualified());
  if (!P)
    return nullptr;
  const auto *T = dyn_cast<BuiltinType>(P->getPointee()->getUnqualified());
  if (!T || !T->isArithmetic() ||
      (T->getBitWidth() != 32 && T->getBitWidth() != 64))
    return nullptr;
  return T;
}

/// `__bsgp_native_reduce(op, in, n)`, `__bsgp_native_scan_exclusive(op, in,
/// out, n)` and `__bsgp_native_sort_pairs(keys, values, n)`: the runtime's
/// list primitives (bsgp.list_reduce, bsgp.list_scan_exclusive,
/// bsgp.list_sort_pairs), in host code.
Expr *Sema::checkNativeListOp(BuiltinCallExpr *B) {
  using BK = BuiltinCallExpr;
  auto K = B->getBuiltinKind();
  auto Args = B->args();
  for (Expr *&A : Args)
    A = rvalue(A);
  const char *ListOf =
      "a pointer to a list of int, uint, int64, uint64, float or double";
  const BuiltinType *T = getListElementType(Args[0]);
  if (!T)
    return builtinArgError(B, 0, ListOf);
  if (K == BK::NativeScanExclusive) {
    const auto *P = dyn_cast<PointerType>(Args[1]->getType()->getUnqualified());
    if (!P || P->getPointee()->isConst() ||
        P->getPointee()->getUnqualified() != T)
      return builtinArgError(B, 1,
                             "a pointer to a list of the first list's type");
  }
  if (K == BK::NativeSortPairs) {
    // Both lists are sorted in place.
    if (cast<PointerType>(Args[0]->getType()->getUnqualified())
            ->getPointee()
            ->isConst())
      return builtinArgError(B, 0, ListOf);
    const auto *P = dyn_cast<PointerType>(Args[1]->getType()->getUnqualified());
    if (!P || P->getPointee()->isConst() ||
        P->getPointee()->getUnqualified() != Ctx.getUIntType())
      return builtinArgError(B, 1, "a pointer to a list of uint");
  }
  Expr *&Count = Args.back();
  if (!Count->getType()->isInteger())
    return builtinArgError(B, Args.size() - 1, "an integer count");
  Count = convert(Count, Ctx.getBuiltinType(BuiltinType::UInt64));
  auto Op = B->getReduceOp();
  if ((Op == BK::OpAnd || Op == BK::OpOr || Op == BK::OpXor) &&
      T->isFloating()) {
    Diags.report(B->getReduceOpRange(), diag::err_builtin_bitop_float)
        << BK::getOpSpelling(Op) << BK::getName(K) << T->str();
    return error(B);
  }
  B->setType(K == BK::NativeSortPairs ? (const Type *)Ctx.getVoidType() : T);
  return B;
}

/// `__bsgp_group_lookback(x, status, min_blocks)`: the bsgp.group_lookback op
/// of the library's single-pass scan.
Expr *Sema::checkGroupLookback(BuiltinCallExpr *B) {
  auto Args = B->args();
  // The bsgp.group_lookback op: a 32-bit sum over 64-bit status words.
  Args[0] = rvalue(Args[0]);
  if (!Args[0]->getType()->isInteger())
    return builtinArgError(B, 0, "an integer");
  Args[0] = convert(Args[0], Ctx.getUIntType());
  Args[1] = rvalue(Args[1]);
  const auto *P = dyn_cast<PointerType>(Args[1]->getType()->getUnqualified());
  if (!P || P->getPointee()->isConst() ||
      P->getPointee()->getUnqualified() !=
          Ctx.getBuiltinType(BuiltinType::UInt64))
    return builtinArgError(B, 1, "a pointer to a list of uint64");
  // Blocks a multiprocessor, as [[min_blocks(N)]].
  auto *L = dyn_cast<IntegerLiteral>(Args[2]);
  if (!L || L->getValue() < 1 || L->getValue() > 32)
    return builtinArgError(B, 2, "an integer literal from 1 to 32");
  B->setType(Ctx.getUIntType());
  return B;
}

Expr *Sema::checkThreadGet(BuiltinCallExpr *B) {
  auto Args = B->args();
  if (!builtinIntArg(B, 0))
    return builtinArgError(B, 0, "an integer rank");
  if (auto [Bad, What] = findUngettable(Args[1]); Bad) {
    Diags.report(Bad->getRange(), diag::err_get_value_form) << What;
    return error(B);
  }
  Args[1] = rvalue(Args[1]);
  B->setType(Args[1]->getType()->getUnqualified());
  return B;
}

Expr *Sema::checkThreadPut(BuiltinCallExpr *B) {
  auto Args = B->args();
  if (!builtinIntArg(B, 0))
    return builtinArgError(B, 0, "an integer rank");
  if (!builtinLValueArg(B, 1))
    return error(B);
  Args[2] = convert(Args[2], Args[1]->getType());
  B->setType(Ctx.getVoidType());
  checkStraightLine(B, diag::err_put_in_control_flow);
  if (auto *Ref = dyn_cast<DeclRefExpr>(Args[1]->ignoreParenImpCasts()))
    if (auto *V = dyn_cast_or_null<VarDecl>(Ref->getDecl()))
      PendingPuts[V] = B;
  return B;
}

Expr *Sema::checkThreadRebind(BuiltinCallExpr *B) {
  auto Args = B->args();
  // The variable itself: its value is what the op replaces.
  auto *Ref = dyn_cast<DeclRefExpr>(Args[0]);
  auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Var || Var->getStorage() == VarDecl::Global) {
    Diags.report(Args[0]->getRange(), diag::err_rebind_not_variable);
    return error(B);
  }
  const Type *T = Args[0]->getType()->getUnqualified();
  if (!T->isScalar() && !T->isVector())
    return builtinArgError(B, 0,
                           "a variable of scalar, vector or pointer type");
  Args[0] = rvalue(Args[0]);
  Args[1] = convert(Args[1], T);
  B->setType(Ctx.getVoidType());
  return B;
}

Expr *Sema::checkCompactOrSplit(BuiltinCallExpr *B) {
  auto Args = B->args();
  Args[0] = rvalue(Args[0]);
  auto *P = dyn_cast<PointerType>(Args[0]->getType()->getUnqualified());
  if (!P)
    return builtinArgError(B, 0, "a pointer to the output list");
  Args[1] = convert(Args[1], P->getPointee());
  if (!builtinBoolArg(B, 2))
    return builtinArgError(B, 2, "a scalar condition");
  if (!builtinBoolArg(B, 3))
    return builtinArgError(B, 3, "a scalar flag");
  B->setType(Ctx.getVoidType());
  return B;
}

/// Reports that argument \p I of \p B is not \p What.
Expr *Sema::builtinArgError(BuiltinCallExpr *B, unsigned I, const char *What) {
  Expr *Arg = B->args()[I];
  Diags.report(Arg->getRange(), diag::err_builtin_arg)
      << (I + 1) << BuiltinCallExpr::getName(B->getBuiltinKind()) << What
      << Arg->getType()->str();
  return error(B);
}

/// Converts argument \p I of \p B to int; false if it is no integer.
bool Sema::builtinIntArg(BuiltinCallExpr *B, unsigned I) {
  Expr *&Arg = B->args()[I];
  Arg = rvalue(Arg);
  if (!Arg->getType()->isInteger())
    return false;
  Arg = convert(Arg, Ctx.getIntType());
  return true;
}

/// Converts argument \p I of \p B to bool; false if it is no scalar.
bool Sema::builtinBoolArg(BuiltinCallExpr *B, unsigned I) {
  Expr *&Arg = B->args()[I];
  Arg = rvalue(Arg);
  if (!Arg->getType()->isScalar())
    return false;
  Arg = toBool(Arg);
  return true;
}

/// Argument \p I of \p B is assigned: it must be a modifiable lvalue (and
/// not a host variable written from device code). Reports and returns false
/// otherwise.
bool Sema::builtinLValueArg(BuiltinCallExpr *B, unsigned I) {
  Expr *Arg = B->args()[I];
  if (Arg->isLValue() && !Arg->getType()->isConst())
    return !reportHostWrite(Arg);
  Diags.report(Arg->getRange(), diag::err_builtin_not_lvalue)
      << (I + 1) << BuiltinCallExpr::getName(B->getBuiltinKind());
  return false;
}

/// Checks the context and the arity common to every builtin, then
/// dispatches on its kind.
/// The operator of `reduce(Op, x)` written as a type (a template parameter
/// bound to an operator): reports and returns false when it is no
/// operator.
bool Sema::resolveOperatorTypeArg(BuiltinCallExpr *B) {
  const Type *T = B->getOperatorTypeArg();
  if (!T)
    return true;
  const auto *OT = dyn_cast<OperatorType>(T->getUnqualified());
  if (!OT) {
    Diags.report(B->getReduceOpRange(), diag::err_not_an_operator)
        << T->str() << BuiltinCallExpr::getName(B->getBuiltinKind());
    return false;
  }
  for (int Op = BuiltinCallExpr::OpAdd; Op <= BuiltinCallExpr::OpXor; ++Op)
    if (OT->getSpelling() ==
        BuiltinCallExpr::getOpSpelling(BuiltinCallExpr::ReduceOp(Op)))
      B->setReduceOp(BuiltinCallExpr::ReduceOp(Op));
  return true;
}

Expr *Sema::checkBuiltin(BuiltinCallExpr *B) {
  using BK = BuiltinCallExpr;
  auto K = B->getBuiltinKind();
  std::string Name = BK::getName(K);
  if (!resolveOperatorTypeArg(B)) {
    for (Expr *&A : B->args())
      A = checkExpr(A);
    return error(B);
  }
  if (BK::isHostOnly(K)) {
    if (inParallel() && !InRequire)
      Diags.report(B->getRange(), diag::err_builtin_host_only) << Name;
  } else if (!inParallel())
    Diags.report(B->getRange(), diag::err_thread_outside_spawn) << Name;
  else if (InRequire)
    Diags.report(B->getRange(), diag::err_require_device) << Name;
  else if (BK::isCollective(K)) {
    checkDivergence(B, diag::err_collective_divergent, Name);
    checkSyncPlacement(B, "call to collective '" + Name + "'");
  }

  unsigned Want = 1;
  switch (K) {
  case BK::ThreadGet:
  case BK::ThreadRebind:
    Want = 2;
    break;
  case BK::ThreadPut:
  case BK::GroupLookback:
  case BK::NativeScanExclusive:
  case BK::NativeSortPairs:
    Want = 3;
    break;
  case BK::Compact:
  case BK::Split:
    Want = 4;
    break;
  case BK::ChunkReduce:
  case BK::ChunkScan:
  case BK::SegReduce:
  case BK::SegScan:
  case BK::NativeReduce:
    Want = 2;
    break;
  case BK::SinglePass:
    Want = 0;
    break;
  default:
    break;
  }
  auto Args = B->args();
  for (Expr *&A : Args)
    A = checkExpr(A);
  if (Args.size() != Want) {
    Diags.report(B->getRange(), diag::err_builtin_arity)
        << Name << Want << unsigned(Args.size());
    return error(B);
  }
  for (Expr *A : Args)
    if (A->getType()->isError())
      return error(B);
  switch (K) {
  case BK::Reduce:
  case BK::Scan:
  case BK::SegReduce:
  case BK::SegScan:
    return checkReduceOrScan(B);
  case BK::ChunkReduce:
  case BK::ChunkScan:
    return checkChunkOp(B);
  case BK::GroupLookback:
    return checkGroupLookback(B);
  case BK::NativeReduce:
  case BK::NativeScanExclusive:
  case BK::NativeSortPairs:
    return checkNativeListOp(B);
  case BK::SinglePass:
    B->setType(Ctx.getBoolType());
    return B;
  case BK::SortIdx:
  case BK::ThreadSortBy: {
    Args[0] = rvalue(Args[0]);
    if (!Args[0]->getType()->isArithmetic())
      return builtinArgError(B, 0, "an arithmetic sort key");
    B->setType(K == BK::SortIdx ? (const Type *)Ctx.getIntType()
                                : Ctx.getVoidType());
    return B;
  }
  case BK::ThreadFork:
    if (!builtinIntArg(B, 0))
      return builtinArgError(B, 0, "an integer");
    B->setType(Ctx.getIntType());
    return B;
  case BK::ThreadKill:
  case BK::ThreadSplit:
    if (!builtinBoolArg(B, 0))
      return builtinArgError(B, 0, "a scalar condition");
    B->setType(Ctx.getVoidType());
    return B;
  case BK::ThreadGet:
    return checkThreadGet(B);
  case BK::ThreadPut:
    return checkThreadPut(B);
  case BK::ThreadRebind:
    return checkThreadRebind(B);
  case BK::Compact:
  case BK::Split:
    return checkCompactOrSplit(B);
  }
  return error(B);
}

/// min(a, b), max(a, b), clamp(x, lo, hi) and abs(x): anywhere (host and
/// device code, require blocks), on integer and floating scalars and
/// vectors. The arguments take one type as a binary operator's operands do
/// (the usual arithmetic conversions; a scalar splats to the vector), and
/// two vectors must have the same type.
Expr *Sema::checkMathBuiltin(MathBuiltinExpr *M) {
  const char *Name = MathBuiltinExpr::getName(M->getOp());
  auto Args = M->args();
  for (Expr *&A : Args)
    A = rvalue(checkExpr(A));
  unsigned Want = MathBuiltinExpr::getArity(M->getOp());
  if (Args.size() != Want) {
    Diags.report(M->getRange(), diag::err_builtin_arity)
        << Name << Want << unsigned(Args.size());
    return error(M);
  }
  const Type *T = nullptr;
  for (unsigned I = 0; I < Args.size(); ++I) {
    const Type *AT = Args[I]->getType()->getUnqualified();
    if (AT->isError())
      return error(M);
    auto *V = dyn_cast<VectorType>(AT);
    bool Ok = AT->isArithmetic() || (V && (V->getElementType()->isInteger() ||
                                           V->getElementType()->isFloating()));
    // Two vectors must have the same type.
    if (Ok && V && T && T->isVector() && T != AT)
      Ok = false;
    if (!Ok) {
      std::string What =
          T && T->isVector()
              ? "a scalar or '" + T->str() + "'"
              : std::string("an integer, floating or vector value");
      Diags.report(Args[I]->getRange(), diag::err_builtin_arg)
          << (I + 1) << Name << What << AT->str();
      return error(M);
    }
    if (!T || V)
      T = V ? AT : promote(AT);
    else if (!T->isVector())
      T = commonArith(T, AT);
  }
  for (Expr *&A : Args)
    A = convert(A, T);
  M->setType(T);
  return M;
}

/// atomicAdd(p, v) ... atomicCAS(p, expected, desired), atomicLoad(p):
/// device code only, `p` a pointer to a non-const 32- or 64-bit integer (or
/// float for Add, Exch and CAS; const allowed for Load); the other
/// arguments are converted to the pointee type, which is also the result
/// type (the old value). __threadfence() takes nothing and is void.
Expr *Sema::checkAtomic(AtomicExpr *A) {
  const char *Name = AtomicExpr::getName(A->getOp());
  bool DeviceFn = CurFn && !InRequire && SpawnDepth == 0 &&
                  CurFn->getFunctionKind() == FunctionDecl::FK_Device;
  if (!inDevice() && !DeviceFn)
    Diags.report(A->getRange(), diag::err_atomic_in_host) << Name;
  for (Expr *&X : A->args())
    X = rvalue(checkExpr(X));
  bool IsLoad = A->getOp() == AtomicExpr::Load;
  bool IsFence = A->getOp() == AtomicExpr::Fence;
  unsigned Want = A->getOp() == AtomicExpr::CAS ? 3
                  : IsLoad                      ? 1
                  : IsFence                     ? 0
                                                : 2;
  if (A->args().size() != Want) {
    Diags.report(A->getRange(), diag::err_atomic_arity)
        << Name << Want << unsigned(A->args().size());
    return error(A);
  }
  if (IsFence) {
    A->setType(Ctx.getVoidType());
    return A;
  }
  for (Expr *X : A->args())
    if (X->getType()->isError())
      return error(A);
  Expr *P = A->args()[0];
  auto *PT = dyn_cast<PointerType>(P->getType()->getUnqualified());
  if (!PT) {
    Diags.report(P->getRange(), diag::err_atomic_not_pointer)
        << Name << P->getType()->str();
    return error(A);
  }
  const Type *Pointee = PT->getPointee();
  if (Pointee->isConst() && !IsLoad) {
    Diags.report(P->getRange(), diag::err_atomic_const)
        << Name << P->getType()->str();
    return error(A);
  }
  const Type *T = Pointee->getUnqualified();
  bool FloatOk = A->getOp() == AtomicExpr::Add ||
                 A->getOp() == AtomicExpr::Exch ||
                 A->getOp() == AtomicExpr::CAS;
  bool Ok = false;
  if (auto *BT = dyn_cast<BuiltinType>(T)) {
    switch (BT->getBuiltinKind()) {
    case BuiltinType::Int:
    case BuiltinType::UInt:
    case BuiltinType::Int64:
    case BuiltinType::UInt64:
      Ok = true;
      break;
    case BuiltinType::Float:
      Ok = FloatOk;
      break;
    default:
      break;
    }
  }
  if (!Ok) {
    Diags.report(P->getRange(), diag::err_atomic_type)
        << Name << P->getType()->str()
        << (FloatOk ? "a pointer to int, uint, int64, uint64 or float"
                    : "a pointer to int, uint, int64 or uint64");
    return error(A);
  }
  for (Expr *&X : A->args().drop_front())
    X = convert(X, T);
  A->setType(T);
  return A;
}

//===----------------------------------------------------------------------===//
// Work groups and subgroups
//===----------------------------------------------------------------------===//

Expr *Sema::checkGroup(GroupExpr *G) {
  using GE = GroupExpr;
  GE::GroupOp K = G->getGroupOp();
  const char *Name = GE::getName(K);
  // group.size is a property of the target, which host code may ask too
  // (to size a list of per-group partials); the rest belong to a thread.
  if (K == GE::GroupSize) {
    // In host code the size of the running target's work groups; a
    // function both may call would mean either.
    if (!inParallel() && CurFn &&
        CurFn->getFunctionKind() != FunctionDecl::FK_Host)
      Diags.report(G->getRange(), diag::err_group_size_shared_function)
          << CurFn->getName();
  } else if (!inParallel()) {
    Diags.report(G->getRange(), diag::err_group_outside_spawn) << Name;
  } else if (InRequire) {
    Diags.report(G->getRange(), diag::err_require_device) << Name;
  }

  auto Args = G->args();
  for (Expr *&A : Args)
    A = rvalue(checkExpr(A));
  unsigned Want = 0;
  switch (K) {
  case GE::Shuffle:
  case GE::ShuffleXor:
  case GE::ShuffleUp:
  case GE::ShuffleDown:
    Want = 2;
    break;
  case GE::Any:
  case GE::All:
  case GE::Ballot:
  case GE::SubgroupAdd:
  case GE::SubgroupMin:
  case GE::SubgroupMax:
  case GE::SubgroupAnd:
  case GE::SubgroupOr:
  case GE::SubgroupXor:
  case GE::SubgroupMatch:
    Want = 1;
    break;
  default:
    break;
  }
  if (Args.size() != Want) {
    Diags.report(G->getRange(), diag::err_builtin_arity)
        << Name << Want << unsigned(Args.size());
    return error(G);
  }
  for (Expr *A : Args)
    if (A->getType()->isError())
      return error(G);
  auto ArgErr = [&](unsigned I, const char *What) {
    Diags.report(Args[I]->getRange(), diag::err_builtin_arg)
        << (I + 1) << Name << What << Args[I]->getType()->str();
    return error(G);
  };
  switch (K) {
  case GE::GroupBarrier:
    G->setType(Ctx.getVoidType());
    return G;
  case GE::Shuffle:
  case GE::ShuffleXor:
  case GE::ShuffleUp:
  case GE::ShuffleDown: {
    // The hardware moves 32-bit words; 64-bit values take two shuffles.
    const BuiltinType *T = getWordScalarType(Args[0], /*IntegerOnly=*/false);
    if (!T)
      return ArgErr(0, "a 32-bit or 64-bit scalar (int, uint, int64, uint64, "
                       "float or double)");
    if (!Args[1]->getType()->isInteger())
      return ArgErr(1, "an integer");
    Args[1] = convert(Args[1], Ctx.getIntType());
    G->setType(T);
    return G;
  }
  case GE::Any:
  case GE::All:
  case GE::Ballot:
    if (!Args[0]->getType()->isScalar())
      return ArgErr(0, "a scalar condition");
    Args[0] = toBool(Args[0]);
    G->setType(K == GE::Ballot ? Ctx.getBuiltinType(BuiltinType::UInt64)
                               : (const Type *)Ctx.getBoolType());
    return G;
  case GE::SubgroupAdd:
  case GE::SubgroupMin:
  case GE::SubgroupMax:
  case GE::SubgroupAnd:
  case GE::SubgroupOr:
  case GE::SubgroupXor: {
    // What CUDA's redux.sync and every Vulkan subgroup reduce on.
    const auto *T = dyn_cast<BuiltinType>(Args[0]->getType()->getUnqualified());
    if (!T || !T->isInteger() || T->getBitWidth() != 32)
      return ArgErr(0, "a 32-bit integer (int or uint)");
    G->setType(T);
    return G;
  }
  case GE::SubgroupMatch: {
    // What match.any.sync compares: 32-bit or 64-bit words.
    if (!getWordScalarType(Args[0], /*IntegerOnly=*/true))
      return ArgErr(0, "a 32-bit or 64-bit integer (int, uint, int64 or "
                       "uint64)");
    G->setType(Ctx.getBuiltinType(BuiltinType::UInt64));
    return G;
  }
  default:
    G->setType(Ctx.getIntType());
    return G;
  }
}
