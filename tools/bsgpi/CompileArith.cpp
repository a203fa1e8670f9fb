//===- CompileArith.cpp - compiled arithmetic and comparison operators ----===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A binary operator on two operands of one scalar or vector type computes
// in the C++ type of its scalars, picked when the node is made: for a
// column, a loop per operator; for one lane, a function chosen once (on
// bits for scalars). As in the tree walk (Operators.cpp), unsigned
// integers wrap and signed ones are checked for overflow; a result that C
// leaves undefined (signed overflow, a division by zero), and every
// operator these nodes do not cover, goes to Interpreter::arith, which
// computes or reports it.
//
//===----------------------------------------------------------------------===//

#include "Compile.h"

#include <functional>
#include <type_traits>

using namespace bsgp;
using namespace bsgp::interp;
using Op = BinaryOperator::Opcode;

namespace {

/// A binary operator the typed nodes do not cover: Interpreter::arith.
class ArithExpr : public CExpr {
  Op O;
  CExprPtr A, B;
  const Type *AT, *BT, *ResT;
  SourceRange R;
  bool Wraps;

public:
  ArithExpr(BinaryOperator *E, CExprPtr A, CExprPtr B)
      : O(E->getOpcode()), A(std::move(A)), B(std::move(B)),
        AT(E->getLHS()->getType()), BT(E->getRHS()->getType()),
        ResT(E->getType()), R(E->getRange()), Wraps(E->wrapsOnOverflow()) {}
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column X, Y;
    A->run(I, F, L, X);
    B->run(I, F, L, Y);
    Out = I.arith(O, X, Y, AT, BT, ResT, R, F, L, Wraps);
  }
};

/// Applies \p Fn to each component of each lane of \p X and \p Y.
template <typename T, typename R, typename Fn>
static void lanewise(const Column &X, const Column &Y, Column &Out, unsigned NC,
                     uint32_t ES, Fn &&F) {
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
using OneFn = void (*)(const uint8_t *, const uint8_t *, uint8_t *, unsigned NC,
                       unsigned Size);
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
template <typename T, typename Fn>
static uint64_t bitsArith(uint64_t X, uint64_t Y) {
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
  /// + - * on a signed type, whose overflow is reported (not an operator
  /// parameter's application, which wraps).
  bool Checked;
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
    Checked = std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) >= 4 &&
              (O == Op::Add || O == Op::Sub || O == Op::Mul) &&
              !E->wrapsOnOverflow();
    if (ES == sizeof(T) && Size <= MaxOne && (!Cmp || sizeOf(ResT) == 1) &&
        !Checked)
      One = scalarOp<T>(O, NC);
    if (NC == 1 && Size == sizeof(T) && Size <= 8 &&
        (!Cmp || sizeOf(ResT) == 1) && !Checked)
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
        return lanewise<T, T>(X, Y, Out, NC, ES,
                              [](T P, T Q) { return P + Q; });
      case Op::Sub:
        return lanewise<T, T>(X, Y, Out, NC, ES,
                              [](T P, T Q) { return P - Q; });
      case Op::Mul:
        return lanewise<T, T>(X, Y, Out, NC, ES,
                              [](T P, T Q) { return P * Q; });
      default:
        return lanewise<T, T>(X, Y, Out, NC, ES,
                              [](T P, T Q) { return P / Q; });
      }
    } else {
      using U = std::make_unsigned_t<T>;
      if (Checked) {
        // The first lane that overflows is reported by arith().
        bool Overflow = false;
        lanewise<T, T>(X, Y, Out, NC, ES,
                       [&](T P, T Q) { return cArith(O, P, Q, Overflow); });
        if (Overflow)
          Out = I.arith(O, X, Y, AT, BT, ResT, R, F, L);
        return;
      }
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
      if (Checked)
        return cArith(O, P, Q, Bad);
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
    Ok = Cmp || O == Op::Add || O == Op::Sub || O == Op::Mul || O == Op::Div ||
         O == Op::Rem || O == Op::And || O == Op::Or || O == Op::Xor;
  if (!Ok)
    return nullptr;
  return std::make_unique<TypedBinExpr<T>>(E, std::move(A), std::move(B));
}

} // namespace

CExprPtr interp::compileBinaryOp(Interpreter &I, BinaryOperator *E) {
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
