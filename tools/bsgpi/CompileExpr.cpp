//===- CompileExpr.cpp - compiled expressions: values and operators -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Each node does what Interpreter::evalTree does for its kind of expression
// (Expr.cpp, Operators.cpp, Values.cpp), in the same order and with the
// same checks; the C++ type an operator computes in is picked when the node
// is made, not per lane. An operator the nodes do not cover calls the tree
// walk's own arith() or convert() on the compiled operands.
//
//===----------------------------------------------------------------------===//

#include "Compile.h"

#include <functional>
#include <type_traits>

using namespace bsgp;
using namespace bsgp::interp;
using BK = BuiltinType::BuiltinKind;
using Op = BinaryOperator::Opcode;

template <typename T> static T ld(const uint8_t *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}
template <typename T> static void st(uint8_t *P, T V) {
  std::memcpy(P, &V, sizeof(T));
}

CExpr &Interpreter::compiled(Expr *E) {
  auto It = CompiledExprs.find(E);
  if (It != CompiledExprs.end())
    return *It->second;
  CExprPtr C = compileExpr(*this, E);
  CExpr &Ref = *C;
  CompiledExprs[E] = std::move(C);
  return Ref;
}

void VarSlot::refresh(Interpreter &I, Frame &F) {
  Base = I.varBase(F, D, PerLane);
  // varBase may allocate the variable, which changes no frame's Id.
  FrameId = F.Id;
}

void CExpr::runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) {
  Lanes One{Lane};
  Column C;
  run(I, F, One, C);
  if (C.N == 1)
    std::memcpy(Out, C.Bytes.data(), std::min(C.Size, MaxOne));
}

uint64_t CExpr::bits(Interpreter &I, Frame &F, uint32_t Lane) {
  alignas(16) uint8_t B[MaxOne];
  runOne(I, F, Lane, B);
  uint64_t V;
  std::memcpy(&V, B, 8);
  return V;
}

Column Interpreter::eval(Frame &F, Expr *E, Lanes &L) {
  Column Out;
  compiled(E).run(*this, F, L, Out);
  return Out;
}

namespace {

class TreeExpr : public CExpr {
  Expr *E;

public:
  TreeExpr(Expr *E) : E(E) {}
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Out = I.evalTree(F, E, L);
  }
};

/// A literal, sizeof, a target query: the same value in every lane.
class ConstExpr : public CExpr {
  Column V;
  uint64_t Bits = 0;

public:
  ConstExpr(Column C) : V(std::move(C)) {
    std::memcpy(&Bits, V.at(0), std::min<uint32_t>(V.Size, 8));
  }
  uint64_t bits(Interpreter &I, Frame &F, uint32_t Lane) override {
    return Bits;
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    uint32_t N = L.size();
    shape(Out, V.Size, N);
    for (uint32_t K = 0; K < N; ++K)
      copyBytes(Out.at(K), V.at(0), V.Size);
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    std::memcpy(Out, V.at(0), std::min(V.Size, MaxOne));
  }
};

/// Copies \p S bytes a lane from each lane's slot of a variable.
template <unsigned S>
static void gather(uint8_t *O, const uint8_t *Base, const uint32_t *L,
                   uint32_t N, uint64_t Stride) {
  for (uint32_t K = 0; K < N; ++K)
    std::memcpy(O + K * S, Base + L[K] * Stride, S);
}

/// A variable, or a field or component of one: the interpreter's own
/// storage, which no access can leave, so no checks (as in the tree walk).
/// \p S: the size when it is 4, 8 or 16 (0 otherwise), so that one lane's
/// read is a fixed-size copy.
template <unsigned S> class VarRead final : public VarReadBase {
public:
  VarRead(const VarDecl *D, uint32_t Off, uint32_t Size)
      : VarReadBase(D, Off, Size) {}
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    const uint8_t *Base = Slot.get(I, F) + Off;
    uint32_t N = L.size();
    shape(Out, Size, N);
    uint8_t *O = Out.Bytes.data();
    if (!Slot.PerLane) {
      for (uint32_t K = 0; K < N; ++K)
        copyBytes(O + K * Size, Base, Size);
      return;
    }
    const uint32_t *LP = L.data();
    switch (Size) {
    case 4:
      return gather<4>(O, Base, LP, N, VarSize);
    case 8:
      return gather<8>(O, Base, LP, N, VarSize);
    case 16:
      return gather<16>(O, Base, LP, N, VarSize);
    default:
      for (uint32_t K = 0; K < N; ++K)
        std::memcpy(O + K * Size, Base + LP[K] * (uint64_t)VarSize, Size);
    }
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    const uint8_t *P = Slot.get(I, F) + Off;
    if (Slot.PerLane)
      P += Lane * (uint64_t)VarSize;
    if constexpr (S != 0)
      std::memcpy(Out, P, S);
    else
      std::memcpy(Out, P, std::min(Size, MaxOne));
  }
  uint64_t bits(Interpreter &I, Frame &F, uint32_t Lane) override {
    uint64_t B = 0;
    if constexpr (S == 4 || S == 8)
      std::memcpy(&B, at(I, F, Lane), S);
    else
      std::memcpy(&B, at(I, F, Lane), std::min<uint32_t>(Size, 8));
    return B;
  }
};

/// Conversion between types, as Interpreter::convert.
class ConvertExpr : public CExpr {
  Operand Sub;
  BK FK, TK;
  unsigned FN, TN;
  uint32_t FS, TS, OutSize, SubSize;

public:
  ConvertExpr(CExprPtr Sub, const Type *From, const Type *To)
      : Sub(std::move(Sub)), SubSize(sizeOf(From)) {
    From = From->getUnqualified();
    To = To->getUnqualified();
    OutSize = sizeOf(To);
    bool FromPtr = llvm::isa<PointerType, NullType, ArrayType>(From);
    bool ToPtr = llvm::isa<PointerType>(To);
    if (FromPtr || ToPtr) {
      FK = FromPtr ? BK::UInt64 : scalarKind(From);
      TK = ToPtr ? BK::UInt64 : scalarKind(To);
      FN = TN = 1;
      FS = TS = OutSize;
      return;
    }
    FN = numComponents(From);
    TN = numComponents(To);
    FK = scalarKind(From);
    TK = scalarKind(To);
    FS = componentSize(From);
    TS = componentSize(To);
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column C;
    Sub.run(I, F, L, C);
    uint32_t N = L.size();
    if (OutSize != TN * TS)
      shapeZero(Out, OutSize, N);
    else
      shape(Out, OutSize, N);
    for (uint32_t K = 0; K < N; ++K)
      for (unsigned J = 0; J < TN; ++J)
        convertScalar(FK, C.at(K) + (FN == 1 ? 0 : J) * FS, TK,
                      Out.at(K) + J * TS);
  }
  uint64_t bits(Interpreter &I, Frame &F, uint32_t Lane) override {
    if (SubSize > 8 || OutSize > 8 || TN != 1 || FN != 1)
      return CExpr::bits(I, F, Lane);
    uint64_t S = Sub.bits(I, F, Lane), O = 0;
    convertScalar(FK, reinterpret_cast<uint8_t *>(&S), TK,
                  reinterpret_cast<uint8_t *>(&O));
    return O;
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    if (SubSize > MaxOne || OutSize > MaxOne)
      return CExpr::runOne(I, F, Lane, Out);
    alignas(16) uint8_t C[MaxOne];
    Sub.one(I, F, Lane, C);
    if (OutSize != TN * TS)
      std::memset(Out, 0, OutSize);
    for (unsigned J = 0; J < TN; ++J)
      convertScalar(FK, C + (FN == 1 ? 0 : J) * FS, TK, Out + J * TS);
  }
};

/// - ~ ! on every word of the value, as evalUnary.
class UnaryExpr : public CExpr {
  CExprPtr Sub;
  UnaryOperator::Opcode Code;
  BK K;
  uint32_t ES, SubSize;
  bool OneOk;

  /// Applies the operator to the \p Words words at \p Bytes.
  void apply(uint8_t *Bytes, size_t Words) {
    dispatchKind(K, [&](auto Tag) {
      using X = decltype(Tag);
      for (size_t W = 0; W < Words; ++W) {
        uint8_t *P = Bytes + W * ES;
        X A = ld<X>(P);
        if (Code == UnaryOperator::Not) {
          st<X>(P, A == X(0) ? X(1) : X(0));
        } else if constexpr (std::is_floating_point_v<X>) {
          st<X>(P, -A);
        } else {
          using UX = std::make_unsigned_t<X>;
          st<X>(P, Code == UnaryOperator::Minus ? (X)(UX(0) - (UX)A) : (X)~A);
        }
      }
    });
  }

public:
  UnaryExpr(CExprPtr Sub, UnaryOperator *U)
      : Sub(std::move(Sub)), Code(U->getOpcode()) {
    const Type *T = U->getType()->getUnqualified();
    K = scalarKind(T);
    ES = componentSize(T);
    SubSize = sizeOf(U->getSubExpr()->getType());
    OneOk = SubSize <= MaxOne && SubSize == sizeOf(T);
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Sub->run(I, F, L, Out);
    apply(Out.Bytes.data(), Out.Bytes.size() / ES);
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    if (!OneOk)
      return CExpr::runOne(I, F, Lane, Out);
    Sub->runOne(I, F, Lane, Out);
    apply(Out, SubSize / ES);
  }
};

/// A binary operator the typed nodes do not cover: Interpreter::arith.
class ArithExpr : public CExpr {
  Op O;
  CExprPtr A, B;
  const Type *AT, *BT, *ResT;
  SourceRange R;

public:
  ArithExpr(BinaryOperator *E, CExprPtr A, CExprPtr B)
      : O(E->getOpcode()), A(std::move(A)), B(std::move(B)),
        AT(E->getLHS()->getType()), BT(E->getRHS()->getType()),
        ResT(E->getType()), R(E->getRange()) {}
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column X, Y;
    A->run(I, F, L, X);
    B->run(I, F, L, Y);
    Out = I.arith(O, X, Y, AT, BT, ResT, R, F, L);
  }
};

/// Applies \p Fn to each component of each lane of \p X and \p Y.
template <typename T, typename R, typename Fn>
static void lanewise(const Column &X, const Column &Y, Column &Out,
                     unsigned NC, uint32_t ES, Fn &&F) {
  // Pointers and strides in locals: the stores could alias the columns.
  const uint8_t *PX = X.Bytes.data(), *PY = Y.Bytes.data();
  uint8_t *PO = Out.Bytes.data();
  const uint64_t SX = X.Size, SY = Y.Size, SO = Out.Size;
  const uint32_t N = Out.N;
  if (NC == 1) {
    for (uint32_t K = 0; K < N; ++K)
      st<R>(PO + K * SO, F(ld<T>(PX + K * SX), ld<T>(PY + K * SY)));
    return;
  }
  for (uint32_t K = 0; K < N; ++K)
    for (unsigned C = 0; C < NC; ++C)
      st<R>(PO + K * SO + C * ES,
            F(ld<T>(PX + K * SX + C * ES), ld<T>(PY + K * SY + C * ES)));
}

/// The operators of one scalar, as arith() computes them (integers wrap).
struct AddOp {
  template <typename T> T operator()(T A, T B) const {
    if constexpr (std::is_integral_v<T>)
      return (T)((std::make_unsigned_t<T>)A + (std::make_unsigned_t<T>)B);
    else
      return A + B;
  }
};
struct SubOp {
  template <typename T> T operator()(T A, T B) const {
    if constexpr (std::is_integral_v<T>)
      return (T)((std::make_unsigned_t<T>)A - (std::make_unsigned_t<T>)B);
    else
      return A - B;
  }
};
struct MulOp {
  template <typename T> T operator()(T A, T B) const {
    if constexpr (std::is_integral_v<T>)
      return (T)((std::make_unsigned_t<T>)A * (std::make_unsigned_t<T>)B);
    else
      return A * B;
  }
};
struct DivOp {
  template <typename T> T operator()(T A, T B) const { return A / B; }
};
/// One lane's operator on \p NC components, the padding of a 3-vector
/// (up to \p Size bytes) zeroed.
using OneFn = void (*)(const uint8_t *, const uint8_t *, uint8_t *,
                       unsigned NC, unsigned Size);
template <typename T, typename Fn>
static void oneArith(const uint8_t *X, const uint8_t *Y, uint8_t *Out,
                     unsigned NC, unsigned Size) {
  if (NC == 1)
    return st<T>(Out, Fn()(ld<T>(X), ld<T>(Y)));
  for (unsigned C = 0; C < NC; ++C)
    st<T>(Out + C * sizeof(T),
          Fn()(ld<T>(X + C * sizeof(T)), ld<T>(Y + C * sizeof(T))));
  if (Size > NC * sizeof(T))
    std::memset(Out + NC * sizeof(T), 0, Size - NC * sizeof(T));
}
template <typename T, typename Fn>
static void oneCompare(const uint8_t *X, const uint8_t *Y, uint8_t *Out,
                       unsigned, unsigned) {
  *Out = Fn()(ld<T>(X), ld<T>(Y));
}

/// The same on scalars passed as bits (CExpr::bits).
using BitsFn = uint64_t (*)(uint64_t, uint64_t);
template <typename T> static T fromBits(uint64_t B) {
  T V;
  std::memcpy(&V, &B, sizeof(T));
  return V;
}
template <typename T> static uint64_t toBits(T V) {
  uint64_t B = 0;
  std::memcpy(&B, &V, sizeof(T));
  return B;
}
template <typename T, typename Fn> static uint64_t bitsArith(uint64_t X, uint64_t Y) {
  return toBits<T>(Fn()(fromBits<T>(X), fromBits<T>(Y)));
}
template <typename T, typename Fn>
static uint64_t bitsCompare(uint64_t X, uint64_t Y) {
  return Fn()(fromBits<T>(X), fromBits<T>(Y));
}

/// The function computing \p O on scalars as bits, when it needs no check.
template <typename T> static BitsFn bitsOp(Op O) {
  switch (O) {
  case Op::Add:
    return bitsArith<T, AddOp>;
  case Op::Sub:
    return bitsArith<T, SubOp>;
  case Op::Mul:
    return bitsArith<T, MulOp>;
  case Op::Div:
    if constexpr (std::is_floating_point_v<T>)
      return bitsArith<T, DivOp>;
    return nullptr;
  case Op::LT:
    return bitsCompare<T, std::less<T>>;
  case Op::GT:
    return bitsCompare<T, std::greater<T>>;
  case Op::LE:
    return bitsCompare<T, std::less_equal<T>>;
  case Op::GE:
    return bitsCompare<T, std::greater_equal<T>>;
  case Op::EQ:
    return bitsCompare<T, std::equal_to<T>>;
  case Op::NE:
    return bitsCompare<T, std::not_equal_to<T>>;
  default:
    return nullptr;
  }
}

/// The function computing \p O on one lane's T values (a comparison: of
/// scalars), when it needs no check.
template <typename T> static OneFn scalarOp(Op O, unsigned NC) {
  switch (O) {
  case Op::Add:
    return oneArith<T, AddOp>;
  case Op::Sub:
    return oneArith<T, SubOp>;
  case Op::Mul:
    return oneArith<T, MulOp>;
  case Op::Div:
    if constexpr (std::is_floating_point_v<T>)
      return oneArith<T, DivOp>;
    return nullptr;
  default:
    break;
  }
  if (NC != 1)
    return nullptr;
  switch (O) {
  case Op::LT:
    return oneCompare<T, std::less<T>>;
  case Op::GT:
    return oneCompare<T, std::greater<T>>;
  case Op::LE:
    return oneCompare<T, std::less_equal<T>>;
  case Op::GE:
    return oneCompare<T, std::greater_equal<T>>;
  case Op::EQ:
    return oneCompare<T, std::equal_to<T>>;
  case Op::NE:
    return oneCompare<T, std::not_equal_to<T>>;
  default:
    return nullptr;
  }
}

/// An arithmetic, bitwise or comparison operator on two operands of one
/// scalar or vector type, computing in T: what arith() does for them.
template <typename T> class TypedBinExpr final : public CExpr {
  Op O;
  Operand A, B;
  const Type *AT, *BT, *ResT;
  SourceRange R;
  unsigned NC;
  uint32_t ES, Size;
  /// The operator for one lane, when it needs no check; on scalars of at
  /// most 8 bytes, as bits.
  OneFn One = nullptr;
  BitsFn Bits = nullptr;
  uint32_t OutSize = 0;

  template <typename Fn>
  void compareWith(const Column &X, const Column &Y, Column &Out, Fn &&Cmp) {
    const uint8_t *PX = X.Bytes.data(), *PY = Y.Bytes.data();
    uint8_t *PO = Out.Bytes.data();
    const uint64_t SX = X.Size, SY = Y.Size, SO = Out.Size;
    const uint32_t N = Out.N;
    if (NC == 1) {
      for (uint32_t K = 0; K < N; ++K)
        PO[K * SO] = Cmp(ld<T>(PX + K * SX), ld<T>(PY + K * SY));
      return;
    }
    for (uint32_t K = 0; K < N; ++K) {
      // Vectors compare equal when every component does.
      bool All = true, Any = false;
      for (unsigned C = 0; C < NC; ++C) {
        bool V = Cmp(ld<T>(PX + K * SX + C * ES), ld<T>(PY + K * SY + C * ES));
        All &= V;
        Any |= V;
      }
      PO[K * SO] = O == Op::NE ? Any : All;
    }
  }
  void compare(const Column &X, const Column &Y, Column &Out) {
    switch (O) {
    case Op::LT:
      return compareWith(X, Y, Out, [](T P, T Q) { return P < Q; });
    case Op::GT:
      return compareWith(X, Y, Out, [](T P, T Q) { return P > Q; });
    case Op::LE:
      return compareWith(X, Y, Out, [](T P, T Q) { return P <= Q; });
    case Op::GE:
      return compareWith(X, Y, Out, [](T P, T Q) { return P >= Q; });
    case Op::EQ:
      return compareWith(X, Y, Out, [](T P, T Q) { return P == Q; });
    default:
      return compareWith(X, Y, Out, [](T P, T Q) { return P != Q; });
    }
  }

public:
  TypedBinExpr(BinaryOperator *E, CExprPtr A, CExprPtr B)
      : O(E->getOpcode()), A(std::move(A)), B(std::move(B)),
        AT(E->getLHS()->getType()), BT(E->getRHS()->getType()),
        ResT(E->getType()), R(E->getRange()) {
    const Type *VT = AT->getUnqualified();
    NC = numComponents(VT);
    ES = componentSize(VT);
    Size = sizeOf(VT);
    bool Cmp = O >= Op::LT && O <= Op::NE;
    if (ES == sizeof(T) && Size <= MaxOne && (!Cmp || sizeOf(ResT) == 1))
      One = scalarOp<T>(O, NC);
    if (NC == 1 && Size == sizeof(T) && Size <= 8 &&
        (!Cmp || sizeOf(ResT) == 1))
      Bits = bitsOp<T>(O);
    OutSize = Cmp ? 1 : Size;
  }

  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column X, Y;
    A.run(I, F, L, X);
    B.run(I, F, L, Y);
    uint32_t N = L.size();
    if (O >= Op::LT && O <= Op::NE) {
      uint32_t RS = sizeOf(ResT);
      if (RS == 1)
        shape(Out, 1, N);
      else
        shapeZero(Out, RS, N);
      compare(X, Y, Out);
      return;
    }
    if (Size != NC * ES)
      shapeZero(Out, Size, N);
    else
      shape(Out, Size, N);
    if constexpr (std::is_floating_point_v<T>) {
      switch (O) {
      case Op::Add:
        return lanewise<T, T>(X, Y, Out, NC, ES, [](T P, T Q) { return P + Q; });
      case Op::Sub:
        return lanewise<T, T>(X, Y, Out, NC, ES, [](T P, T Q) { return P - Q; });
      case Op::Mul:
        return lanewise<T, T>(X, Y, Out, NC, ES, [](T P, T Q) { return P * Q; });
      default:
        return lanewise<T, T>(X, Y, Out, NC, ES, [](T P, T Q) { return P / Q; });
      }
    } else {
      using U = std::make_unsigned_t<T>;
      switch (O) {
      case Op::Add:
        return lanewise<T, T>(X, Y, Out, NC, ES,
                              [](T P, T Q) { return (T)((U)P + (U)Q); });
      case Op::Sub:
        return lanewise<T, T>(X, Y, Out, NC, ES,
                              [](T P, T Q) { return (T)((U)P - (U)Q); });
      case Op::Mul:
        return lanewise<T, T>(X, Y, Out, NC, ES,
                              [](T P, T Q) { return (T)((U)P * (U)Q); });
      case Op::And:
        return lanewise<T, T>(X, Y, Out, NC, ES,
                              [](T P, T Q) { return (T)(P & Q); });
      case Op::Or:
        return lanewise<T, T>(X, Y, Out, NC, ES,
                              [](T P, T Q) { return (T)(P | Q); });
      case Op::Xor:
        return lanewise<T, T>(X, Y, Out, NC, ES,
                              [](T P, T Q) { return (T)(P ^ Q); });
      default:
        break;
      }
      // Division: a zero divisor or INT_MIN / -1 is reported by arith(),
      // for the first lane that has one, in its words.
      bool Bad = false;
      bool Div = O == Op::Div;
      lanewise<T, T>(X, Y, Out, NC, ES, [&](T P, T Q) -> T {
        if (Q == 0) {
          Bad = true;
          return 0;
        }
        if constexpr (std::is_signed_v<T>)
          if (Q == (T)-1 && P == std::numeric_limits<T>::min()) {
            Bad = true;
            return 0;
          }
        return Div ? P / Q : P % Q;
      });
      if (Bad)
        Out = I.arith(O, X, Y, AT, BT, ResT, R, F, L);
    }
  }

  uint64_t bits(Interpreter &I, Frame &F, uint32_t Lane) override {
    if (!Bits)
      return CExpr::bits(I, F, Lane);
    uint64_t X = A.bits(I, F, Lane);
    return Bits(X, B.bits(I, F, Lane));
  }

  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    if (Bits) {
      uint64_t V = bits(I, F, Lane);
      copyBytes(Out, reinterpret_cast<uint8_t *>(&V), OutSize);
      return;
    }
    alignas(16) uint8_t X[MaxOne], Y[MaxOne];
    A.one(I, F, Lane, X);
    B.one(I, F, Lane, Y);
    if (One)
      return One(X, Y, Out, NC, Size);
    if (O >= Op::LT && O <= Op::NE) {
      uint32_t RS = sizeOf(ResT);
      if (RS != 1)
        std::memset(Out, 0, std::min(RS, MaxOne));
      bool All = true, Any = false;
      for (unsigned C = 0; C < NC; ++C) {
        bool V = compareOne(ld<T>(X + C * ES), ld<T>(Y + C * ES));
        All &= V;
        Any |= V;
      }
      Out[0] = O == Op::NE ? Any : All;
      return;
    }
    if (Size != NC * ES)
      std::memset(Out, 0, Size);
    bool Bad = false;
    for (unsigned C = 0; C < NC; ++C)
      st<T>(Out + C * ES, arithOne(ld<T>(X + C * ES), ld<T>(Y + C * ES), Bad));
    if (Bad) {
      // The tree walk's report, for this lane.
      Lanes One{Lane};
      Column CX(Size, 1), CY(Size, 1);
      std::memcpy(CX.at(0), X, Size);
      std::memcpy(CY.at(0), Y, Size);
      (void)I.arith(O, CX, CY, AT, BT, ResT, R, F, One);
    }
  }

private:
  bool compareOne(T P, T Q) const {
    switch (O) {
    case Op::LT:
      return P < Q;
    case Op::GT:
      return P > Q;
    case Op::LE:
      return P <= Q;
    case Op::GE:
      return P >= Q;
    case Op::EQ:
      return P == Q;
    default:
      return P != Q;
    }
  }
  /// What the lanewise loops compute, for one value; \p Bad when arith()
  /// reports the division.
  T arithOne(T P, T Q, bool &Bad) const {
    if constexpr (std::is_floating_point_v<T>) {
      switch (O) {
      case Op::Add:
        return P + Q;
      case Op::Sub:
        return P - Q;
      case Op::Mul:
        return P * Q;
      default:
        return P / Q;
      }
    } else {
      using U = std::make_unsigned_t<T>;
      switch (O) {
      case Op::Add:
        return (T)((U)P + (U)Q);
      case Op::Sub:
        return (T)((U)P - (U)Q);
      case Op::Mul:
        return (T)((U)P * (U)Q);
      case Op::And:
        return P & Q;
      case Op::Or:
        return P | Q;
      case Op::Xor:
        return P ^ Q;
      default:
        break;
      }
      if (Q == 0) {
        Bad = true;
        return 0;
      }
      if constexpr (std::is_signed_v<T>)
        if (Q == (T)-1 && P == std::numeric_limits<T>::min()) {
          Bad = true;
          return 0;
        }
      return O == Op::Div ? P / Q : P % Q;
    }
  }
};

template <typename T>
static CExprPtr typedBin(BinaryOperator *E, CExprPtr &A, CExprPtr &B) {
  Op O = E->getOpcode();
  bool Cmp = O >= Op::LT && O <= Op::NE;
  bool Ok;
  if constexpr (std::is_same_v<T, uint8_t>)
    Ok = false; // bool: & | ^ only, left to arith().
  else if constexpr (std::is_floating_point_v<T>)
    Ok = Cmp || O == Op::Add || O == Op::Sub || O == Op::Mul || O == Op::Div;
  else
    Ok = Cmp || O == Op::Add || O == Op::Sub || O == Op::Mul ||
         O == Op::Div || O == Op::Rem || O == Op::And || O == Op::Or ||
         O == Op::Xor;
  if (!Ok)
    return nullptr;
  return std::make_unique<TypedBinExpr<T>>(E, std::move(A), std::move(B));
}

CExprPtr compileBinaryOp(Interpreter &I, BinaryOperator *E) {
  CExprPtr A = compileExpr(I, E->getLHS()), B = compileExpr(I, E->getRHS());
  const Type *AT = E->getLHS()->getType()->getUnqualified();
  const Type *BT = E->getRHS()->getType()->getUnqualified();
  CExprPtr R;
  if (AT == BT && llvm::isa<BuiltinType, VectorType>(AT))
    dispatchKind(scalarKind(AT),
                 [&](auto Tag) { R = typedBin<decltype(Tag)>(E, A, B); });
  if (!R)
    R = std::make_unique<ArithExpr>(E, std::move(A), std::move(B));
  return R;
}

/// Splits \p L by the bool column \p C, as the tree walk does.
void splitByColumn(const Column &C, const Lanes &L, Lanes &TL,
                   llvm::SmallVectorImpl<uint32_t> &TP, Lanes &FL,
                   llvm::SmallVectorImpl<uint32_t> &FP) {
  for (uint32_t K = 0; K < L.size(); ++K) {
    if (C.Bytes[K]) {
      TL.push_back(L[K]);
      TP.push_back(K);
    } else {
      FL.push_back(L[K]);
      FP.push_back(K);
    }
  }
}

class CondExpr : public CExpr {
  CExprPtr C, T, X;
  uint32_t Size;
  bool OneOk;

public:
  CondExpr(ConditionalOperator *E, Interpreter &I)
      : C(compileExpr(I, E->getCond())), T(compileExpr(I, E->getTrueExpr())),
        X(compileExpr(I, E->getFalseExpr())), Size(sizeOf(E->getType())) {
    OneOk = Size <= MaxOne && sizeOf(E->getCond()->getType()) <= MaxOne &&
            sizeOf(E->getTrueExpr()->getType()) == Size &&
            sizeOf(E->getFalseExpr()->getType()) == Size;
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    if (!OneOk)
      return CExpr::runOne(I, F, Lane, Out);
    alignas(16) uint8_t V[MaxOne];
    C->runOne(I, F, Lane, V);
    (V[0] ? T : X)->runOne(I, F, Lane, Out);
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column V;
    C->run(I, F, L, V);
    Lanes TL, FL;
    llvm::SmallVector<uint32_t, 4> TP, FP;
    splitByColumn(V, L, TL, TP, FL, FP);
    shapeZero(Out, Size, L.size());
    if (!TL.empty()) {
      Column R;
      T->run(I, F, TL, R);
      for (uint32_t K = 0; K < TP.size(); ++K)
        std::memcpy(Out.at(TP[K]), R.at(K), Size);
    }
    if (!FL.empty()) {
      Column R;
      X->run(I, F, FL, R);
      for (uint32_t K = 0; K < FP.size(); ++K)
        std::memcpy(Out.at(FP[K]), R.at(K), Size);
    }
  }
};

/// && and ||: the right side runs for the lanes the left does not decide.
class LogicalExpr : public CExpr {
  CExprPtr A, B;
  bool IsAnd, OneOk;

public:
  LogicalExpr(BinaryOperator *E, Interpreter &I)
      : A(compileExpr(I, E->getLHS())), B(compileExpr(I, E->getRHS())),
        IsAnd(E->getOpcode() == Op::LAnd) {
    OneOk = sizeOf(E->getLHS()->getType()) <= MaxOne &&
            sizeOf(E->getRHS()->getType()) <= MaxOne;
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    if (!OneOk)
      return CExpr::runOne(I, F, Lane, Out);
    alignas(16) uint8_t V[MaxOne];
    A->runOne(I, F, Lane, V);
    bool X = V[0] != 0;
    if (X == IsAnd) {
      B->runOne(I, F, Lane, V);
      X = V[0] != 0;
    }
    Out[0] = X;
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column V;
    A->run(I, F, L, V);
    uint32_t N = L.size();
    shapeZero(Out, 1, N);
    Lanes Rest;
    llvm::SmallVector<uint32_t, 4> Pos;
    for (uint32_t K = 0; K < N; ++K) {
      bool X = V.Bytes[K] != 0;
      if (X == IsAnd) {
        Rest.push_back(L[K]);
        Pos.push_back(K);
      } else {
        Out.Bytes[K] = X;
      }
    }
    if (Rest.empty())
      return;
    Column C;
    B->run(I, F, Rest, C);
    for (uint32_t K = 0; K < Pos.size(); ++K)
      Out.Bytes[Pos[K]] = C.Bytes[K] != 0;
  }
};

class CommaExpr : public CExpr {
  CExprPtr A, B;

public:
  CommaExpr(CExprPtr A, CExprPtr B) : A(std::move(A)), B(std::move(B)) {}
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column Ignored;
    A->run(I, F, L, Ignored);
    B->run(I, F, L, Out);
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    // The left side's value may not fit a buffer: its columns.
    Lanes One{Lane};
    Column Ignored;
    A->run(I, F, One, Ignored);
    B->runOne(I, F, Lane, Out);
  }
};

/// Evaluates \p Sub, then gives \p Size zero bytes a lane (a cast to void,
/// a null pointer).
class DiscardExpr : public CExpr {
  CExprPtr Sub;
  uint32_t Size;

public:
  DiscardExpr(CExprPtr Sub, uint32_t Size) : Sub(std::move(Sub)), Size(Size) {}
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column Ignored;
    Sub->run(I, F, L, Ignored);
    shapeZero(Out, Size, L.size());
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    Lanes One{Lane};
    Column Ignored;
    Sub->run(I, F, One, Ignored);
    std::memset(Out, 0, Size);
  }
};

/// Member of an rvalue, or a swizzle, as evalMemberRValue.
class MemberValue : public CExpr {
  CExprPtr Base;
  uint32_t Size, Off = 0, ES = 0;
  llvm::SmallVector<unsigned, 4> Comps;
  bool Field;

public:
  MemberValue(Interpreter &I, MemberExpr *M)
      : Base(compileExpr(I, M->getBase())), Size(sizeOf(M->getType())),
        Field(M->getField() != nullptr) {
    const Type *BT = M->getBase()->getType()->getUnqualified();
    if (Field) {
      Off = fieldOffset(llvm::cast<StructType>(BT), M->getField()->getIndex());
    } else {
      ES = componentSize(BT);
      Comps.assign(M->getComponents().begin(), M->getComponents().end());
    }
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column B;
    Base->run(I, F, L, B);
    uint32_t N = L.size();
    shapeZero(Out, Size, N);
    for (uint32_t K = 0; K < N; ++K) {
      if (Field) {
        std::memcpy(Out.at(K), B.at(K) + Off, Size);
        continue;
      }
      for (unsigned J = 0; J < Comps.size(); ++J)
        std::memcpy(Out.at(K) + J * ES, B.at(K) + Comps[J] * ES, ES);
    }
  }
};

} // namespace

CExprPtr interp::treeExpr(Expr *E) { return std::make_unique<TreeExpr>(E); }

CExprPtr interp::varRead(const VarDecl *D) {
  return varFieldRead(D, 0, sizeOf(D->getType()));
}

CExprPtr interp::varFieldRead(const VarDecl *D, uint32_t Off, uint32_t Size) {
  switch (Size) {
  case 4:
    return std::make_unique<VarRead<4>>(D, Off, Size);
  case 8:
    return std::make_unique<VarRead<8>>(D, Off, Size);
  case 16:
    return std::make_unique<VarRead<16>>(D, Off, Size);
  default:
    return std::make_unique<VarRead<0>>(D, Off, Size);
  }
}

static CExprPtr convertTo(Interpreter &I, Expr *Sub, const Type *To) {
  CExprPtr C = compileExpr(I, Sub);
  if (Sub->getType()->getUnqualified() == To->getUnqualified())
    return C;
  return std::make_unique<ConvertExpr>(std::move(C), Sub->getType(), To);
}

static CExprPtr compileCast(Interpreter &I, Expr *E) {
  if (auto *C = llvm::dyn_cast<CastExpr>(E)) {
    if (C->getWrittenType()->getUnqualified()->isVoid())
      return std::make_unique<DiscardExpr>(compileExpr(I, C->getSubExpr()), 0);
    return convertTo(I, C->getSubExpr(), C->getWrittenType());
  }
  auto *C = llvm::cast<ImplicitCastExpr>(E);
  if (C->getCastKind() == ImplicitCastExpr::ArrayToPointer)
    return compileAddress(I, C->getSubExpr());
  if (C->getCastKind() == ImplicitCastExpr::NullToPointer)
    return std::make_unique<DiscardExpr>(compileExpr(I, C->getSubExpr()), 8);
  return convertTo(I, C->getSubExpr(), E->getType());
}

static CExprPtr compileUnary(Interpreter &I, UnaryOperator *U) {
  switch (U->getOpcode()) {
  case UnaryOperator::Plus:
    return compileExpr(I, U->getSubExpr());
  case UnaryOperator::Minus:
  case UnaryOperator::BitNot:
  case UnaryOperator::Not:
    return std::make_unique<UnaryExpr>(compileExpr(I, U->getSubExpr()), U);
  case UnaryOperator::Deref:
    return compileLoad(I, U);
  case UnaryOperator::AddrOf:
    return compileAddress(I, U->getSubExpr());
  default:
    return compileIncDec(I, U);
  }
}

CExprPtr interp::compileExpr(Interpreter &I, Expr *E) {
  // What may reassign ranks needs the tree walk's bookkeeping of live
  // lane lists.
  if (I.mayRemap(E))
    return treeExpr(E);
  switch (E->getKind()) {
  case Stmt::SK_IntegerLiteral:
  case Stmt::SK_FloatingLiteral:
  case Stmt::SK_BoolLiteral:
  case Stmt::SK_CharLiteral:
  case Stmt::SK_NullLiteral:
  case Stmt::SK_Sizeof:
  case Stmt::SK_TargetQuery: {
    // Constants: the tree walk's value, for one lane.
    Lanes One{0};
    return std::make_unique<ConstExpr>(I.evalTree(I.Globals, E, One));
  }
  case Stmt::SK_Paren:
    return compileExpr(I, llvm::cast<ParenExpr>(E)->getSubExpr());
  case Stmt::SK_Unary:
    return compileUnary(I, llvm::cast<UnaryOperator>(E));
  case Stmt::SK_Binary: {
    auto *B = llvm::cast<BinaryOperator>(E);
    Op O = B->getOpcode();
    if (O == Op::Comma)
      return std::make_unique<CommaExpr>(compileExpr(I, B->getLHS()),
                                         compileExpr(I, B->getRHS()));
    if (O == Op::LAnd || O == Op::LOr)
      return std::make_unique<LogicalExpr>(B, I);
    if (O == Op::Assign || B->isCompoundAssignmentOp())
      return compileAssign(I, B);
    return compileBinaryOp(I, B);
  }
  case Stmt::SK_Conditional:
    return std::make_unique<CondExpr>(llvm::cast<ConditionalOperator>(E), I);
  case Stmt::SK_DeclRef:
  case Stmt::SK_Index:
    return compileLoad(I, E);
  case Stmt::SK_Member:
    if (E->isLValue() && llvm::cast<MemberExpr>(E)->getComponents().size() <= 1)
      return compileLoad(I, E);
    return std::make_unique<MemberValue>(I, llvm::cast<MemberExpr>(E));
  case Stmt::SK_Cast:
  case Stmt::SK_ImplicitCast:
    return compileCast(I, E);
  default:
    return treeExpr(E);
  }
}
