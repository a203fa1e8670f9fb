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
#include "bsgp/AST/ConstantEval.h"
#include "bsgp/Basic/Diagnostic.h"

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
