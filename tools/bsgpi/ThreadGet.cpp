//===- ThreadGet.cpp - values of thread.get from another thread -----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// thread.get(r, e) is e as thread r had it at the end of the previous
/// superstep (docs/language.md). Sema limits e to variables, constants,
/// thread.size and pure operators, so e is evaluated for the lanes of the
/// threads r with each thread-local variable it reads swapped for the value
/// it had at the last sync point. A parameter of a function called since
/// that sync point is the caller's argument, recomputed the same way in the
/// caller's frame (the compiler inlines the function there).
///
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include "bsgp/AST/AST.h"

#include "llvm/ADT/SetVector.h"

using namespace bsgp;
using namespace bsgp::interp;

/// Calls \p Fn on \p S and everything below it.
static void walk(Stmt *S, llvm::function_ref<void(Stmt *)> Fn) {
  if (!S)
    return;
  Fn(S);
  forEachChild(S, [&](Stmt *C) { walk(C, Fn); });
  if (auto *F = llvm::dyn_cast<ForStmt>(S))
    walk(F->getBody(), Fn);
}

/// The variables \p E reads, in order of first use.
static void collectVars(Stmt *E, llvm::SetVector<const VarDecl *> &Out) {
  walk(E, [&](Stmt *S) {
    if (auto *DR = llvm::dyn_cast<DeclRefExpr>(S))
      if (auto *V = llvm::dyn_cast_or_null<VarDecl>(DR->getDecl()))
        Out.insert(V);
  });
}

static bool containsGet(Stmt *S) {
  bool Found = false;
  walk(S, [&](Stmt *C) {
    if (auto *B = llvm::dyn_cast<BuiltinCallExpr>(C))
      Found |= B->getBuiltinKind() == BuiltinCallExpr::ThreadGet;
  });
  return Found;
}

void Interpreter::findGetVars() {
  // Functions whose parameters a get may recompute from the call's
  // arguments: those with a get, and those calling one of them (an
  // argument may be the caller's own parameter).
  llvm::DenseSet<const FunctionDecl *> GetFns;
  for (auto &[Name, Fn] : Functions)
    if (Fn->isDefinition() && containsGet(Fn->getBody()))
      GetFns.insert(Fn);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[Name, Fn] : Functions) {
      if (!Fn->isDefinition() || GetFns.count(Fn))
        continue;
      bool Calls = false;
      walk(Fn->getBody(), [&](Stmt *S) {
        if (auto *C = llvm::dyn_cast<CallExpr>(S))
          if (const FunctionDecl *Callee = C->getDirectCallee()) {
            auto It = Functions.find(Callee->getName().str());
            Calls |= It != Functions.end() && GetFns.count(It->second);
          }
      });
      if (Calls)
        Changed = GetFns.insert(Fn).second;
    }
  }
  llvm::SetVector<const VarDecl *> Vars;
  for (auto &[Name, Fn] : Functions)
    if (Fn->isDefinition())
      walk(Fn->getBody(), [&](Stmt *S) {
        if (auto *B = llvm::dyn_cast<BuiltinCallExpr>(S)) {
          if (B->getBuiltinKind() == BuiltinCallExpr::ThreadGet)
            collectVars(B->args()[1], Vars);
        } else if (auto *C = llvm::dyn_cast<CallExpr>(S)) {
          const FunctionDecl *Callee = C->getDirectCallee();
          auto It = Callee ? Functions.find(Callee->getName().str())
                           : Functions.end();
          if (It != Functions.end() && GetFns.count(It->second))
            for (Expr *A : C->args())
              collectVars(A, Vars);
        }
      });
  GetVars.insert(Vars.begin(), Vars.end());
}

/// True when \p D has one value per thread in frame \p F.
static bool isThreadLocal(const Frame &F, const VarDecl *D) {
  if (!F.Device || D->getStorage() == VarDecl::Global || D->isGroupLocal() ||
      D->isRequireDecl())
    return false;
  return !(F.SpawnBody && D->isHost());
}

/// Index of \p D among the parameters of \p F's function, or -1.
static int paramIndex(const Frame &F, const VarDecl *D) {
  if (!F.Fn || F.SpawnBody)
    return -1;
  auto Params = F.Fn->getParams();
  for (unsigned I = 0; I < Params.size(); ++I)
    if (Params[I] == D)
      return I;
  return -1;
}

Column Interpreter::evalInThreads(Frame &F, Expr *E, Lanes &Ranks) {
  // The lane of each thread in F (a collective runs in every thread, but a
  // function's frame numbers its lanes from 0).
  Lanes L;
  {
    std::vector<int64_t> LaneOf(Spawn->N, -1);
    for (uint32_t K = 0; K < F.NumLanes; ++K)
      LaneOf[F.Thread[K]] = K;
    for (uint32_t R : Ranks) {
      if (LaneOf[R] < 0)
        fatal(E->getRange(), "internal: thread.get of a thread outside the "
                             "calling frame");
      L.push_back(LaneOf[R]);
    }
  }
  llvm::SetVector<const VarDecl *> Vars;
  collectVars(E, Vars);
  struct Swap {
    const VarDecl *D;
    uint8_t *Saved;
    uint8_t *Temp;
  };
  llvm::SmallVector<Swap, 4> Swaps;
  bool Synced = Spawn->LastSync > F.EntryStep;
  for (const VarDecl *D : Vars) {
    if (!isThreadLocal(F, D))
      continue;
    uint64_t Size = sizeOf(D->getType());
    int Param = paramIndex(F, D);
    auto Snap = Spawn->Snapshots.find(D);
    uint8_t *Temp = nullptr;
    if (!Synced && Param >= 0 && F.Site && F.Caller &&
        (unsigned)Param < F.Site->args().size()) {
      // No sync point since the call: the argument, as thread r had it.
      Expr *A = F.Site->args()[Param];
      Column V = convert(evalInThreads(*F.Caller, A, Ranks), A->getType(),
                         D->getType());
      Temp = Mem.allocate(Size * F.NumLanes, AllocKind::Variable, Size,
                          D->getName());
      for (uint32_t K = 0; K < L.size(); ++K)
        std::memcpy(Temp + L[K] * Size, V.at(K), Size);
    } else if (Synced && Snap != Spawn->Snapshots.end() &&
               Snap->second.size() == Size * F.NumLanes) {
      Temp = Mem.allocate(Size * F.NumLanes, AllocKind::Variable, Size,
                          D->getName());
      std::memcpy(Temp, Snap->second.data(), Size * F.NumLanes);
    } else {
      // Not assigned before the last sync point: its current value.
      continue;
    }
    auto It = F.Vars.find(D);
    Swaps.push_back({D, It == F.Vars.end() ? nullptr : It->second, Temp});
    F.Vars[D] = Temp;
    F.Id = newFrameId();
  }
  Column Out = eval(F, E, L);
  for (Swap &S : llvm::reverse(Swaps)) {
    if (S.Saved)
      F.Vars[S.D] = S.Saved;
    else
      F.Vars.erase(S.D);
    Mem.release(S.Temp);
  }
  F.Id = newFrameId();
  return Out;
}
