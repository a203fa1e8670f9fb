//===- CompileMemory.cpp - compiled loads, stores and assignments ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A load or store node remembers the allocation its last access hit; while
// the allocation table has lost no entry since (Memory::epoch), an access
// inside that allocation that passes the checks of checkAccess (freed,
// host or device memory, bounds, the lane's slot of a variable) and, for
// loads, reads initialized bytes, is done here, race records included.
// Every other access goes to Interpreter::loadOne or storeOne, which makes
// the same checks and reports the failing one.
//
// A variable, or a field or component of one, is the interpreter's own
// storage: the tree walk reads and writes it with checks that cannot fail,
// and so do these nodes, without them.
//
//===----------------------------------------------------------------------===//

#include "Compile.h"

#include <type_traits>

using namespace bsgp;
using namespace bsgp::interp;
using BK = BuiltinType::BuiltinKind;
using Op = BinaryOperator::Opcode;

static bool isList(AllocKind K) {
  return K == AllocKind::List || K == AllocKind::TempList;
}

static bool inside(const Allocation *A, const uint8_t *P, uint32_t Size) {
  uint64_t Off = (uintptr_t)P - (uintptr_t)A->Base;
  return Off < A->Size && Size <= A->Size - Off;
}

/// The allocation of an access of \p Size bytes at \p P when it passes
/// checkAccess's checks, null when the slow path must decide.
static Allocation *hit(Interpreter &I, AccessCache &C, uint8_t *P,
                       uint32_t Size, bool Device) {
  Allocation *A = C.A;
  if (!A || C.Epoch != I.Mem.epoch() || !inside(A, P, Size)) {
    A = I.Mem.find(P);
    if (!A)
      return nullptr;
    C.A = A;
    C.Epoch = I.Mem.epoch();
    if (!inside(A, P, Size))
      return nullptr;
  }
  if (A->Freed)
    return nullptr;
  if (Device ? A->Kind == AllocKind::Heap : isList(A->Kind))
    return nullptr;
  if (A->Stride) {
    uint64_t Off = P - A->Base;
    if (Off / A->Stride != (Off + Size - 1) / A->Stride)
      return nullptr;
  }
  return A;
}

/// Whether the bits of bytes [Off, Off + Size) are all set.
static bool allInit(const std::vector<uint8_t> &Init, uint64_t Off,
                    uint32_t Size) {
  if (!((Off | Size) & 7)) {
    // Whole bytes of bits.
    for (uint64_t B = Off >> 3, E = (Off + Size) >> 3; B < E; ++B)
      if (Init[B] != 0xff)
        return false;
    return true;
  }
  for (uint64_t B = Off, E = Off + Size; B < E;) {
    unsigned Bit = B & 7, Count = std::min<uint64_t>(8 - Bit, E - B);
    unsigned Mask = ((1u << Count) - 1) << Bit;
    if ((Init[B >> 3] & Mask) != Mask)
      return false;
    B += Count;
  }
  return true;
}

static void setInit(std::vector<uint8_t> &Init, uint64_t Off, uint32_t Size) {
  for (uint64_t B = Off, E = Off + Size; B < E;) {
    unsigned Bit = B & 7, Count = std::min<uint64_t>(8 - Bit, E - B);
    Init[B >> 3] |= ((1u << Count) - 1) << Bit;
    B += Count;
  }
}

/// One lane's checked load of \p Size bytes at \p P into \p Dst.
static inline void loadLane(Interpreter &I, Frame &F, uint8_t *P, uint32_t Size,
                            uint32_t Lane, SourceRange R, AccessCache &C,
                            bool Track, uint8_t *Dst) {
  Allocation *A = hit(I, C, P, Size, F.Device);
  if (!A || (!A->Init.empty() && !allInit(A->Init, P - A->Base, Size)))
    return I.loadOne(F, P, Size, Lane, R, Track, C.Site, Dst);
  if (Track && isList(A->Kind)) {
    if (!C.Site)
      C.Site = I.raceSite(R);
    uint32_t Rank = I.rankOf(F, Lane);
    if (!I.checkReadRaceFast(*A, P, Size, Rank, C.Site))
      I.checkRace(*A, P, nullptr, Size, Rank, C.Site, R);
  }
  copyBytes(Dst, P, Size);
}

/// One lane's checked store of \p Size bytes from \p Src at \p P.
static inline void storeLane(Interpreter &I, Frame &F, uint8_t *P,
                             const uint8_t *Src, uint32_t Size, uint32_t Lane,
                             SourceRange R, AccessCache &C, bool Track) {
  Allocation *A = hit(I, C, P, Size, F.Device);
  if (!A)
    return I.storeOne(F, P, Src, Size, Lane, R, Track, C.Site);
  if (Track && isList(A->Kind)) {
    if (!C.Site)
      C.Site = I.raceSite(R);
    I.checkRace(*A, P, Src, Size, I.rankOf(F, Lane), C.Site, R);
  }
  if (!A->Init.empty())
    setInit(A->Init, P - A->Base, Size);
  copyBytes(P, Src, Size);
}

/// loadLane's most common case inline: host code reading memory it may
/// read (a heap block, a string, a variable), in the allocation the node's
/// last access hit, with no initialization bits or race records to check.
/// False when loadLane must decide.
static inline bool quickLoad(Interpreter &I, Frame &F, uint8_t *P,
                             uint32_t Size, const AccessCache &C,
                             uint8_t *Dst) {
  const Allocation *A = C.A;
  if (F.Device || !A || C.Epoch != I.Mem.epoch() || !inside(A, P, Size) ||
      A->Freed || isList(A->Kind) || A->Stride || !A->Init.empty())
    return false;
  copyBytes(Dst, P, Size);
  return true;
}

static bool tracks(Interpreter &I, Frame &F) {
  return F.Device && I.Spawn && I.Opts.CheckRaces;
}

void interp::loadLanes(Interpreter &I, Frame &F, const Column &Addr,
                       uint32_t Size, Lanes &L, SourceRange R, AccessCache &C,
                       Column &Out) {
  uint32_t N = Addr.N;
  shape(Out, Size, N);
  bool Track = tracks(I, F);
  for (uint32_t K = 0; K < N; ++K)
    loadLane(I, F, reinterpret_cast<uint8_t *>(Addr.get<uint64_t>(K)), Size,
             L[K], R, C, Track, Out.at(K));
}

void interp::storeLanes(Interpreter &I, Frame &F, const Column &Addr,
                        const Column &V, uint32_t Size, Lanes &L, SourceRange R,
                        AccessCache &C) {
  bool Track = tracks(I, F);
  for (uint32_t K = 0; K < Addr.N; ++K)
    storeLane(I, F, reinterpret_cast<uint8_t *>(Addr.get<uint64_t>(K)), V.at(K),
              Size, L[K], R, C, Track);
}

/// The variable (not group-local) whose storage \p E names, at offset
/// \p Off: a variable, or a field or single component of one.
static const VarDecl *varAt(Expr *E, uint32_t &Off) {
  while (auto *P = llvm::dyn_cast<ParenExpr>(E))
    E = P->getSubExpr();
  if (auto *DR = llvm::dyn_cast<DeclRefExpr>(E)) {
    auto *D = llvm::dyn_cast_or_null<VarDecl>(DR->getDecl());
    if (!D || D->isGroupLocal())
      return nullptr;
    Off = 0;
    return D;
  }
  auto *M = llvm::dyn_cast<MemberExpr>(E);
  if (!M || M->isArrow())
    return nullptr;
  const VarDecl *D = varAt(M->getBase(), Off);
  if (!D)
    return nullptr;
  const Type *BT = M->getBase()->getType()->getUnqualified();
  if (FieldDecl *FD = M->getField())
    Off += fieldOffset(llvm::cast<StructType>(BT), FD->getIndex());
  else if (M->getComponents().size() == 1)
    Off += M->getComponents()[0] * componentSize(BT);
  else
    return nullptr;
  return D;
}

namespace {

class TreeAddr : public CExpr {
  Expr *E;

public:
  TreeAddr(Expr *E) : E(E) {}
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Out = I.address(F, E, L);
  }
};

class VarAddr : public CExpr {
  VarSlot Slot;
  uint64_t Size;

public:
  VarAddr(const VarDecl *D) : Size(sizeOf(D->getType())) { Slot.D = D; }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Slot.get(I, F);
    uint32_t N = L.size();
    shape(Out, 8, N);
    for (uint32_t K = 0; K < N; ++K)
      Out.set<uint64_t>(K, reinterpret_cast<uint64_t>(Slot.at(L, K, Size)));
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    st<uint64_t>(Out, bits(I, F, Lane));
  }
  uint64_t bits(Interpreter &I, Frame &F, uint32_t Lane) override {
    uint8_t *P = Slot.get(I, F) + (Slot.PerLane ? Lane * Size : 0);
    return reinterpret_cast<uint64_t>(P);
  }
};

/// Reads an index of kind \p K as int64, as scalarToInt.
static int64_t indexValue(BK K, const uint8_t *P) {
  switch (K) {
  case BK::Int:
    return ld<int32_t>(P);
  case BK::UInt:
    return ld<uint32_t>(P);
  case BK::Int64:
  case BK::UInt64:
    return ld<int64_t>(P);
  default:
    return scalarToInt(K, P);
  }
}

/// The address of `base[index]`, bounds-checked as Interpreter::address
/// does: against a fixed array's length, or the allocation the pointer
/// points into (looked up again only when the pointer leaves the last one).
class IndexAddr : public CExpr {
  Operand Base, Idx;
  BK IK;
  uint64_t ES, ArrayLen = 0;
  SourceRange R;
  AccessCache C;

public:
  IndexAddr(Interpreter &I, IndexExpr *E)
      : IK(scalarKind(E->getIndex()->getType())), ES(sizeOf(E->getType())),
        R(E->getRange()) {
    Expr *B = E->getBase();
    if (auto *AT = llvm::dyn_cast<ArrayType>(B->getType()->getUnqualified())) {
      ArrayLen = AT->getSize();
      Base = compileAddress(I, B);
    } else {
      Base = compileExpr(I, B);
    }
    Idx = compileExpr(I, E->getIndex());
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column B, X;
    Base.run(I, F, L, B);
    Idx.run(I, F, L, X);
    uint32_t N = L.size();
    shape(Out, 8, N);
    for (uint32_t K = 0; K < N; ++K) {
      int64_t V = indexValue(IK, X.at(K));
      uint64_t P = B.get<uint64_t>(K);
      if (ArrayLen ? (V < 0 || (uint64_t)V >= ArrayLen) : !inRange(I, P, V))
        I.checkIndex(F, P, V, ES, ArrayLen, L[K], R);
      Out.set<uint64_t>(K, P + V * ES);
    }
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    st<uint64_t>(Out, one(I, F, Lane));
  }
  uint64_t bits(Interpreter &I, Frame &F, uint32_t Lane) override {
    return one(I, F, Lane);
  }
  /// The address for one lane.
  uint64_t one(Interpreter &I, Frame &F, uint32_t Lane) {
    uint64_t P = Base.bits(I, F, Lane), X = Idx.bits(I, F, Lane);
    int64_t V = indexValue(IK, reinterpret_cast<uint8_t *>(&X));
    if (ArrayLen ? (V < 0 || (uint64_t)V >= ArrayLen) : !inRange(I, P, V))
      I.checkIndex(F, P, V, ES, ArrayLen, Lane, R);
    return P + V * ES;
  }
  /// True when checkIndex would pass element \p V of pointer \p P.
  bool inRange(Interpreter &I, uint64_t P, int64_t V) {
    auto *Ptr = reinterpret_cast<uint8_t *>(P);
    Allocation *A = C.A;
    if (!A || C.Epoch != I.Mem.epoch() || !inside(A, Ptr, 1)) {
      A = I.Mem.find(Ptr);
      if (!A || !inside(A, Ptr, 1))
        return false;
      C.A = A;
      C.Epoch = I.Mem.epoch();
    }
    if (A->Kind == AllocKind::Variable)
      return true;
    int64_t Off = (int64_t)(P - (uint64_t)A->Base) + V * (int64_t)ES;
    return Off >= 0 && (uint64_t)Off + ES <= A->Size;
  }
};

class MemberAddr : public CExpr {
  CExprPtr Base;
  uint64_t Off;

public:
  MemberAddr(CExprPtr Base, uint64_t Off) : Base(std::move(Base)), Off(Off) {}
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Base->run(I, F, L, Out);
    for (uint32_t K = 0; K < Out.N; ++K)
      Out.set<uint64_t>(K, Out.get<uint64_t>(K) + Off);
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    st<uint64_t>(Out, bits(I, F, Lane));
  }
  uint64_t bits(Interpreter &I, Frame &F, uint32_t Lane) override {
    return Base->bits(I, F, Lane) + Off;
  }
};

class LoadExpr : public CExpr {
  CExprPtr Addr;
  /// Addr when it is an index, called without the virtual call.
  IndexAddr *Index = nullptr;
  uint32_t Size;
  SourceRange R;
  AccessCache C;

public:
  LoadExpr(CExprPtr Addr, uint32_t Size, SourceRange R)
      : Addr(std::move(Addr)), Size(Size), R(R) {}
  LoadExpr(std::unique_ptr<IndexAddr> A, uint32_t Size, SourceRange R)
      : Index(A.get()), Size(Size), R(R) {
    Addr = std::move(A);
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column A;
    Addr->run(I, F, L, A);
    loadLanes(I, F, A, Size, L, R, C, Out);
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    if (Size > MaxOne)
      return CExpr::runOne(I, F, Lane, Out);
    uint8_t *P = address(I, F, Lane);
    if (!quickLoad(I, F, P, Size, C, Out))
      loadLane(I, F, P, Size, Lane, R, C, tracks(I, F), Out);
  }
  uint64_t bits(Interpreter &I, Frame &F, uint32_t Lane) override {
    if (Size > 8)
      return CExpr::bits(I, F, Lane);
    uint64_t V = 0;
    uint8_t *P = address(I, F, Lane);
    if (!quickLoad(I, F, P, Size, C, reinterpret_cast<uint8_t *>(&V)))
      loadLane(I, F, P, Size, Lane, R, C, tracks(I, F),
               reinterpret_cast<uint8_t *>(&V));
    return V;
  }
  uint8_t *address(Interpreter &I, Frame &F, uint32_t Lane) {
    return reinterpret_cast<uint8_t *>(Index ? Index->one(I, F, Lane)
                                             : Addr->bits(I, F, Lane));
  }
};

/// Where an assignment, ++ or -- writes: a variable's own storage, or
/// checked stores to an address.
struct Target {
  VarSlot Slot;
  uint32_t Off = 0, VarSize = 0, Size = 0;
  CExprPtr Addr;
  AccessCache C;
  SourceRange R;
  Column A;

  Target(Interpreter &I, Expr *LHS, SourceRange R)
      : Size(sizeOf(LHS->getType())), R(R) {
    if (const VarDecl *D = varAt(LHS, Off)) {
      Slot.D = D;
      VarSize = sizeOf(D->getType());
    } else {
      Addr = compileAddress(I, LHS);
    }
  }
  /// Computes the lanes' addresses (before the load of a read-modify-write).
  void locate(Interpreter &I, Frame &F, Lanes &L) {
    if (Addr)
      Addr->run(I, F, L, A);
    else
      Slot.get(I, F);
  }
  void load(Interpreter &I, Frame &F, Lanes &L, Column &Out) {
    if (Addr)
      return loadLanes(I, F, A, Size, L, R, C, Out);
    shape(Out, Size, L.size());
    for (uint32_t K = 0; K < L.size(); ++K)
      copyBytes(Out.at(K), Slot.at(L, K, VarSize) + Off, Size);
  }
  void store(Interpreter &I, Frame &F, Lanes &L, const Column &V) {
    if (Addr)
      return storeLanes(I, F, A, V, Size, L, R, C);
    for (uint32_t K = 0; K < L.size(); ++K)
      std::memcpy(Slot.at(L, K, VarSize) + Off, V.at(K), Size);
  }
  /// The same for one lane: the address, then loads and stores there.
  uint8_t *locateOne(Interpreter &I, Frame &F, uint32_t Lane) {
    if (!Addr)
      return Slot.get(I, F) + (Slot.PerLane ? Lane * VarSize : 0) + Off;
    return reinterpret_cast<uint8_t *>(Addr->bits(I, F, Lane));
  }
  void loadOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *P,
               uint8_t *Out) {
    if (Addr)
      return loadLane(I, F, P, Size, Lane, R, C, tracks(I, F), Out);
    copyBytes(Out, P, Size);
  }
  void storeOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *P,
                const uint8_t *Src) {
    if (Addr)
      return storeLane(I, F, P, Src, Size, Lane, R, C, tracks(I, F));
    copyBytes(P, Src, Size);
  }
};

class AssignExpr : public CExpr {
  CExprPtr RHS;
  Target T;
  bool OneOk;

public:
  AssignExpr(Interpreter &I, BinaryOperator *B)
      : RHS(compileExpr(I, B->getRHS())), T(I, B->getLHS(), B->getRange()) {
    OneOk = T.Size <= MaxOne && sizeOf(B->getRHS()->getType()) == T.Size;
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    // The right side first, as the tree walk.
    RHS->run(I, F, L, Out);
    T.locate(I, F, L);
    T.store(I, F, L, Out);
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    if (!OneOk)
      return CExpr::runOne(I, F, Lane, Out);
    RHS->runOne(I, F, Lane, Out);
    T.storeOne(I, F, Lane, T.locateOne(I, F, Lane), Out);
  }
};

/// + - * of a plain scalar, as C computes them: signed overflow is
/// reported, for lane \p Lane.
template <typename T>
static T applyArith(Interpreter &I, Op O, T A, T B, SourceRange R,
                    const Type *Ty, Frame &F, uint32_t Lane) {
  bool Overflow = false;
  T V = cArith(O, A, B, Overflow);
  if (Overflow)
    I.signedOverflow(R, O, A, B, Ty, F, Lane);
  return V;
}

/// Whether \p T computes + - * (and ++ --) without conversions or checks
/// in a typed node: the scalars of 4 bytes and more.
static bool isPlainScalar(const Type *T) {
  auto *B = llvm::dyn_cast<BuiltinType>(T->getUnqualified());
  if (!B)
    return false;
  BK K = B->getBuiltinKind();
  return K == BK::Int || K == BK::UInt || K == BK::Int64 || K == BK::UInt64 ||
         K == BK::Float || K == BK::Double;
}

/// `x op= v`, as evalBinary: + - * on a scalar of the same type computes
/// here, anything else by convert() and arith().
class CompoundAssignExpr : public CExpr {
  CExprPtr RHS;
  Target T;
  Op Base;
  const Type *LT, *RT, *CT;
  bool Typed;

public:
  CompoundAssignExpr(Interpreter &I, BinaryOperator *B)
      : RHS(compileExpr(I, B->getRHS())), T(I, B->getLHS(), B->getRange()),
        Base(BinaryOperator::getBaseOp(B->getOpcode())),
        LT(B->getLHS()->getType()->getUnqualified()),
        RT(B->getRHS()->getType()) {
    CT = B->getComputationType() ? B->getComputationType() : LT;
    Typed = isPlainScalar(LT) && CT->getUnqualified() == LT &&
            RT->getUnqualified() == LT &&
            (Base == Op::Add || Base == Op::Sub || Base == Op::Mul);
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column V, Old;
    RHS->run(I, F, L, V);
    T.locate(I, F, L);
    T.load(I, F, L, Old);
    SourceRange R = T.R;
    if (Typed) {
      Out = std::move(Old);
      dispatchKind(scalarKind(LT), [&](auto Tag) {
        using X = decltype(Tag);
        for (uint32_t K = 0; K < Out.N; ++K)
          st<X>(Out.at(K), applyArith<X>(I, Base, ld<X>(Out.at(K)),
                                         ld<X>(V.at(K)), R, LT, F, L[K]));
      });
    } else if (llvm::isa<PointerType>(LT)) {
      Out = I.arith(Base, Old, V, LT, RT, LT, R, F, L);
    } else {
      Column OC = I.convert(Old, LT, CT);
      const Type *ArgT = (Base == Op::Shl || Base == Op::Shr) ? RT : CT;
      Out = I.convert(I.arith(Base, OC, V, CT, ArgT, CT, R, F, L), CT, LT);
    }
    T.store(I, F, L, Out);
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    if (!Typed)
      return CExpr::runOne(I, F, Lane, Out);
    alignas(16) uint8_t V[MaxOne];
    RHS->runOne(I, F, Lane, V);
    uint8_t *P = T.locateOne(I, F, Lane);
    T.loadOne(I, F, Lane, P, Out);
    dispatchKind(scalarKind(LT), [&](auto Tag) {
      using X = decltype(Tag);
      st<X>(Out,
            applyArith<X>(I, Base, ld<X>(Out), ld<X>(V), T.R, LT, F, Lane));
    });
    T.storeOne(I, F, Lane, P, Out);
  }
};

/// ++ and --, as evalUnary: a plain scalar steps here, a pointer, bool or
/// narrow integer as the tree walk steps it.
class IncDecExpr : public CExpr {
  Target T;
  const Type *ST;
  bool Inc, Pre, Typed;

  void stepTree(Interpreter &I, Frame &F, Lanes &L, const Column &Old,
                Column &New) {
    const BuiltinType *IntT = I.Ctx.getIntType();
    int32_t One = 1;
    Column OneC = I.splat(reinterpret_cast<uint8_t *>(&One), 4, L.size());
    Op O = Inc ? Op::Add : Op::Sub;
    if (llvm::isa<PointerType>(ST)) {
      New = I.arith(O, Old, OneC, ST, IntT, ST, T.R, F, L);
    } else if (ST->isBool()) {
      New = Old;
      for (uint32_t K = 0; K < New.N; ++K)
        New.Bytes[K] = Inc ? 1 : !New.Bytes[K];
    } else {
      // char and the narrow types compute in int, as C promotes them.
      const Type *CT = sizeOf(ST) < 4 ? (const Type *)IntT : ST;
      Column OC = I.convert(Old, ST, CT);
      New = I.convert(
          I.arith(O, OC, I.convert(OneC, IntT, CT), CT, CT, CT, T.R, F, L), CT,
          ST);
    }
  }

public:
  IncDecExpr(Interpreter &I, UnaryOperator *U)
      : T(I, U->getSubExpr(), U->getRange()),
        ST(U->getSubExpr()->getType()->getUnqualified()) {
    auto Code = U->getOpcode();
    Inc = Code == UnaryOperator::PreInc || Code == UnaryOperator::PostInc;
    Pre = Code == UnaryOperator::PreInc || Code == UnaryOperator::PreDec;
    Typed = isPlainScalar(ST);
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column Old, New;
    T.locate(I, F, L);
    T.load(I, F, L, Old);
    if (Typed) {
      New = Old;
      dispatchKind(scalarKind(ST), [&](auto Tag) {
        using X = decltype(Tag);
        for (uint32_t K = 0; K < New.N; ++K)
          st<X>(New.at(K),
                applyArith<X>(I, Inc ? Op::Add : Op::Sub, ld<X>(New.at(K)),
                              X(1), T.R, ST, F, L[K]));
      });
    } else {
      stepTree(I, F, L, Old, New);
    }
    T.store(I, F, L, New);
    Out = Pre ? std::move(New) : std::move(Old);
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    if (!Typed)
      return CExpr::runOne(I, F, Lane, Out);
    alignas(16) uint8_t Old[MaxOne], New[MaxOne];
    uint8_t *P = T.locateOne(I, F, Lane);
    T.loadOne(I, F, Lane, P, Old);
    dispatchKind(scalarKind(ST), [&](auto Tag) {
      using X = decltype(Tag);
      st<X>(New, applyArith<X>(I, Inc ? Op::Add : Op::Sub, ld<X>(Old), X(1),
                               T.R, ST, F, Lane));
    });
    T.storeOne(I, F, Lane, P, New);
    copyBytes(Out, Pre ? New : Old, T.Size);
  }
  uint64_t bits(Interpreter &I, Frame &F, uint32_t Lane) override {
    if (!Typed || T.Size > 8)
      return CExpr::bits(I, F, Lane);
    uint64_t Old = 0, New = 0;
    uint8_t *P = T.locateOne(I, F, Lane);
    T.loadOne(I, F, Lane, P, reinterpret_cast<uint8_t *>(&Old));
    dispatchKind(scalarKind(ST), [&](auto Tag) {
      using X = decltype(Tag);
      X V = applyArith<X>(I, Inc ? Op::Add : Op::Sub, ld<X>((uint8_t *)&Old),
                          X(1), T.R, ST, F, Lane);
      std::memcpy(&New, &V, sizeof(X));
    });
    T.storeOne(I, F, Lane, P, reinterpret_cast<uint8_t *>(&New));
    return Pre ? New : Old;
  }
};

/// ++ and -- of a plain scalar variable of C++ type T: in place.
template <typename T> class VarIncDec final : public CExpr {
  VarSlot Slot;
  uint32_t Off;
  bool Inc, Pre;
  SourceRange R;
  const Type *Ty;

  T *at(Interpreter &I, Frame &F, uint32_t Lane) {
    uint8_t *P = Slot.get(I, F) + Off;
    return reinterpret_cast<T *>(Slot.PerLane ? P + Lane * sizeof(T) : P);
  }
  T step(Interpreter &I, Frame &F, uint32_t Lane) {
    T *P = at(I, F, Lane);
    T Old, New;
    std::memcpy(&Old, P, sizeof(T));
    New = applyArith<T>(I, Inc ? Op::Add : Op::Sub, Old, T(1), R, Ty, F, Lane);
    std::memcpy(P, &New, sizeof(T));
    return Pre ? New : Old;
  }

public:
  VarIncDec(const VarDecl *D, uint32_t Off, UnaryOperator *U)
      : Off(Off), R(U->getRange()), Ty(U->getSubExpr()->getType()) {
    Slot.D = D;
    auto Code = U->getOpcode();
    Inc = Code == UnaryOperator::PreInc || Code == UnaryOperator::PostInc;
    Pre = Code == UnaryOperator::PreInc || Code == UnaryOperator::PreDec;
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Slot.get(I, F);
    shape(Out, sizeof(T), L.size());
    if (!Slot.PerLane && L.size() > 1) {
      // One variable for all the lanes: each reads the old value and
      // stores the same new one, as the tree walk's load, then store.
      T V = step(I, F, L[0]);
      for (uint32_t K = 0; K < L.size(); ++K)
        st<T>(Out.at(K), V);
      return;
    }
    for (uint32_t K = 0; K < L.size(); ++K)
      st<T>(Out.at(K), step(I, F, L[K]));
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    st<T>(Out, step(I, F, Lane));
  }
  uint64_t bits(Interpreter &I, Frame &F, uint32_t Lane) override {
    uint64_t B = 0;
    T V = step(I, F, Lane);
    std::memcpy(&B, &V, sizeof(T));
    return B;
  }
};

} // namespace

CExprPtr interp::compileAddress(Interpreter &I, Expr *E) {
  // An array compound literal is initialized where it is evaluated
  // (Interpreter::address).
  if (I.mayRemap(E) || llvm::isa<CastExpr>(E))
    return std::make_unique<TreeAddr>(E);
  switch (E->getKind()) {
  case Stmt::SK_Paren:
    return compileAddress(I, llvm::cast<ParenExpr>(E)->getSubExpr());
  case Stmt::SK_DeclRef: {
    auto *D =
        llvm::dyn_cast_or_null<VarDecl>(llvm::cast<DeclRefExpr>(E)->getDecl());
    if (D && !D->isGroupLocal())
      return std::make_unique<VarAddr>(D);
    break;
  }
  case Stmt::SK_Index:
    return std::make_unique<IndexAddr>(I, llvm::cast<IndexExpr>(E));
  case Stmt::SK_Member: {
    auto *M = llvm::cast<MemberExpr>(E);
    const Type *BT = M->getBase()->getType()->getUnqualified();
    if (M->isArrow())
      BT = llvm::cast<PointerType>(BT)->getPointee()->getUnqualified();
    uint64_t Off;
    if (FieldDecl *FD = M->getField())
      Off = fieldOffset(llvm::cast<StructType>(BT), FD->getIndex());
    else if (M->getComponents().size() == 1)
      Off = M->getComponents()[0] * componentSize(BT);
    else
      break; // A swizzle: the tree walk reports it.
    CExprPtr Base = M->isArrow() ? compileExpr(I, M->getBase())
                                 : compileAddress(I, M->getBase());
    return std::make_unique<MemberAddr>(std::move(Base), Off);
  }
  case Stmt::SK_Unary: {
    auto *U = llvm::cast<UnaryOperator>(E);
    if (U->getOpcode() == UnaryOperator::Deref)
      return compileExpr(I, U->getSubExpr());
    break;
  }
  default:
    break;
  }
  return std::make_unique<TreeAddr>(E);
}

CExprPtr interp::compileLoad(Interpreter &I, Expr *E) {
  uint32_t Off;
  if (const VarDecl *D = varAt(E, Off))
    return varFieldRead(D, Off, sizeOf(E->getType()));
  if (auto *DR = llvm::dyn_cast<DeclRefExpr>(E))
    if (!llvm::isa_and_nonnull<VarDecl>(DR->getDecl()))
      return treeExpr(E);
  if (auto *IE = llvm::dyn_cast<IndexExpr>(E))
    return std::make_unique<LoadExpr>(std::make_unique<IndexAddr>(I, IE),
                                      sizeOf(E->getType()->getUnqualified()),
                                      E->getRange());
  return std::make_unique<LoadExpr>(compileAddress(I, E),
                                    sizeOf(E->getType()->getUnqualified()),
                                    E->getRange());
}

CExprPtr interp::compileAssign(Interpreter &I, BinaryOperator *B) {
  Expr *Target = B->getLHS();
  while (auto *P = llvm::dyn_cast<ParenExpr>(Target))
    Target = P->getSubExpr();
  if (llvm::isa<ThreadAttrExpr>(Target))
    return treeExpr(B);
  if (B->getOpcode() == Op::Assign)
    return std::make_unique<AssignExpr>(I, B);
  return std::make_unique<CompoundAssignExpr>(I, B);
}

CExprPtr interp::compileIncDec(Interpreter &I, UnaryOperator *U) {
  // A variable that is the whole of a plain scalar: stepped in place.
  uint32_t Off;
  const Type *ST = U->getSubExpr()->getType()->getUnqualified();
  const VarDecl *D = varAt(U->getSubExpr(), Off);
  if (D && isPlainScalar(ST) && sizeOf(D->getType()) == sizeOf(ST)) {
    CExprPtr R;
    dispatchKind(scalarKind(ST), [&](auto Tag) {
      using X = decltype(Tag);
      if constexpr (sizeof(X) >= 4)
        R = std::make_unique<VarIncDec<X>>(D, Off, U);
    });
    if (R)
      return R;
  }
  return std::make_unique<IncDecExpr>(I, U);
}
