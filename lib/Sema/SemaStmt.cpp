//===- SemaStmt.cpp - checking statements ---------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Blocks and scopes, conditions, control flow, spawn, require, par and
/// barriers. Where a superstep may end (barriers and collectives under
/// control flow or divergence) is checked by SemaSync.cpp.
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
// Statements
//===----------------------------------------------------------------------===//

void Sema::checkCompound(CompoundStmt *C, Scope *Existing) {
  llvm::SmallVector<VarDecl *, 4> Implicit;
  if (!Existing)
    Scopes.emplace_back();
  auto *Saved = Scopes.back().Implicit;
  Scopes.back().Implicit = &Implicit;
  for (Stmt *S : C->body()) {
    if (Diags.hasFatalError())
      break;
    checkStmt(S);
    flushSyncPlacement();
  }
  Scopes.back().Implicit = Saved;
  C->setImplicitDecls(Ctx.copyArray<VarDecl *>(Implicit));
  if (!Existing)
    popScope();
  checkOldRankAfterReassign(C->body());
}

void Sema::checkSubStmt(Stmt *S) {
  if (isa<CompoundStmt>(S)) {
    checkStmt(S);
    return;
  }
  // The implicit locals of an unbraced body have no block to be listed in;
  // they are found through their first assignment.
  llvm::SmallVector<VarDecl *, 2> Implicit;
  Scopes.emplace_back();
  Scopes.back().Implicit = &Implicit;
  checkStmt(S);
  popScope();
}

void Sema::checkStmtsInCurrentScope(CompoundStmt *C) {
  for (Stmt *S : C->body()) {
    if (Diags.hasFatalError())
      break;
    checkStmt(S);
    flushSyncPlacement();
  }
  checkOldRankAfterReassign(C->body());
}

Expr *Sema::checkCond(Expr *E) {
  if (auto *B = dyn_cast<BinaryOperator>(E))
    if (B->getOpcode() == BinaryOperator::Assign)
      Diags.report(B->getRange(), diag::warn_assign_in_cond);
  return toBool(rvalue(checkExpr(E)));
}

void Sema::checkIf(IfStmt *I) {
  I->setCond(checkCond(I->getCond()));
  // Branches on target queries are folded away before supersteps are
  // split, so they may hold barriers.
  // So may branches that every thread takes alike (uniform conditions):
  // bsgp-split-uniform-flow makes them host control flow.
  bool Device = inDevice();
  bool Dep = Device && isThreadDependent(I->getCond());
  bool Nests = Device && (isTargetQuestion(I->getCond()) || !Dep);
  if (Device)
    ControlFlow.push_back({I, Nests});
  if (Nests)
    RequireNesting.push_back(I);
  // Code under a thread-dependent condition is divergent.
  if (Dep)
    Divergent.push_back(I->getCond());
  checkSubStmt(I->getThen());
  if (I->getElse())
    checkSubStmt(I->getElse());
  if (Dep)
    Divergent.pop_back();
  if (Nests)
    RequireNesting.pop_back();
  if (Device)
    ControlFlow.pop_back();
}

/// A for loop is a scope of its own: its init may declare variables.
void Sema::checkFor(ForStmt *F) {
  llvm::SmallVector<VarDecl *, 2> Implicit;
  Scopes.emplace_back();
  Scopes.back().Implicit = &Implicit;
  if (F->getInit())
    checkStmt(F->getInit());
  if (F->getCond())
    F->setCond(checkCond(F->getCond()));
  if (F->getInc())
    F->setInc(checkExpr(F->getInc()));
  checkLoopBody(F, F->getBody(), F->getCond());
  F->setImplicitDecls(Ctx.copyArray<VarDecl *>(Implicit));
  popScope();
}

void Sema::checkReturn(ReturnStmt *R) {
  if (SpawnDepth > 0) {
    // The spawn body is the threads' code; `return` would leave the host
    // function from inside a kernel.
    Diags.report(R->getRange(), diag::err_return_in_spawn);
    return;
  }
  noteExit(R);
  const Type *Ret = CurFn ? CurFn->getReturnType() : Ctx.getVoidType();
  if (R->getValue()) {
    Expr *V = rvalue(checkExpr(R->getValue()));
    if (Ret->isVoid()) {
      if (!V->getType()->isError())
        Diags.report(V->getRange(), diag::err_return_value_void)
            << CurFn->getName();
    } else {
      V = convert(V, Ret->getUnqualified());
    }
    R->setValue(V);
  } else if (!Ret->isVoid()) {
    Diags.report(R->getRange(), diag::err_return_missing_value)
        << CurFn->getName() << Ret->str();
  }
}

void Sema::checkRequire(RequireStmt *R) {
  if (InRequire)
    Diags.report(R->getRange().Begin, diag::err_require_nested);
  else if (!inParallel())
    Diags.report(R->getRange().Begin, diag::err_require_outside_spawn);
  else
    checkSyncPlacement(R, "'require'");
  bool Saved = InRequire;
  InRequire = true;
  collectRequireWrites(R->getBody());
  // require opens no scope: its first-assignment locals belong to the
  // enclosing block (they are host variables read by later supersteps).
  if (auto *C = dyn_cast<CompoundStmt>(R->getBody()))
    checkStmtsInCurrentScope(C);
  else
    checkStmt(R->getBody());
  InRequire = Saved;
}

/// Dispatches on the kind of statement; the larger kinds have their own
/// check functions above.
void Sema::checkStmt(Stmt *S) {
  switch (S->getKind()) {
  case Stmt::SK_Compound:
    checkCompound(cast<CompoundStmt>(S));
    return;
  case Stmt::SK_Decl:
    for (VarDecl *V : cast<DeclStmt>(S)->decls())
      checkVarDecl(V);
    return;
  case Stmt::SK_Expr: {
    auto *ES = cast<ExprStmt>(S);
    DiscardedCall = ES->getExpr()->ignoreParenImpCasts();
    ES->setExpr(checkExpr(ES->getExpr()));
    DiscardedCall = nullptr;
    return;
  }
  case Stmt::SK_Null:
    return;
  case Stmt::SK_If:
    checkIf(cast<IfStmt>(S));
    return;
  case Stmt::SK_While: {
    auto *W = cast<WhileStmt>(S);
    W->setCond(checkCond(W->getCond()));
    checkLoopBody(W, W->getBody(), W->getCond());
    return;
  }
  case Stmt::SK_Do: {
    auto *D = cast<DoStmt>(S);
    // The condition is checked after the body, but the body's barriers are
    // reached a thread-dependent number of times when it is divergent.
    checkLoopBody(D, D->getBody(), nullptr);
    D->setCond(checkCond(D->getCond()));
    if (inDevice() && isThreadDependent(D->getCond()))
      scanSyncs(D->getBody(), D->getCond(), nullptr);
    return;
  }
  case Stmt::SK_For:
    checkFor(cast<ForStmt>(S));
    return;
  case Stmt::SK_Break:
  case Stmt::SK_Continue:
    if (LoopDepth == 0)
      Diags.report(S->getRange(), isa<BreakStmt>(S)
                                      ? diag::err_break_outside_loop
                                      : diag::err_continue_outside_loop);
    noteExit(S);
    return;
  case Stmt::SK_Return:
    checkReturn(cast<ReturnStmt>(S));
    return;
  case Stmt::SK_Spawn:
    checkSpawn(cast<SpawnStmt>(S));
    return;
  case Stmt::SK_Barrier:
    if (InRequire)
      Diags.report(S->getRange(), diag::err_require_device) << "barrier";
    else if (!inParallel() && CurFn &&
             CurFn->getFunctionKind() == FunctionDecl::FK_Device)
      // A function without spawn that synchronizes was meant to be a
      // collective function.
      Diags.report(S->getRange(), diag::err_barrier_not_inline)
          << CurFn->getName();
    else if (!inParallel())
      Diags.report(S->getRange(), diag::err_barrier_outside_spawn);
    else {
      checkDivergence(S, diag::err_barrier_divergent, "");
      checkSyncPlacement(S, "'barrier'");
      PendingPuts.clear();
    }
    return;
  case Stmt::SK_Require:
    checkRequire(cast<RequireStmt>(S));
    return;
  case Stmt::SK_Par:
    checkPar(cast<ParStmt>(S));
    return;
  case Stmt::SK_Delete:
    checkDelete(cast<DeleteStmt>(S));
    return;
  default:
    if (auto *E = dyn_cast<Expr>(S))
      checkExpr(E);
    return;
  }
}

void Sema::checkSpawn(SpawnStmt *Sp) {
  if (SpawnDepth > 0 || InRequire)
    Diags.report(Sp->getRange().Begin, diag::err_spawn_in_device);
  else if (CurFn && CurFn->isInline())
    Diags.report(Sp->getRange().Begin, diag::err_spawn_in_inline);
  // Each extent converts to int as a 1-D spawn's count does; MLIRGen and
  // bsgpi check the unconverted values (and their product) against the
  // range of ranks before that conversion could wrap them around.
  for (Expr *&E : Sp->getExtents()) {
    Expr *N = rvalue(checkExpr(E));
    if (!N->getType()->isError() && !N->getType()->isInteger())
      Diags.report(N->getRange(), Sp->getNumDims() == 1
                                      ? diag::err_spawn_count
                                      : diag::err_spawn_extent)
          << N->getType()->str();
    else if (!N->getType()->isError())
      N = convert(N, Ctx.getIntType());
    E = N;
  }
  ++SpawnDepth;
  bool SavedRequire = InRequire;
  InRequire = false;
  auto SavedDiv = Divergent;
  Divergent.clear();
  auto SavedFlow = ControlFlow;
  ControlFlow.clear();
  size_t SavedScopeBase = SpawnScopeBase;
  SpawnScopeBase = Scopes.size();
  auto SavedNesting = std::move(RequireNesting);
  RequireNesting.clear();
  unsigned SavedLoop = LoopDepth;
  LoopDepth = 0;
  ExitInfo SavedLoopExit = LoopExit, SavedReturnExit = ReturnExit;
  LoopExit = ReturnExit = ExitInfo();
  unsigned SavedBase = LoopDivBase;
  LoopDivBase = 0;
  computeUniformLocals(Sp->getBody());
  checkCompound(Sp->getBody());
  flushSyncPlacement();
  PendingPuts.clear();
  LoopDivBase = SavedBase;
  LoopExit = SavedLoopExit;
  ReturnExit = SavedReturnExit;
  LoopDepth = SavedLoop;
  Divergent = SavedDiv;
  ControlFlow = SavedFlow;
  SpawnScopeBase = SavedScopeBase;
  RequireNesting = std::move(SavedNesting);
  InRequire = SavedRequire;
  --SpawnDepth;
}

void Sema::checkDelete(DeleteStmt *D) {
  if (inParallel() && !InRequire)
    Diags.report(D->getRange(), diag::err_ddelete_device);
  Expr *List = rvalue(checkExpr(D->getList()));
  D->setList(List);
  if (!List->getType()->isError() && !List->getType()->isPointer())
    Diags.report(List->getRange(), diag::err_ddelete_not_pointer)
        << List->getType()->str();
}

void Sema::checkPar(ParStmt *P) {
  if (!inParallel())
    Diags.report(P->getRange().Begin, diag::err_par_not_in_spawn);
  else
    checkSyncPlacement(P, "'par'");
  // The par is reported if misplaced; its statements are at the superstep
  // level of its branches.
  auto SavedFlow = std::move(ControlFlow);
  ControlFlow.clear();
  RequireNesting.push_back(P);
  // par opens no scope (Listing 8): what its statements declare or first
  // assign belongs to the enclosing block, read after the par.
  checkStmtsInCurrentScope(P->getBody());
  RequireNesting.pop_back();
  ControlFlow = std::move(SavedFlow);
  // A barrier of a par branch ends the superstep of every branch (a
  // collective call does not count: the put is checked before inlining).
  for (Stmt *Branch : P->getBody()->body()) {
    auto *C = dyn_cast<CompoundStmt>(Branch);
    if (isa<BarrierStmt>(Branch) ||
        (C && llvm::any_of(C->body(), llvm::IsaPred<BarrierStmt>)))
      PendingPuts.clear();
  }
}
