//===- Collectives.cpp - the primitives of the paper's Appendix A ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Each collective works on whole columns: Sema guarantees every thread
// reaches it, syncPoint() checks that they did, and lane i holds rank i.
// The definitions are the paper's (Appendix A) with the choices of
// docs/collectives.md: exclusive scans start from the operator's identity,
// sorts are stable and order floats as the radix sort does, fork(n <= 0)
// removes the thread, compact and split write from list[0].
//
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include "bsgp/AST/AST.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace bsgp;
using namespace bsgp::interp;
using BK = BuiltinType::BuiltinKind;
using RO = BuiltinCallExpr::ReduceOp;

namespace {

template <typename T> T ld(const uint8_t *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}
template <typename T> void st(uint8_t *P, T V) {
  std::memcpy(P, &V, sizeof(T));
}

template <typename T> T identity(RO Op) {
  using NL = std::numeric_limits<T>;
  switch (Op) {
  case RO::OpMul:
    return T(1);
  case RO::OpMin:
    return NL::has_infinity ? NL::infinity() : NL::max();
  case RO::OpMax:
    return NL::has_infinity ? -NL::infinity() : NL::lowest();
  case RO::OpAnd:
    if constexpr (std::is_integral_v<T>)
      return (T)~T(0);
    return T(0);
  default:
    return T(0);
  }
}

template <typename T> T combine(RO Op, T A, T B) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    switch (Op) {
    case RO::OpAdd:
      return (T)((U)A + (U)B);
    case RO::OpMul:
      return (T)((U)A * (U)B);
    case RO::OpAnd:
      return A & B;
    case RO::OpOr:
      return A | B;
    case RO::OpXor:
      return A ^ B;
    default:
      break;
    }
  } else {
    if (Op == RO::OpAdd)
      return A + B;
    if (Op == RO::OpMul)
      return A * B;
  }
  if (Op == RO::OpMin)
    return B < A ? B : A;
  return A < B ? B : A;
}

/// The sum of component \p C (at byte \p Off) of lanes [Lo, Hi) of \p X,
/// pairwise: a tree, as the compiled forms combine (work groups on GPUs,
/// blocks of ranks on the CPU), so that the rounding error of a float sum
/// grows with log n rather than n.
template <typename T>
T pairwiseSum(const Column &X, uint32_t Off, uint32_t Lo, uint32_t Hi) {
  if (Hi - Lo <= 8) {
    T Acc = T(0);
    for (uint32_t K = Lo; K < Hi; ++K)
      Acc += ld<T>(X.at(K) + Off);
    return Acc;
  }
  uint32_t Mid = Lo + (Hi - Lo) / 2;
  return pairwiseSum<T>(X, Off, Lo, Mid) + pairwiseSum<T>(X, Off, Mid, Hi);
}

/// An unsigned key that orders like the value: the radix sort's order.
uint64_t sortKey(BK K, const uint8_t *P) {
  switch (K) {
  case BK::Float: {
    uint32_t B = ld<uint32_t>(P);
    return (B & 0x80000000u) ? ~B : B | 0x80000000u;
  }
  case BK::Double: {
    uint64_t B = ld<uint64_t>(P);
    return (B >> 63) ? ~B : B | (1ull << 63);
  }
  case BK::UInt:
    return ld<uint32_t>(P);
  case BK::UInt64:
    return ld<uint64_t>(P);
  case BK::Bool:
    return ld<uint8_t>(P);
  default:
    return (uint64_t)scalarToInt(K, P) ^ (1ull << 63);
  }
}

/// Ranks in ascending order of their keys, stable.
std::vector<uint32_t> stableOrder(const Column &Key, BK K) {
  std::vector<uint64_t> Keys(Key.N);
  for (uint32_t I = 0; I < Key.N; ++I)
    Keys[I] = sortKey(K, Key.at(I));
  std::vector<uint32_t> Order(Key.N);
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](uint32_t A, uint32_t B) { return Keys[A] < Keys[B]; });
  return Order;
}

/// Ranks with a false flag first, then the true ones, each in rank order.
std::vector<uint32_t> partitionOrder(const Column &Flag) {
  std::vector<uint32_t> Order;
  for (int Side = 0; Side < 2; ++Side)
    for (uint32_t I = 0; I < Flag.N; ++I)
      if ((Flag.Bytes[I] != 0) == (Side == 1))
        Order.push_back(I);
  return Order;
}

} // namespace

/// Writes \p Src's values of the ranks \p Order to list[0..].
static void writeList(Interpreter &I, Frame &F, Lanes &L, const Column &List,
                      const Column &Src, const Type *T,
                      llvm::ArrayRef<uint32_t> Order, SourceRange R) {
  uint64_t Base = List.get<uint64_t>(0);
  uint32_t Size = sizeOf(T);
  Column Addr(8, Order.size()), Vals(Size, Order.size());
  Lanes Who;
  for (uint32_t J = 0; J < Order.size(); ++J) {
    Addr.set<uint64_t>(J, Base + (uint64_t)J * Size);
    std::memcpy(Vals.at(J), Src.at(Order[J]), Size);
    Who.push_back(L[Order[J]]);
  }
  // Made between the supersteps, not by the threads: no race records.
  I.store(F, Addr, Vals, T, Who, R, /*Untracked=*/true);
}

/// segreduce(op, x, head) and segscan(op, x, head), in rank order as the
/// scan: each segment starts at rank 0 and at every thread whose head is
/// true.
Column Interpreter::evalSegmented(Frame &F, BuiltinCallExpr *B, Lanes &L) {
  auto Args = B->args();
  auto Kind = B->getBuiltinKind();
  SourceRange R = B->getRange();
  const char *Name = BuiltinCallExpr::getName(Kind);
  Column X = eval(F, Args[0], L);
  Column Head = eval(F, Args[1], L);
  syncPoint(F, L, R, Name);
  const Type *T = Args[0]->getType()->getUnqualified();
  RO Op = B->getReduceOp();
  Column Out(sizeOf(T), X.N);
  dispatchKind(scalarKind(T), [&](auto Tag) {
    using V = decltype(Tag);
    for (uint32_t Begin = 0; Begin < X.N;) {
      uint32_t End = Begin + 1;
      while (End < X.N && !Head.Bytes[End])
        ++End;
      V Acc = identity<V>(Op);
      for (uint32_t K = Begin; K < End; ++K) {
        V Cur = ld<V>(X.at(K));
        st<V>(Out.at(K), Acc);
        Acc = combine<V>(Op, Acc, Cur);
      }
      if (Kind == BuiltinCallExpr::SegReduce)
        for (uint32_t K = Begin; K < End; ++K)
          st<V>(Out.at(K), Acc);
      Begin = End;
    }
  });
  if (Kind == BuiltinCallExpr::SegReduce)
    return Out;
  store(F, address(F, Args[0], L), Out, T, L, R, /*Untracked=*/true);
  return Column(0, L.size());
}

Column Interpreter::evalBuiltin(Frame &F, BuiltinCallExpr *B, Lanes &L) {
  auto Args = B->args();
  auto Kind = B->getBuiltinKind();
  SourceRange R = B->getRange();
  const char *Name = BuiltinCallExpr::getName(Kind);
  switch (Kind) {
  case BuiltinCallExpr::ThreadGet:
  case BuiltinCallExpr::ThreadPut:
    return evalGetPut(F, B, L);
  case BuiltinCallExpr::ThreadRebind:
    // A promise about values, not an effect.
    return Column(0, L.size());
  case BuiltinCallExpr::Reduce:
  case BuiltinCallExpr::Scan: {
    Column X = eval(F, Args[0], L);
    syncPoint(F, L, R, Name);
    const Type *T = Args[0]->getType()->getUnqualified();
    unsigned NC = numComponents(T);
    uint32_t ES = componentSize(T);
    RO Op = B->getReduceOp();
    Column Total(sizeOf(T), 1);
    dispatchKind(scalarKind(T), [&](auto Tag) {
      using V = decltype(Tag);
      for (unsigned C = 0; C < NC; ++C) {
        // A float sum is a tree; the scan's values are rank order.
        bool Tree = std::is_floating_point_v<V> && Op == RO::OpAdd;
        V Sum = Tree ? pairwiseSum<V>(X, C * ES, 0, X.N) : V();
        if (Tree && Kind == BuiltinCallExpr::Reduce) {
          st<V>(Total.at(0) + C * ES, Sum);
          continue;
        }
        V Acc = identity<V>(Op);
        for (uint32_t K = 0; K < X.N; ++K) {
          uint8_t *P = X.at(K) + C * ES;
          V Cur = ld<V>(P);
          if (Kind == BuiltinCallExpr::Scan)
            st<V>(P, Acc);
          Acc = combine<V>(Op, Acc, Cur);
        }
        st<V>(Total.at(0) + C * ES, Tree ? Sum : Acc);
      }
    });
    if (Kind == BuiltinCallExpr::Scan)
      store(F, address(F, Args[0], L), X, T, L, R, /*Untracked=*/true);
    return splat(Total.at(0), Total.Size, L.size());
  }
  case BuiltinCallExpr::SegReduce:
  case BuiltinCallExpr::SegScan:
    return evalSegmented(F, B, L);
  case BuiltinCallExpr::SortIdx: {
    Column Key = eval(F, Args[0], L);
    syncPoint(F, L, R, Name);
    std::vector<uint32_t> Order =
        stableOrder(Key, scalarKind(Args[0]->getType()));
    Column Out(4, L.size());
    for (uint32_t K = 0; K < L.size(); ++K)
      Out.set<int32_t>(K, Order[K]);
    return Out;
  }
  case BuiltinCallExpr::Compact:
  case BuiltinCallExpr::Split: {
    Column List = eval(F, Args[0], L);
    Column Src = eval(F, Args[1], L);
    Column Flag = eval(F, Args[2], L);
    (void)eval(F, Args[3], L);
    syncPoint(F, L, R, Name);
    std::vector<uint32_t> Order = partitionOrder(Flag);
    if (Kind == BuiltinCallExpr::Compact)
      Order.erase(Order.begin(),
                  Order.begin() +
                      (Order.size() -
                       std::count_if(Flag.Bytes.begin(), Flag.Bytes.end(),
                                     [](uint8_t V) { return V; })));
    writeList(*this, F, L, List, Src, Args[1]->getType(), Order, R);
    return Column(0, L.size());
  }
  case BuiltinCallExpr::ThreadSortBy:
  case BuiltinCallExpr::ThreadSplit:
  case BuiltinCallExpr::ThreadKill: {
    Column X = eval(F, Args[0], L);
    syncPoint(F, L, R, Name);
    std::vector<uint32_t> Src;
    if (Kind == BuiltinCallExpr::ThreadSortBy) {
      Src = stableOrder(X, scalarKind(Args[0]->getType()));
    } else if (Kind == BuiltinCallExpr::ThreadSplit) {
      Src = partitionOrder(X);
    } else {
      for (uint32_t K = 0; K < X.N; ++K)
        if (!X.Bytes[K])
          Src.push_back(K);
    }
    remap(Src);
    return Column(0, L.size());
  }
  case BuiltinCallExpr::ThreadFork: {
    Column X = eval(F, Args[0], L);
    syncPoint(F, L, R, Name);
    BK K0 = scalarKind(Args[0]->getType());
    // The total first, named in the error as compiled code names it.
    uint64_t Total = 0;
    for (uint32_t K = 0; K < X.N; ++K)
      Total += std::max<int64_t>(scalarToInt(K0, X.at(K)), 0);
    if (Total > INT32_MAX)
      fatal(R, "thread.fork makes " + std::to_string(Total) +
                   " threads; BSGP ranks are 32-bit ints, so a spawn has at "
                   "most 2147483647 threads");
    std::vector<uint32_t> Src;
    std::vector<int32_t> Child;
    for (uint32_t K = 0; K < X.N; ++K) {
      int64_t C = scalarToInt(K0, X.at(K));
      for (int64_t J = 0; J < C; ++J) {
        Src.push_back(K);
        Child.push_back(J);
      }
    }
    remap(Src);
    Column Out(4, L.size());
    for (uint32_t K = 0; K < L.size(); ++K)
      Out.set<int32_t>(K, Child[L[K]]);
    return Out;
  }
  default:
    fatal(R, llvm::Twine("'") + Name +
                 "' belongs to the collective library; bsgpi runs programs");
  }
}

Column Interpreter::evalGroup(Frame &F, GroupExpr *G, Lanes &L) {
  uint32_t GS = Opts.GroupSize, SS = Opts.SubgroupSize;
  auto Op = G->getGroupOp();
  Column Out(sizeOf(G->getType()), L.size());
  // group.size is also host code's (docs/language.md): no spawn to ask.
  if (Op == GroupExpr::GroupSize) {
    for (uint32_t K = 0; K < L.size(); ++K)
      Out.set<int32_t>(K, GS);
    return Out;
  }
  uint32_t N = Spawn->N;
  auto Q = [&](auto Fn) {
    for (uint32_t K = 0; K < L.size(); ++K)
      Out.set<int32_t>(K, Fn(rankOf(F, L[K])));
    return Out;
  };
  switch (Op) {
  case GroupExpr::GroupRank:
    return Q([&](uint32_t T) { return T % GS; });
  case GroupExpr::GroupId:
    return Q([&](uint32_t T) { return T / GS; });
  case GroupExpr::GroupCount:
    return Q([&](uint32_t) { return (N + GS - 1) / GS; });
  case GroupExpr::GroupThreads:
    return Q([&](uint32_t T) { return std::min(GS, N - T / GS * GS); });
  case GroupExpr::SubgroupRank:
    return Q([&](uint32_t T) { return (T % GS) % SS; });
  case GroupExpr::SubgroupSize:
    return Q([&](uint32_t) { return SS; });
  default:
    break;
  }
  // Position of each thread among the lanes running this call (-1: absent).
  std::vector<int32_t> Pos(N, -1);
  for (uint32_t K = 0; K < L.size(); ++K)
    Pos[rankOf(F, L[K])] = K;
  if (Op == GroupExpr::GroupBarrier) {
    groupBarrierPhase();
    for (uint32_t K = 0; K < L.size(); ++K) {
      uint32_t T = rankOf(F, L[K]), First = T / GS * GS;
      for (uint32_t U = First; U < std::min(First + GS, N); ++U)
        if (Pos[U] < 0)
          fatal(G->getRange(), "barrier divergence: rank " + llvm::Twine(U) +
                                   " does not reach this group.barrier() "
                                   "(rank " +
                                   llvm::Twine(T) + " of its work group does)");
    }
    return Out;
  }
  auto Args = G->args();
  Column X = eval(F, Args[0], L);
  Column Y;
  if (Args.size() > 1)
    Y = eval(F, Args[1], L);
  const Type *XT = Args[0]->getType();
  uint32_t XS = X.Size;
  BK XK = scalarKind(XT);
  for (uint32_t K = 0; K < L.size(); ++K) {
    uint32_t T = rankOf(F, L[K]);
    uint32_t Lane = (T % GS) % SS, Base = T - Lane;
    auto Present = [&](uint32_t SrcLane) {
      uint32_t U = Base + SrcLane;
      return SrcLane < SS && U < N && U / GS == T / GS && Pos[U] >= 0;
    };
    auto ValueOf = [&](uint32_t SrcLane) { return X.at(Pos[Base + SrcLane]); };
    if (Op == GroupExpr::Shuffle || Op == GroupExpr::ShuffleXor ||
        Op == GroupExpr::ShuffleUp || Op == GroupExpr::ShuffleDown) {
      int64_t A = scalarToInt(scalarKind(Args[1]->getType()), Y.at(K));
      int64_t Src = Op == GroupExpr::Shuffle      ? ((A % SS) + SS) % SS
                    : Op == GroupExpr::ShuffleXor ? (int64_t)(Lane ^ A)
                    : Op == GroupExpr::ShuffleUp  ? (int64_t)Lane - A
                                                  : (int64_t)Lane + A;
      const uint8_t *V = X.at(K);
      if (Src >= 0 && Present(Src))
        V = ValueOf(Src);
      std::memcpy(Out.at(K), V, XS);
      continue;
    }
    bool Any = false, All = true;
    uint64_t Bits = 0;
    int64_t Acc = 0;
    bool First = true;
    for (uint32_t S = 0; S < SS; ++S) {
      if (!Present(S))
        continue;
      const uint8_t *V = ValueOf(S);
      bool C = scalarTruth(XT, V);
      Any |= C;
      All &= C;
      if ((Op == GroupExpr::Ballot && C) ||
          (Op == GroupExpr::SubgroupMatch && std::memcmp(V, X.at(K), XS) == 0))
        Bits |= 1ull << S;
      int64_t I =
          XK == BK::UInt ? (int64_t)ld<uint32_t>(V) : scalarToInt(XK, V);
      if (First) {
        Acc = I;
        First = false;
        continue;
      }
      switch (Op) {
      case GroupExpr::SubgroupAdd:
        Acc += I;
        break;
      case GroupExpr::SubgroupMin:
        Acc = std::min(Acc, I);
        break;
      case GroupExpr::SubgroupMax:
        Acc = std::max(Acc, I);
        break;
      case GroupExpr::SubgroupAnd:
        Acc &= I;
        break;
      case GroupExpr::SubgroupOr:
        Acc |= I;
        break;
      case GroupExpr::SubgroupXor:
        Acc ^= I;
        break;
      default:
        break;
      }
    }
    switch (Op) {
    case GroupExpr::Any:
      Out.Bytes[K] = Any;
      break;
    case GroupExpr::All:
      Out.Bytes[K] = All;
      break;
    case GroupExpr::Ballot:
    case GroupExpr::SubgroupMatch:
      Out.set<uint64_t>(K, Bits);
      break;
    default:
      convertScalar(BK::Int64, reinterpret_cast<uint8_t *>(&Acc),
                    scalarKind(G->getType()), Out.at(K));
      break;
    }
  }
  return Out;
}
