//===- ConstantEval.cpp - integer constant expressions --------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// C's integer constant expressions with BSGP's integer types (bool 1 bit,
// char 8 signed, int and uint 32, int64 and uint64 64; a 64-bit target's
// `long` is int64). A value is its type and its pattern extended to 64 bits,
// so comparisons of one type's values are 64-bit comparisons of the right
// signedness; exact results of signed `+ - *`, needed to tell overflow,
// are computed in 128 bits.
//
//===----------------------------------------------------------------------===//

#include "bsgp/AST/ConstantEval.h"
#include "bsgp/AST/Layout.h"

#include "llvm/Support/MathExtras.h"

using namespace bsgp;
using llvm::dyn_cast;
using Kind = BuiltinType::BuiltinKind;

std::optional<uint64_t> bsgp::constantSizeOf(const Type *T) {
  if (uint64_t N = typeSize(T))
    return N;
  return std::nullopt;
}

Kind bsgp::integerLiteralKind(const IntegerLiteral *L) {
  uint64_t V = L->getValue();
  bool U = L->hasUnsignedSuffix(), Long = L->hasLongSuffix();
  if (!Long && !U && V <= INT32_MAX)
    return BuiltinType::Int;
  if (!Long && (U || !L->isDecimal()) && V <= UINT32_MAX)
    return BuiltinType::UInt;
  if (!U && V <= INT64_MAX)
    return BuiltinType::Int64;
  return BuiltinType::UInt64;
}

std::optional<Kind> bsgp::integerKind(const Type *T) {
  auto *B = T ? dyn_cast<BuiltinType>(T->getUnqualified()) : nullptr;
  if (!B || !B->isInteger())
    return std::nullopt;
  return B->getBuiltinKind();
}

static unsigned widthOf(Kind K) {
  switch (K) {
  case BuiltinType::Bool:
    return 1;
  case BuiltinType::Char:
  case BuiltinType::UChar:
    return 8;
  case BuiltinType::Short:
  case BuiltinType::UShort:
    return 16;
  case BuiltinType::Int:
  case BuiltinType::UInt:
    return 32;
  default:
    return 64;
  }
}

static bool isSignedKind(Kind K) {
  return K == BuiltinType::Char || K == BuiltinType::Short ||
         K == BuiltinType::Int || K == BuiltinType::Int64;
}

/// C's integer promotions: bool, char, short and their unsigned forms
/// become int (which holds all their values).
static Kind promote(Kind K) { return widthOf(K) < 32 ? BuiltinType::Int : K; }

/// C's usual arithmetic conversions between integer types: after
/// promotion the wider type wins, and at equal width the unsigned one
/// (with BSGP's widths a signed type holds every value of a narrower
/// unsigned one).
static Kind common(Kind A, Kind B) {
  A = promote(A);
  B = promote(B);
  if (A == B)
    return A;
  if (widthOf(A) != widthOf(B))
    return widthOf(A) > widthOf(B) ? A : B;
  return isSignedKind(A) ? B : A;
}

static __int128 minOf(Kind K) {
  return isSignedKind(K) ? -(__int128(1) << (widthOf(K) - 1)) : 0;
}

static __int128 maxOf(Kind K) {
  return isSignedKind(K) ? (__int128(1) << (widthOf(K) - 1)) - 1
                         : (__int128(1) << widthOf(K)) - 1;
}

static std::string toDecimal(__int128 V) {
  bool Neg = V < 0;
  unsigned __int128 M = Neg ? -static_cast<unsigned __int128>(V)
                            : static_cast<unsigned __int128>(V);
  std::string S;
  do {
    S.insert(S.begin(), static_cast<char>('0' + M % 10));
    M /= 10;
  } while (M);
  return Neg ? "-" + S : S;
}

IntConstant IntConstant::get(Kind K, uint64_t Bits) {
  IntConstant C;
  C.K = K;
  unsigned W = widthOf(K);
  if (K == BuiltinType::Bool)
    C.Bits = Bits != 0;
  else if (W >= 64)
    C.Bits = Bits;
  else if (isSignedKind(K))
    C.Bits = static_cast<uint64_t>(llvm::SignExtend64(Bits, W));
  else
    C.Bits = Bits & llvm::maskTrailingOnes<uint64_t>(W);
  return C;
}

bool IntConstant::isSigned() const { return isSignedKind(K); }

unsigned IntConstant::getWidth() const { return widthOf(K); }

/// The value as a 128-bit integer (every value of every type fits).
static __int128 wide(IntConstant C) {
  return C.isSigned() ? __int128(static_cast<int64_t>(C.getBits()))
                      : __int128(C.getBits());
}

double IntConstant::toDouble() const {
  return isSigned() ? static_cast<double>(static_cast<int64_t>(Bits))
                    : static_cast<double>(Bits);
}

std::string IntConstant::toString() const { return toDecimal(wide(*this)); }

const char *IntConstant::getTypeName() const { return BuiltinType::getName(K); }

//===----------------------------------------------------------------------===//
// The evaluator
//===----------------------------------------------------------------------===//

std::optional<IntConstant>
ConstantEvaluator::undefined(SourceRange R, diag::Kind Note, IntConstant Typed,
                             std::string A0, std::string A1, std::string A2) {
  if (Unevaluated)
    return Typed;
  if (!Failure)
    Failure = Problem{R, Note, {std::move(A0), std::move(A1), std::move(A2)}};
  return std::nullopt;
}

IntConstant ConstantEvaluator::overflow(SourceRange R, IntConstant Wrapped,
                                        const std::string &Exact) {
  if (!Unevaluated && !Overflow)
    Overflow = Problem{R,
                       diag::note_constexpr_out_of_range,
                       {Wrapped.toString(), Wrapped.getTypeName(), Exact}};
  return Wrapped;
}

void ConstantEvaluator::reportOverflow(DiagnosticEngine &Diags,
                                       bool AsError) const {
  if (!Overflow)
    return;
  Diags.report(Overflow->Range, AsError ? diag::err_integer_overflow
                                        : diag::warn_integer_overflow)
      << Overflow->Args[0] << Overflow->Args[1];
  Diags.report(Overflow->Range, diag::note_constexpr_out_of_range)
      << Overflow->Args[2] << Overflow->Args[1];
}

void ConstantEvaluator::reportFailure(DiagnosticEngine &Diags) const {
  if (!Failure)
    return;
  auto B = Diags.report(Failure->Range, Failure->Note);
  for (const std::string &A : Failure->Args)
    if (!A.empty())
      B << A;
}

std::optional<IntConstant> ConstantEvaluator::cast(const Type *To,
                                                   const Expr *Sub) {
  std::optional<Kind> K = integerKind(To);
  if (!K)
    return std::nullopt;
  std::optional<IntConstant> V = evaluate(Sub);
  if (!V)
    return std::nullopt;
  return V->convert(*K);
}

std::optional<IntConstant> ConstantEvaluator::unary(const UnaryOperator *U) {
  using UO = UnaryOperator;
  std::optional<IntConstant> V = evaluate(U->getSubExpr());
  if (!V)
    return std::nullopt;
  IntConstant X = V->convert(promote(V->getKind()));
  switch (U->getOpcode()) {
  case UO::Plus:
    return X;
  case UO::Minus: {
    IntConstant R = IntConstant::get(X.getKind(), 0 - X.getBits());
    if (X.isSigned() && wide(X) == minOf(X.getKind()))
      return overflow(U->getRange(), R, toDecimal(-wide(X)));
    return R;
  }
  case UO::BitNot:
    return IntConstant::get(X.getKind(), ~X.getBits());
  case UO::Not:
    return IntConstant::getBool(X.isZero());
  default:
    return std::nullopt;
  }
}

std::optional<IntConstant> ConstantEvaluator::arith(const BinaryOperator *B,
                                                    IntConstant X,
                                                    IntConstant Y) {
  using BO = BinaryOperator;
  Kind K = common(X.getKind(), Y.getKind());
  X = X.convert(K);
  Y = Y.convert(K);
  bool S = isSignedKind(K);
  uint64_t U = X.getBits(), V = Y.getBits();
  __int128 A = wide(X), C = wide(Y);
  SourceRange At(B->getOperatorLoc(), B->getRange().End);
  auto Exact = [&](__int128 R) -> IntConstant {
    IntConstant W = IntConstant::get(K, static_cast<uint64_t>(R));
    if (S && (R < minOf(K) || R > maxOf(K)))
      return overflow(At, W, toDecimal(R));
    return W;
  };
  switch (B->getOpcode()) {
  case BO::Add:
    return S ? Exact(A + C) : IntConstant::get(K, U + V);
  case BO::Sub:
    return S ? Exact(A - C) : IntConstant::get(K, U - V);
  case BO::Mul:
    return S ? Exact(A * C) : IntConstant::get(K, U * V);
  case BO::Div:
  case BO::Rem: {
    bool Div = B->getOpcode() == BO::Div;
    if (C == 0)
      return undefined(At, diag::note_constexpr_div_zero, X,
                       Div ? "division" : "remainder");
    if (S && A == minOf(K) && C == -1)
      return undefined(At, diag::note_constexpr_out_of_range, X, toDecimal(-A),
                       X.getTypeName());
    __int128 R = Div ? A / C : A % C;
    return IntConstant::get(K, static_cast<uint64_t>(R));
  }
  case BO::And:
    return IntConstant::get(K, U & V);
  case BO::Or:
    return IntConstant::get(K, U | V);
  case BO::Xor:
    return IntConstant::get(K, U ^ V);
  case BO::LT:
    return IntConstant::getBool(A < C);
  case BO::GT:
    return IntConstant::getBool(A > C);
  case BO::LE:
    return IntConstant::getBool(A <= C);
  case BO::GE:
    return IntConstant::getBool(A >= C);
  case BO::EQ:
    return IntConstant::getBool(A == C);
  case BO::NE:
    return IntConstant::getBool(A != C);
  default:
    return std::nullopt;
  }
}

/// `<<` and `>>`: each operand promoted on its own, the result of the left
/// one's type.
std::optional<IntConstant> ConstantEvaluator::shift(const BinaryOperator *B,
                                                    IntConstant X,
                                                    IntConstant Y) {
  X = X.convert(promote(X.getKind()));
  Y = Y.convert(promote(Y.getKind()));
  Kind K = X.getKind();
  unsigned W = widthOf(K);
  SourceRange At(B->getOperatorLoc(), B->getRange().End);
  if (Y.isNegative())
    return undefined(At, diag::note_constexpr_negative_shift, X, Y.toString());
  if (Y.getBits() >= W)
    return undefined(At, diag::note_constexpr_large_shift, X, Y.toString(),
                     X.getTypeName(), std::to_string(W));
  unsigned N = static_cast<unsigned>(Y.getBits());
  if (B->getOpcode() == BinaryOperator::Shr)
    return IntConstant::get(
        K, X.isSigned()
               ? static_cast<uint64_t>(static_cast<int64_t>(X.getBits()) >> N)
               : X.getBits() >> N);
  if (X.isNegative())
    return undefined(At, diag::note_constexpr_lshift_of_negative, X,
                     X.toString());
  // Into the sign bit is allowed (`1 << 31`), past it not, as clang says.
  if (X.isSigned() && N && (X.getBits() >> (W - N)) != 0)
    return undefined(At, diag::note_constexpr_lshift_discards, X);
  return IntConstant::get(K, X.getBits() << N);
}

std::optional<IntConstant> ConstantEvaluator::binary(const BinaryOperator *B) {
  using BO = BinaryOperator;
  BO::Opcode Op = B->getOpcode();
  std::optional<IntConstant> X = evaluate(B->getLHS());
  if (!X)
    return std::nullopt;
  // && and || do not evaluate their right operand when the left decides.
  if ((Op == BO::LAnd && X->isZero()) || (Op == BO::LOr && !X->isZero()))
    return IntConstant::getBool(Op == BO::LOr);
  std::optional<IntConstant> Y = evaluate(B->getRHS());
  if (!Y)
    return std::nullopt;
  if (Op == BO::LAnd || Op == BO::LOr)
    return IntConstant::getBool(!Y->isZero());
  if (Op == BO::Shl || Op == BO::Shr)
    return shift(B, *X, *Y);
  return arith(B, *X, *Y);
}

/// `c ? a : b`: the arm c picks, converted to the type both arms give
/// (the usual arithmetic conversions); the other arm is only typed.
std::optional<IntConstant>
ConstantEvaluator::conditional(const ConditionalOperator *C) {
  std::optional<IntConstant> Cond = evaluate(C->getCond());
  if (!Cond)
    return std::nullopt;
  bool Taken = !Cond->isZero();
  std::optional<IntConstant> V =
      evaluate(Taken ? C->getTrueExpr() : C->getFalseExpr());
  if (!V)
    return std::nullopt;
  ++Unevaluated;
  std::optional<IntConstant> Other =
      evaluate(Taken ? C->getFalseExpr() : C->getTrueExpr());
  --Unevaluated;
  // An arm that is not a constant leaves the picked arm's type (a
  // condition decided in an instantiation keeps no other arm either).
  if (!Other || Other->getKind() == V->getKind())
    return V;
  return V->convert(common(V->getKind(), Other->getKind()));
}

std::optional<IntConstant> ConstantEvaluator::evaluate(const Expr *E) {
  if (!E)
    return std::nullopt;
  switch (E->getKind()) {
  case Stmt::SK_IntegerLiteral: {
    auto *L = llvm::cast<IntegerLiteral>(E);
    return IntConstant::get(integerLiteralKind(L), L->getValue());
  }
  case Stmt::SK_CharLiteral:
    return IntConstant::get(BuiltinType::Char,
                            llvm::cast<CharLiteral>(E)->getValue());
  case Stmt::SK_BoolLiteral:
    return IntConstant::getBool(llvm::cast<BoolLiteral>(E)->getValue());
  case Stmt::SK_Paren:
    return evaluate(llvm::cast<ParenExpr>(E)->getSubExpr());
  case Stmt::SK_DeclRef:
    return L(llvm::cast<DeclRefExpr>(E));
  case Stmt::SK_Sizeof: {
    auto *S = llvm::cast<SizeofExpr>(E);
    const Type *T = S->getArgType();
    if (!T && S->getArgExpr())
      T = S->getArgExpr()->getType();
    if (!T && S->getArgExpr() && TypeOfFn)
      T = TypeOfFn(S->getArgExpr());
    if (std::optional<uint64_t> N = T ? constantSizeOf(T) : std::nullopt)
      return IntConstant::get(BuiltinType::UInt64, *N);
    return std::nullopt;
  }
  case Stmt::SK_Cast: {
    auto *C = llvm::cast<CastExpr>(E);
    return cast(C->getWrittenType(), C->getSubExpr());
  }
  case Stmt::SK_ImplicitCast: {
    // Sema's conversions between integers; any other is not constant.
    auto *C = llvm::cast<ImplicitCastExpr>(E);
    if (C->getCastKind() != ImplicitCastExpr::IntegralCast &&
        C->getCastKind() != ImplicitCastExpr::ToBool &&
        C->getCastKind() != ImplicitCastExpr::NoOp)
      return std::nullopt;
    return cast(C->getType(), C->getSubExpr());
  }
  case Stmt::SK_Unary:
    return unary(llvm::cast<UnaryOperator>(E));
  case Stmt::SK_Binary:
    return binary(llvm::cast<BinaryOperator>(E));
  case Stmt::SK_Conditional:
    return conditional(llvm::cast<ConditionalOperator>(E));
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// After Sema
//===----------------------------------------------------------------------===//

std::optional<IntConstant> bsgp::lookupGlobalConstant(const DeclRefExpr *R) {
  // A constant names only constants declared before it, so the recursion
  // ends; the bound is for a program that names one in its own
  // initializer.
  static thread_local unsigned Depth = 0;
  auto *V = llvm::dyn_cast_or_null<VarDecl>(R->getDecl());
  std::optional<Kind> K = V ? integerKind(V->getType()) : std::nullopt;
  if (!K || V->getStorage() != VarDecl::Global || !V->getType()->isConst() ||
      !V->getInit() || Depth > 256)
    return std::nullopt;
  ++Depth;
  ConstantEvaluator Eval(lookupGlobalConstant);
  std::optional<IntConstant> C = Eval.evaluate(V->getInit());
  --Depth;
  if (!C)
    return std::nullopt;
  return C->convert(*K);
}

std::optional<IntConstant> bsgp::evaluateCheckedIntConstant(const Expr *E) {
  ConstantEvaluator Eval(lookupGlobalConstant);
  return Eval.evaluate(E);
}

bool bsgp::isNullPointerConstant(const Expr *E) {
  const Type *T = E->getType() ? E->getType()->getUnqualified() : nullptr;
  if (!T || !T->isInteger() || T->isBool())
    return false;
  std::optional<IntConstant> C = evaluateCheckedIntConstant(E);
  return C && C->isZero();
}
