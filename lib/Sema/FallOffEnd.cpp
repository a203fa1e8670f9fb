//===- FallOffEnd.cpp - -Wreturn-type's control flow ----------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Each statement is summarized by the ways it can be left once reached:
// by going on to the next statement, by break, by continue, and whether a
// return in it is reached. A block goes on only while its statements do;
// a loop goes on where its condition can be false or a break leaves it.
// This is exact for structured control flow up to the conditions, which
// are taken as constants where they are integer constant expressions
// (clang prunes the same edges of its CFG) and as either way otherwise.
//
//===----------------------------------------------------------------------===//

#include "FallOffEnd.h"

#include "bsgp/AST/AST.h"
#include "bsgp/AST/ConstantEval.h"

using namespace bsgp;
using llvm::cast;

namespace {

/// How control may leave a statement it entered.
struct Exits {
  bool Next = false;
  bool Break = false;
  bool Continue = false;
  bool Return = false;
};

/// The value of a loop or branch condition when it is a constant; an
/// absent condition (`for (;;)`) is true.
std::optional<bool> constantCondition(const Expr *Cond) {
  if (!Cond)
    return true;
  if (std::optional<IntConstant> V = evaluateCheckedIntConstant(Cond))
    return !V->isZero();
  return std::nullopt;
}

Exits exitsOf(const Stmt *S);

Exits exitsOfBlock(llvm::ArrayRef<Stmt *> Body) {
  Exits E;
  E.Next = true;
  for (const Stmt *S : Body) {
    // What follows a statement that never goes on is unreachable: its
    // breaks and returns do not count.
    if (!E.Next)
      break;
    Exits X = exitsOf(S);
    E.Next = X.Next;
    E.Break |= X.Break;
    E.Continue |= X.Continue;
    E.Return |= X.Return;
  }
  return E;
}

/// A loop whose body has exits \p Body: break and continue end with it.
/// The loop goes on after it when a break leaves it, or when the condition
/// is evaluated (\p CondReached) and may be false.
Exits exitsOfLoop(const Exits &Body, bool CondReached,
                  std::optional<bool> Cond) {
  Exits E;
  E.Return = Body.Return;
  E.Next = Body.Break || (CondReached && Cond != std::optional<bool>(true));
  return E;
}

Exits exitsOf(const Stmt *S) {
  Exits E;
  switch (S->getKind()) {
  case Stmt::SK_Compound:
    return exitsOfBlock(cast<CompoundStmt>(S)->body());
  case Stmt::SK_Par:
    return exitsOfBlock(cast<ParStmt>(S)->getBody()->body());
  case Stmt::SK_If: {
    auto *I = cast<IfStmt>(S);
    std::optional<bool> Cond = constantCondition(I->getCond());
    // A constant condition leaves the other branch unreachable.
    Exits Then, Else;
    if (Cond != std::optional<bool>(false))
      Then = exitsOf(I->getThen());
    if (Cond != std::optional<bool>(true)) {
      if (I->getElse())
        Else = exitsOf(I->getElse());
      else
        Else.Next = true;
    }
    E.Next = Then.Next || Else.Next;
    E.Break = Then.Break || Else.Break;
    E.Continue = Then.Continue || Else.Continue;
    E.Return = Then.Return || Else.Return;
    return E;
  }
  case Stmt::SK_While: {
    auto *W = cast<WhileStmt>(S);
    std::optional<bool> Cond = constantCondition(W->getCond());
    if (Cond == std::optional<bool>(false)) {
      E.Next = true;
      return E;
    }
    return exitsOfLoop(exitsOf(W->getBody()), /*CondReached=*/true, Cond);
  }
  case Stmt::SK_For: {
    auto *F = cast<ForStmt>(S);
    std::optional<bool> Cond = constantCondition(F->getCond());
    if (Cond == std::optional<bool>(false)) {
      E.Next = true;
      return E;
    }
    return exitsOfLoop(exitsOf(F->getBody()), /*CondReached=*/true, Cond);
  }
  case Stmt::SK_Do: {
    // The body runs once before the condition is evaluated, and the
    // condition only if the body goes on or continues.
    auto *D = cast<DoStmt>(S);
    Exits Body = exitsOf(D->getBody());
    return exitsOfLoop(Body, Body.Next || Body.Continue,
                       constantCondition(D->getCond()));
  }
  case Stmt::SK_Break:
    E.Break = true;
    return E;
  case Stmt::SK_Continue:
    E.Continue = true;
    return E;
  case Stmt::SK_Return:
    E.Return = true;
    return E;
  default:
    // Expressions, declarations, barriers, spawn and require blocks (which
    // cannot return from the function) go on.
    E.Next = true;
    return E;
  }
}

} // namespace

FallOff bsgp::analyzeFallOff(const CompoundStmt *Body) {
  Exits E = exitsOfBlock(Body->body());
  if (!E.Next)
    return FallOff::Never;
  return E.Return ? FallOff::Sometimes : FallOff::Always;
}
