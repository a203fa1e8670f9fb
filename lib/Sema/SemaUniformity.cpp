//===- SemaUniformity.cpp - locals every thread of a spawn shares ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Before a spawn body is checked, decides which of its local variables are
/// uniform: every thread holds the same value in them at every point, so
/// that a condition on them may guard a barrier (docs/language.md,
/// "Uniform control flow"). A variable is uniform unless one of its
/// assignments (initializer, `=`, compound assignment, `++`) assigns a
/// per-thread value or runs under a per-thread condition, or its address is
/// taken, or a primitive may change it (`scan(+, x)`, `thread.put`, ...).
/// Per-thread values are `thread.rank`, `thread.oldrank`, memory reads,
/// calls of functions, atomics, per-thread primitives and per-thread
/// variables; `reduce` results and `scan` totals, `thread.size`, host
/// variables and constants are uniform. The rules are solved at a fixed
/// point (a loop counter is uniform when it starts and steps uniformly),
/// as bsgp-split-uniform-flow's analysis does on the SSA form, so both
/// give the same verdict.
///
/// The pass runs on the unchecked body, so it resolves names itself, by
/// C's scopes; a name it does not find in the body is a host variable, a
/// global or a constant.
///
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include "bsgp/AST/MathFunctions.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <functional>

using namespace bsgp;
using namespace bsgp::sema;
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;

namespace {

/// A local of the body: its VarDecl, or for a variable declared by its
/// first assignment (`x = e;`), which Sema declares later, that
/// assignment's DeclRefExpr.
using Key = const void *;

class UniformLocals {
public:
  UniformLocals(const llvm::StringMap<FunctionDecl *> &Functions,
                llvm::DenseMap<Key, Expr *> &Reasons)
      : Functions(Functions), Reasons(Reasons) {}

  /// The parameters of the function whose body is solved, each with
  /// whether every call passes a uniform value for it: they are locals
  /// whose initializer is that value.
  void setParams(llvm::ArrayRef<VarDecl *> Ps, llvm::ArrayRef<bool> Uniform) {
    for (auto [P, U] : llvm::zip(Ps, Uniform))
      Params.push_back({P, U});
  }

  /// What recordCalls reports: a call of a function of the program, one
  /// argument, and whether that argument differs between threads.
  using CallFn = llvm::function_ref<void(FunctionDecl *Callee, unsigned I,
                                         Expr *Arg, bool PerThread)>;

  /// Reports, after solve(), every argument of every call in \p Body of a
  /// function of the program.
  void recordCalls(Stmt *Body, CallFn F) {
    OnCall = F;
    walk(Body);
    OnCall = nullptr;
  }

  /// Solves the rules for \p Body; the result is the candidates left.
  llvm::DenseSet<Key> solve(Stmt *Body) {
    Collecting = true;
    walk(Body);
    Collecting = false;
    for (bool Changed = true; Changed;) {
      size_t Before = Uniform.size();
      Scopes.clear();
      AfterDivergentReturn = false;
      walk(Body);
      Changed = Uniform.size() != Before;
    }
    return Uniform;
  }

private:
  Key lookup(llvm::StringRef Name) const {
    for (auto &S : llvm::reverse(Scopes))
      if (Key V = S.Vars.lookup(Name))
        return V;
    return nullptr;
  }

  /// `x = e` where no x is visible declares x (as Sema does: in the
  /// innermost for-init scope or the body's).
  void declareImplicit(DeclRefExpr *R) {
    for (auto &S : llvm::reverse(Scopes))
      if (S.TakesImplicit || &S == &Scopes.front()) {
        S.Vars[R->getName()] = R;
        if (Collecting)
          Uniform.insert(R);
        return;
      }
  }

  void markVarying(Key V, Expr *Why) {
    if (V && Uniform.erase(V))
      Reasons.try_emplace(V, Why);
  }

  /// The local that \p E names directly, if any.
  Key localOf(Expr *E) {
    while (auto *P = dyn_cast<ParenExpr>(E))
      E = P->getSubExpr();
    if (auto *R = dyn_cast<DeclRefExpr>(E))
      return lookup(R->getName());
    // A field or lane of a local: the local.
    if (auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow())
      return localOf(M->getBase());
    if (auto *I = dyn_cast<IndexExpr>(E))
      return localOf(I->getBase());
    return nullptr;
  }

  bool isUserFunction(Expr *Callee) {
    auto *R = dyn_cast<DeclRefExpr>(Callee);
    return !R || lookup(R->getName()) || Functions.count(R->getName());
  }

  bool dependent(Expr *E) {
    if (!E)
      return false;
    switch (E->getKind()) {
    case Stmt::SK_DeclRef: {
      Key V = lookup(cast<DeclRefExpr>(E)->getName());
      return V && !Uniform.count(V);
    }
    case Stmt::SK_ThreadAttr:
      return ThreadAttrExpr::isThreadDependent(
          cast<ThreadAttrExpr>(E)->getAttr());
    case Stmt::SK_BuiltinCall: {
      auto K = cast<BuiltinCallExpr>(E)->getBuiltinKind();
      return K != BuiltinCallExpr::Reduce && K != BuiltinCallExpr::Scan &&
             K != BuiltinCallExpr::SinglePass;
    }
    case Stmt::SK_Call: {
      auto *C = cast<CallExpr>(E);
      auto *R = dyn_cast<DeclRefExpr>(C->getCallee());
      if (isUserFunction(C->getCallee()))
        return true;
      llvm::StringRef Name = R->getName();
      if (getMathFunction(Name) == MathFunction::None && Name != "min" &&
          Name != "max" && Name != "clamp" && Name != "abs")
        return true;
      break;
    }
    case Stmt::SK_Group: {
      auto Op = cast<GroupExpr>(E)->getGroupOp();
      return Op != GroupExpr::GroupSize && Op != GroupExpr::GroupCount &&
             Op != GroupExpr::SubgroupSize;
    }
    case Stmt::SK_Atomic:
    case Stmt::SK_Index:
    case Stmt::SK_New:
      return true;
    case Stmt::SK_Member:
      if (cast<MemberExpr>(E)->isArrow())
        return true;
      break;
    case Stmt::SK_Unary:
      if (cast<UnaryOperator>(E)->getOpcode() == UnaryOperator::Deref)
        return true;
      break;
    default:
      break;
    }
    bool Dep = false;
    forEachChild(E, [&](Stmt *C) {
      if (!Dep && C)
        Dep = dependent(cast<Expr>(C));
    });
    return Dep;
  }

  /// Assignments and address uses in expression \p E, under a divergent
  /// condition when \p Div.
  void expr(Expr *E, bool Div) {
    if (!E)
      return;
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->isAssignmentOp()) {
        expr(B->getRHS(), Div);
        auto *LRef = dyn_cast<DeclRefExpr>(B->getLHS());
        if (LRef && B->getOpcode() == BinaryOperator::Assign &&
            !lookup(LRef->getName()) && !Functions.count(LRef->getName()))
          declareImplicit(LRef);
        expr(B->getLHS(), Div);
        if (Key V = localOf(B->getLHS()))
          if (Div || dependent(B->getRHS()) ||
              !isa<DeclRefExpr>(B->getLHS()->ignoreParenImpCasts()))
            markVarying(V, Div ? DivCond : B->getRHS());
        return;
      }
      if (B->getOpcode() == BinaryOperator::LAnd ||
          B->getOpcode() == BinaryOperator::LOr) {
        expr(B->getLHS(), Div);
        setCond(B->getLHS(), Div, [&](bool D) { expr(B->getRHS(), D); });
        return;
      }
    }
    if (auto *U = dyn_cast<UnaryOperator>(E)) {
      auto Op = U->getOpcode();
      if (Op == UnaryOperator::AddrOf)
        markVarying(localOf(U->getSubExpr()), U);
      else if (Op >= UnaryOperator::PreInc)
        if (Div)
          markVarying(localOf(U->getSubExpr()), DivCond);
    }
    if (auto *C = dyn_cast<ConditionalOperator>(E)) {
      expr(C->getCond(), Div);
      setCond(C->getCond(), Div, [&](bool D) {
        expr(C->getTrueExpr(), D);
        expr(C->getFalseExpr(), D);
      });
      return;
    }
    // A primitive that writes a variable given to it (scan's x, put's p,
    // sortby's key, rebind's x) makes it per-thread; the others only read
    // their arguments.
    if (auto *B = dyn_cast<BuiltinCallExpr>(E))
      if (Expr *W = writtenArg(B))
        markVarying(localOf(W), W);
    if (auto *C = dyn_cast<CallExpr>(E))
      if (auto *R = dyn_cast<DeclRefExpr>(C->getCallee())) {
        if (R->getName() == "scan" || R->getName().starts_with("thread"))
          for (Expr *A : C->args())
            markVarying(localOf(A), A);
        if (FunctionDecl *F = OnCall && !lookup(R->getName())
                                  ? Functions.lookup(R->getName())
                                  : nullptr)
          for (auto [I, A] : llvm::enumerate(C->args()))
            OnCall(F, I, A, dependent(A));
      }
    forEachChild(E, [&](Stmt *S) {
      if (S)
        expr(cast<Expr>(S), Div);
    });
  }

  /// The argument that primitive \p B assigns, if any. thread.sortby
  /// rebinds its key to the sorted list (lib/Collectives/sort.bsgp), so
  /// after it the key is a load, as after rebind.
  static Expr *writtenArg(BuiltinCallExpr *B) {
    auto Args = B->args();
    switch (B->getBuiltinKind()) {
    case BuiltinCallExpr::Scan:
    case BuiltinCallExpr::SegScan:
    case BuiltinCallExpr::ThreadSortBy:
    case BuiltinCallExpr::ThreadRebind:
      return Args.empty() ? nullptr : Args[0];
    case BuiltinCallExpr::ThreadPut:
      return Args.size() < 2 ? nullptr : Args[1];
    default:
      return nullptr;
    }
  }

  /// Runs \p F with the divergence below condition \p Cond.
  template <typename Fn> void setCond(Expr *Cond, bool Div, Fn F) {
    Expr *Saved = DivCond;
    bool D = Div || dependent(Cond);
    if (D && !Div)
      DivCond = Cond;
    F(D);
    DivCond = Saved;
  }

  /// The per-thread condition under which \p Body leaves its loop, if
  /// any (\p Div: the one \p Body is under already). In an inner loop
  /// (\p Inner) only returns leave it.
  Expr *divergentExit(Stmt *Body, Expr *Div, bool Inner = false) {
    if (!Body)
      return nullptr;
    if (isa<ReturnStmt>(Body) || (!Inner && isa<BreakStmt, ContinueStmt>(Body)))
      return Div;
    if (auto *I = dyn_cast<IfStmt>(Body)) {
      Expr *D = Div ? Div : dependent(I->getCond()) ? I->getCond() : nullptr;
      if (Expr *E = divergentExit(I->getThen(), D, Inner))
        return E;
      return divergentExit(I->getElse(), D, Inner);
    }
    bool Loop = isa<ForStmt, WhileStmt, DoStmt>(Body);
    Expr *R = nullptr;
    forEachChild(Body, [&](Stmt *C) {
      if (!R && C && !isa<Expr>(C))
        R = divergentExit(C, Div, Inner || Loop);
    });
    return R;
  }

  void loop(Stmt *Loop, Expr *Cond, Stmt *Body, Expr *Inc, bool Div) {
    Expr *Exit = divergentExit(Body, nullptr);
    Expr *Saved = DivCond;
    bool D = Div || Exit || (Cond && dependent(Cond));
    if (D && !Div)
      DivCond = Exit ? Exit : Cond ? Cond : cast<DoStmt>(Loop)->getCond();
    if (Cond)
      expr(Cond, Div);
    stmt(Body, D);
    expr(Inc, D);
    DivCond = Saved;
  }

  void stmt(Stmt *S, bool Div) {
    if (!S)
      return;
    Div = Div || AfterDivergentReturn;
    switch (S->getKind()) {
    case Stmt::SK_Compound:
      Scopes.emplace_back();
      for (Stmt *C : cast<CompoundStmt>(S)->body())
        stmt(C, Div);
      Scopes.pop_back();
      return;
    case Stmt::SK_Decl:
      for (VarDecl *V : cast<DeclStmt>(S)->decls()) {
        expr(V->getInit(), Div);
        if (Collecting) {
          // An `auto` variable has no type before Sema infers it.
          const Type *T = V->getType();
          if (!T || !isa<ArrayType, StructType>(T->getUnqualified()))
            Uniform.insert(V);
        }
        Scopes.back().Vars[V->getName()] = V;
        if (V->getInit() && (Div || dependent(V->getInit())))
          markVarying(V, Div ? DivCond : V->getInit());
      }
      return;
    case Stmt::SK_If: {
      auto *I = cast<IfStmt>(S);
      expr(I->getCond(), Div);
      setCond(I->getCond(), Div, [&](bool D) {
        stmt(I->getThen(), D);
        stmt(I->getElse(), D);
      });
      return;
    }
    case Stmt::SK_For: {
      auto *F = cast<ForStmt>(S);
      Scopes.emplace_back();
      Scopes.back().TakesImplicit = true;
      stmt(F->getInit(), Div);
      loop(F, F->getCond(), F->getBody(), F->getInc(), Div);
      Scopes.pop_back();
      return;
    }
    case Stmt::SK_While: {
      auto *W = cast<WhileStmt>(S);
      loop(W, W->getCond(), W->getBody(), nullptr, Div);
      return;
    }
    case Stmt::SK_Do: {
      auto *D = cast<DoStmt>(S);
      Expr *Exit = divergentExit(D->getBody(), nullptr);
      bool Dep = Exit || dependent(D->getCond());
      Expr *Saved = DivCond;
      if (Dep && !Div)
        DivCond = Exit ? Exit : D->getCond();
      stmt(D->getBody(), Div || Dep);
      expr(D->getCond(), Div || Dep);
      DivCond = Saved;
      return;
    }
    case Stmt::SK_Return:
      if (Div)
        AfterDivergentReturn = true;
      forEachChild(S, [&](Stmt *C) {
        if (C)
          expr(cast<Expr>(C), Div);
      });
      return;
    case Stmt::SK_Require:
    case Stmt::SK_Spawn:
      // Host code: its locals are host variables.
      return;
    default:
      if (auto *E = dyn_cast<Expr>(S)) {
        expr(E, Div);
        return;
      }
      forEachChild(S, [&](Stmt *C) { stmt(C, Div); });
    }
  }

  void walk(Stmt *Body) {
    Scopes.emplace_back();
    for (auto [P, U] : Params) {
      Scopes.back().Vars[P->getName()] = P;
      const Type *T = P->getType();
      if (Collecting && U &&
          (!T || !isa<ArrayType, StructType>(T->getUnqualified())))
        Uniform.insert(P);
    }
    stmt(Body, false);
    Scopes.clear();
  }

  const llvm::StringMap<FunctionDecl *> &Functions;
  llvm::DenseMap<Key, Expr *> &Reasons;
  llvm::DenseSet<Key> Uniform;
  struct Scope {
    llvm::StringMap<Key> Vars;
    bool TakesImplicit = false;
  };
  std::vector<Scope> Scopes;
  llvm::SmallVector<std::pair<VarDecl *, bool>, 4> Params;
  CallFn OnCall = nullptr;
  Expr *DivCond = nullptr;
  bool Collecting = false;
  bool AfterDivergentReturn = false;
};

} // namespace

/// The function whose parameters' uniformity \p F has: a generic
/// function's template pattern, or \p F (an explicit specialization has
/// parameters of its own).
static const FunctionDecl *paramOwner(const FunctionDecl *F) {
  if (FunctionTemplateDecl *T = F->getInstantiatedFrom();
      T && !F->isExplicitSpecialization())
    return T->getPattern();
  return F;
}

/// The spawn bodies in \p S.
static void findSpawns(Stmt *S, llvm::SmallVectorImpl<Stmt *> &Out) {
  if (auto *Sp = dyn_cast<SpawnStmt>(S)) {
    Out.push_back(Sp->getBody());
    return;
  }
  forEachChild(S, [&](Stmt *C) {
    if (C)
      findSpawns(C, Out);
  });
}

void Sema::computeUniformParams() {
  // The code that may call collective functions: spawn bodies and inline
  // functions (with their owner), the library's aside (MLIRGen calls its
  // functions for primitives, with any values). Other calls are errors.
  llvm::SmallVector<std::pair<Stmt *, FunctionDecl *>, 16> Bodies;
  auto Add = [&](FunctionDecl *F) {
    if (!F->isDefinition() || Ctx.isLibraryFile(F->getLoc().File))
      return;
    if (F->isInline()) {
      Bodies.push_back({F->getBody(), F});
    } else {
      llvm::SmallVector<Stmt *, 4> Spawns;
      findSpawns(F->getBody(), Spawns);
      for (Stmt *S : Spawns)
        Bodies.push_back({S, nullptr});
    }
  };
  for (TranslationUnit &TU : Ctx.getTranslationUnits())
    for (Decl *D : TU.Decls) {
      auto *F = dyn_cast<FunctionDecl>(D);
      if (auto *T = dyn_cast<FunctionTemplateDecl>(D))
        F = T->getPattern();
      if (F && Functions.lookup(F->getName()) == F)
        Add(F);
    }
  // A collective function that nothing calls keeps per-thread parameters.
  llvm::DenseSet<FunctionDecl *> Called;
  for (auto &[F, Info] : Infos)
    if (!Ctx.isLibraryFile(F->getLoc().File))
      for (auto &Call : Info.Calls)
        if (FunctionDecl *G = Functions.lookup(Call.first))
          Called.insert(G);
  for (auto &[Body, Owner] : Bodies)
    if (Owner && Owner->getFunctionKind() == FunctionDecl::FK_Collective)
      ParamUniformity[Owner].assign(Owner->getParams().size(),
                                    {Called.count(Owner) != 0, nullptr});
  auto MakePerThread = [&](FunctionDecl *G, unsigned I, Expr *Arg) {
    auto It = ParamUniformity.find(G);
    if (It == ParamUniformity.end() || I >= It->second.size() ||
        !It->second[I].Uniform)
      return false;
    It->second[I] = {false, Arg};
    ParamCallReasons[Arg] = G;
    return true;
  };
  // Optimistic, as for locals: all uniform, then each argument that
  // differs between threads makes its parameter per-thread, until nothing
  // changes.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[Body, Owner] : Bodies) {
      llvm::DenseMap<Key, Expr *> Reasons;
      UniformLocals U(Functions, Reasons);
      if (Owner)
        U.setParams(Owner->getParams(), uniformParams(Owner));
      U.solve(Body);
      U.recordCalls(
          Body, [&](FunctionDecl *G, unsigned I, Expr *Arg, bool PerThread) {
            if (PerThread && MakePerThread(G, I, Arg))
              Changed = true;
          });
    }
  }
}

llvm::SmallVector<bool, 4> Sema::uniformParams(const FunctionDecl *F) const {
  llvm::SmallVector<bool, 4> Result(F->getParams().size(), false);
  auto It = ParamUniformity.find(paramOwner(F));
  if (It != ParamUniformity.end())
    for (auto [I, P] : llvm::enumerate(It->second))
      if (I < Result.size())
        Result[I] = P.Uniform;
  return Result;
}

void Sema::computeUniformLocals(Stmt *Body, FunctionDecl *Owner) {
  llvm::DenseMap<Key, Expr *> Reasons;
  UniformLocals U(Functions, Reasons);
  if (Owner) {
    U.setParams(Owner->getParams(), uniformParams(Owner));
    // A parameter per-thread because of a call: the note names the call;
    // without one, nothing calls the function.
    auto It = ParamUniformity.find(paramOwner(Owner));
    if (It != ParamUniformity.end())
      for (auto [P, Info] : llvm::zip(Owner->getParams(), It->second)) {
        if (Info.Why)
          Reasons[P] = Info.Why;
        else if (!Info.Uniform)
          UncalledParams[P] = paramOwner(Owner);
      }
  }
  for (Key K : U.solve(Body))
    UniformKeys.insert(K);
  for (auto &[K, Why] : Reasons)
    VaryingKeyReasons[K] = Why;
}

void Sema::noteImplicitLocal(DeclRefExpr *Ref, VarDecl *V) {
  if (UniformKeys.count(Ref))
    UniformVars.insert(V);
  if (Expr *Why = VaryingKeyReasons.lookup(Ref))
    VaryingKeyReasons[V] = Why;
}

void Sema::noteVaryingChain(Expr *Cond) {
  // The first per-thread local the condition reads, and why it is one,
  // following the chain a few steps.
  llvm::SmallPtrSet<VarDecl *, 4> Seen;
  Expr *E = Cond;
  for (unsigned Step = 0; E && Step < 6; ++Step) {
    VarDecl *Found = nullptr;
    std::function<void(Stmt *)> Find = [&](Stmt *S) {
      if (Found || !S)
        return;
      if (auto *R = dyn_cast<DeclRefExpr>(S))
        if (auto *V = dyn_cast_or_null<VarDecl>(R->getDecl()))
          if (!V->isHost() && !isUniformLocal(V) && !Seen.count(V)) {
            Found = V;
            return;
          }
      forEachChild(S, Find);
    };
    Find(E);
    if (!Found)
      return;
    Seen.insert(Found);
    Expr *Why = VaryingKeyReasons.lookup(Found);
    if (const FunctionDecl *F = Why ? nullptr : UncalledParams.lookup(Found)) {
      Diags.report(SourceRange(Found->getLoc()), diag::note_uncalled_param)
          << Found->getName() << F->getName();
      continue;
    }
    // A variable assigned under the very condition being explained (a
    // loop's own counter) adds nothing: the next one of the expression may
    // (`i < k`).
    if (!Why || (Why->getRange().Begin == Cond->getRange().Begin &&
                 Why->getRange().End == Cond->getRange().End))
      continue;
    if (FunctionDecl *Callee = ParamCallReasons.lookup(Why))
      Diags.report(Why->getRange(), diag::note_varying_param)
          << Found->getName() << Callee->getName();
    else
      Diags.report(Why->getRange(), diag::note_varying_var) << Found->getName();
    E = Why;
  }
}
