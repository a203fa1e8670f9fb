//===- SemaSync.cpp - where supersteps may end ----------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The superstep rules of docs/language.md: a barrier, require, par or
/// collective call must be reached by every thread (no thread-dependent
/// condition, loop exit or return around it) and may not sit under control
/// flow other than branches on target queries. Also the thread dependence of
/// expressions and writes to host variables from device code.
///
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include <functional>

using namespace bsgp;
using namespace bsgp::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;

//===----------------------------------------------------------------------===//
// Supersteps and divergence
//===----------------------------------------------------------------------===//

void Sema::reportSync(Stmt *Node, diag::Kind K, llvm::StringRef Name,
                      Expr *Cond, Stmt *Exit) {
  if (!ReportedSyncs.insert(Node).second)
    return;
  if (K == diag::err_barrier_divergent)
    Diags.report(Node->getRange(), K);
  else
    Diags.report(Node->getRange(), K) << Name;
  if (Exit)
    Diags.report(Exit->getRange(), diag::note_divergent_exit);
  Diags.report(Cond->getRange(), diag::note_divergent_cond);
  noteVaryingChain(Cond);
}

void Sema::checkDivergence(Stmt *Node, diag::Kind K, llvm::StringRef Name) {
  if (!inDevice())
    return;
  if (!Divergent.empty())
    reportSync(Node, K, Name, Divergent.back(), nullptr);
  else if (ReturnExit.Cond)
    reportSync(Node, K, Name, ReturnExit.Cond, ReturnExit.Exit);
}

bool bsgp::sema::isTargetQuestion(Expr *E) {
  E = E->ignoreParenImpCasts();
  if (isa<TargetQueryExpr>(E))
    return true;
  if (auto *B = dyn_cast<BuiltinCallExpr>(E))
    return B->getBuiltinKind() == BuiltinCallExpr::SinglePass;
  if (auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UnaryOperator::Not &&
           isTargetQuestion(U->getSubExpr());
  if (auto *B = dyn_cast<BinaryOperator>(E))
    return (B->getOpcode() == BinaryOperator::LAnd ||
            B->getOpcode() == BinaryOperator::LOr) &&
           isTargetQuestion(B->getLHS()) && isTargetQuestion(B->getRHS());
  return false;
}

void Sema::checkSyncPlacement(Stmt *Node, llvm::StringRef What) {
  if (!inDevice())
    return;
  Stmt *Where = blockingFlow();
  // A par aligns the barriers of its branches before uniform control flow
  // is split: only target branches may hold it.
  if (isa<ParStmt>(Node))
    for (const Flow &F : llvm::reverse(ControlFlow)) {
      auto *If = dyn_cast<IfStmt>(F.S);
      if (!If || !isTargetQuestion(If->getCond())) {
        Where = F.S;
        break;
      }
    }
  if (Where)
    MisplacedSyncs.push_back({Node, What.str(), Where});
}

/// How the note names the control flow around a misplaced sync.
static const char *describeFlow(Stmt *Flow) {
  switch (Flow->getKind()) {
  case Stmt::SK_If:
    return "'if' statement";
  case Stmt::SK_For:
    return "'for' loop";
  case Stmt::SK_While:
    return "'while' loop";
  case Stmt::SK_Do:
    return "'do' loop";
  case Stmt::SK_Conditional:
    return "conditional expression";
  default:
    return cast<BinaryOperator>(Flow)->getOpcode() == BinaryOperator::LAnd
               ? "'&&' expression"
               : "'||' expression";
  }
}

void Sema::flushSyncPlacement() {
  // Inside a loop, an early exit found later may make the syncs divergent,
  // which is the error to give.
  if (!ControlFlow.empty() || LoopDepth > 0)
    return;
  for (MisplacedSync &M : MisplacedSyncs) {
    if (!ReportedSyncs.insert(M.Node).second)
      continue;
    if (isa<ParStmt>(M.Node)) {
      Diags.report(SourceRange(M.Node->getRange().Begin),
                   diag::err_par_in_control_flow);
      Diags.report(SourceRange(M.Flow->getRange().Begin),
                   diag::note_control_flow_here)
          << describeFlow(M.Flow);
      continue;
    }
    Diags.report(M.Node->getRange(), diag::err_sync_in_control_flow) << M.What;
    Diags.report(SourceRange(M.Flow->getRange().Begin),
                 diag::note_sync_control_flow)
        << describeFlow(M.Flow);
  }
  MisplacedSyncs.clear();
}

void Sema::checkStraightLine(Expr *E, diag::Kind K, bool AllowUniform) {
  if (!inDevice())
    return;
  // With AllowUniform, uniform branches and loops may hold it (it then
  // sits in the same block as its barrier); target branches never.
  Stmt *Where = nullptr;
  for (const Flow &F : llvm::reverse(ControlFlow)) {
    auto *If = dyn_cast<IfStmt>(F.S);
    bool Target = If && isTargetQuestion(If->getCond());
    if (!AllowUniform || Target || !F.MayHoldSyncs) {
      Where = F.S;
      break;
    }
  }
  if (!Where)
    return;
  Diags.report(E->getRange(), K);
  Diags.report(SourceRange(Where->getRange().Begin),
               diag::note_control_flow_here)
      << describeFlow(Where);
}

/// Reports every barrier and collective in \p Body: they are reached by a
/// thread-dependent subset of the threads (a loop some threads leave early,
/// or a do-while whose trip count differs between threads).
void Sema::scanSyncs(Stmt *Body, Expr *Cond, Stmt *Exit) {
  std::function<void(Stmt *)> Scan = [&](Stmt *X) {
    if (isa<BarrierStmt>(X)) {
      reportSync(X, diag::err_barrier_divergent, "", Cond, Exit);
    } else if (auto *B = dyn_cast<BuiltinCallExpr>(X)) {
      if (BuiltinCallExpr::isCollective(B->getBuiltinKind()))
        reportSync(B, diag::err_collective_divergent,
                   BuiltinCallExpr::getName(B->getBuiltinKind()), Cond, Exit);
    } else if (auto *C = dyn_cast<CallExpr>(X)) {
      FunctionDecl *F = C->getDirectCallee();
      if (F && F->getFunctionKind() == FunctionDecl::FK_Collective)
        reportSync(C, diag::err_collective_divergent, F->getName(), Cond, Exit);
    }
    if (!isa<RequireStmt>(X))
      forEachChild(X, Scan);
  };
  Scan(Body);
}

void Sema::noteExit(Stmt *S) {
  if (!inDevice() || Divergent.empty())
    return;
  if (LoopDepth > 0 && Divergent.size() > LoopDivBase && !LoopExit.Cond)
    LoopExit = {Divergent.back(), S};
  if (isa<ReturnStmt>(S) && !ReturnExit.Cond)
    ReturnExit = {Divergent.back(), S};
}

void Sema::checkLoopBody(Stmt *Loop, Stmt *Body, Expr *Cond) {
  ExitInfo SavedExit = LoopExit;
  unsigned SavedBase = LoopDivBase;
  bool HadReturn = ReturnExit.Cond != nullptr;
  LoopExit = ExitInfo();
  LoopDivBase = Divergent.size();
  ++LoopDepth;
  bool Dep = Cond && inDevice() && isThreadDependent(Cond);
  if (Dep)
    Divergent.push_back(Cond);
  // A loop whose condition every thread computes alike may hold barriers
  // (a do loop's condition comes after its body: if it is per-thread, the
  // body's barriers are reported as divergent then).
  if (inDevice())
    ControlFlow.push_back({Loop, !Dep});
  bool Nests = inDevice() && !Dep;
  if (Nests)
    RequireNesting.push_back(Loop);
  checkSubStmt(Body);
  if (Nests)
    RequireNesting.pop_back();
  if (inDevice())
    ControlFlow.pop_back();
  if (Dep)
    Divergent.pop_back();
  --LoopDepth;
  if (LoopExit.Cond)
    scanSyncs(Body, LoopExit.Cond, LoopExit.Exit);
  // A return inside this loop also leaves every enclosing loop.
  if (!HadReturn && ReturnExit.Cond && !SavedExit.Cond)
    SavedExit = ReturnExit;
  LoopExit = SavedExit;
  LoopDivBase = SavedBase;
}

void Sema::collectRequireWrites(Stmt *Body) {
  RequireWrites.clear();
  std::function<void(Stmt *)> Walk = [&](Stmt *S) {
    Expr *Target = nullptr;
    if (auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
      Target = B->getLHS();
    if (auto *U = dyn_cast<UnaryOperator>(S);
        U && U->getOpcode() >= UnaryOperator::PreInc)
      Target = U->getSubExpr();
    // The variable stored to: it, a field of it or an element of it.
    for (bool Indexed = false; Target;) {
      if (auto *P = dyn_cast<ParenExpr>(Target)) {
        Target = P->getSubExpr();
      } else if (auto *M = dyn_cast<MemberExpr>(Target); M && !M->isArrow()) {
        Target = M->getBase();
      } else if (auto *I = dyn_cast<IndexExpr>(Target)) {
        Target = I->getBase();
        Indexed = true;
      } else {
        if (auto *R = dyn_cast<DeclRefExpr>(Target))
          RequireWrites[R] = Indexed;
        break;
      }
    }
    forEachChild(S, [&](Stmt *C) {
      if (C)
        Walk(C);
    });
  };
  Walk(Body);
}

void Sema::checkRequireUse(DeclRefExpr *R, VarDecl *V) {
  if (!InRequire || V->isHost() || isUniformLocal(V))
    return;
  auto It = RequireWrites.find(R);
  bool Writes = It != RequireWrites.end() &&
                (!It->second || isa<ArrayType>(V->getType()->getUnqualified()));
  Diags.report(R->getRange(),
               Writes ? diag::err_thread_device_var_assigned_in_require
                      : diag::err_thread_device_var_in_require)
      << R->getName();
}

/// In device code, reports a write to storage of a host variable: the
/// variable itself, a field of it, or an element of a host array. Writes
/// through pointers are fine (the memory is global).
bool Sema::reportHostWrite(Expr *Target) {
  if (InRequire && SpawnDepth > 0 && !RequireNesting.empty()) {
    auto *Ref = dyn_cast<DeclRefExpr>(Target->ignoreParenImpCasts());
    auto *V = Ref ? dyn_cast_or_null<VarDecl>(Ref->getDecl()) : nullptr;
    bool Outer = false;
    for (size_t I = 0; V && I < SpawnScopeBase && I < Scopes.size(); ++I)
      Outer |= Scopes[I].Vars.lookup(V->getName()) == V;
    if (Outer) {
      Stmt *In = RequireNesting.back();
      auto *If = dyn_cast<IfStmt>(In);
      Diags.report(Target->getRange(), diag::err_require_nested_host_write)
          << (isa<ParStmt>(In) ? "'par'"
              : If && isTargetQuestion(If->getCond())
                  ? "a branch on a target query"
                  : "a branch or loop with a uniform condition")
          << V->getName();
      if (!isa<ParStmt>(In))
        Diags.report(SourceRange(In->getRange().Begin),
                     diag::note_control_flow_here)
            << describeFlow(In);
      return true;
    }
  }
  if (!inDevice())
    return false;
  Expr *E = Target->ignoreParenImpCasts();
  for (;;) {
    if (auto *M = dyn_cast<MemberExpr>(E)) {
      if (M->isArrow())
        return false;
      E = M->getBase()->ignoreParenImpCasts();
    } else if (auto *I = dyn_cast<IndexExpr>(E)) {
      if (!isa<ArrayType>(I->getBase()->getType()->getUnqualified()))
        return false;
      E = I->getBase()->ignoreParenImpCasts();
    } else {
      break;
    }
  }
  auto *Ref = dyn_cast<DeclRefExpr>(E);
  auto *V = Ref ? dyn_cast_or_null<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->isHost())
    return false;
  Diags.report(Target->getRange(), diag::err_assign_host_var) << V->getName();
  Diags.report(SourceRange(V->getLoc()), diag::note_declared_here)
      << V->getName();
  return true;
}

bool Sema::isThreadDependent(Expr *E) {
  if (auto *R = dyn_cast<DeclRefExpr>(E))
    if (auto *V = dyn_cast_or_null<VarDecl>(R->getDecl()))
      return !V->isHost() && !isUniformLocal(V);
  // A function may read the rank or memory.
  if (auto *C = dyn_cast<CallExpr>(E))
    if (C->getDirectCallee())
      return true;
  if (auto *T = dyn_cast<ThreadAttrExpr>(E))
    return ThreadAttrExpr::isThreadDependent(T->getAttr());
  // reduce returns the same value to every thread, and the single-pass
  // question is answered at compile time; the other primitives return
  // per-thread values.
  if (auto *B = dyn_cast<BuiltinCallExpr>(E))
    return B->getBuiltinKind() != BuiltinCallExpr::Reduce &&
           B->getBuiltinKind() != BuiltinCallExpr::Scan &&
           B->getBuiltinKind() != BuiltinCallExpr::SinglePass;
  // The sizes and the group count are the same in every thread; ranks, ids
  // and subgroup results are not.
  if (auto *G = dyn_cast<GroupExpr>(E))
    if (G->getGroupOp() == GroupExpr::GroupSize ||
        G->getGroupOp() == GroupExpr::GroupCount ||
        G->getGroupOp() == GroupExpr::SubgroupSize)
      return false;
  // Each thread sees a different old value.
  if (isa<AtomicExpr>(E))
    return true;
  bool Dep = false;
  forEachChild(E, [&](Stmt *S) {
    if (!Dep)
      Dep = isThreadDependent(cast<Expr>(S));
  });
  return Dep;
}

/// Whether \p S ends a superstep: a barrier, a par, a collective primitive
/// or a call of a collective function, at any depth.
static bool endsSuperstep(Stmt *S) {
  if (!S)
    return false;
  if (isa<BarrierStmt, ParStmt>(S))
    return true;
  if (auto *B = dyn_cast<BuiltinCallExpr>(S))
    if (BuiltinCallExpr::isCollective(B->getBuiltinKind()))
      return true;
  if (auto *C = dyn_cast<CallExpr>(S))
    if (FunctionDecl *F = C->getDirectCallee())
      if (F->getFunctionKind() == FunctionDecl::FK_Collective)
        return true;
  bool R = false;
  forEachChild(S, [&](Stmt *C) { R = R || endsSuperstep(C); });
  return R;
}

/// Whether \p S assigns thread.oldrank, at any depth.
static bool setsOldRank(Stmt *S) {
  if (!S)
    return false;
  if (auto *A = dyn_cast<BinaryOperator>(S))
    if (A->getOpcode() == BinaryOperator::Assign)
      if (auto *T =
              dyn_cast<ThreadAttrExpr>(A->getLHS()->ignoreParenImpCasts()))
        if (T->getAttr() == ThreadAttrExpr::OldRank)
          return true;
  bool R = false;
  forEachChild(S, [&](Stmt *C) { R = R || setsOldRank(C); });
  return R;
}

/// `barrier(RANK_REASSIGNED)` starts a rank reassignment that the program
/// finishes with `thread.oldrank = ...` in the superstep it starts (at the
/// top level, before the next barrier or collective): without it the
/// values live across the barrier cannot follow their threads.
void Sema::checkOldRankAfterReassign(llvm::ArrayRef<Stmt *> Body) {
  for (size_t I = 0; I < Body.size(); ++I) {
    auto *B = dyn_cast<BarrierStmt>(Body[I]);
    if (!B || !B->isRankReassigned())
      continue;
    bool Set = false;
    for (Stmt *S : Body.drop_front(I + 1)) {
      // One under control flow counts: it has its own error.
      if (setsOldRank(S)) {
        Set = true;
        break;
      }
      if (endsSuperstep(S))
        break;
    }
    if (!Set)
      Diags.report(B->getRange(), diag::err_reassign_without_oldrank);
  }
}
