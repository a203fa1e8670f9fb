//===- ConstantEval.cpp - integer constant expressions --------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/AST/ConstantEval.h"
#include "bsgp/AST/Layout.h"

#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace bsgp;
using llvm::dyn_cast;

std::optional<uint64_t> bsgp::constantSizeOf(const Type *T) {
  if (uint64_t N = typeSize(T))
    return N;
  return std::nullopt;
}

namespace {

using Lookup = llvm::function_ref<std::optional<int64_t>(const DeclRefExpr *)>;

std::optional<int64_t> evalBinary(const BinaryOperator *B, Lookup L) {
  using BO = BinaryOperator;
  std::optional<int64_t> X = evaluateIntConstant(B->getLHS(), L);
  if (!X)
    return std::nullopt;
  // && and || do not evaluate their right operand when the left decides.
  if (B->getOpcode() == BO::LAnd && !*X)
    return 0;
  if (B->getOpcode() == BO::LOr && *X)
    return 1;
  std::optional<int64_t> Y = evaluateIntConstant(B->getRHS(), L);
  if (!Y)
    return std::nullopt;
  uint64_t U = static_cast<uint64_t>(*X), V = static_cast<uint64_t>(*Y);
  switch (B->getOpcode()) {
  case BO::Add:
    return static_cast<int64_t>(U + V);
  case BO::Sub:
    return static_cast<int64_t>(U - V);
  case BO::Mul:
    return static_cast<int64_t>(U * V);
  case BO::Div:
  case BO::Rem:
    if (*Y == 0 || (*X == INT64_MIN && *Y == -1))
      return std::nullopt;
    return B->getOpcode() == BO::Div ? *X / *Y : *X % *Y;
  case BO::Shl:
  case BO::Shr:
    if (*Y < 0 || *Y > 63)
      return std::nullopt;
    return B->getOpcode() == BO::Shl ? static_cast<int64_t>(U << *Y) : *X >> *Y;
  case BO::LT:
    return *X < *Y;
  case BO::GT:
    return *X > *Y;
  case BO::LE:
    return *X <= *Y;
  case BO::GE:
    return *X >= *Y;
  case BO::EQ:
    return *X == *Y;
  case BO::NE:
    return *X != *Y;
  case BO::And:
    return static_cast<int64_t>(U & V);
  case BO::Or:
    return static_cast<int64_t>(U | V);
  case BO::Xor:
    return static_cast<int64_t>(U ^ V);
  case BO::LAnd:
  case BO::LOr:
    return *Y != 0;
  default:
    return std::nullopt;
  }
}

} // namespace

std::optional<int64_t> bsgp::evaluateIntConstant(const Expr *E, Lookup L) {
  if (!E)
    return std::nullopt;
  switch (E->getKind()) {
  case Stmt::SK_IntegerLiteral:
    return static_cast<int64_t>(llvm::cast<IntegerLiteral>(E)->getValue());
  case Stmt::SK_CharLiteral:
    return static_cast<int8_t>(llvm::cast<CharLiteral>(E)->getValue());
  case Stmt::SK_BoolLiteral:
    return llvm::cast<BoolLiteral>(E)->getValue() ? 1 : 0;
  case Stmt::SK_Paren:
    return evaluateIntConstant(llvm::cast<ParenExpr>(E)->getSubExpr(), L);
  case Stmt::SK_DeclRef:
    return L(llvm::cast<DeclRefExpr>(E));
  case Stmt::SK_Sizeof: {
    auto *S = llvm::cast<SizeofExpr>(E);
    if (const Type *T = S->getArgType())
      if (std::optional<uint64_t> N = constantSizeOf(T))
        return static_cast<int64_t>(*N);
    return std::nullopt;
  }
  case Stmt::SK_Cast:
  case Stmt::SK_ImplicitCast: {
    // Sema's conversions (after it) convert as the written casts do.
    const Type *To;
    const Expr *Sub;
    if (auto *C = dyn_cast<CastExpr>(E)) {
      To = C->getWrittenType();
      Sub = C->getSubExpr();
    } else {
      auto *I = llvm::cast<ImplicitCastExpr>(E);
      To = I->getType();
      Sub = I->getSubExpr();
    }
    auto *B = dyn_cast<BuiltinType>(To->getUnqualified());
    std::optional<int64_t> V = evaluateIntConstant(Sub, L);
    if (!B || !V || !B->isInteger())
      return std::nullopt;
    if (B->getBuiltinKind() == BuiltinType::Bool)
      return *V != 0;
    unsigned W = B->getBitWidth();
    if (W >= 64)
      return V;
    uint64_t Bits = static_cast<uint64_t>(*V) & ((uint64_t(1) << W) - 1);
    if (B->isSignedInteger())
      return llvm::SignExtend64(Bits, W);
    return static_cast<int64_t>(Bits);
  }
  case Stmt::SK_Unary: {
    auto *U = llvm::cast<UnaryOperator>(E);
    std::optional<int64_t> V = evaluateIntConstant(U->getSubExpr(), L);
    if (!V)
      return std::nullopt;
    switch (U->getOpcode()) {
    case UnaryOperator::Plus:
      return V;
    case UnaryOperator::Minus:
      return static_cast<int64_t>(0 - static_cast<uint64_t>(*V));
    case UnaryOperator::Not:
      return *V == 0;
    case UnaryOperator::BitNot:
      return ~*V;
    default:
      return std::nullopt;
    }
  }
  case Stmt::SK_Binary:
    return evalBinary(llvm::cast<BinaryOperator>(E), L);
  case Stmt::SK_Conditional: {
    auto *C = llvm::cast<ConditionalOperator>(E);
    std::optional<int64_t> V = evaluateIntConstant(C->getCond(), L);
    if (!V)
      return std::nullopt;
    return evaluateIntConstant(*V ? C->getTrueExpr() : C->getFalseExpr(), L);
  }
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> bsgp::evaluateCheckedIntConstant(const Expr *E) {
  // Constants refer only to constants declared before them, so the
  // recursion ends.
  std::function<std::optional<int64_t>(const DeclRefExpr *)> Resolve =
      [&](const DeclRefExpr *R) -> std::optional<int64_t> {
    auto *V = llvm::dyn_cast_or_null<VarDecl>(R->getDecl());
    auto *B =
        V ? dyn_cast<BuiltinType>(V->getType()->getUnqualified()) : nullptr;
    if (!V || V->getStorage() != VarDecl::Global || !V->getType()->isConst() ||
        !B || !B->isInteger() || !V->getInit())
      return std::nullopt;
    return evaluateIntConstant(V->getInit(), Resolve);
  };
  return evaluateIntConstant(E, Resolve);
}
