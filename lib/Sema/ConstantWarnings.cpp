//===- ConstantWarnings.cpp - warnings about constant operands ------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Operations on constants whose result C leaves undefined, which clang
// warns about wherever they are:
// - an integer division or remainder by zero (-Wdivision-by-zero); in BSGP
//   it is whatever the target's instruction does (a trap on the CPU, an
//   unspecified value on GPUs);
// - signed overflow of `+ - *` or negation (-Winteger-overflow), which
//   wraps on every target: the operator is marked so (no nsw).
//
//===----------------------------------------------------------------------===//

#include "ConstantWarnings.h"

#include "bsgp/AST/AST.h"
#include "bsgp/AST/ConstantEval.h"
#include "bsgp/Basic/Diagnostic.h"

#include "llvm/ADT/SmallVector.h"

using namespace bsgp;

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
  std::optional<IntConstant> V = evaluateCheckedIntConstant(R);
  if (!V || !V->isZero())
    return;
  Diags.report(SourceRange(B->getOperatorLoc(), R->getRange().End),
               Op == BO::Div ? diag::warn_division_by_zero
                             : diag::warn_remainder_by_zero);
}

void bsgp::warnIntegerOverflow(Expr *E, DiagnosticEngine &Diags) {
  llvm::SmallVector<const Expr *, 2> Operands;
  if (auto *B = llvm::dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() != BinaryOperator::Add &&
        B->getOpcode() != BinaryOperator::Sub &&
        B->getOpcode() != BinaryOperator::Mul)
      return;
    Operands = {B->getLHS(), B->getRHS()};
  } else if (auto *U = llvm::dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() != UnaryOperator::Minus)
      return;
    Operands = {U->getSubExpr()};
  }
  if (Operands.empty() || !E->getType() || !E->getType()->isSignedInteger())
    return;
  // Only the operation that overflows: its operands are constants that
  // did not (an overflow inside them was reported at their operator).
  ConstantEvaluator Eval(lookupGlobalConstant);
  for (const Expr *O : Operands)
    if (!Eval.evaluate(O) || Eval.hasOverflow())
      return;
  Eval.evaluate(E);
  if (!Eval.hasOverflow())
    return;
  Eval.reportOverflow(Diags, /*AsError=*/false);
  // Neither nsw in the compiled code nor a report from bsgpi.
  if (auto *B = llvm::dyn_cast<BinaryOperator>(E))
    B->setWrapsOnOverflow(true);
  else
    llvm::cast<UnaryOperator>(E)->setWrapsOnOverflow(true);
}
