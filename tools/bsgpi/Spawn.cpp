//===- Spawn.cpp - spawns, sync points, rank reassignment, groups ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include "bsgp/AST/AST.h"

#include <array>
#include <cstdio>

using namespace bsgp;
using namespace bsgp::interp;

void Interpreter::execSpawn(Frame &F, SpawnStmt *S) {
  Lanes One{0};
  // Sema converts each extent to int; a wider or unsigned one is checked
  // before that conversion could wrap it around, and so is the product of
  // a domain's extents (docs/language.md).
  auto Check = [&](int64_t V) {
    // Reported at the spawn in the compiled runtime's words.
    if (V < 0)
      fatal(S->getRange(),
            "spawn with a negative thread count (" + llvm::Twine(V) + ")");
    if (V > INT32_MAX)
      fatal(S->getRange(), "spawn of " + llvm::Twine(V) +
                               " threads; BSGP ranks are 32-bit ints, so a "
                               "spawn has at most 2147483647 threads");
  };
  int64_t N = 1;
  std::array<uint32_t, 3> Dims = {1, 1, 1};
  for (size_t D = 0; D < S->getNumDims(); ++D) {
    Expr *Count = S->getExtents()[D];
    if (auto *IC = llvm::dyn_cast<ImplicitCastExpr>(Count);
        IC && IC->getCastKind() == ImplicitCastExpr::IntegralCast &&
        IC->getSubExpr()->getType()->isInteger())
      Count = IC->getSubExpr();
    Column C = eval(F, Count, One);
    int64_t E = scalarToInt(scalarKind(Count->getType()), C.at(0));
    Check(E);
    Dims[D] = uint32_t(E);
    N *= E;
    Check(N);
  }
  if (N == 0)
    return;
  SpawnState St;
  St.N = N;
  St.Dims = Dims;
  St.NumDims = S->getNumDims();
  St.HostFrame = &F;
  St.OldRank.resize(N);
  Frame D;
  D.Device = true;
  D.SpawnBody = true;
  D.Host = &F;
  D.NumLanes = N;
  D.EntryStep = Superstep;
  D.Thread.resize(N);
  Lanes L;
  L.resize(N);
  for (uint32_t I = 0; I < N; ++I)
    St.OldRank[I] = D.Thread[I] = L[I] = I;
  SpawnState *Saved = Spawn;
  Spawn = &St;
  St.DeviceFrames.push_back(&D);
  ++Superstep;
  GroupPhase = 0;
  (void)exec(D, S->getBody(), L);
  syncPoint(D, L, S->getRange(), nullptr);
  for (auto &[V, P] : D.Vars)
    Mem.release(P);
  for (void *P : St.Temps)
    Mem.retire(P);
  Spawn = Saved;
  ++Superstep;
}

/// Applies the superstep's thread.put stores; two of them storing different
/// values into one variable are a race.
static void applyPuts(Interpreter &I) {
  llvm::DenseMap<uint8_t *, size_t> Seen;
  auto &Puts = I.Spawn->Puts;
  for (size_t K = 0; K < Puts.size(); ++K) {
    PendingPut &P = Puts[K];
    auto [It, New] = Seen.try_emplace(P.Addr, K);
    if (!New) {
      PendingPut &Q = Puts[It->second];
      if (Q.Value.size() == P.Value.size() &&
          std::memcmp(Q.Value.data(), P.Value.data(), P.Value.size()) != 0 &&
          I.Opts.CheckRaces)
        I.fatal(P.Where, "race: ranks " + llvm::Twine(Q.Rank) + " and " +
                             llvm::Twine(P.Rank) +
                             " thread.put different values into one "
                             "variable in one superstep");
    }
    std::memcpy(P.Addr, P.Value.data(), P.Value.size());
  }
  Puts.clear();
}

void Interpreter::syncPoint(Frame &F, Lanes &L, SourceRange R,
                            const char *What) {
  if (What) {
    // Every live thread must be here: compare the lanes with the spawn.
    std::vector<uint8_t> Here(Spawn->N, 0);
    for (uint32_t K : L)
      Here[rankOf(F, K)] = 1;
    std::vector<uint32_t> Missing, Present;
    for (uint32_t T = 0; T < Spawn->N; ++T)
      (Here[T] ? Present : Missing).push_back(T);
    if (!Missing.empty())
      fatal(R, llvm::Twine("barrier divergence: ranks ") + rankList(Missing) +
                   " do not reach this " + What + " (ranks " +
                   rankList(Present) + " do)");
  }
  applyPuts(*this);
  flushPrinted();
  ++Superstep;
  GroupPhase = 0;
  // thread.get reads the values of the superstep before.
  Spawn->Snapshots.clear();
  Spawn->LastSync = Superstep;
  Spawn->ReassignedSinceSync = false;
  for (Frame *D : Spawn->DeviceFrames)
    for (auto &[V, P] : D->Vars)
      if (GetVars.count(V) && !V->isGroupLocal()) {
        uint64_t Size = sizeOf(V->getType());
        Spawn->Snapshots[V].assign(P, P + Size * D->NumLanes);
      }
}

void Interpreter::remap(llvm::ArrayRef<uint32_t> Src) {
  uint32_t OldN = Spawn->N, NewN = Src.size();
  for (Frame *D : Spawn->DeviceFrames) {
    if (D->NumLanes != OldN)
      fatal({}, "internal: rank reassignment inside a partial frame");
    for (auto &[V, P] : D->Vars) {
      uint64_t Size = sizeOf(V->getType());
      if (V->isGroupLocal()) {
        uint64_t Groups = (NewN + Opts.GroupSize - 1) / Opts.GroupSize;
        Mem.release(P);
        P = Mem.allocate(Size * std::max<uint64_t>(Groups, 1),
                         AllocKind::Variable, Size, V->getName());
        continue;
      }
      uint8_t *Q = Mem.allocate(Size * std::max<uint32_t>(NewN, 1),
                                AllocKind::Variable, Size, V->getName());
      if (!Q)
        fatal({}, "out of memory after a rank reassignment");
      for (uint32_t J = 0; J < NewN; ++J)
        std::memcpy(Q + J * Size, P + Src[J] * Size, Size);
      Mem.release(P);
      P = Q;
    }
    if (D->Ret.Size) {
      Column R(D->Ret.Size, NewN);
      for (uint32_t J = 0; J < NewN; ++J)
        std::memcpy(R.at(J), D->Ret.at(Src[J]), D->Ret.Size);
      D->Ret = std::move(R);
    } else {
      D->Ret.N = NewN;
    }
    D->NumLanes = NewN;
    D->Id = newFrameId();
    D->Thread.resize(NewN);
    for (uint32_t J = 0; J < NewN; ++J)
      D->Thread[J] = J;
  }
  // A lane list keeps the threads it had, at their new ranks.
  std::vector<uint8_t> In(OldN);
  for (Lanes *LL : Spawn->LiveLanes) {
    std::fill(In.begin(), In.end(), 0);
    for (uint32_t K : *LL)
      In[K] = 1;
    LL->clear();
    for (uint32_t J = 0; J < NewN; ++J)
      if (In[Src[J]])
        LL->push_back(J);
  }
  for (auto &[V, Bytes] : Spawn->Snapshots) {
    uint64_t Size = sizeOf(V->getType());
    if (Bytes.size() != Size * OldN)
      continue;
    std::vector<uint8_t> New(Size * NewN);
    for (uint32_t J = 0; J < NewN; ++J)
      std::memcpy(&New[J * Size], &Bytes[Src[J] * Size], Size);
    Bytes = std::move(New);
  }
  Spawn->OldRank.resize(NewN);
  for (uint32_t J = 0; J < NewN; ++J)
    Spawn->OldRank[J] = Src[J];
  Spawn->N = NewN;
  Spawn->ReassignedSinceSync = true;
}

/// Whether lane \p K of rank column \p R names a thread of the spawn.
static bool validRank(Interpreter &I, const Column &R, const Type *T,
                      uint32_t K, int64_t &V) {
  V = scalarToInt(scalarKind(T), R.at(K));
  return V >= 0 && V < I.Spawn->N;
}

Column Interpreter::evalGetPut(Frame &F, BuiltinCallExpr *B, Lanes &L) {
  Interpreter &I = *this;
  auto Args = B->args();
  Column R = I.eval(F, Args[0], L);
  const Type *RT = Args[0]->getType();
  Lanes Targets;
  if (B->getBuiltinKind() == BuiltinCallExpr::ThreadPut) {
    // The paper (Appendix A): "If r is not a valid rank, no operation is
    // performed", so a put to rank -1 is how a program skips a put.
    llvm::SmallVector<bool, 16> Valid;
    for (uint32_t K = 0; K < L.size(); ++K) {
      int64_t V;
      Valid.push_back(validRank(I, R, RT, K, V));
      // An invalid lane addresses its own thread's p, which is not written.
      Targets.push_back(Valid.back() ? uint32_t(V)
                                     : uint32_t(I.rankOf(F, L[K])));
    }
    Column V = I.eval(F, Args[2], L);
    Column A = I.address(F, Args[1], Targets);
    for (uint32_t K = 0; K < L.size(); ++K) {
      if (!Valid[K])
        continue;
      PendingPut P;
      P.Addr = reinterpret_cast<uint8_t *>(A.get<uint64_t>(K));
      P.Value.assign(V.at(K), V.at(K) + V.Size);
      P.Rank = I.rankOf(F, L[K]);
      P.Where = B->getRange();
      I.Spawn->Puts.push_back(std::move(P));
    }
    return Column(0, L.size());
  }
  if (I.Spawn->ReassignedSinceSync)
    I.fatal(B->getRange(),
            "thread.get right after a rank reassignment (such as "
            "thread.sortby or barrier(RANK_REASSIGNED)) cannot find thread r "
            "by its new rank; put a 'barrier;' between them");
  // A rank outside the spawn gets the zero of the value's type
  // (docs/language.md), as compiled code gives it; --check-get-range
  // reports it instead.
  Lanes Valid;
  for (uint32_t K = 0; K < L.size(); ++K) {
    int64_t V;
    if (validRank(I, R, RT, K, V)) {
      Valid.push_back(K);
      Targets.push_back(V);
    } else if (I.Opts.CheckGetRange) {
      I.fatal(B->getRange(), llvm::Twine("thread.get of rank ") +
                                 llvm::Twine(V) + " by rank " +
                                 llvm::Twine(I.rankOf(F, L[K])) +
                                 ", outside the spawn of " +
                                 llvm::Twine(I.Spawn->N) + " threads");
    }
  }
  if (Valid.size() == L.size())
    return I.evalInThreads(F, Args[1], Targets);
  Column Out(sizeOf(B->getType()->getUnqualified()), L.size());
  if (Valid.empty())
    return Out;
  Column Got = I.evalInThreads(F, Args[1], Targets);
  for (uint32_t J = 0; J < Valid.size(); ++J)
    std::memcpy(Out.at(Valid[J]), Got.at(J), Out.Size);
  return Out;
}
