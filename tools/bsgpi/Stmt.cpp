//===- Stmt.cpp - statements, control flow over lanes, calls --------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// exec() runs a statement for a list of lanes and returns the lanes that
// leave it normally; the others left by break, continue (the loop's lists)
// or return (the frame's return column). A loop runs while any lane is
// still in it, so threads with different trip counts each take their own.
//
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include "bsgp/AST/AST.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <functional>

using namespace bsgp;
using namespace bsgp::interp;

static Lanes mergeLanes(const Lanes &A, const Lanes &B) {
  if (A.empty())
    return B;
  if (B.empty())
    return A;
  Lanes R;
  R.reserve(A.size() + B.size());
  std::merge(A.begin(), A.end(), B.begin(), B.end(), std::back_inserter(R));
  return R;
}

void Interpreter::tooManySteps(SourceRange R) {
  fatal(R, "the program ran more than " + llvm::Twine(Opts.MaxSteps) +
               " steps (--max-steps)");
}

bool Interpreter::mayRemap(Stmt *S) {
  if (!S)
    return false;
  auto It = RemapCache.find(S);
  if (It != RemapCache.end())
    return It->second;
  bool R = false;
  if (auto *B = llvm::dyn_cast<BuiltinCallExpr>(S)) {
    auto K = B->getBuiltinKind();
    R = K == BuiltinCallExpr::ThreadFork || K == BuiltinCallExpr::ThreadKill ||
        K == BuiltinCallExpr::ThreadSortBy || K == BuiltinCallExpr::ThreadSplit;
  } else if (auto *C = llvm::dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Fn = C->getDirectCallee();
    R = Fn && Fn->getFunctionKind() == FunctionDecl::FK_Collective;
  } else if (auto *TA = llvm::dyn_cast<ThreadAttrExpr>(S)) {
    R = TA->getAttr() == ThreadAttrExpr::OldRank;
  }
  if (!R)
    forEachChild(S, [&](Stmt *C) { R = R || mayRemap(C); });
  if (auto *FS = llvm::dyn_cast<ForStmt>(S))
    R = R || mayRemap(FS->getBody());
  RemapCache[S] = R;
  return R;
}

/// The thread-local variables (of the spawn, or locals and parameters of
/// the inline function it is in) that require block \p S reads.
llvm::SmallVector<const VarDecl *, 2> Interpreter::deviceReads(Stmt *S) {
  llvm::SmallVector<const VarDecl *, 2> Out;
  std::function<void(Stmt *)> Walk = [&](Stmt *C) {
    if (!C)
      return;
    if (auto *R = llvm::dyn_cast<DeclRefExpr>(C))
      if (auto *V = llvm::dyn_cast_or_null<VarDecl>(R->getDecl()))
        if (!V->isHost() && V->getStorage() != VarDecl::Global &&
            !llvm::is_contained(Out, V))
          Out.push_back(V);
    forEachChild(C, Walk);
  };
  Walk(llvm::cast<RequireStmt>(S)->getBody());
  return Out;
}

bool Interpreter::cutsSpawn(Stmt *S) {
  if (!llvm::isa<IfStmt, WhileStmt, ForStmt, DoStmt>(S))
    return false;
  auto It = CutCache.find(S);
  if (It != CutCache.end())
    return It->second;
  bool R = endsSuperstep(S);
  std::function<void(Stmt *)> Walk = [&](Stmt *C) {
    R = R || llvm::isa<RequireStmt>(C);
    if (!R)
      forEachChild(C, Walk);
  };
  Walk(S);
  CutCache[S] = R;
  return R;
}

void Interpreter::flushPrinted() {
  std::fwrite(Spawn->Printed.data(), 1, Spawn->Printed.size(), stdout);
  Spawn->Printed.clear();
}

bool Interpreter::endsSuperstep(Stmt *S) {
  if (!S)
    return false;
  auto It = SyncCache.find(S);
  if (It != SyncCache.end())
    return It->second;
  bool R = llvm::isa<BarrierStmt, ParStmt>(S);
  if (auto *B = llvm::dyn_cast<BuiltinCallExpr>(S))
    R = BuiltinCallExpr::isCollective(B->getBuiltinKind());
  else if (auto *C = llvm::dyn_cast<CallExpr>(S))
    R = C->getDirectCallee() &&
        C->getDirectCallee()->getFunctionKind() == FunctionDecl::FK_Collective;
  if (!R)
    forEachChild(S, [&](Stmt *C) { R = R || endsSuperstep(C); });
  SyncCache[S] = R;
  return R;
}

uint8_t *Interpreter::varBase(Frame &F, const VarDecl *D, bool &PerLane) {
  if (D->getStorage() == VarDecl::Global) {
    PerLane = false;
    auto It = Globals.Vars.find(D);
    if (It != Globals.Vars.end())
      return It->second;
    uint8_t *P = Mem.allocate(sizeOf(D->getType()), AllocKind::Variable, 0,
                              D->getName());
    Globals.Vars[D] = P;
    return P;
  }
  auto It = F.Vars.find(D);
  if (It != F.Vars.end()) {
    PerLane = F.Device;
    return It->second;
  }
  if (F.Device && F.Host &&
      (D->isRequireDecl() || (F.SpawnBody && D->isHost())))
    return varBase(*F.Host, D, PerLane);
  uint64_t Size = sizeOf(D->getType());
  uint64_t Slots = 1;
  if (F.Device)
    Slots = D->isGroupLocal() ? (Spawn->N + Opts.GroupSize - 1) / Opts.GroupSize
                              : F.NumLanes;
  uint8_t *P = Mem.allocate(Size * std::max<uint64_t>(Slots, 1),
                            AllocKind::Variable, Size, D->getName());
  if (!P)
    fatal(D->getRange(), "out of memory for variable '" + D->getName() + "'");
  F.Vars[D] = P;
  PerLane = F.Device;
  return P;
}

namespace {
/// The require blocks of a superstep run before its threads' statements, but
/// a host variable one assigns changes only for the statements after it, as
/// in the compiled program (docs/language.md, "require"): the values of the
/// host variables the blocks name, as each block left them, are put back
/// in place when the walk reaches that block.
class HoistedRequires {
public:
  HoistedRequires(Interpreter &I) : I(I) {}
  /// Starts a superstep.
  void reset() {
    Ran.clear();
    Slots.clear();
    Before.clear();
    After.clear();
    Last.clear();
    AnyDeferred = false;
  }
  /// Runs require block \p S, which stands after statements of the
  /// superstep that have yet to run when \p Deferred is set.
  void run(Frame &F, Stmt *S, Lanes &L, bool Deferred);
  /// Puts the host variables back as the threads before the first deferred
  /// block see them.
  void finish();
  /// Gives the host variables the values \p S left them, if it ran early.
  void reached(Stmt *S);
  /// No thread is left to reach the blocks: the host variables get the
  /// values the last one left them, as in the compiled program.
  void reachedAll() {
    if (AnyDeferred)
      restore(Last);
  }
  bool ran(Stmt *S) const { return Ran.count(S); }

private:
  /// Tracks the host variables \p S names, before or after it runs.
  void track(Stmt *S, bool BeforeRun);
  std::vector<uint8_t> values() const;
  void restore(const std::vector<uint8_t> &V) const;

  Interpreter &I;
  llvm::SmallPtrSet<Stmt *, 2> Ran;
  /// Storage of the tracked variables and the bytes each had before the
  /// first deferred block (empty for one the blocks made).
  std::vector<std::pair<uint8_t *, uint64_t>> Slots;
  std::vector<std::vector<uint8_t>> Before;
  llvm::DenseMap<Stmt *, std::vector<uint8_t>> After;
  std::vector<uint8_t> Last;
  bool AnyDeferred = false;
};
} // namespace

void HoistedRequires::track(Stmt *S, bool BeforeRun) {
  Frame &H = *I.Spawn->HostFrame;
  std::function<void(Stmt *)> Walk = [&](Stmt *C) {
    if (!C)
      return;
    if (auto *R = llvm::dyn_cast<DeclRefExpr>(C))
      if (auto *V = llvm::dyn_cast_or_null<VarDecl>(R->getDecl()))
        if (auto It = H.Vars.find(V); It != H.Vars.end()) {
          uint64_t Size = sizeOf(V->getType());
          if (!llvm::is_contained(Slots, std::make_pair(It->second, Size))) {
            Slots.push_back({It->second, Size});
            // Named by no block run so far, so unchanged since the
            // superstep started; one made by the block just run has no
            // value before it, and nothing before it reads it.
            Before.emplace_back();
            if (BeforeRun)
              Before.back().assign(It->second, It->second + Size);
          }
        }
    forEachChild(C, Walk);
    if (auto *FS = llvm::dyn_cast<ForStmt>(C))
      Walk(FS->getBody());
  };
  Walk(llvm::cast<RequireStmt>(S)->getBody());
}

std::vector<uint8_t> HoistedRequires::values() const {
  std::vector<uint8_t> V;
  for (auto [P, Size] : Slots)
    V.insert(V.end(), P, P + Size);
  return V;
}

void HoistedRequires::restore(const std::vector<uint8_t> &V) const {
  size_t At = 0;
  for (auto [P, Size] : Slots) {
    if (At + Size > V.size())
      break; // A variable made after these values were taken.
    std::memcpy(P, V.data() + At, Size);
    At += Size;
  }
}

void HoistedRequires::run(Frame &F, Stmt *S, Lanes &L, bool Deferred) {
  Ran.insert(S);
  if (Deferred) {
    track(S, /*BeforeRun=*/true);
    AnyDeferred = true;
  }
  L = I.exec(F, S, L);
  if (!AnyDeferred)
    return;
  // Variables the block made are named now too.
  track(S, /*BeforeRun=*/false);
  Last = values();
  After[S] = Last;
}

void HoistedRequires::finish() {
  for (size_t K = 0; K < Slots.size(); ++K)
    if (!Before[K].empty())
      std::memcpy(Slots[K].first, Before[K].data(), Before[K].size());
}

void HoistedRequires::reached(Stmt *S) {
  auto It = After.find(S);
  if (It != After.end())
    restore(It->second);
}

/// Stores \p V into variable \p D for the lanes \p L.
static void assignVar(Interpreter &I, Frame &F, const VarDecl *D,
                      const Column &V, Lanes &L) {
  bool PerLane = false;
  uint8_t *Base = I.varBase(F, D, PerLane);
  uint64_t Size = sizeOf(D->getType());
  for (uint32_t K = 0; K < L.size(); ++K)
    std::memcpy(Base + (PerLane ? L[K] : 0) * Size, V.at(K), Size);
}

/// A block, on the lanes of `L` in place (execTree's guard keeps them
/// current through rank changes): each superstep's require blocks run
/// before its statements.
void Interpreter::execBlock(Frame &F, CompoundStmt *S, Lanes &L) {
  // A require block runs before the superstep it is in (docs/
  // language.md), before the threads' statements that precede it there.
  auto Body = S->body();
  HoistedRequires Hoisted(*this);
  bool SuperstepStarts = F.Device;
  for (size_t I = 0; I < Body.size(); ++I) {
    Stmt *C = Body[I];
    if (SuperstepStarts) {
      Hoisted.reset();
      for (Stmt *Next : Body.drop_front(I)) {
        // One that reads the threads' (uniform) variables runs where it
        // stands, after the code that computes them.
        if (llvm::isa<RequireStmt>(Next) && deviceReads(Next).empty())
          Hoisted.run(F, Next, L, Next != C);
        if (endsSuperstep(Next))
          break;
      }
      Hoisted.finish();
      SuperstepStarts = false;
    }
    // Code around a branch or loop holding a sync is a spawn of its own
    // (docs/language.md): its lines come before the requires beyond.
    bool Cut = F.Device && cutsSpawn(C);
    if (Cut)
      flushPrinted();
    if (Hoisted.ran(C))
      Hoisted.reached(C);
    else
      L = exec(F, C, L);
    if (Cut)
      flushPrinted();
    if (L.empty()) {
      Hoisted.reachedAll();
      break;
    }
    SuperstepStarts = F.Device && endsSuperstep(C);
  }
}

Lanes Interpreter::execTree(Frame &F, Stmt *S, Lanes L) {
  if (L.empty() || !S)
    return L;
  LiveLanesGuard G(*this, F, F.Device && mayRemap(S) ? &L : nullptr);
  switch (S->getKind()) {
  case Stmt::SK_Compound:
    execBlock(F, llvm::cast<CompoundStmt>(S), L);
    return L;
  case Stmt::SK_Decl:
    for (VarDecl *D : llvm::cast<DeclStmt>(S)->decls())
      if (Expr *Init = D->getInit()) {
        Column V = eval(F, Init, L);
        assignVar(*this, F, D, V, L);
      }
    return L;
  case Stmt::SK_Expr:
    (void)eval(F, llvm::cast<ExprStmt>(S)->getExpr(), L);
    return L;
  case Stmt::SK_Null:
    return L;
  case Stmt::SK_If: {
    auto *IS = llvm::cast<IfStmt>(S);
    Column C = eval(F, IS->getCond(), L);
    Lanes TL, FL;
    for (uint32_t K = 0; K < L.size(); ++K)
      (C.Bytes[K] ? TL : FL).push_back(L[K]);
    TL = exec(F, IS->getThen(), std::move(TL));
    FL = exec(F, IS->getElse(), std::move(FL));
    return mergeLanes(TL, FL);
  }
  case Stmt::SK_While: {
    auto *W = llvm::cast<WhileStmt>(S);
    return execLoop(F, S, W->getCond(), nullptr, W->getBody(), true, L);
  }
  case Stmt::SK_Do: {
    auto *D = llvm::cast<DoStmt>(S);
    return execLoop(F, S, D->getCond(), nullptr, D->getBody(), false, L);
  }
  case Stmt::SK_For: {
    auto *FS = llvm::cast<ForStmt>(S);
    L = exec(F, FS->getInit(), L);
    return execLoop(F, S, FS->getCond(), FS->getInc(), FS->getBody(), true, L);
  }
  case Stmt::SK_Break:
    *F.Broken = mergeLanes(*F.Broken, L);
    return {};
  case Stmt::SK_Continue:
    *F.Continued = mergeLanes(*F.Continued, L);
    return {};
  case Stmt::SK_Return: {
    if (Expr *V = llvm::cast<ReturnStmt>(S)->getValue()) {
      Column C = eval(F, V, L);
      if (F.Ret.Size)
        for (uint32_t K = 0; K < L.size(); ++K)
          std::memcpy(F.Ret.at(L[K]), C.at(K), F.Ret.Size);
    }
    return {};
  }
  case Stmt::SK_Spawn:
    execSpawn(F, llvm::cast<SpawnStmt>(S));
    return L;
  case Stmt::SK_Delete: {
    Column C = eval(F, llvm::cast<DeleteStmt>(S)->getList(), L);
    for (uint32_t K = 0; K < L.size(); ++K) {
      void *P = reinterpret_cast<void *>(C.get<uint64_t>(K));
      if (P && !Mem.retire(P))
        fatal(S->getRange(), "ddelete of a pointer that is not a live list "
                             "made by dnew (freed twice?)");
    }
    return L;
  }
  case Stmt::SK_Barrier:
    syncPoint(F, L, S->getRange(), "barrier");
    return L;
  case Stmt::SK_Require: {
    // The threads' variables it reads hold the same value in every thread
    // (Sema allows only uniform ones): the host sees that value.
    Frame &H = *Spawn->HostFrame;
    llvm::SmallVector<const VarDecl *, 2> Bound;
    for (const VarDecl *D : deviceReads(S)) {
      bool PerLane = false;
      uint8_t *Base = varBase(F, D, PerLane);
      uint64_t Size = sizeOf(D->getType());
      for (uint32_t K = 1; PerLane && K < L.size(); ++K)
        if (std::memcmp(Base + L[K] * Size, Base + L[0] * Size, Size) != 0)
          fatal(S->getRange(), "require block reads '" + D->getName() +
                                   "', which differs between threads");
      uint8_t *P = Mem.allocate(Size, AllocKind::Variable, Size, D->getName());
      std::memcpy(P, Base + (PerLane ? L[0] : 0) * Size, Size);
      H.Vars[D] = P;
      H.Id = newFrameId();
      Bound.push_back(D);
    }
    Lanes One{0};
    (void)exec(H, llvm::cast<RequireStmt>(S)->getBody(), One);
    for (const VarDecl *D : Bound) {
      Mem.release(H.Vars[D]);
      H.Vars.erase(D);
    }
    H.Id = newFrameId();
    return L;
  }
  case Stmt::SK_Par:
    // The statements of a par are independent (the programmer says so);
    // running them in order gives the answer of any alignment of their
    // supersteps.
    return exec(F, llvm::cast<ParStmt>(S)->getBody(), L);
  default:
    if (auto *E = llvm::dyn_cast<Expr>(S)) {
      (void)eval(F, E, L);
      return L;
    }
    fatal(S->getRange(), "bsgpi cannot run this statement");
  }
}

Lanes Interpreter::execLoop(Frame &F, Stmt *S, Expr *Cond, Expr *Inc,
                            Stmt *Body, bool CondFirst, Lanes L) {
  Lanes Out, Broken, Continued;
  Lanes *SavedB = F.Broken, *SavedC = F.Continued;
  F.Broken = &Broken;
  F.Continued = &Continued;
  bool Remap = F.Device && mayRemap(S);
  LiveLanesGuard G1(*this, F, Remap ? &L : nullptr),
      G2(*this, F, Remap ? &Out : nullptr),
      G3(*this, F, Remap ? &Broken : nullptr),
      G4(*this, F, Remap ? &Continued : nullptr);
  bool First = true;
  while (!L.empty()) {
    step(S->getRange());
    if (Cond && (CondFirst || !First)) {
      Column C = eval(F, Cond, L);
      Lanes Stay, Leave;
      for (uint32_t K = 0; K < L.size(); ++K)
        (C.Bytes[K] ? Stay : Leave).push_back(L[K]);
      Out = mergeLanes(Out, Leave);
      L = std::move(Stay);
      if (L.empty())
        break;
    }
    First = false;
    L = exec(F, Body, L);
    L = mergeLanes(L, Continued);
    Continued.clear();
    Out = mergeLanes(Out, Broken);
    Broken.clear();
    if (Inc && !L.empty())
      (void)eval(F, Inc, L);
  }
  F.Broken = SavedB;
  F.Continued = SavedC;
  return Out;
}

Column Interpreter::call(Frame &F, CallExpr *C, Lanes &L) {
  const FunctionDecl *Fn = C->getDirectCallee();
  if (!Fn)
    fatal(C->getRange(), "bsgpi cannot call through a pointer");
  auto Args = C->args();
  std::vector<Column> Vals(Args.size());
  // Arguments that fork or kill go first: they change the lanes.
  for (unsigned Pass = 0; Pass < 2; ++Pass)
    for (unsigned I = 0; I < Args.size(); ++I)
      if ((F.Device && mayRemap(Args[I])) == (Pass == 0))
        Vals[I] = eval(F, Args[I], L);
  if (!Fn->isDefinition()) {
    auto It = Functions.find(Fn->getName().str());
    if (It != Functions.end() && It->second->isDefinition())
      Fn = It->second;
  }
  if (Fn->isDefinition())
    return callFunction(F, Fn, Vals, L, C->getRange(), C);
  llvm::SmallVector<const Type *, 8> Types;
  for (Expr *A : Args)
    Types.push_back(A->getType());
  if (C->isDevicePrintf() && Spawn && F.Device) {
    devicePrintf(Vals, Types, L, C->getRange());
    return Column(0, L.size());
  }
  return callExternal(F, Fn, Vals, Types, L, C->getRange());
}

Column Interpreter::callFunction(Frame &F, const FunctionDecl *Fn,
                                 llvm::ArrayRef<Column> Args, Lanes &L,
                                 SourceRange R, CallExpr *Site) {
  step(R);
  if (Depth >= MaxCallDepth)
    fatal(R, "call stack deeper than " + llvm::Twine(MaxCallDepth) + " calls");
  Frame NF;
  NF.Fn = Fn;
  NF.Device = F.Device;
  NF.Host = F.Device ? F.Host : nullptr;
  NF.NumLanes = L.size();
  NF.Caller = &F;
  NF.Site = Site;
  NF.EntryStep = Superstep;
  if (F.Device)
    for (uint32_t K : L)
      NF.Thread.push_back(F.Thread[K]);
  Lanes CL;
  for (uint32_t K = 0; K < L.size(); ++K)
    CL.push_back(K);
  auto Params = Fn->getParams();
  for (unsigned I = 0; I < Params.size() && I < Args.size(); ++I)
    assignVar(*this, NF, Params[I], Args[I], CL);
  const Type *RT = Fn->getReturnType()->getUnqualified();
  NF.Ret = Column(RT->isVoid() ? 0 : sizeOf(RT), L.size());
  if (F.Device)
    Spawn->DeviceFrames.push_back(&NF);
  ++Depth;
  (void)exec(NF, Fn->getBody(), CL);
  --Depth;
  if (F.Device)
    Spawn->DeviceFrames.pop_back();
  for (auto &[D, P] : NF.Vars)
    Mem.release(P);
  NF.Ret.N = L.size();
  return std::move(NF.Ret);
}
