//===- Sema.cpp - BSGP semantic analysis ----------------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Two phases. The first collects every function of the program and
/// classifies it (host, device, collective) from a syntactic walk and the
/// call graph; recursion among collective functions is found there. The
/// second checks each body in order with a scope stack and a context (host,
/// spawn body, require block, inline function, divergent control flow).
///
/// Error recovery: an expression that failed to check gets the ErrorType, and
/// no diagnostic is ever reported about an operand of ErrorType, so one
/// mistake produces one error.
///
//===----------------------------------------------------------------------===//

#include "bsgp/Sema/Sema.h"
#include "DivisionByZero.h"
#include "SemaTemplate.h"
#include "bsgp/AST/MathFunctions.h"
#include "bsgp/AST/ASTContext.h"
#include "bsgp/Basic/Diagnostic.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <functional>

using namespace bsgp;
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;

namespace {

/// The type of `E` if it is a 32-bit or 64-bit scalar (an integer one with
/// `IntegerOnly`): the words that shuffles, subgroup.match and the CPU
/// chunk ops move. Null otherwise.
const BuiltinType *getWordScalarType(const Expr *E, bool IntegerOnly) {
  const auto *T = dyn_cast<BuiltinType>(E->getType()->getUnqualified());
  if (!T || !(IntegerOnly ? T->isInteger() : T->isArithmetic()) ||
      (T->getBitWidth() != 32 && T->getBitWidth() != 64))
    return nullptr;
  return T;
}

struct FunctionInfo {
  bool HasSpawn = false;
  bool HasNew = false;        ///< A dnew or dtempnew (host-only code).
  bool HasCollective = false; ///< A barrier or a collective primitive.
  /// Calls by name, with the call expression for notes.
  llvm::SmallVector<std::pair<llvm::StringRef, CallExpr *>, 4> Calls;
};

struct Scope {
  llvm::StringMap<VarDecl *> Vars;
  /// Where first-assignment locals of this scope are recorded; null for the
  /// function-parameter and global scopes.
  llvm::SmallVectorImpl<VarDecl *> *Implicit = nullptr;
};

class Sema {
public:
  Sema(ASTContext &Ctx, DiagnosticEngine &Diags) : Ctx(Ctx), Diags(Diags) {}
  void run();

private:
  // Phase 1.
  void collect();
  void collectInfo(Stmt *S, FunctionInfo &Info);
  void classify();
  const Type *functionType(FunctionDecl *F);

  // Phase 2.
  void checkFunction(FunctionDecl *F);
  void checkGlobal(VarDecl *V);
  void checkStmt(Stmt *S);
  void checkSpawn(SpawnStmt *Sp);
  void checkPar(ParStmt *P);
  void checkStmtsInCurrentScope(CompoundStmt *C);
  void checkCompound(CompoundStmt *C, Scope *Existing = nullptr);
  /// Checks an if branch or a loop body: a block of its own whether braced
  /// or not, so that a variable first assigned in it cannot be read after
  /// the statement (where it may not have been assigned).
  void checkSubStmt(Stmt *S);
  /// Pops the innermost scope, remembering its inferred locals for the note
  /// of a later use out of scope.
  void popScope();
  void checkVarDecl(VarDecl *V);
  Expr *checkCond(Expr *E);
  Expr *checkExpr(Expr *E);
  Expr *checkExprImpl(Expr *E);
  Expr *checkAssign(BinaryOperator *B);
  Expr *checkBinary(BinaryOperator *B);
  Expr *checkUnary(UnaryOperator *U);
  Expr *checkCall(CallExpr *C);
  Expr *checkBuiltin(BuiltinCallExpr *B);
  Expr *checkGroup(GroupExpr *G);
  void checkGroupLocalDecl(VarDecl *V);
  Expr *checkMember(MemberExpr *M);
  Expr *checkConstruct(ConstructExpr *C);
  Expr *checkAtomic(AtomicExpr *A);

  // Conversions.
  Expr *rvalue(Expr *E);
  std::pair<Expr *, const char *> findUngettable(Expr *E);
  Expr *convert(Expr *E, const Type *To, bool Report = true);
  Expr *toBool(Expr *E);
  Expr *implicitCast(ImplicitCastExpr::CastKind K, Expr *E, const Type *To) {
    return new (Ctx) ImplicitCastExpr(K, E, To);
  }
  const Type *commonArith(const Type *A, const Type *B);
  const Type *promote(const Type *T);
  Expr *error(Expr *E) {
    E->setType(Ctx.getErrorType());
    return E;
  }

  // Context.
  bool inDevice() const {
    return (SpawnDepth > 0 || (CurFn && CurFn->isInline())) && !InRequire;
  }
  bool inParallel() const {
    return SpawnDepth > 0 || (CurFn && CurFn->isInline());
  }
  bool isThreadDependent(Expr *E);
  bool reportHostWrite(Expr *Target);
  void checkDivergence(Stmt *Node, diag::Kind K, llvm::StringRef Name);
  /// Reports \p Node (a barrier, require, par or collective call described
  /// by \p What) if it sits under control flow in device code.
  void checkSyncPlacement(Stmt *Node, llvm::StringRef What);
  /// Reports the syncs recorded by checkSyncPlacement that no divergence
  /// error covers (those are found later for loops with early exits).
  void flushSyncPlacement();
  void reportSync(Stmt *Node, diag::Kind K, llvm::StringRef Name, Expr *Cond,
                  Stmt *Exit);
  void scanSyncs(Stmt *Body, Expr *Cond, Stmt *Exit);
  void noteExit(Stmt *S);
  void checkLoopBody(Stmt *Loop, Stmt *Body, Expr *Cond);
  VarDecl *lookup(llvm::StringRef Name);
  void declare(VarDecl *V);

  // Generic functions (SemaTemplate.inc).
  void registerTemplate(FunctionTemplateDecl *T);
  /// The instantiation a call of the template whose pattern is \p Pattern
  /// (or that gives explicit template arguments) calls; checks the
  /// arguments. Null after an error.
  FunctionDecl *instantiateForCall(CallExpr *C, DeclRefExpr *R,
                                   FunctionDecl *Pattern);
  FunctionDecl *instantiate(FunctionTemplateDecl *T,
                            llvm::ArrayRef<const Type *> Args,
                            SourceRange At, llvm::StringRef Name = {});
  /// Instantiates the generic functions of the collective library that
  /// MLIRGen calls for primitive \p B (docs/collectives.md).
  void instantiateLibraryFor(BuiltinCallExpr *B);
  /// Checks the bodies of the instantiations requested so far (and those
  /// they request) and adds them to their template's translation unit.
  void checkInstantiations();
  /// The collective library on demand (SemaTemplate.inc): its functions
  /// are checked only when the program reaches them.
  bool deferLibraryFunction(FunctionDecl *F);
  void checkLibraryOnDemand();
  TemplateState Templates;

  ASTContext &Ctx;
  DiagnosticEngine &Diags;
  llvm::StringMap<FunctionDecl *> Functions;
  llvm::DenseMap<FunctionDecl *, FunctionInfo> Infos;
  std::vector<Scope> Scopes;
  FunctionDecl *CurFn = nullptr;
  unsigned SpawnDepth = 0;
  bool InRequire = false;
  unsigned LoopDepth = 0;
  /// Thread-dependent conditions that enclose the current statement.
  llvm::SmallVector<Expr *, 4> Divergent;
  /// The control flow around the current statement in device code (ifs,
  /// loops, `?:`, `&&`, `||`): no superstep may end inside it, uniform or
  /// not (§4.4, "Limitation"), except under branches on target queries
  /// (TargetQuestion), which the pipeline folds before splitting.
  struct Flow {
    Stmt *S;
    bool TargetQuestion;
  };
  llvm::SmallVector<Flow, 4> ControlFlow;
  /// The innermost entry of ControlFlow that no superstep may end in.
  Stmt *blockingFlow() const {
    for (const Flow &F : llvm::reverse(ControlFlow))
      if (!F.TargetQuestion)
        return F.S;
    return nullptr;
  }
  /// Reports a thread.put or thread.oldrank under any control flow: their
  /// ops must sit at the superstep level, target branches included.
  void checkStraightLine(Expr *E, diag::Kind K);
  /// Variables given a new value by thread.put in the current superstep,
  /// with the put: the value exists only after the next `barrier;` (the
  /// barriers of collectives do not count, as puts are checked before
  /// collectives are inlined).
  llvm::DenseMap<VarDecl *, Expr *> PendingPuts;
  struct MisplacedSync {
    Stmt *Node;
    std::string What;
    Stmt *Flow;
  };
  llvm::SmallVector<MisplacedSync, 2> MisplacedSyncs;
  /// Scopes.size() when the current spawn body was entered: the variables
  /// of the scopes below it belong to the code around the spawn.
  size_t SpawnScopeBase = 0;
  /// The pars and target-query branches around the current statement of a
  /// spawn body. A spawn passes on only the values its top-level requires
  /// assign, so a require under them may not assign outer variables.
  unsigned RequireNesting = 0;
  /// Inferred locals of the scopes that ended, by name, for the note on a
  /// use after their block.
  llvm::StringMap<VarDecl *> EndedLocals;
  /// A break, continue or return taken under a thread-dependent condition:
  /// the statement and the condition.
  struct ExitInfo {
    Expr *Cond = nullptr;
    Stmt *Exit = nullptr;
  };
  /// For the innermost loop: threads may leave it early, so its barriers
  /// are not reached by all threads.
  ExitInfo LoopExit;
  /// For the rest of the function: some threads have returned.
  ExitInfo ReturnExit;
  /// Divergent.size() when the innermost loop was entered.
  unsigned LoopDivBase = 0;
  /// Barriers and collectives already reported as divergent.
  llvm::DenseSet<const Stmt *> ReportedSyncs;
};

} // namespace

//===----------------------------------------------------------------------===//
// Phase 1: functions and their kinds
//===----------------------------------------------------------------------===//

const Type *Sema::functionType(FunctionDecl *F) {
  if (F->getFunctionType())
    return F->getFunctionType();
  llvm::SmallVector<const Type *, 4> Params;
  for (VarDecl *P : F->getParams())
    Params.push_back(P->getType());
  const Type *Ret = F->getWrittenReturnType() ? F->getWrittenReturnType()
                                              : Ctx.getVoidType();
  auto *FT = Ctx.getFunctionType(Ret, Params, F->isVarargs());
  F->setFunctionType(FT);
  return FT;
}

void Sema::collectInfo(Stmt *S, FunctionInfo &Info) {
  if (isa<SpawnStmt>(S))
    Info.HasSpawn = true;
  if (isa<NewExpr>(S))
    Info.HasNew = true;
  if (isa<BarrierStmt>(S))
    Info.HasCollective = true;
  if (auto *B = dyn_cast<BuiltinCallExpr>(S))
    if (BuiltinCallExpr::isCollective(B->getBuiltinKind()))
      Info.HasCollective = true;
  if (auto *C = dyn_cast<CallExpr>(S))
    if (auto *R = dyn_cast<DeclRefExpr>(C->getCallee()))
      Info.Calls.push_back({R->getName(), C});
  forEachChild(S, [&](Stmt *X) { collectInfo(X, Info); });
}

void Sema::collect() {
  Scopes.emplace_back(); // Globals.
  for (TranslationUnit &TU : Ctx.getTranslationUnits()) {
    for (Decl *D : TU.Decls) {
      if (auto *T = dyn_cast<FunctionTemplateDecl>(D))
        registerTemplate(T);
      if (auto *F = dyn_cast<FunctionDecl>(D)) {
        const Type *FT = functionType(F);
        FunctionDecl *&Slot = Functions[F->getName()];
        if (Slot) {
          if (Slot->getFunctionType() != FT) {
            Diags.report(SourceRange(F->getLoc()), diag::err_conflicting_types)
                << F->getName();
            Diags.report(SourceRange(Slot->getLoc()), diag::note_previous_decl);
            continue;
          }
          if (Slot->isDefinition() && F->isDefinition()) {
            Diags.report(SourceRange(F->getLoc()), diag::err_redefinition)
                << F->getName();
            Diags.report(SourceRange(Slot->getLoc()), diag::note_previous_decl);
            continue;
          }
          if (F->isDefinition()) {
            F->setInline(F->isInline() || Slot->isInline());
            Slot = F;
          }
        } else {
          Slot = F;
        }
        if (F->isDefinition())
          collectInfo(F->getBody(), Infos[F]);
      } else if (auto *S = dyn_cast<StructDecl>(D)) {
        llvm::StringMap<FieldDecl *> Seen;
        for (FieldDecl *Fd : S->getFields()) {
          auto Ins = Seen.insert({Fd->getName(), Fd});
          if (!Ins.second) {
            Diags.report(SourceRange(Fd->getLoc()), diag::err_duplicate_field)
                << Fd->getName();
            Diags.report(SourceRange(Ins.first->second->getLoc()),
                         diag::note_previous_decl);
          }
        }
      }
    }
  }
  classify();
}

void Sema::classify() {
  // A function is collective when it is inline and contains a barrier or a
  // collective, directly or through the inline functions it calls.
  llvm::DenseSet<FunctionDecl *> Collective;
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (auto &KV : Infos) {
      FunctionDecl *F = KV.first;
      if (!F->isInline() || Collective.count(F))
        continue;
      bool C = KV.second.HasCollective;
      for (auto &Call : KV.second.Calls) {
        auto It = Functions.find(Call.first);
        if (It != Functions.end() && Collective.count(It->second))
          C = true;
      }
      if (C) {
        Collective.insert(F);
        Changed = true;
      }
    }
  }
  for (auto &KV : Functions) {
    FunctionDecl *F = KV.second;
    auto It = Infos.find(F);
    if (Collective.count(F))
      F->setFunctionKind(FunctionDecl::FK_Collective);
    else if ((F->isExternC() &&
              getMathFunction(F->getName()) == MathFunction::None) ||
             F->getName() == "main" ||
             (It != Infos.end() &&
              (It->second.HasSpawn ||
               // dnew allocates from the host: a function that calls it
               // outside a spawn can only run there, as a host function.
               (It->second.HasNew && !F->isInline()))))
      F->setFunctionKind(FunctionDecl::FK_Host);
    else
      F->setFunctionKind(FunctionDecl::FK_Device);
  }
  // Recursion among collective functions: F reaches itself through calls.
  // Visit functions in source order so the report order is stable.
  for (TranslationUnit &TU : Ctx.getTranslationUnits()) {
    for (Decl *D : TU.Decls) {
      auto *F = dyn_cast<FunctionDecl>(D);
      if (!F || !Collective.count(F) || Functions.lookup(F->getName()) != F)
        continue;
      llvm::SmallVector<FunctionDecl *, 8> Work{F};
      llvm::DenseSet<FunctionDecl *> Seen;
      bool Cycle = false;
      while (!Work.empty() && !Cycle) {
        FunctionDecl *G = Work.pop_back_val();
        for (auto &Call : Infos[G].Calls) {
          FunctionDecl *H = Functions.lookup(Call.first);
          if (!H || !Collective.count(H))
            continue;
          if (H == F) {
            Cycle = true;
            Diags.report(SourceRange(F->getLoc()),
                         diag::err_collective_recursion)
                << F->getName();
            Diags.report(Call.second->getRange(), diag::note_recursion_call)
                << G->getName() << F->getName();
            break;
          }
          if (Seen.insert(H).second)
            Work.push_back(H);
        }
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Phase 2: statements
//===----------------------------------------------------------------------===//

void Sema::run() {
  collect();
  for (TranslationUnit &TU : Ctx.getTranslationUnits()) {
    for (Decl *D : TU.Decls) {
      if (Diags.hasFatalError())
        return;
      if (auto *F = dyn_cast<FunctionDecl>(D)) {
        if (F->isDefinition() && Functions.lookup(F->getName()) == F &&
            !deferLibraryFunction(F))
          checkFunction(F);
      } else if (auto *V = dyn_cast<VarDecl>(D)) {
        checkGlobal(V);
      }
    }
  }
  checkInstantiations();
  checkLibraryOnDemand();
}

VarDecl *Sema::lookup(llvm::StringRef Name) {
  for (size_t I = Scopes.size(); I-- > 0;) {
    auto It = Scopes[I].Vars.find(Name);
    if (It != Scopes[I].Vars.end())
      return It->second;
  }
  return nullptr;
}

void Sema::declare(VarDecl *V) {
  if (V->getName().empty())
    return;
  auto Ins = Scopes.back().Vars.insert({V->getName(), V});
  if (!Ins.second) {
    Diags.report(SourceRange(V->getLoc()), diag::err_redefinition)
        << V->getName();
    Diags.report(SourceRange(Ins.first->second->getLoc()),
                 diag::note_previous_decl);
  }
}

void Sema::checkGlobal(VarDecl *V) {
  CurFn = nullptr;
  checkVarDecl(V);
  if (Expr *I = V->getInit()) {
    Expr *E = I->ignoreParenImpCasts();
    while (auto *U = dyn_cast<UnaryOperator>(E))
      E = U->getSubExpr()->ignoreParenImpCasts();
    if (!isa<IntegerLiteral, FloatingLiteral, BoolLiteral, CharLiteral,
             StringLiteral, NullLiteral>(E) &&
        !I->getType()->isError())
      Diags.report(I->getRange(), diag::err_global_init_not_const)
          << V->getName();
  }
}

void Sema::checkFunction(FunctionDecl *F) {
  CurFn = F;
  SpawnDepth = 0;
  InRequire = false;
  LoopDepth = 0;
  Divergent.clear();
  ControlFlow.clear();
  EndedLocals.clear();
  PendingPuts.clear();
  LoopExit = ReturnExit = ExitInfo();
  LoopDivBase = 0;
  const Type *Ret = F->getReturnType();
  if (F->getName() == "main" && !Ret->isVoid() &&
      Ret->getUnqualified() != Ctx.getIntType())
    Diags.report(SourceRange(F->getLoc()), diag::err_main_returns);
  Scopes.emplace_back();
  for (VarDecl *P : F->getParams()) {
    // An inline function's parameters hold each calling thread's values.
    P->setHost(!F->isInline());
    declare(P);
  }
  checkCompound(F->getBody(), &Scopes.back());
  Scopes.pop_back();
  flushSyncPlacement();
  // A cheap -Wreturn-type: the body of a non-void function must end in a
  // return statement (main may fall off its end, as in C).
  auto Body = F->getBody()->body();
  if (!Ret->isVoid() && F->getName() != "main" &&
      (Body.empty() || !isa<ReturnStmt>(Body.back())))
    Diags.report(SourceRange(F->getBody()->getRange().End),
                 diag::warn_return_missing)
        << F->getName();
  CurFn = nullptr;
}

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

void Sema::popScope() {
  for (auto &Entry : Scopes.back().Vars)
    if (Entry.second->isImplicit())
      EndedLocals.try_emplace(Entry.first(), Entry.second);
  Scopes.pop_back();
}

void Sema::checkStmtsInCurrentScope(CompoundStmt *C) {
  for (Stmt *S : C->body()) {
    if (Diags.hasFatalError())
      break;
    checkStmt(S);
    flushSyncPlacement();
  }
}

void Sema::checkVarDecl(VarDecl *V) {
  if (Expr *I = V->getInit()) {
    I = rvalue(checkExpr(I));
    if (V->isAuto()) {
      const Type *T = I->getType()->getUnqualified();
      if (isa<NullType>(T)) {
        Diags.report(I->getRange(), diag::err_infer_null) << V->getName();
        T = Ctx.getErrorType();
      } else if (T->isVoid()) {
        Diags.report(I->getRange(), diag::err_infer_void) << V->getName();
        T = Ctx.getErrorType();
      }
      V->setType(T);
    } else {
      I = convert(I, V->getType()->getUnqualified());
    }
    V->setInit(I);
  }
  if (V->getType() && V->getType()->isVoid()) {
    Diags.report(SourceRange(V->getLoc()), diag::err_void_var) << V->getName();
    V->setType(Ctx.getErrorType());
  }
  if (auto *ST = dyn_cast_or_null<StructType>(V->getType()->getUnqualified()))
    if (!ST->getDecl())
      Diags.report(SourceRange(V->getLoc()), diag::err_incomplete_var)
          << V->getName() << V->getType()->str();
  V->setHost(!inDevice());
  V->setRequireDecl(InRequire);
  if (V->isGroupLocal())
    checkGroupLocalDecl(V);
  if (V->getStorage() != VarDecl::Global || Scopes.size() == 1)
    declare(V);
}

Expr *Sema::checkCond(Expr *E) {
  if (auto *B = dyn_cast<BinaryOperator>(E))
    if (B->getOpcode() == BinaryOperator::Assign)
      Diags.report(B->getRange(), diag::warn_assign_in_cond);
  return toBool(rvalue(checkExpr(E)));
}

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
}

void Sema::checkDivergence(Stmt *Node, diag::Kind K, llvm::StringRef Name) {
  if (!inDevice())
    return;
  if (!Divergent.empty())
    reportSync(Node, K, Name, Divergent.back(), nullptr);
  else if (ReturnExit.Cond)
    reportSync(Node, K, Name, ReturnExit.Cond, ReturnExit.Exit);
}

/// True if \p E is answered at compile time for each target: target queries
/// and `__bsgp_single_pass()`, combined with `!`, `&&` and `||`.
/// bsgp-specialize-targets and bsgp-single-pass fold such branches before
/// supersteps are split, so they may hold barriers.
static bool isTargetQuestion(Expr *E) {
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
  if (Stmt *Flow = blockingFlow())
    MisplacedSyncs.push_back({Node, What.str(), Flow});
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
    Diags.report(M.Node->getRange(), diag::err_sync_in_control_flow) << M.What;
    Diags.report(SourceRange(M.Flow->getRange().Begin),
                 diag::note_sync_control_flow)
        << describeFlow(M.Flow);
  }
  MisplacedSyncs.clear();
}

void Sema::checkStraightLine(Expr *E, diag::Kind K) {
  if (!inDevice() || ControlFlow.empty())
    return;
  Diags.report(E->getRange(), K);
  Diags.report(SourceRange(ControlFlow.back().S->getRange().Begin),
               diag::note_control_flow_here)
      << describeFlow(ControlFlow.back().S);
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
        reportSync(C, diag::err_collective_divergent, F->getName(), Cond,
                   Exit);
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
  if (inDevice())
    ControlFlow.push_back({Loop, false});
  checkSubStmt(Body);
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

/// In device code, reports a write to storage of a host variable: the
/// variable itself, a field of it, or an element of a host array. Writes
/// through pointers are fine (the memory is global).
bool Sema::reportHostWrite(Expr *Target) {
  if (InRequire && SpawnDepth > 0 && RequireNesting > 0) {
    auto *Ref = dyn_cast<DeclRefExpr>(Target->ignoreParenImpCasts());
    auto *V = Ref ? dyn_cast_or_null<VarDecl>(Ref->getDecl()) : nullptr;
    bool Outer = false;
    for (size_t I = 0; V && I < SpawnScopeBase && I < Scopes.size(); ++I)
      Outer |= Scopes[I].Vars.lookup(V->getName()) == V;
    if (Outer) {
      Diags.report(Target->getRange(), diag::err_require_nested_host_write)
          << V->getName();
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
      return !V->isHost();
  if (auto *T = dyn_cast<ThreadAttrExpr>(E))
    return T->getAttr() != ThreadAttrExpr::Size;
  // reduce returns the same value to every thread, and the single-pass
  // question is answered at compile time; the other primitives return
  // per-thread values.
  if (auto *B = dyn_cast<BuiltinCallExpr>(E))
    return B->getBuiltinKind() != BuiltinCallExpr::Reduce &&
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

void Sema::checkStmt(Stmt *S) {
  auto WithDivergence = [&](Expr *Cond, const std::function<void()> &Body) {
    bool Dep = Cond && inDevice() && isThreadDependent(Cond);
    if (Dep)
      Divergent.push_back(Cond);
    Body();
    if (Dep)
      Divergent.pop_back();
  };
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
    ES->setExpr(checkExpr(ES->getExpr()));
    return;
  }
  case Stmt::SK_Null:
    return;
  case Stmt::SK_If: {
    auto *I = cast<IfStmt>(S);
    I->setCond(checkCond(I->getCond()));
    // Branches on target queries are folded away before supersteps are
    // split, so they may hold barriers.
    bool Device = inDevice();
    bool Nests = Device && isTargetQuestion(I->getCond());
    if (Device)
      ControlFlow.push_back({I, Nests});
    RequireNesting += Nests;
    WithDivergence(I->getCond(), [&] {
      checkSubStmt(I->getThen());
      if (I->getElse())
        checkSubStmt(I->getElse());
    });
    RequireNesting -= Nests;
    if (Device)
      ControlFlow.pop_back();
    return;
  }
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
  case Stmt::SK_For: {
    auto *F = cast<ForStmt>(S);
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
    return;
  }
  case Stmt::SK_Break:
  case Stmt::SK_Continue:
    if (LoopDepth == 0)
      Diags.report(S->getRange(), isa<BreakStmt>(S)
                                      ? diag::err_break_outside_loop
                                      : diag::err_continue_outside_loop);
    noteExit(S);
    return;
  case Stmt::SK_Return: {
    auto *R = cast<ReturnStmt>(S);
    if (SpawnDepth > 0) {
      // The spawn body is the threads' code; `return` would leave the host
      // function from inside a kernel.
      Diags.report(S->getRange(), diag::err_return_in_spawn);
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
      Diags.report(S->getRange(), diag::err_return_missing_value)
          << CurFn->getName() << Ret->str();
    }
    return;
  }
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
  case Stmt::SK_Require: {
    auto *R = cast<RequireStmt>(S);
    if (InRequire)
      Diags.report(S->getRange().Begin, diag::err_require_nested);
    else if (!inParallel())
      Diags.report(S->getRange().Begin, diag::err_require_outside_spawn);
    else
      checkSyncPlacement(S, "'require'");
    bool Saved = InRequire;
    InRequire = true;
    // require opens no scope: its first-assignment locals belong to the
    // enclosing block (they are host variables read by later supersteps).
    if (auto *C = dyn_cast<CompoundStmt>(R->getBody()))
      checkStmtsInCurrentScope(C);
    else
      checkStmt(R->getBody());
    InRequire = Saved;
    return;
  }
  case Stmt::SK_Par:
    checkPar(cast<ParStmt>(S));
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
  Expr *N = rvalue(checkExpr(Sp->getCount()));
  if (!N->getType()->isError() && !N->getType()->isInteger()) {
    Diags.report(N->getRange(), diag::err_spawn_count) << N->getType()->str();
  } else if (!N->getType()->isError()) {
    N = convert(N, Ctx.getIntType());
  }
  Sp->setCount(N);
  ++SpawnDepth;
  bool SavedRequire = InRequire;
  InRequire = false;
  auto SavedDiv = Divergent;
  Divergent.clear();
  auto SavedFlow = ControlFlow;
  ControlFlow.clear();
  size_t SavedScopeBase = SpawnScopeBase;
  SpawnScopeBase = Scopes.size();
  unsigned SavedNesting = RequireNesting;
  RequireNesting = 0;
  unsigned SavedLoop = LoopDepth;
  LoopDepth = 0;
  ExitInfo SavedLoopExit = LoopExit, SavedReturnExit = ReturnExit;
  LoopExit = ReturnExit = ExitInfo();
  unsigned SavedBase = LoopDivBase;
  LoopDivBase = 0;
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
  RequireNesting = SavedNesting;
  InRequire = SavedRequire;
  --SpawnDepth;
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
  ++RequireNesting;
  checkCompound(P->getBody());
  --RequireNesting;
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

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

const Type *Sema::promote(const Type *T) {
  auto *B = dyn_cast<BuiltinType>(T->getUnqualified());
  if (B && (B->getBuiltinKind() == BuiltinType::Bool ||
            B->getBuiltinKind() == BuiltinType::Char))
    return Ctx.getIntType();
  return T->getUnqualified();
}

const Type *Sema::commonArith(const Type *A, const Type *B) {
  auto *X = cast<BuiltinType>(promote(A));
  auto *Y = cast<BuiltinType>(promote(B));
  if (X->isFloating() || Y->isFloating()) {
    if (X->getBuiltinKind() == BuiltinType::Double ||
        Y->getBuiltinKind() == BuiltinType::Double)
      return Ctx.getDoubleType();
    return Ctx.getFloatType();
  }
  if (X == Y)
    return X;
  if (X->getBitWidth() != Y->getBitWidth())
    return X->getBitWidth() > Y->getBitWidth() ? X : Y;
  // Same width, different signedness: unsigned wins.
  return X->isSignedInteger() ? Y : X;
}

Expr *Sema::rvalue(Expr *E) {
  const Type *T = E->getType()->getUnqualified();
  if (auto *AT = dyn_cast<ArrayType>(T))
    return implicitCast(ImplicitCastExpr::ArrayToPointer, E,
                        Ctx.getPointerType(AT->getElementType()));
  return E;
}

Expr *Sema::toBool(Expr *E) {
  const Type *T = E->getType()->getUnqualified();
  if (T->isError() || T->isBool())
    return E;
  if (!T->isScalar()) {
    Diags.report(E->getRange(), diag::err_typecheck_cond) << T->str();
    return error(E);
  }
  return implicitCast(ImplicitCastExpr::ToBool, E, Ctx.getBoolType());
}

Expr *Sema::convert(Expr *E, const Type *To, bool Report) {
  E = rvalue(E);
  const Type *From = E->getType()->getUnqualified();
  To = To->getUnqualified();
  if (From->isError() || To->isError())
    return E;
  if (From == To) {
    if (E->getType() != From)
      return implicitCast(ImplicitCastExpr::NoOp, E, To);
    return E;
  }
  using IC = ImplicitCastExpr;
  if (From->isArithmetic() && To->isArithmetic()) {
    IC::CastKind K;
    if (To->isBool())
      K = IC::ToBool;
    else if (From->isInteger() && To->isInteger())
      K = IC::IntegralCast;
    else if (From->isInteger())
      K = IC::IntegralToFloating;
    else if (To->isInteger())
      K = IC::FloatingToIntegral;
    else
      K = IC::FloatingCast;
    return implicitCast(K, E, To);
  }
  if (To->isBool() && From->isPointer())
    return implicitCast(IC::ToBool, E, To);
  if (isa<NullType>(From) && To->isPointer())
    return implicitCast(IC::NullToPointer, E, To);
  if (From->isPointer() && To->isPointer()) {
    const Type *FP = cast<PointerType>(From)->getPointee();
    const Type *TP = cast<PointerType>(To)->getPointee();
    bool AddsConst = FP->getUnqualified() == TP->getUnqualified() &&
                     (!FP->isConst() || TP->isConst());
    if (AddsConst || TP->getUnqualified()->isVoid() ||
        FP->getUnqualified()->isVoid())
      return implicitCast(IC::PointerCast, E, To);
    if (Report)
      Diags.report(E->getRange(), diag::err_incompatible_pointer)
          << From->str() << To->str();
    return error(E);
  }
  if (auto *VT = dyn_cast<VectorType>(To)) {
    if (From->isArithmetic()) {
      Expr *S = convert(E, VT->getElementType(), Report);
      return implicitCast(IC::VectorSplat, S, To);
    }
    if (auto *VF = dyn_cast<VectorType>(From))
      if (VF->getNumElements() == VT->getNumElements())
        return implicitCast(IC::VectorConvert, E, To);
  }
  if (Report)
    Diags.report(E->getRange(), diag::err_typecheck_convert)
        << E->getType()->str() << To->str();
  return error(E);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Expr *Sema::checkExpr(Expr *E) {
  Expr *R = checkExprImpl(E);
  if (!R->getType())
    R->setType(Ctx.getErrorType());
  return R;
}

Expr *Sema::checkExprImpl(Expr *E) {
  switch (E->getKind()) {
  case Stmt::SK_IntegerLiteral: {
    auto *L = cast<IntegerLiteral>(E);
    uint64_t V = L->getValue();
    const Type *T;
    if (L->hasUnsignedSuffix())
      T = (!L->hasLongSuffix() && V <= UINT32_MAX)
              ? Ctx.getUIntType()
              : Ctx.getBuiltinType(BuiltinType::UInt64);
    else if (!L->hasLongSuffix() && V <= INT32_MAX)
      T = Ctx.getIntType();
    else if (V <= INT64_MAX)
      T = Ctx.getBuiltinType(BuiltinType::Int64);
    else
      T = Ctx.getBuiltinType(BuiltinType::UInt64);
    E->setType(T);
    return E;
  }
  case Stmt::SK_FloatingLiteral:
    E->setType(cast<FloatingLiteral>(E)->hasFloatSuffix() ? Ctx.getFloatType()
                                                         : Ctx.getDoubleType());
    return E;
  case Stmt::SK_BoolLiteral:
    E->setType(Ctx.getBoolType());
    return E;
  case Stmt::SK_CharLiteral:
    E->setType(Ctx.getCharType());
    return E;
  case Stmt::SK_StringLiteral:
    E->setType(Ctx.getPointerType(Ctx.getConstType(Ctx.getCharType())));
    return E;
  case Stmt::SK_NullLiteral:
    E->setType(Ctx.getNullType());
    return E;
  case Stmt::SK_DeclRef: {
    auto *R = cast<DeclRefExpr>(E);
    if (VarDecl *V = lookup(R->getName())) {
      R->setDecl(V);
      R->setType(V->getType());
      R->setLValue(true);
      V->setRead();
      if (InRequire && !V->isHost())
        Diags.report(R->getRange(), diag::err_thread_device_var_in_require)
            << R->getName();
      if (Expr *Put = PendingPuts.lookup(V)) {
        Diags.report(R->getRange(), diag::err_put_value_used) << R->getName();
        Diags.report(Put->getRange(), diag::note_put_here) << R->getName();
        PendingPuts.erase(V);
      }
      return R;
    }
    if (FunctionDecl *F = Functions.lookup(R->getName())) {
      R->setDecl(F);
      R->setType(F->getFunctionType());
      return R;
    }
    Diags.report(R->getRange(), diag::err_undeclared) << R->getName();
    if (VarDecl *Ended = EndedLocals.lookup(R->getName()))
      Diags.report(SourceRange(Ended->getLoc()), diag::note_out_of_scope)
          << R->getName();
    return error(R);
  }
  case Stmt::SK_Paren: {
    auto *P = cast<ParenExpr>(E);
    P->setSubExpr(checkExpr(P->getSubExpr()));
    P->setType(P->getSubExpr()->getType());
    P->setLValue(P->getSubExpr()->isLValue());
    return P;
  }
  case Stmt::SK_Unary:
    return checkUnary(cast<UnaryOperator>(E));
  case Stmt::SK_Binary: {
    auto *B = cast<BinaryOperator>(E);
    if (B->isAssignmentOp())
      return checkAssign(B);
    return checkBinary(B);
  }
  case Stmt::SK_Conditional: {
    auto *C = cast<ConditionalOperator>(E);
    C->setCond(toBool(rvalue(checkExpr(C->getCond()))));
    bool Dep = inDevice() && isThreadDependent(C->getCond());
    bool Device = inDevice();
    if (Dep)
      Divergent.push_back(C->getCond());
    if (Device)
      ControlFlow.push_back({C, isTargetQuestion(C->getCond())});
    Expr *T = rvalue(checkExpr(C->getTrueExpr()));
    Expr *F = rvalue(checkExpr(C->getFalseExpr()));
    if (Device)
      ControlFlow.pop_back();
    if (Dep)
      Divergent.pop_back();
    const Type *TT = T->getType()->getUnqualified(),
               *FT = F->getType()->getUnqualified();
    const Type *R = nullptr;
    if (TT->isError() || FT->isError())
      R = Ctx.getErrorType();
    else if (TT == FT)
      R = TT;
    else if (TT->isArithmetic() && FT->isArithmetic())
      R = commonArith(TT, FT);
    else if (TT->isPointer() && isa<NullType>(FT))
      R = TT;
    else if (FT->isPointer() && isa<NullType>(TT))
      R = FT;
    if (!R) {
      Diags.report(C->getRange(), diag::err_cond_incompatible)
          << TT->str() << FT->str();
      C->setTrueExpr(T);
      C->setFalseExpr(F);
      return error(C);
    }
    C->setTrueExpr(convert(T, R));
    C->setFalseExpr(convert(F, R));
    C->setType(R);
    return C;
  }
  case Stmt::SK_Call:
    return checkCall(cast<CallExpr>(E));
  case Stmt::SK_BuiltinCall: {
    Expr *R = checkBuiltin(cast<BuiltinCallExpr>(E));
    instantiateLibraryFor(cast<BuiltinCallExpr>(E));
    return R;
  }
  case Stmt::SK_Group:
    return checkGroup(cast<GroupExpr>(E));
  case Stmt::SK_ThreadAttr: {
    auto *T = cast<ThreadAttrExpr>(E);
    std::string Name = std::string("thread.") +
                       ThreadAttrExpr::getName(T->getAttr());
    if (!inParallel())
      Diags.report(T->getRange(), diag::err_thread_outside_spawn) << Name;
    else if (InRequire && T->getAttr() != ThreadAttrExpr::Size)
      Diags.report(T->getRange(), diag::err_require_device) << Name;
    T->setType(Ctx.getIntType());
    T->setLValue(T->getAttr() == ThreadAttrExpr::OldRank ||
                 (T->getAttr() == ThreadAttrExpr::Size && InRequire));
    return T;
  }
  case Stmt::SK_Index: {
    auto *I = cast<IndexExpr>(E);
    Expr *B = checkExpr(I->getBase());
    Expr *Idx = rvalue(checkExpr(I->getIndex()));
    const Type *BT = B->getType()->getUnqualified();
    I->setLValue(true);
    if (BT->isError() || Idx->getType()->isError()) {
      I->setBase(B);
      I->setIndex(Idx);
      return error(I);
    }
    if (!Idx->getType()->isInteger()) {
      Diags.report(Idx->getRange(), diag::err_typecheck_index)
          << Idx->getType()->str();
      I->setBase(B);
      I->setIndex(Idx);
      return error(I);
    }
    const Type *Elem = nullptr;
    if (auto *AT = dyn_cast<ArrayType>(BT)) {
      Elem = AT->getElementType();
      I->setLValue(B->isLValue());
    } else if (auto *PT = dyn_cast<PointerType>(BT)) {
      Elem = PT->getPointee();
    } else {
      Diags.report(B->getRange(), diag::err_typecheck_subscript) << BT->str();
      I->setBase(B);
      I->setIndex(Idx);
      return error(I);
    }
    I->setBase(B);
    I->setIndex(Idx);
    I->setType(Elem);
    return I;
  }
  case Stmt::SK_Member:
    return checkMember(cast<MemberExpr>(E));
  case Stmt::SK_Cast: {
    auto *C = cast<CastExpr>(E);
    Expr *S = rvalue(checkExpr(C->getSubExpr()));
    C->setSubExpr(S);
    const Type *To = C->getWrittenType()->getUnqualified();
    const Type *From = S->getType()->getUnqualified();
    C->setType(To);
    if (From->isError())
      return C;
    bool Ok = To->isVoid() || (From->isArithmetic() && To->isArithmetic()) ||
              (From->isPointer() && To->isPointer()) ||
              (From->isPointer() && To->isInteger()) ||
              (From->isInteger() && To->isPointer()) ||
              (isa<NullType>(From) && To->isPointer()) || From == To ||
              (From->isArithmetic() && To->isVector());
    if (auto *VF = dyn_cast<VectorType>(From))
      if (auto *VT = dyn_cast<VectorType>(To))
        Ok = VF->getNumElements() == VT->getNumElements();
    if (!Ok) {
      Diags.report(C->getRange(), diag::err_cast_invalid)
          << From->str() << To->str();
      return error(C);
    }
    return C;
  }
  case Stmt::SK_ImplicitCast:
    return E;
  case Stmt::SK_Construct:
    return checkConstruct(cast<ConstructExpr>(E));
  case Stmt::SK_Sizeof: {
    auto *S = cast<SizeofExpr>(E);
    const Type *T = S->getArgType();
    if (S->getArgExpr())
      T = checkExpr(S->getArgExpr())->getType();
    if (T->isVoid() || isa<FunctionType>(T->getUnqualified())) {
      Diags.report(S->getRange(), diag::err_sizeof_void) << T->str();
      return error(S);
    }
    S->setType(Ctx.getBuiltinType(BuiltinType::UInt64));
    return S;
  }
  case Stmt::SK_New: {
    auto *N = cast<NewExpr>(E);
    const char *Name = N->isTemporary() ? "dtempnew" : "dnew";
    if (inDevice())
      Diags.report(N->getRange(), diag::err_dnew_in_device) << Name;
    Expr *C = rvalue(checkExpr(N->getCount()));
    if (!C->getType()->isError()) {
      if (!C->getType()->isInteger())
        Diags.report(C->getRange(), diag::err_new_count)
            << Name << C->getType()->str();
      else
        C = convert(C, Ctx.getBuiltinType(BuiltinType::UInt64));
    }
    N->setCount(C);
    if (N->getElementType()->isVoid()) {
      Diags.report(N->getRange(), diag::err_new_void);
      return error(N);
    }
    N->setType(Ctx.getPointerType(N->getElementType()));
    return N;
  }
  case Stmt::SK_TargetQuery:
    // Allowed everywhere: a constant in device code, a constant or a
    // runtime query in host code (docs/language.md).
    E->setType(Ctx.getBoolType());
    return E;
  case Stmt::SK_Atomic:
    return checkAtomic(cast<AtomicExpr>(E));
  default:
    return error(E);
  }
}

Expr *Sema::checkAssign(BinaryOperator *B) {
  // A first assignment to an unknown name introduces an inferred local in
  // the innermost block.
  auto *LRef = dyn_cast<DeclRefExpr>(B->getLHS());
  if (LRef && B->getOpcode() == BinaryOperator::Assign &&
      !lookup(LRef->getName()) && !Functions.count(LRef->getName())) {
    Expr *R = rvalue(checkExpr(B->getRHS()));
    const Type *T = R->getType()->getUnqualified();
    if (isa<NullType>(T)) {
      Diags.report(R->getRange(), diag::err_infer_null) << LRef->getName();
      T = Ctx.getErrorType();
    } else if (T->isVoid()) {
      Diags.report(R->getRange(), diag::err_infer_void) << LRef->getName();
      T = Ctx.getErrorType();
    } else if (isa<FunctionType>(T)) {
      Diags.report(R->getRange(), diag::err_typecheck_convert)
          << T->str() << "a variable";
      T = Ctx.getErrorType();
    }
    auto *V = new (Ctx) VarDecl(LRef->getRange(), LRef->getBeginLoc(),
                                LRef->getName(), T, R, VarDecl::Local);
    V->setImplicit(true);
    V->setHost(!inDevice());
    V->setRequireDecl(InRequire);
    size_t I = Scopes.size();
    while (I > 1 && !Scopes[I - 1].Implicit)
      --I;
    Scopes[I - 1].Vars[V->getName()] = V;
    if (Scopes[I - 1].Implicit)
      Scopes[I - 1].Implicit->push_back(V);
    LRef->setDecl(V);
    LRef->setDefinition(true);
    LRef->setType(T);
    LRef->setLValue(true);
    B->setRHS(R);
    B->setType(T);
    return B;
  }
  Expr *L = checkExpr(B->getLHS());
  Expr *R = rvalue(checkExpr(B->getRHS()));
  B->setLHS(L);
  const Type *LT = L->getType();
  if (LT->isError() || R->getType()->isError()) {
    B->setRHS(R);
    return error(B);
  }
  Expr *LBase = L->ignoreParenImpCasts();
  if (auto *T = dyn_cast<TargetQueryExpr>(LBase)) {
    Diags.report(L->getRange(), diag::err_target_query_readonly)
        << TargetQueryExpr::getName(T->getTarget());
    B->setRHS(R);
    return error(B);
  }
  if (auto *T = dyn_cast<ThreadAttrExpr>(LBase))
    if (T->getAttr() == ThreadAttrExpr::OldRank)
      checkStraightLine(B, diag::err_oldrank_in_control_flow);
  // §5: fork and kill adjust thread.size in a require block.
  if (auto *T = dyn_cast<ThreadAttrExpr>(LBase))
    if (T->getAttr() != ThreadAttrExpr::OldRank &&
        !(T->getAttr() == ThreadAttrExpr::Size && InRequire)) {
      Diags.report(L->getRange(), diag::err_thread_attr_readonly)
          << ThreadAttrExpr::getName(T->getAttr());
      B->setRHS(R);
      return error(B);
    }
  if (!L->isLValue() || isa<ArrayType>(LT->getUnqualified())) {
    Diags.report(L->getRange(), diag::err_not_assignable);
    B->setRHS(R);
    return error(B);
  }
  if (LT->isConst()) {
    Diags.report(L->getRange(), diag::err_assign_const) << LT->str();
    B->setRHS(R);
    return error(B);
  }
  if (reportHostWrite(L)) {
    B->setRHS(R);
    return error(B);
  }
  const Type *LU = LT->getUnqualified();
  if (B->getOpcode() == BinaryOperator::Assign) {
    B->setRHS(convert(R, LU));
  } else {
    auto Op = BinaryOperator::getBaseOp(B->getOpcode());
    const Type *RT = R->getType()->getUnqualified();
    bool PtrArith = LU->isPointer() && RT->isInteger() &&
                    (Op == BinaryOperator::Add || Op == BinaryOperator::Sub);
    bool IntOnly = Op == BinaryOperator::Rem || Op == BinaryOperator::Shl ||
                   Op == BinaryOperator::Shr || Op == BinaryOperator::And ||
                   Op == BinaryOperator::Or || Op == BinaryOperator::Xor;
    if (PtrArith) {
      B->setComputationType(LU);
      B->setRHS(R);
    } else if (LU->isArithmetic() && RT->isArithmetic() &&
               (!IntOnly || (LU->isInteger() && RT->isInteger()))) {
      const Type *CT = commonArith(LU, RT);
      B->setComputationType(CT);
      B->setRHS(convert(R, CT));
    } else if (LU->isVector() && (RT == LU || RT->isArithmetic()) && !IntOnly) {
      B->setComputationType(LU);
      B->setRHS(convert(R, LU));
    } else {
      Diags.report(B->getRange(), diag::err_typecheck_binary)
          << LU->str() << RT->str();
      B->setRHS(R);
      return error(B);
    }
  }
  B->setType(LU);
  warnDivisionByZero(B, B->getComputationType(), Diags);
  return B;
}

Expr *Sema::checkBinary(BinaryOperator *B) {
  using BO = BinaryOperator;
  auto Op = B->getOpcode();
  Expr *L = rvalue(checkExpr(B->getLHS()));
  bool Logical = Op == BO::LAnd || Op == BO::LOr;
  bool Dep = Logical && inDevice() && isThreadDependent(L);
  bool Device = Logical && inDevice();
  if (Dep)
    Divergent.push_back(L);
  if (Device)
    ControlFlow.push_back({B, isTargetQuestion(L)});
  Expr *R = rvalue(checkExpr(B->getRHS()));
  if (Device)
    ControlFlow.pop_back();
  if (Dep)
    Divergent.pop_back();
  B->setLHS(L);
  B->setRHS(R);
  const Type *LT = L->getType()->getUnqualified();
  const Type *RT = R->getType()->getUnqualified();
  if (LT->isError() || RT->isError())
    return error(B);
  auto Fail = [&]() {
    Diags.report(B->getRange(), diag::err_typecheck_binary)
        << L->getType()->str() << R->getType()->str();
    return error(B);
  };
  if (Op == BO::Comma) {
    B->setType(RT);
    return B;
  }
  if (Logical) {
    if (!LT->isScalar() || !RT->isScalar())
      return Fail();
    B->setLHS(toBool(L));
    B->setRHS(toBool(R));
    B->setType(Ctx.getBoolType());
    return B;
  }
  bool Compare = Op >= BO::LT && Op <= BO::NE;
  bool IntOnly = Op == BO::Rem || Op == BO::Shl || Op == BO::Shr ||
                 Op == BO::And || Op == BO::Or || Op == BO::Xor;
  if (LT->isArithmetic() && RT->isArithmetic()) {
    if (IntOnly && (!LT->isInteger() || !RT->isInteger()))
      return Fail();
    const Type *CT = commonArith(LT, RT);
    if (Op == BO::Shl || Op == BO::Shr) {
      B->setLHS(convert(L, promote(LT)));
      B->setRHS(convert(R, promote(RT)));
      B->setType(promote(LT));
      return B;
    }
    B->setLHS(convert(L, CT));
    B->setRHS(convert(R, CT));
    B->setType(Compare ? Ctx.getBoolType() : CT);
    warnDivisionByZero(B, CT, Diags);
    return B;
  }
  if (LT->isVector() || RT->isVector()) {
    const Type *VT = LT->isVector() ? LT : RT;
    const Type *Other = LT->isVector() ? RT : LT;
    auto *V = cast<VectorType>(VT);
    if (Compare || (Other != VT && !Other->isArithmetic()) ||
        (IntOnly && !V->getElementType()->isInteger()))
      return Fail();
    B->setLHS(convert(L, VT));
    B->setRHS(convert(R, VT));
    B->setType(VT);
    warnDivisionByZero(B, VT, Diags);
    return B;
  }
  // Pointers.
  bool LP = LT->isPointer(), RP = RT->isPointer();
  bool LN = isa<NullType>(LT), RN = isa<NullType>(RT);
  if ((Op == BO::Add || Op == BO::Sub) && LP && RT->isInteger()) {
    B->setType(LT);
    return B;
  }
  if (Op == BO::Add && RP && LT->isInteger()) {
    B->setType(RT);
    return B;
  }
  if (Op == BO::Sub && LP && RP) {
    if (LT != RT)
      return Fail();
    B->setType(Ctx.getBuiltinType(BuiltinType::Int64));
    return B;
  }
  if (Compare && (LP || LN) && (RP || RN)) {
    if (LP && RN)
      B->setRHS(convert(R, LT));
    else if (RP && LN)
      B->setLHS(convert(L, RT));
    else if (LP && RP && LT != RT) {
      const Type *LE = cast<PointerType>(LT)->getPointee()->getUnqualified();
      const Type *RE = cast<PointerType>(RT)->getPointee()->getUnqualified();
      if (LE != RE && !LE->isVoid() && !RE->isVoid())
        return Fail();
    }
    B->setType(Ctx.getBoolType());
    return B;
  }
  return Fail();
}

Expr *Sema::checkUnary(UnaryOperator *U) {
  using UO = UnaryOperator;
  Expr *S = checkExpr(U->getSubExpr());
  auto Op = U->getOpcode();
  if (Op != UO::AddrOf)
    S = rvalue(S);
  U->setSubExpr(S);
  const Type *T = S->getType()->getUnqualified();
  if (T->isError())
    return error(U);
  auto Fail = [&]() {
    Diags.report(U->getRange(), diag::err_typecheck_unary)
        << S->getType()->str();
    return error(U);
  };
  switch (Op) {
  case UO::Plus:
  case UO::Minus:
    if (T->isArithmetic()) {
      U->setSubExpr(convert(S, promote(T)));
      U->setType(promote(T));
      return U;
    }
    if (T->isVector()) {
      U->setType(T);
      return U;
    }
    return Fail();
  case UO::Not:
    if (!T->isScalar())
      return Fail();
    U->setSubExpr(toBool(S));
    U->setType(Ctx.getBoolType());
    return U;
  case UO::BitNot:
    if (!T->isInteger())
      return Fail();
    U->setSubExpr(convert(S, promote(T)));
    U->setType(promote(T));
    return U;
  case UO::Deref: {
    auto *P = dyn_cast<PointerType>(T);
    if (!P || P->getPointee()->isVoid()) {
      Diags.report(U->getRange(), diag::err_typecheck_deref)
          << S->getType()->str();
      return error(U);
    }
    U->setType(P->getPointee());
    U->setLValue(true);
    return U;
  }
  case UO::AddrOf:
    if (auto *TQ = dyn_cast<TargetQueryExpr>(S->ignoreParenImpCasts())) {
      Diags.report(U->getRange(), diag::err_target_query_addrof)
          << TargetQueryExpr::getName(TQ->getTarget());
      return error(U);
    }
    if (!S->isLValue()) {
      Diags.report(U->getRange(), diag::err_addrof_rvalue)
          << S->getType()->str();
      return error(U);
    }
    U->setType(Ctx.getPointerType(S->getType()));
    return U;
  default: { // ++ and --
    if (!S->isLValue() || S->getType()->isConst() ||
        !(T->isArithmetic() || T->isPointer())) {
      Diags.report(U->getRange(), diag::err_incdec_not_lvalue)
          << UO::getSpelling(Op);
      return error(U);
    }
    if (reportHostWrite(S))
      return error(U);
    U->setType(T);
    return U;
  }
  }
}

Expr *Sema::checkCall(CallExpr *C) {
  Expr *Callee = C->getCallee();
  FunctionDecl *F = nullptr;
  if (auto *R = dyn_cast<DeclRefExpr>(Callee)) {
    F = Functions.lookup(R->getName());
    if (F && !lookup(R->getName())) {
      R->setDecl(F);
      R->setType(F->getFunctionType());
    } else if (!F && !lookup(R->getName())) {
      Diags.report(R->getRange(), diag::err_undeclared_function)
          << R->getName();
      for (Expr *&A : C->args())
        A = checkExpr(A);
      return error(C);
    } else {
      F = nullptr;
    }
  }
  // A generic function: the instantiation for these arguments.
  bool ArgsChecked = false;
  if (auto *R = dyn_cast<DeclRefExpr>(Callee);
      F && (R->hasTemplateArgs() || Templates.Patterns.count(F))) {
    ArgsChecked = true;
    F = instantiateForCall(C, R, F);
    if (!F)
      return error(C);
    R->setDecl(F);
    R->setType(F->getFunctionType());
  }
  if (!F) {
    Expr *E = checkExpr(Callee);
    if (!E->getType()->isError())
      Diags.report(Callee->getRange(), diag::err_call_not_function)
          << E->getType()->str();
    for (Expr *&A : C->args())
      A = checkExpr(A);
    return error(C);
  }
  // Where the callee may run.
  if (F->getFunctionKind() == FunctionDecl::FK_Collective) {
    if (!inParallel() || InRequire)
      Diags.report(C->getRange(), diag::err_collective_in_host)
          << F->getName();
    else {
      checkDivergence(C, diag::err_collective_divergent, F->getName());
      checkSyncPlacement(C, ("call to collective '" + F->getName() + "'").str());
    }
  } else if (F->getFunctionKind() == FunctionDecl::FK_Host && inDevice()) {
    Diags.report(C->getRange(), diag::err_host_in_device) << F->getName();
    auto It = Infos.find(F);
    bool Spawns = It != Infos.end() && It->second.HasSpawn;
    const char *Why = F->isExternC()          ? "it is declared extern \"C\""
                      : F->getName() == "main" ? "it is 'main'"
                      : Spawns                 ? "it contains a spawn"
                                   : "it allocates with dnew or dtempnew";
    Diags.report(SourceRange(F->getLoc()), diag::note_host_because)
        << F->getName() << Why;
  }
  auto *FT = F->getFunctionType();
  auto Params = FT->getParams();
  size_t N = C->args().size();
  bool ArityOk = FT->isVarargs() ? N >= Params.size() : N == Params.size();
  if (!ArityOk) {
    Diags.report(C->getRange(), FT->isVarargs() ? diag::err_call_arity_varargs
                                                : diag::err_call_arity)
        << F->getName() << unsigned(Params.size()) << unsigned(N);
    Diags.report(SourceRange(F->getLoc()), diag::note_declared_here)
        << F->getName();
    for (Expr *&A : C->args())
      if (!ArgsChecked)
        A = checkExpr(A);
    return error(C);
  }
  for (size_t I = 0; I < N; ++I) {
    Expr *A = ArgsChecked ? C->args()[I] : rvalue(checkExpr(C->args()[I]));
    if (I < Params.size()) {
      A = convert(A, Params[I]);
    } else if (A->getType()->getUnqualified() == Ctx.getFloatType()) {
      A = convert(A, Ctx.getDoubleType()); // C default argument promotion.
    } else if (A->getType()->isInteger() &&
               promote(A->getType()) != A->getType()->getUnqualified()) {
      A = convert(A, promote(A->getType()));
    }
    C->args()[I] = A;
  }
  C->setType(FT->getReturnType()->getUnqualified());
  return C;
}

/// `thread.get(r, e)` is the value e had in thread r at the end of the
/// previous superstep, which is defined when e only combines variables
/// (each read from thread r), constants and operators: MLIRGen gets every
/// thread-local variable of e and recomputes e here. Returns the first part
/// of e that has no such value (a memory access, a call, a thread
/// attribute, a side effect, a private array) and how to call it.
std::pair<Expr *, const char *> Sema::findUngettable(Expr *E) {
  using Result = std::pair<Expr *, const char *>;
  if (!E)
    return {nullptr, nullptr};
  switch (E->getKind()) {
  case Stmt::SK_IntegerLiteral:
  case Stmt::SK_FloatingLiteral:
  case Stmt::SK_BoolLiteral:
  case Stmt::SK_CharLiteral:
  case Stmt::SK_NullLiteral:
  case Stmt::SK_Sizeof:
  case Stmt::SK_TargetQuery:
    return {nullptr, nullptr};
  case Stmt::SK_DeclRef: {
    auto *V = dyn_cast_or_null<VarDecl>(cast<DeclRefExpr>(E)->getDecl());
    if (!V)
      return Result{E, "a function"};
    if (isa<ArrayType>(V->getType()->getUnqualified()))
      return Result{E, "a thread-private array"};
    return {nullptr, nullptr};
  }
  case Stmt::SK_Paren:
    return findUngettable(cast<ParenExpr>(E)->getSubExpr());
  case Stmt::SK_Unary: {
    auto *U = cast<UnaryOperator>(E);
    switch (U->getOpcode()) {
    case UnaryOperator::Deref:
      return Result{E, "a memory access"};
    case UnaryOperator::AddrOf:
      return Result{E, "an address"};
    case UnaryOperator::PreInc:
    case UnaryOperator::PreDec:
    case UnaryOperator::PostInc:
    case UnaryOperator::PostDec:
      return Result{E, "an increment or decrement"};
    default:
      return findUngettable(U->getSubExpr());
    }
  }
  case Stmt::SK_Binary: {
    auto *Bin = cast<BinaryOperator>(E);
    if (Bin->isAssignmentOp())
      return Result{E, "an assignment"};
    if (Result R = findUngettable(Bin->getLHS()); R.first)
      return R;
    return findUngettable(Bin->getRHS());
  }
  case Stmt::SK_Conditional: {
    auto *C = cast<ConditionalOperator>(E);
    for (Expr *X : {C->getCond(), C->getTrueExpr(), C->getFalseExpr()})
      if (Result R = findUngettable(X); R.first)
        return R;
    return {nullptr, nullptr};
  }
  case Stmt::SK_Cast:
    return findUngettable(cast<CastExpr>(E)->getSubExpr());
  case Stmt::SK_ImplicitCast:
    return findUngettable(cast<ImplicitCastExpr>(E)->getSubExpr());
  case Stmt::SK_Construct:
    for (Expr *X : cast<ConstructExpr>(E)->args())
      if (Result R = findUngettable(X); R.first)
        return R;
    return {nullptr, nullptr};
  case Stmt::SK_Member: {
    auto *M = cast<MemberExpr>(E);
    if (M->isArrow())
      return Result{E, "a memory access"};
    return findUngettable(M->getBase());
  }
  case Stmt::SK_Index: {
    // v[i] of a vector variable is a lane; anything else reads memory.
    auto *I = cast<IndexExpr>(E);
    const Type *BT = I->getBase()->getType();
    if (!BT || !BT->getUnqualified()->isVector())
      return Result{E, "a memory access"};
    if (Result R = findUngettable(I->getBase()); R.first)
      return R;
    return findUngettable(I->getIndex());
  }
  case Stmt::SK_ThreadAttr:
    if (cast<ThreadAttrExpr>(E)->getAttr() == ThreadAttrExpr::Size)
      return {nullptr, nullptr};
    return Result{E, "a thread attribute other than thread.size"};
  case Stmt::SK_Call:
    return Result{E, "a function call"};
  case Stmt::SK_BuiltinCall:
  case Stmt::SK_Group:
    return Result{E, "a thread primitive"};
  case Stmt::SK_Atomic:
    return Result{E, "an atomic operation"};
  default:
    return Result{E, "this expression"};
  }
}

Expr *Sema::checkBuiltin(BuiltinCallExpr *B) {
  using BK = BuiltinCallExpr;
  auto K = B->getBuiltinKind();
  std::string Name = BK::getName(K);
  if (!inParallel())
    Diags.report(B->getRange(), diag::err_thread_outside_spawn) << Name;
  else if (InRequire)
    Diags.report(B->getRange(), diag::err_require_device) << Name;
  else if (BK::isCollective(K)) {
    checkDivergence(B, diag::err_collective_divergent, Name);
    checkSyncPlacement(B, "call to collective '" + Name + "'");
  }

  unsigned Want = 1;
  switch (K) {
  case BK::ThreadGet:
  case BK::ThreadRebind: Want = 2; break;
  case BK::ThreadPut: Want = 3; break;
  case BK::Compact:
  case BK::Split: Want = 4; break;
  case BK::ChunkReduce:
  case BK::ChunkScan: Want = 2; break;
  case BK::GroupLookback: Want = 3; break;
  case BK::SinglePass: Want = 0; break;
  default: break;
  }
  auto Args = B->args();
  for (Expr *&A : Args)
    A = checkExpr(A);
  if (Args.size() != Want) {
    Diags.report(B->getRange(), diag::err_builtin_arity)
        << Name << Want << unsigned(Args.size());
    return error(B);
  }
  for (Expr *A : Args)
    if (A->getType()->isError())
      return error(B);
  auto ArgErr = [&](unsigned I, const char *What) {
    Diags.report(Args[I]->getRange(), diag::err_builtin_arg)
        << (I + 1) << Name << What << Args[I]->getType()->str();
    return error(B);
  };
  auto NeedInt = [&](unsigned I) -> bool {
    Args[I] = rvalue(Args[I]);
    if (!Args[I]->getType()->isInteger())
      return false;
    Args[I] = convert(Args[I], Ctx.getIntType());
    return true;
  };
  auto NeedBool = [&](unsigned I) -> bool {
    Args[I] = rvalue(Args[I]);
    if (!Args[I]->getType()->isScalar())
      return false;
    Args[I] = toBool(Args[I]);
    return true;
  };
  auto NeedLValue = [&](unsigned I) -> bool {
    if (Args[I]->isLValue() && !Args[I]->getType()->isConst())
      return !reportHostWrite(Args[I]);
    Diags.report(Args[I]->getRange(), diag::err_builtin_not_lvalue)
        << (I + 1) << Name;
    return false;
  };
  switch (K) {
  case BK::Reduce:
  case BK::Scan: {
    if (K == BK::Scan && !NeedLValue(0))
      return error(B);
    if (K == BK::Reduce)
      Args[0] = rvalue(Args[0]);
    const Type *T = Args[0]->getType()->getUnqualified();
    if (!T->isArithmetic() && !T->isVector())
      return ArgErr(0, "an arithmetic value");
    auto Op = B->getReduceOp();
    const Type *Elem =
        T->isVector() ? cast<VectorType>(T)->getElementType() : T;
    if ((Op == BK::OpAnd || Op == BK::OpOr || Op == BK::OpXor) &&
        Elem->isFloating()) {
      Diags.report(B->getReduceOpRange(), diag::err_builtin_bitop_float)
          << BK::getOpSpelling(Op) << Name << T->str();
      return error(B);
    }
    B->setType(T);
    return B;
  }
  case BK::ChunkReduce:
  case BK::ChunkScan: {
    // The element types of the bsgp.chunk_* ops; the list holds one value
    // per CPU chunk, of exactly the value's type.
    Args[0] = rvalue(Args[0]);
    const BuiltinType *T = getWordScalarType(Args[0], /*IntegerOnly=*/false);
    if (!T)
      return ArgErr(0, "a 32-bit or 64-bit scalar (int, uint, int64, uint64, "
                       "float or double)");
    auto Op = B->getReduceOp();
    if ((Op == BK::OpAnd || Op == BK::OpOr || Op == BK::OpXor) &&
        T->isFloating()) {
      Diags.report(B->getReduceOpRange(), diag::err_builtin_bitop_float)
          << BK::getOpSpelling(Op) << Name << T->str();
      return error(B);
    }
    Args[1] = rvalue(Args[1]);
    const auto *P = dyn_cast<PointerType>(Args[1]->getType()->getUnqualified());
    if (!P || P->getPointee()->getUnqualified() != T ||
        (K == BK::ChunkReduce && P->getPointee()->isConst()))
      return ArgErr(1, "a pointer to a list of the first argument's type");
    B->setType(K == BK::ChunkScan ? (const Type *)T : Ctx.getVoidType());
    return B;
  }
  case BK::GroupLookback: {
    // The bsgp.group_lookback op: a 32-bit sum over 64-bit status words.
    Args[0] = rvalue(Args[0]);
    if (!Args[0]->getType()->isInteger())
      return ArgErr(0, "an integer");
    Args[0] = convert(Args[0], Ctx.getUIntType());
    Args[1] = rvalue(Args[1]);
    const auto *P = dyn_cast<PointerType>(Args[1]->getType()->getUnqualified());
    if (!P || P->getPointee()->isConst() ||
        P->getPointee()->getUnqualified() !=
            Ctx.getBuiltinType(BuiltinType::UInt64))
      return ArgErr(1, "a pointer to a list of uint64");
    // Blocks a multiprocessor, as [[min_blocks(N)]].
    auto *L = dyn_cast<IntegerLiteral>(Args[2]);
    if (!L || L->getValue() < 1 || L->getValue() > 32)
      return ArgErr(2, "an integer literal from 1 to 32");
    B->setType(Ctx.getUIntType());
    return B;
  }
  case BK::SinglePass:
    B->setType(Ctx.getBoolType());
    return B;
  case BK::SortIdx:
  case BK::ThreadSortBy: {
    Args[0] = rvalue(Args[0]);
    if (!Args[0]->getType()->isArithmetic())
      return ArgErr(0, "an arithmetic sort key");
    B->setType(K == BK::SortIdx ? (const Type *)Ctx.getIntType()
                                : Ctx.getVoidType());
    return B;
  }
  case BK::ThreadFork:
    if (!NeedInt(0))
      return ArgErr(0, "an integer");
    B->setType(Ctx.getIntType());
    return B;
  case BK::ThreadKill:
  case BK::ThreadSplit:
    if (!NeedBool(0))
      return ArgErr(0, "a scalar condition");
    B->setType(Ctx.getVoidType());
    return B;
  case BK::ThreadGet: {
    if (!NeedInt(0))
      return ArgErr(0, "an integer rank");
    if (auto [Bad, What] = findUngettable(Args[1]); Bad) {
      Diags.report(Bad->getRange(), diag::err_get_value_form) << What;
      return error(B);
    }
    Args[1] = rvalue(Args[1]);
    B->setType(Args[1]->getType()->getUnqualified());
    return B;
  }
  case BK::ThreadPut: {
    if (!NeedInt(0))
      return ArgErr(0, "an integer rank");
    if (!NeedLValue(1))
      return error(B);
    Args[2] = convert(Args[2], Args[1]->getType());
    B->setType(Ctx.getVoidType());
    checkStraightLine(B, diag::err_put_in_control_flow);
    if (auto *Ref = dyn_cast<DeclRefExpr>(Args[1]->ignoreParenImpCasts()))
      if (auto *V = dyn_cast_or_null<VarDecl>(Ref->getDecl()))
        PendingPuts[V] = B;
    return B;
  }
  case BK::ThreadRebind: {
    // The variable itself: its value is what the op replaces.
    auto *Ref = dyn_cast<DeclRefExpr>(Args[0]);
    auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || Var->getStorage() == VarDecl::Global) {
      Diags.report(Args[0]->getRange(), diag::err_rebind_not_variable);
      return error(B);
    }
    const Type *T = Args[0]->getType()->getUnqualified();
    if (!T->isScalar() && !T->isVector())
      return ArgErr(0, "a variable of scalar, vector or pointer type");
    Args[0] = rvalue(Args[0]);
    Args[1] = convert(Args[1], T);
    B->setType(Ctx.getVoidType());
    return B;
  }
  case BK::Compact:
  case BK::Split: {
    Args[0] = rvalue(Args[0]);
    auto *P = dyn_cast<PointerType>(Args[0]->getType()->getUnqualified());
    if (!P)
      return ArgErr(0, "a pointer to the output list");
    Args[1] = convert(Args[1], P->getPointee());
    if (!NeedBool(2))
      return ArgErr(2, "a scalar condition");
    if (!NeedBool(3))
      return ArgErr(3, "a scalar flag");
    B->setType(Ctx.getVoidType());
    return B;
  }
  }
  return error(B);
}

/// atomicAdd(p, v) ... atomicCAS(p, expected, desired), atomicLoad(p):
/// device code only, `p` a pointer to a non-const 32- or 64-bit integer (or
/// float for Add, Exch and CAS; const allowed for Load); the other
/// arguments are converted to the pointee type, which is also the result
/// type (the old value).
Expr *Sema::checkAtomic(AtomicExpr *A) {
  const char *Name = AtomicExpr::getName(A->getOp());
  bool DeviceFn = CurFn && !InRequire && SpawnDepth == 0 &&
                  CurFn->getFunctionKind() == FunctionDecl::FK_Device;
  if (!inDevice() && !DeviceFn)
    Diags.report(A->getRange(), diag::err_atomic_in_host) << Name;
  for (Expr *&X : A->args())
    X = rvalue(checkExpr(X));
  bool IsLoad = A->getOp() == AtomicExpr::Load;
  unsigned Want = A->getOp() == AtomicExpr::CAS ? 3 : IsLoad ? 1 : 2;
  if (A->args().size() != Want) {
    Diags.report(A->getRange(), diag::err_atomic_arity)
        << Name << Want << unsigned(A->args().size());
    return error(A);
  }
  for (Expr *X : A->args())
    if (X->getType()->isError())
      return error(A);
  Expr *P = A->args()[0];
  auto *PT = dyn_cast<PointerType>(P->getType()->getUnqualified());
  if (!PT) {
    Diags.report(P->getRange(), diag::err_atomic_not_pointer)
        << Name << P->getType()->str();
    return error(A);
  }
  const Type *Pointee = PT->getPointee();
  if (Pointee->isConst() && !IsLoad) {
    Diags.report(P->getRange(), diag::err_atomic_const)
        << Name << P->getType()->str();
    return error(A);
  }
  const Type *T = Pointee->getUnqualified();
  bool FloatOk = A->getOp() == AtomicExpr::Add ||
                 A->getOp() == AtomicExpr::Exch ||
                 A->getOp() == AtomicExpr::CAS;
  bool Ok = false;
  if (auto *BT = dyn_cast<BuiltinType>(T)) {
    switch (BT->getBuiltinKind()) {
    case BuiltinType::Int:
    case BuiltinType::UInt:
    case BuiltinType::Int64:
    case BuiltinType::UInt64:
      Ok = true;
      break;
    case BuiltinType::Float:
      Ok = FloatOk;
      break;
    default:
      break;
    }
  }
  if (!Ok) {
    Diags.report(P->getRange(), diag::err_atomic_type)
        << Name << P->getType()->str()
        << (FloatOk ? "a pointer to int, uint, int64, uint64 or float"
                    : "a pointer to int, uint, int64 or uint64");
    return error(A);
  }
  for (Expr *&X : A->args().drop_front())
    X = convert(X, T);
  A->setType(T);
  return A;
}

Expr *Sema::checkMember(MemberExpr *M) {
  Expr *Base = checkExpr(M->getBase());
  M->setBase(Base);
  const Type *T = Base->getType()->getUnqualified();
  if (T->isError())
    return error(M);
  bool LValue = Base->isLValue();
  if (M->isArrow()) {
    auto *P = dyn_cast<PointerType>(T);
    if (!P || !isa<StructType>(P->getPointee()->getUnqualified())) {
      Diags.report(Base->getRange(), diag::err_arrow_not_pointer)
          << T->str();
      return error(M);
    }
    M->setBase(rvalue(Base));
    T = P->getPointee()->getUnqualified();
    LValue = true;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    StructDecl *D = ST->getDecl();
    if (!D) {
      Diags.report(Base->getRange(), diag::err_unknown_struct)
          << ST->getName();
      return error(M);
    }
    FieldDecl *F = D->getField(M->getMemberName());
    if (!F) {
      Diags.report(SourceRange(M->getMemberLoc()), diag::err_no_member)
          << M->getMemberName() << T->str();
      return error(M);
    }
    M->setField(F);
    M->setType(F->getType());
    M->setLValue(LValue);
    return M;
  }
  if (auto *VT = dyn_cast<VectorType>(T)) {
    llvm::SmallVector<unsigned, 4> Comps;
    llvm::StringRef Name = M->getMemberName();
    bool Ok = Name.size() >= 1 && Name.size() <= 4;
    for (char C : Name) {
      int I = C == 'x' ? 0 : C == 'y' ? 1 : C == 'z' ? 2 : C == 'w' ? 3 : -1;
      if (I < 0 || unsigned(I) >= VT->getNumElements())
        Ok = false;
      else
        Comps.push_back(I);
    }
    if (!Ok || M->isArrow()) {
      Diags.report(SourceRange(M->getMemberLoc()), diag::err_bad_swizzle)
          << Name << T->str();
      return error(M);
    }
    M->setComponents(Ctx.copyArray<unsigned>(Comps));
    M->setType(Comps.size() == 1
                   ? (const Type *)VT->getElementType()
                   : Ctx.getVectorType(VT->getElementType(), Comps.size()));
    M->setLValue(LValue);
    return M;
  }
  Diags.report(Base->getRange(), diag::err_member_not_struct) << T->str();
  return error(M);
}

Expr *Sema::checkConstruct(ConstructExpr *C) {
  const Type *T = C->getConstructedType()->getUnqualified();
  auto Args = C->args();
  for (Expr *&A : Args)
    A = rvalue(checkExpr(A));
  C->setType(T);
  for (Expr *A : Args)
    if (A->getType()->isError())
      return C;
  auto *VT = dyn_cast<VectorType>(T);
  if (!VT) {
    // Functional cast `int(x)`.
    if (Args.size() != 1 || T->isVoid()) {
      Diags.report(C->getRange(), diag::err_construct_arity)
          << T->str() << 1u << unsigned(Args.size());
      return error(C);
    }
    if (!Args[0]->getType()->isArithmetic()) {
      Diags.report(Args[0]->getRange(), diag::err_construct_arg)
          << T->str() << Args[0]->getType()->str();
      return error(C);
    }
    Args[0] = convert(Args[0], T);
    return C;
  }
  if (Args.size() == 1 && Args[0]->getType()->isArithmetic()) {
    Args[0] = convert(Args[0], VT->getElementType());
    return C;
  }
  unsigned Count = 0;
  for (Expr *&A : Args) {
    const Type *AT = A->getType()->getUnqualified();
    if (AT->isArithmetic()) {
      A = convert(A, VT->getElementType());
      ++Count;
    } else if (auto *AV = dyn_cast<VectorType>(AT)) {
      A = convert(A, Ctx.getVectorType(VT->getElementType(),
                                       AV->getNumElements()));
      Count += AV->getNumElements();
    } else {
      Diags.report(A->getRange(), diag::err_construct_arg)
          << T->str() << AT->str();
      return error(C);
    }
  }
  if (Count != VT->getNumElements()) {
    Diags.report(C->getRange(), diag::err_construct_arity)
        << T->str() << VT->getNumElements() << Count;
    return error(C);
  }
  return C;
}

bool bsgp::analyzeProgram(ASTContext &Ctx, DiagnosticEngine &Diags) {
  unsigned Before = Diags.getNumErrors();
  Sema S(Ctx, Diags);
  S.run();
  return Diags.getNumErrors() == Before;
}

//===----------------------------------------------------------------------===//
// Work groups and subgroups
//===----------------------------------------------------------------------===//

void Sema::checkGroupLocalDecl(VarDecl *V) {
  const Type *T = V->getType();
  if (!T || T->isError())
    return;
  if (!isa<ArrayType>(T->getUnqualified())) {
    Diags.report(SourceRange(V->getLoc()), diag::err_local_not_array)
        << V->getName() << T->str();
    return;
  }
  if (V->getInit())
    Diags.report(V->getInit()->getRange(), diag::err_local_init)
        << V->getName();
  // A spawn body becomes kernels; so does an inline function, which is
  // inlined into every caller when it uses work-group operations
  // (bsgp-inline-collectives), and whose group operations are device code.
  else if ((SpawnDepth == 0 && !(CurFn && CurFn->isInline())) || InRequire)
    Diags.report(SourceRange(V->getLoc()), diag::err_local_outside_spawn)
        << V->getName();
}

Expr *Sema::checkGroup(GroupExpr *G) {
  using GE = GroupExpr;
  GE::GroupOp K = G->getGroupOp();
  const char *Name = GE::getName(K);
  if (!inParallel())
    Diags.report(G->getRange(), diag::err_group_outside_spawn) << Name;
  else if (InRequire)
    Diags.report(G->getRange(), diag::err_require_device) << Name;

  auto Args = G->args();
  for (Expr *&A : Args)
    A = rvalue(checkExpr(A));
  unsigned Want = 0;
  switch (K) {
  case GE::Shuffle:
  case GE::ShuffleXor:
  case GE::ShuffleUp:
  case GE::ShuffleDown:
    Want = 2;
    break;
  case GE::Any:
  case GE::All:
  case GE::Ballot:
  case GE::SubgroupAdd:
  case GE::SubgroupMin:
  case GE::SubgroupMax:
  case GE::SubgroupAnd:
  case GE::SubgroupOr:
  case GE::SubgroupXor:
  case GE::SubgroupMatch:
    Want = 1;
    break;
  default:
    break;
  }
  if (Args.size() != Want) {
    Diags.report(G->getRange(), diag::err_builtin_arity)
        << Name << Want << unsigned(Args.size());
    return error(G);
  }
  for (Expr *A : Args)
    if (A->getType()->isError())
      return error(G);
  auto ArgErr = [&](unsigned I, const char *What) {
    Diags.report(Args[I]->getRange(), diag::err_builtin_arg)
        << (I + 1) << Name << What << Args[I]->getType()->str();
    return error(G);
  };
  switch (K) {
  case GE::GroupBarrier:
    G->setType(Ctx.getVoidType());
    return G;
  case GE::Shuffle:
  case GE::ShuffleXor:
  case GE::ShuffleUp:
  case GE::ShuffleDown: {
    // The hardware moves 32-bit words; 64-bit values take two shuffles.
    const BuiltinType *T = getWordScalarType(Args[0], /*IntegerOnly=*/false);
    if (!T)
      return ArgErr(0, "a 32-bit or 64-bit scalar (int, uint, int64, uint64, "
                       "float or double)");
    if (!Args[1]->getType()->isInteger())
      return ArgErr(1, "an integer");
    Args[1] = convert(Args[1], Ctx.getIntType());
    G->setType(T);
    return G;
  }
  case GE::Any:
  case GE::All:
  case GE::Ballot:
    if (!Args[0]->getType()->isScalar())
      return ArgErr(0, "a scalar condition");
    Args[0] = toBool(Args[0]);
    G->setType(K == GE::Ballot ? Ctx.getBuiltinType(BuiltinType::UInt64)
                               : (const Type *)Ctx.getBoolType());
    return G;
  case GE::SubgroupAdd:
  case GE::SubgroupMin:
  case GE::SubgroupMax:
  case GE::SubgroupAnd:
  case GE::SubgroupOr:
  case GE::SubgroupXor: {
    // What CUDA's redux.sync and every Vulkan subgroup reduce on.
    const auto *T = dyn_cast<BuiltinType>(Args[0]->getType()->getUnqualified());
    if (!T || !T->isInteger() || T->getBitWidth() != 32)
      return ArgErr(0, "a 32-bit integer (int or uint)");
    G->setType(T);
    return G;
  }
  case GE::SubgroupMatch: {
    // What match.any.sync compares: 32-bit or 64-bit words.
    if (!getWordScalarType(Args[0], /*IntegerOnly=*/true))
      return ArgErr(0, "a 32-bit or 64-bit integer (int, uint, int64 or "
                       "uint64)");
    G->setType(Ctx.getBuiltinType(BuiltinType::UInt64));
    return G;
  }
  default:
    G->setType(Ctx.getIntType());
    return G;
  }
}

#include "SemaTemplate.inc"
