//===- DivisionByZero.cpp - -Wdivision-by-zero ----------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// An integer division or remainder by zero is undefined behaviour in C, and
// in BSGP it is whatever the target's instruction does (a trap on the CPU,
// an unspecified value on GPUs). When the divisor is a constant the mistake
// is certain, so Sema warns at the operator, as clang does.
//
//===----------------------------------------------------------------------===//

#include "DivisionByZero.h"

#include "bsgp/AST/AST.h"
#include "bsgp/Basic/Diagnostic.h"

#include "llvm/Support/MathExtras.h"

using namespace bsgp;

/// `V` converted to the integer type `T` (bool: compared with zero).
static uint64_t convertTo(uint64_t V, const Type *T) {
  auto *B = llvm::dyn_cast<BuiltinType>(T->getUnqualified());
  if (!B)
    return V;
  unsigned W = B->getBitWidth();
  if (B->getBuiltinKind() == BuiltinType::Bool)
    return V != 0;
  if (W >= 64)
    return V;
  return T->isSignedInteger() ? static_cast<uint64_t>(llvm::SignExtend64(V, W))
                              : V & llvm::maskTrailingOnes<uint64_t>(W);
}

static std::optional<uint64_t> evaluateBinary(const BinaryOperator *B) {
  using BO = BinaryOperator;
  std::optional<uint64_t> L = evaluateIntegerConstant(B->getLHS());
  if (!L)
    return std::nullopt;
  // && and || need not evaluate their right operand.
  if (B->getOpcode() == BO::LAnd && !*L)
    return 0;
  if (B->getOpcode() == BO::LOr && *L)
    return 1;
  std::optional<uint64_t> R = evaluateIntegerConstant(B->getRHS());
  if (!R)
    return std::nullopt;
  // Sema converted both operands to the operation's type, so the operands'
  // patterns and the result's type say everything about signedness.
  const Type *T = B->getLHS()->getType();
  bool Signed = T && T->isSignedInteger();
  int64_t SL = static_cast<int64_t>(*L), SR = static_cast<int64_t>(*R);
  uint64_t V;
  switch (B->getOpcode()) {
  case BO::Add:
    V = *L + *R;
    break;
  case BO::Sub:
    V = *L - *R;
    break;
  case BO::Mul:
    V = *L * *R;
    break;
  case BO::Div:
  case BO::Rem:
    if (!*R || (Signed && SL == INT64_MIN && SR == -1))
      return std::nullopt;
    if (B->getOpcode() == BO::Div)
      V = Signed ? static_cast<uint64_t>(SL / SR) : *L / *R;
    else
      V = Signed ? static_cast<uint64_t>(SL % SR) : *L % *R;
    break;
  case BO::And:
    V = *L & *R;
    break;
  case BO::Or:
    V = *L | *R;
    break;
  case BO::Xor:
    V = *L ^ *R;
    break;
  case BO::Shl:
  case BO::Shr:
    if (*R >= 64)
      return std::nullopt;
    V = B->getOpcode() == BO::Shl ? *L << *R
        : Signed                  ? static_cast<uint64_t>(SL >> *R)
                                  : *L >> *R;
    break;
  case BO::LT:
    V = Signed ? SL < SR : *L < *R;
    break;
  case BO::GT:
    V = Signed ? SL > SR : *L > *R;
    break;
  case BO::LE:
    V = Signed ? SL <= SR : *L <= *R;
    break;
  case BO::GE:
    V = Signed ? SL >= SR : *L >= *R;
    break;
  case BO::EQ:
    V = *L == *R;
    break;
  case BO::NE:
    V = *L != *R;
    break;
  case BO::LAnd:
  case BO::LOr:
    V = *R != 0;
    break;
  case BO::Comma:
    V = *R;
    break;
  default:
    return std::nullopt;
  }
  return B->getType() ? convertTo(V, B->getType()) : V;
}

std::optional<uint64_t> bsgp::evaluateIntegerConstant(const Expr *E) {
  if (!E)
    return std::nullopt;
  switch (E->getKind()) {
  case Stmt::SK_IntegerLiteral:
    return llvm::cast<IntegerLiteral>(E)->getValue();
  case Stmt::SK_CharLiteral:
    // char is signed.
    return static_cast<uint64_t>(static_cast<int64_t>(
        static_cast<signed char>(llvm::cast<CharLiteral>(E)->getValue())));
  case Stmt::SK_BoolLiteral:
    return llvm::cast<BoolLiteral>(E)->getValue() ? 1 : 0;
  case Stmt::SK_Paren:
    return evaluateIntegerConstant(llvm::cast<ParenExpr>(E)->getSubExpr());
  case Stmt::SK_ImplicitCast: {
    auto *C = llvm::cast<ImplicitCastExpr>(E);
    switch (C->getCastKind()) {
    case ImplicitCastExpr::IntegralCast:
    case ImplicitCastExpr::ToBool:
    case ImplicitCastExpr::NoOp:
      break;
    default:
      return std::nullopt;
    }
    std::optional<uint64_t> V = evaluateIntegerConstant(C->getSubExpr());
    if (!V || !C->getSubExpr()->getType() ||
        !C->getSubExpr()->getType()->isInteger())
      return std::nullopt;
    return convertTo(*V, C->getType());
  }
  case Stmt::SK_Cast: {
    auto *C = llvm::cast<CastExpr>(E);
    const Expr *Sub = C->getSubExpr();
    if (!C->getWrittenType()->isInteger() || !Sub->getType() ||
        !Sub->getType()->isInteger())
      return std::nullopt;
    std::optional<uint64_t> V = evaluateIntegerConstant(Sub);
    if (!V)
      return std::nullopt;
    return convertTo(*V, C->getWrittenType());
  }
  case Stmt::SK_Unary: {
    auto *U = llvm::cast<UnaryOperator>(E);
    std::optional<uint64_t> V = evaluateIntegerConstant(U->getSubExpr());
    if (!V)
      return std::nullopt;
    uint64_t R;
    switch (U->getOpcode()) {
    case UnaryOperator::Plus:
      R = *V;
      break;
    case UnaryOperator::Minus:
      R = 0 - *V;
      break;
    case UnaryOperator::BitNot:
      R = ~*V;
      break;
    case UnaryOperator::Not:
      R = *V == 0;
      break;
    default:
      return std::nullopt;
    }
    return U->getType() ? convertTo(R, U->getType()) : R;
  }
  case Stmt::SK_Binary:
    return evaluateBinary(llvm::cast<BinaryOperator>(E));
  case Stmt::SK_Conditional: {
    auto *C = llvm::cast<ConditionalOperator>(E);
    std::optional<uint64_t> Cond = evaluateIntegerConstant(C->getCond());
    if (!Cond)
      return std::nullopt;
    return evaluateIntegerConstant(*Cond ? C->getTrueExpr()
                                         : C->getFalseExpr());
  }
  default:
    return std::nullopt;
  }
}

void bsgp::warnDivisionByZero(const BinaryOperator *B,
                              const Type *ComputationType,
                              DiagnosticEngine &Diags) {
  using BO = BinaryOperator;
  BO::Opcode Op = B->isCompoundAssignmentOp() ? BO::getBaseOp(B->getOpcode())
                                              : B->getOpcode();
  if ((Op != BO::Div && Op != BO::Rem) || !ComputationType)
    return;
  // Only integer division is undefined: a float divided by zero is an
  // infinity or a NaN. An integer vector divided by a scalar zero (splatted
  // by Sema) divides every lane by zero.
  const Type *T = ComputationType->getUnqualified();
  if (auto *V = llvm::dyn_cast<VectorType>(T))
    T = V->getElementType();
  if (!T->isInteger())
    return;
  const Expr *R = B->getRHS();
  if (auto *C = llvm::dyn_cast<ImplicitCastExpr>(R);
      C && C->getCastKind() == ImplicitCastExpr::VectorSplat)
    R = C->getSubExpr();
  std::optional<uint64_t> V = evaluateIntegerConstant(R);
  if (!V || *V != 0)
    return;
  Diags.report(SourceRange(B->getOperatorLoc(), R->getRange().End),
               Op == BO::Div ? diag::warn_division_by_zero
                             : diag::warn_remainder_by_zero);
}
