//===- SemaImpl.h - the semantic analyser's class ---------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The Sema class, private to lib/Sema and shared by its files: Sema.cpp
/// (phase 1 and the scopes), SemaDecl.cpp, SemaStmt.cpp, SemaSync.cpp (where
/// supersteps may end), SemaExpr.cpp, SemaBuiltin.cpp (builtins, atomics,
/// work groups and subgroups) and SemaTemplate.cpp (generic functions and
/// the collective library checked on demand).
///
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

#ifndef BSGP_LIB_SEMA_SEMAIMPL_H
#define BSGP_LIB_SEMA_SEMAIMPL_H

#include "SemaTemplate.h"
#include "bsgp/AST/ASTContext.h"
#include "bsgp/Basic/Diagnostic.h"
#include "bsgp/Sema/Sema.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace bsgp {
namespace sema {

struct FunctionInfo {
  bool HasSpawn = false;
  bool HasNew = false; ///< A dnew, dtempnew or list primitive (host-only).
  bool HasCollective = false; ///< A barrier or a collective primitive.
  /// A global variable that is not const, which the function names: it
  /// lives in host memory (host-only code).
  llvm::StringRef Global;
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
  void collectInfo(Stmt *S, FunctionInfo &Info,
                   const llvm::StringSet<> &Locals);
  /// collectInfo of \p F's body into Infos[F].
  void collectFunctionInfo(FunctionDecl *F);
  void classify();
  const Type *functionType(FunctionDecl *F);

  // Phase 2.
  void checkFunction(FunctionDecl *F);
  void checkStructByValue(FunctionDecl *F);
  void checkGlobal(VarDecl *V);
  void checkStmt(Stmt *S);
  void checkIf(IfStmt *I);
  void checkFor(ForStmt *F);
  void checkReturn(ReturnStmt *R);
  void checkRequire(RequireStmt *R);
  void checkSpawn(SpawnStmt *Sp);
  void checkPar(ParStmt *P);
  void checkDelete(DeleteStmt *D);
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
  Expr *checkDeclRef(DeclRefExpr *R);
  Expr *checkConditional(ConditionalOperator *C);
  Expr *checkThreadAttr(ThreadAttrExpr *T);
  Expr *checkIndex(IndexExpr *I);
  Expr *checkCast(CastExpr *C);
  Expr *checkSizeof(SizeofExpr *S);
  Expr *checkNew(NewExpr *N);
  Expr *checkAssign(BinaryOperator *B);
  Expr *checkBinary(BinaryOperator *B);
  Expr *checkUnary(UnaryOperator *U);
  Expr *checkCall(CallExpr *C);
  Expr *checkBuiltin(BuiltinCallExpr *B);
  Expr *builtinArgError(BuiltinCallExpr *B, unsigned I, const char *What);
  bool builtinIntArg(BuiltinCallExpr *B, unsigned I);
  bool builtinBoolArg(BuiltinCallExpr *B, unsigned I);
  bool builtinLValueArg(BuiltinCallExpr *B, unsigned I);
  Expr *checkReduceOrScan(BuiltinCallExpr *B);
  Expr *checkChunkOp(BuiltinCallExpr *B);
  Expr *checkGroupLookback(BuiltinCallExpr *B);
  Expr *checkNativeListOp(BuiltinCallExpr *B);
  Expr *checkThreadGet(BuiltinCallExpr *B);
  Expr *checkThreadPut(BuiltinCallExpr *B);
  Expr *checkThreadRebind(BuiltinCallExpr *B);
  Expr *checkCompactOrSplit(BuiltinCallExpr *B);
  Expr *checkGroup(GroupExpr *G);
  void checkGroupLocalDecl(VarDecl *V);
  Expr *checkMember(MemberExpr *M);
  Expr *checkConstruct(ConstructExpr *C);
  Expr *checkOperatorApply(ConstructExpr *C, const OperatorType *Op);
  bool resolveOperatorTypeArg(BuiltinCallExpr *B);
  Expr *checkAtomic(AtomicExpr *A);
  Expr *checkMathBuiltin(MathBuiltinExpr *M);
  Expr *checkInitList(InitListExpr *IL, VarDecl *V);
  /// \p V is the variable initialized, null for a compound literal.
  bool checkStructInitList(InitListExpr *IL, const StructType *ST, VarDecl *V);
  bool fillInitList(InitListExpr *IL, const ArrayType *AT, uint64_t Base,
                    llvm::MutableArrayRef<Expr *> Flat, VarDecl *V);
  bool isConstantInit(Expr *I, VarDecl *V);
  /// `T a[] = {...}`: \p V's type with the size its list gives
  /// (initListArraySize). False after reporting, with the size 1.
  bool sizeUnsizedArray(VarDecl *V);
  /// The number of scalar elements of an array of arrays.
  static uint64_t flatCount(const ArrayType *AT) {
    uint64_t N = AT->getSize();
    while ((
        AT = llvm::dyn_cast<ArrayType>(AT->getElementType()->getUnqualified())))
      N *= AT->getSize();
    return N;
  }

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
  /// The locals of the spawn body or inline function body \p Body that
  /// every thread holds alike (SemaUniformity.cpp), added to UniformKeys;
  /// \p Owner is the inline function, whose parameters are locals too.
  void computeUniformLocals(Stmt *Body, FunctionDecl *Owner = nullptr);
  /// Before any body is checked: which parameters of each collective
  /// function every call passes a uniform value (ParamUniformity).
  void computeUniformParams();
  /// For each parameter of \p F, whether every call passes it a uniform
  /// value (false for all but collective functions').
  llvm::SmallVector<bool, 4> uniformParams(const FunctionDecl *F) const;
  struct ParamInfo {
    bool Uniform;
    /// The argument of a call that made it per-thread, for the notes.
    Expr *Why;
  };
  /// By collective function (a generic one's template pattern).
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<ParamInfo, 4>>
      ParamUniformity;
  /// The per-thread arguments in ParamInfo::Why, to the function called.
  llvm::DenseMap<const Expr *, FunctionDecl *> ParamCallReasons;
  /// The parameters of collective functions that nothing calls, to their
  /// function (a generic one's pattern).
  llvm::DenseMap<const VarDecl *, const FunctionDecl *> UncalledParams;
  /// Notes on the per-thread locals that make \p Cond thread-dependent,
  /// each at the assignment that made it so.
  void noteVaryingChain(Expr *Cond);
  /// A local declared by its first assignment, now that Sema declares it:
  /// uniform if the assignment \p Ref was found to declare a uniform one.
  void noteImplicitLocal(DeclRefExpr *Ref, VarDecl *V);
  bool isUniformLocal(VarDecl *V) const {
    return UniformVars.count(V) || UniformKeys.count(V);
  }
  llvm::DenseSet<VarDecl *> UniformVars;
  /// The locals computeUniformLocals found uniform (VarDecls, or the
  /// DeclRefExprs whose assignment declares one), and why the others vary.
  llvm::DenseSet<const void *> UniformKeys;
  llvm::DenseMap<const void *, Expr *> VaryingKeyReasons;
  bool reportHostWrite(Expr *Target);
  void checkDivergence(Stmt *Node, diag::Kind K, llvm::StringRef Name);
  /// Reports \p Node (a barrier, require, par or collective call described
  /// by \p What) if it sits under control flow in device code.
  void checkSyncPlacement(Stmt *Node, llvm::StringRef What);
  /// Reports a barrier(RANK_REASSIGNED) of \p Body that no
  /// `thread.oldrank = ...` follows in the superstep it starts.
  void checkOldRankAfterReassign(llvm::ArrayRef<Stmt *> Body);
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

  // Generic functions (SemaTemplate.cpp).
  void registerTemplate(FunctionTemplateDecl *T);
  /// The instantiation a call of the template whose pattern is \p Pattern
  /// (or that gives explicit template arguments) calls; checks the
  /// arguments. Null after an error.
  FunctionDecl *instantiateForCall(CallExpr *C, DeclRefExpr *R,
                                   FunctionDecl *Pattern);
  bool checkValueArgs(FunctionTemplateDecl *T,
                      llvm::ArrayRef<const Type *> Args, DeclRefExpr *R);
  FunctionDecl *instantiate(FunctionTemplateDecl *T,
                            llvm::ArrayRef<const Type *> Args, SourceRange At,
                            llvm::StringRef Name = {});
  /// Instantiates the generic functions of the collective library that
  /// MLIRGen calls for primitive \p B (docs/collectives.md).
  void instantiateLibraryFor(BuiltinCallExpr *B);
  void bindLibraryCollective(BuiltinCallExpr *B);
  void registerSpecialization(FunctionDecl *F);
  std::string mangleInstantiation(FunctionTemplateDecl *T,
                                  llvm::ArrayRef<const Type *> Args,
                                  std::string *Display = nullptr);
  FunctionDecl *instantiateLibraryKind(llvm::StringRef Kind,
                                       BuiltinCallExpr *B);
  /// C's printf (SemaFormat.cpp): whether \p F declares it.
  static bool isPrintfDecl(const FunctionDecl *F);
  /// Whether call \p C of printf can run in device code (a literal format
  /// whose conversions take its arguments); reports why not if \p Report.
  bool checkDevicePrintf(CallExpr *C, bool Report);
  Expr *checkPrintfPlace(CallExpr *C, bool Discarded);
  /// Checks the bodies of the instantiations requested so far (and those
  /// they request) and adds them to their template's translation unit.
  void checkInstantiations();
  /// The collective library on demand (SemaTemplate.cpp): its functions
  /// are checked only when the program reaches them.
  bool deferLibraryFunction(FunctionDecl *F);
  void checkLibraryOnDemand();
  TemplateState Templates;

  ASTContext &Ctx;
  DiagnosticEngine &Diags;
  llvm::StringMap<FunctionDecl *> Functions;
  /// Functions declared outside the collective library: the only ones a
  /// program's own code may call (the library's declarations are its own,
  /// and it is there only when code is generated).
  llvm::StringSet<> ProgramFunctions;
  llvm::DenseMap<FunctionDecl *, FunctionInfo> Infos;
  /// A function that is host code because it calls one that spawns (or
  /// calls such a function): the callee, for notes.
  llvm::DenseMap<FunctionDecl *, llvm::StringRef> HostThroughCall;
  /// The names of the global variables that are not const (collect).
  llvm::StringSet<> MutableGlobals;
  std::vector<Scope> Scopes;
  FunctionDecl *CurFn = nullptr;
  unsigned SpawnDepth = 0;
  bool InRequire = false;
  /// Inside the operand of sizeof, which reads nothing.
  bool InSizeof = false;
  /// In a require block, reports a use of thread-local variable \p V by
  /// \p R (a read, or a write when R is in RequireWrites).
  void checkRequireUse(DeclRefExpr *R, VarDecl *V);
  /// Before a require block is checked: the names its assignments and
  /// increments store to (true through an index, which writes the variable
  /// only if it is an array).
  void collectRequireWrites(Stmt *Body);
  llvm::DenseMap<DeclRefExpr *, bool> RequireWrites;
  /// The call an expression statement discards the value of, if any.
  Expr *DiscardedCall = nullptr;
  unsigned LoopDepth = 0;
  /// Thread-dependent conditions that enclose the current statement.
  llvm::SmallVector<Expr *, 4> Divergent;
  /// The control flow around the current statement in device code (ifs,
  /// loops, `?:`, `&&`, `||`). Supersteps may end only inside branches on
  /// target queries, which the pipeline folds before splitting, and
  /// branches and loops with uniform conditions, which
  /// bsgp-split-uniform-flow runs on the host (MayHoldSyncs).
  struct Flow {
    Stmt *S;
    bool MayHoldSyncs;
  };
  llvm::SmallVector<Flow, 4> ControlFlow;
  /// The innermost entry of ControlFlow that no superstep may end in.
  Stmt *blockingFlow() const {
    for (const Flow &F : llvm::reverse(ControlFlow))
      if (!F.MayHoldSyncs)
        return F.S;
    return nullptr;
  }
  /// Reports a thread.put or thread.oldrank under any control flow: their
  /// ops must sit at the superstep level, target branches included.
  void checkStraightLine(Expr *E, diag::Kind K, bool AllowUniform = false);
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
  /// The pars, target-query branches and uniform branches and loops around
  /// the current statement of a spawn body. A spawn passes on only the
  /// values its top-level requires assign, so a require under them may not
  /// assign outer variables.
  llvm::SmallVector<Stmt *, 2> RequireNesting;
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

/// True if \p E is answered at compile time for each target: target queries
/// and `__bsgp_single_pass()`, combined with `!`, `&&` and `||`.
/// bsgp-specialize-targets and bsgp-single-pass fold such branches before
/// supersteps are split, so they may hold barriers.
bool isTargetQuestion(Expr *E);

} // namespace sema
} // namespace bsgp

#endif // BSGP_LIB_SEMA_SEMAIMPL_H
