//===- Operators.cpp - C operators and atomics with C semantics -----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Integer arithmetic computes in the operand type; float arithmetic is
// done in float. Signed overflow of + - * and negation (bsgpc marks them
// nsw), division by zero, INT_MIN / -1 and shifts by the width or more are
// undefined in C and reported. Unsigned arithmetic wraps, and so does an
// operator parameter's application (the collectives' combination).
//
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include "bsgp/AST/AST.h"

#include <cmath>
#include <type_traits>

using namespace bsgp;
using namespace bsgp::interp;
using BK = BuiltinType::BuiltinKind;
using Op = BinaryOperator::Opcode;

/// One arithmetic or bitwise operation on scalars of type T.
/// Who did it, for reports: " by rank 3" in a spawn.
struct Who {
  Interpreter *I = nullptr;
  Frame *F = nullptr;
  Lanes *L = nullptr;
  uint32_t K = 0;
  std::string str() const {
    if (!I || !F->Device)
      return "";
    return " by rank " + std::to_string(I->rankOf(*F, (*L)[K]));
  }
};

template <typename T>
static T apply(Interpreter &I, Op O, T A, T B, SourceRange R, const Who &W,
               const Type *Ty, bool Wraps) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (O) {
    case Op::Add:
      return A + B;
    case Op::Sub:
      return A - B;
    case Op::Mul:
      return A * B;
    case Op::Div:
      return A / B;
    default:
      break;
    }
    I.fatal(R, "bsgpi: bad floating-point operator");
  } else {
    switch (O) {
    case Op::Add:
    case Op::Sub:
    case Op::Mul: {
      bool Overflow = false;
      T V = cArith(O, A, B, Overflow);
      if (Overflow && !Wraps)
        I.signedOverflow(R, O, A, B, Ty, *W.F, (*W.L)[W.K]);
      return V;
    }
    case Op::And:
      return A & B;
    case Op::Or:
      return A | B;
    case Op::Xor:
      return A ^ B;
    case Op::Div:
    case Op::Rem:
      if (B == 0)
        I.fatal(R, "integer division by zero" + W.str());
      if constexpr (std::is_signed_v<T>)
        if (B == (T)-1 && A == std::numeric_limits<T>::min())
          I.fatal(R, "integer overflow in division" + W.str());
      return O == Op::Div ? A / B : A % B;
    default:
      break;
    }
    I.fatal(R, "bsgpi: bad integer operator");
  }
}

template <typename T> static bool compare(Op O, T A, T B) {
  switch (O) {
  case Op::LT:
    return A < B;
  case Op::GT:
    return A > B;
  case Op::LE:
    return A <= B;
  case Op::GE:
    return A >= B;
  case Op::EQ:
    return A == B;
  default:
    return A != B;
  }
}

static bool isComparison(Op O) { return O >= Op::LT && O <= Op::NE; }

Column Interpreter::arith(Op O, const Column &A, const Column &B,
                          const Type *AT, const Type *BT, const Type *ResT,
                          SourceRange R, Frame &F, Lanes &L, bool Wraps) {
  AT = AT->getUnqualified();
  BT = BT->getUnqualified();
  uint32_t N = A.N;
  bool APtr = llvm::isa<PointerType, NullType>(AT);
  bool BPtr = llvm::isa<PointerType, NullType>(BT);
  if (APtr || BPtr) {
    Column Res(sizeOf(ResT), N);
    auto ElemSize = [](const Type *P) -> int64_t {
      auto *PT = llvm::dyn_cast<PointerType>(P);
      if (!PT || PT->getPointee()->getUnqualified()->isVoid())
        return 1;
      return sizeOf(PT->getPointee());
    };
    for (uint32_t K = 0; K < N; ++K) {
      uint64_t X = APtr ? A.get<uint64_t>(K) : 0,
               Y = BPtr ? B.get<uint64_t>(K) : 0;
      if (isComparison(O)) {
        Res.Bytes[K] = compare(O, X, Y);
      } else if (APtr && BPtr) { // p - q
        int64_t D = (int64_t)(X - Y) / ElemSize(AT);
        convertScalar(BK::Int64, reinterpret_cast<uint8_t *>(&D),
                      scalarKind(ResT), Res.at(K));
      } else {
        int64_t I = APtr ? scalarToInt(scalarKind(BT), B.at(K))
                         : scalarToInt(scalarKind(AT), A.at(K));
        uint64_t P = APtr ? X : Y;
        int64_t S = ElemSize(APtr ? AT : BT);
        Res.set<uint64_t>(K, O == Op::Sub ? P - I * S : P + I * S);
      }
    }
    return Res;
  }
  if (O == Op::Shl || O == Op::Shr) {
    BK K0 = scalarKind(AT), K1 = scalarKind(BT);
    unsigned NC = numComponents(AT), BC = numComponents(BT);
    uint32_t ES = componentSize(AT), BS = componentSize(BT);
    Column Res(sizeOf(AT), N);
    dispatchKind(K0, [&](auto Tag) {
      using T = decltype(Tag);
      if constexpr (std::is_integral_v<T>) {
        for (uint32_t K = 0; K < N; ++K)
          for (unsigned C = 0; C < NC; ++C) {
            T X = ld<T>(A.at(K) + C * ES);
            int64_t S = scalarToInt(K1, B.at(K) + (BC == 1 ? 0 : C) * BS);
            if (S < 0 || S >= (int64_t)(sizeof(T) * 8))
              fatal(R, "shift by " + llvm::Twine(S) + " is out of range for " +
                           AT->str() + Who{this, &F, &L, K}.str());
            using U = std::make_unsigned_t<T>;
            T V = O == Op::Shl ? (T)((U)X << S) : (T)(X >> S);
            st<T>(Res.at(K) + C * ES, V);
          }
      }
    });
    return Res;
  }
  BK EK = scalarKind(AT);
  unsigned NC = numComponents(AT);
  uint32_t ES = componentSize(AT);
  bool Cmp = isComparison(O);
  Column Res(Cmp ? sizeOf(ResT) : sizeOf(AT), N);
  dispatchKind(EK, [&](auto Tag) {
    using T = decltype(Tag);
    for (uint32_t K = 0; K < N; ++K) {
      if (Cmp) {
        // Vectors compare equal when every component does.
        bool All = true, Any = false;
        for (unsigned C = 0; C < NC; ++C) {
          bool V = compare(O, ld<T>(A.at(K) + C * ES), ld<T>(B.at(K) + C * ES));
          All &= V;
          Any |= V;
        }
        Res.Bytes[K] = O == Op::NE ? Any : All;
        continue;
      }
      for (unsigned C = 0; C < NC; ++C) {
        if constexpr (std::is_same_v<T, uint8_t>) {
          // bool operands only reach & | ^ (Sema promotes the rest).
          uint8_t X = ld<uint8_t>(A.at(K) + C), Y = ld<uint8_t>(B.at(K) + C);
          st<uint8_t>(Res.at(K) + C, O == Op::And  ? X & Y
                                     : O == Op::Or ? X | Y
                                                   : X ^ Y);
        } else {
          T V = apply<T>(*this, O, ld<T>(A.at(K) + C * ES),
                         ld<T>(B.at(K) + C * ES), R, Who{this, &F, &L, K}, AT,
                         Wraps);
          st<T>(Res.at(K) + C * ES, V);
        }
      }
    }
  });
  return Res;
}

static Column evalLogical(Interpreter &I, Frame &F, BinaryOperator *B,
                          Lanes &L) {
  bool IsAnd = B->getOpcode() == Op::LAnd;
  Column A = I.eval(F, B->getLHS(), L);
  Column Res(1, L.size());
  Lanes Rest;
  llvm::SmallVector<uint32_t, 4> Pos;
  for (uint32_t K = 0; K < L.size(); ++K) {
    bool V = A.Bytes[K] != 0;
    if (V == IsAnd) {
      Rest.push_back(L[K]);
      Pos.push_back(K);
    } else {
      Res.Bytes[K] = V;
    }
  }
  if (!Rest.empty()) {
    Column C = I.eval(F, B->getRHS(), Rest);
    for (uint32_t K = 0; K < Pos.size(); ++K)
      Res.Bytes[Pos[K]] = C.Bytes[K] != 0;
  }
  return Res;
}

Column Interpreter::evalBinary(Frame &F, BinaryOperator *B, Lanes &L) {
  Op O = B->getOpcode();
  if (O == Op::Comma) {
    (void)eval(F, B->getLHS(), L);
    return eval(F, B->getRHS(), L);
  }
  if (O == Op::LAnd || O == Op::LOr)
    return evalLogical(*this, F, B, L);
  Expr *LHS = B->getLHS(), *RHS = B->getRHS();
  if (O == Op::Assign) {
    // The right side first: it may fork or kill threads, which moves the
    // lanes the left side's address is computed for.
    Column V = eval(F, RHS, L);
    Expr *Target = LHS;
    while (auto *P = llvm::dyn_cast<ParenExpr>(Target))
      Target = P->getSubExpr();
    if (auto *TA = llvm::dyn_cast<ThreadAttrExpr>(Target)) {
      if (TA->getAttr() != ThreadAttrExpr::OldRank)
        fatal(B->getRange(), "bsgpi does not support assigning thread.size "
                             "(the collective library's idiom)");
      // `thread.oldrank = r` after barrier(RANK_REASSIGNED): the thread now
      // at rank i continues the one that had rank r before.
      std::vector<uint32_t> Src(Spawn->N);
      for (uint32_t K = 0; K < L.size(); ++K) {
        int32_t R = V.get<int32_t>(K);
        if (R < 0 || (uint32_t)R >= Spawn->N)
          fatal(B->getRange(), "thread.oldrank " + llvm::Twine(R) +
                                   " is outside the spawn of " +
                                   llvm::Twine(Spawn->N) + " threads");
        Src[rankOf(F, L[K])] = R;
      }
      remap(Src);
      return V;
    }
    if (auto *DR = llvm::dyn_cast<DeclRefExpr>(Target)) {
      // A variable: the interpreter's own storage, no checks needed.
      auto *D = llvm::dyn_cast<VarDecl>(DR->getDecl());
      if (D && !D->isGroupLocal()) {
        bool PerLane = false;
        uint8_t *Base = varBase(F, D, PerLane);
        uint64_t Size = sizeOf(D->getType());
        for (uint32_t K = 0; K < L.size(); ++K)
          std::memcpy(Base + (PerLane ? L[K] : 0) * Size, V.at(K), Size);
        return V;
      }
    }
    Column A = address(F, LHS, L);
    store(F, A, V, LHS->getType(), L, B->getRange());
    return V;
  }
  if (B->isCompoundAssignmentOp()) {
    Column V = eval(F, RHS, L);
    Column A = address(F, LHS, L);
    const Type *LT = LHS->getType()->getUnqualified();
    Column Old = load(F, A, LT, L, B->getRange());
    Op Base = BinaryOperator::getBaseOp(O);
    Column Res;
    if (llvm::isa<PointerType>(LT)) {
      Res = arith(Base, Old, V, LT, RHS->getType(), LT, B->getRange(), F, L);
    } else {
      const Type *CT = B->getComputationType() ? B->getComputationType() : LT;
      Column OC = convert(Old, LT, CT);
      const Type *RT =
          (Base == Op::Shl || Base == Op::Shr) ? RHS->getType() : CT;
      Res =
          convert(arith(Base, OC, V, CT, RT, CT, B->getRange(), F, L), CT, LT);
    }
    store(F, A, Res, LT, L, B->getRange());
    return Res;
  }
  Column A, C;
  if (F.Device && mayRemap(RHS) && !mayRemap(LHS)) {
    C = eval(F, RHS, L);
    A = eval(F, LHS, L);
  } else {
    A = eval(F, LHS, L);
    C = eval(F, RHS, L);
  }
  return arith(O, A, C, LHS->getType(), RHS->getType(), B->getType(),
               B->getRange(), F, L, B->wrapsOnOverflow());
}

Column Interpreter::evalUnary(Frame &F, UnaryOperator *U, Lanes &L) {
  Expr *S = U->getSubExpr();
  const Type *T = U->getType()->getUnqualified();
  switch (U->getOpcode()) {
  case UnaryOperator::Plus:
    return eval(F, S, L);
  case UnaryOperator::Minus:
  case UnaryOperator::BitNot:
  case UnaryOperator::Not: {
    Column V = eval(F, S, L);
    BK K = scalarKind(T);
    uint32_t ES = componentSize(T);
    auto Code = U->getOpcode();
    uint32_t Words = V.N ? V.Size / ES : 0;
    dispatchKind(K, [&](auto Tag) {
      using X = decltype(Tag);
      // Every word, the padding of 3-vectors too (it holds no value).
      for (size_t I = 0; I < V.Bytes.size() / ES; ++I) {
        uint8_t *P = V.Bytes.data() + I * ES;
        X A = ld<X>(P);
        if (Code == UnaryOperator::Not) {
          st<X>(P, A == X(0) ? X(1) : X(0));
        } else if constexpr (std::is_floating_point_v<X>) {
          st<X>(P, -A);
        } else {
          if constexpr (std::is_signed_v<X> && sizeof(X) >= 4)
            if (Code == UnaryOperator::Minus && !U->wrapsOnOverflow() &&
                A == std::numeric_limits<X>::min())
              signedNegationOverflow(U->getRange(), A, T, F, L[I / Words]);
          using UX = std::make_unsigned_t<X>;
          st<X>(P, Code == UnaryOperator::Minus ? (X)(UX(0) - (UX)A) : (X)~A);
        }
      }
    });
    return V;
  }
  case UnaryOperator::Deref:
    return load(F, address(F, U, L), T, L, U->getRange());
  case UnaryOperator::AddrOf:
    return address(F, S, L);
  default:
    break;
  }
  // ++ and --.
  bool Inc = U->getOpcode() == UnaryOperator::PreInc ||
             U->getOpcode() == UnaryOperator::PostInc;
  bool Pre = U->getOpcode() == UnaryOperator::PreInc ||
             U->getOpcode() == UnaryOperator::PreDec;
  const Type *ST = S->getType()->getUnqualified();
  Column A = address(F, S, L);
  Column Old = load(F, A, ST, L, U->getRange());
  Column New;
  const BuiltinType *IntT = Ctx.getIntType();
  int32_t One = 1;
  Column OneC = splat(reinterpret_cast<uint8_t *>(&One), 4, L.size());
  Op O = Inc ? Op::Add : Op::Sub;
  if (llvm::isa<PointerType>(ST)) {
    New = arith(O, Old, OneC, ST, IntT, ST, U->getRange(), F, L);
  } else if (ST->isBool()) {
    New = Old;
    for (uint32_t K = 0; K < New.N; ++K)
      New.Bytes[K] = Inc ? 1 : !New.Bytes[K];
  } else {
    // char and the narrow types compute in int, as C promotes them.
    const Type *CT = sizeOf(ST) < 4 ? (const Type *)IntT : ST;
    Column OC = convert(Old, ST, CT);
    New = convert(
        arith(O, OC, convert(OneC, IntT, CT), CT, CT, CT, U->getRange(), F, L),
        CT, ST);
  }
  store(F, A, New, ST, L, U->getRange());
  return Pre ? New : Old;
}

Column Interpreter::evalAtomic(Frame &F, AtomicExpr *AE, Lanes &L) {
  // The interpreter's lanes see each other's writes at once: a fence has
  // nothing to order.
  if (AE->getOp() == AtomicExpr::Fence)
    return Column(0, L.size());
  auto Args = AE->args();
  llvm::SmallVector<Column, 3> Vals;
  for (unsigned I = 1; I < Args.size(); ++I)
    Vals.push_back(eval(F, Args[I], L));
  Column Ptr = eval(F, Args[0], L);
  const Type *T = AE->getType()->getUnqualified();
  uint32_t Size = sizeOf(T);
  BK K = scalarKind(T);
  Column Old(Size, L.size());
  // Lane by lane in rank order: one thread's read-modify-write at a time.
  for (uint32_t I = 0; I < L.size(); ++I) {
    Lanes One{L[I]};
    Column P(8, 1);
    P.set<uint64_t>(0, Ptr.get<uint64_t>(I));
    Column Cur = load(F, P, T, One, AE->getRange(), /*Untracked=*/true);
    std::memcpy(Old.at(I), Cur.at(0), Size);
    if (AE->getOp() == AtomicExpr::Load)
      continue;
    Column New(Size, 1);
    const uint8_t *V = Vals[0].at(I);
    dispatchKind(K, [&](auto Tag) {
      using X = decltype(Tag);
      X C = ld<X>(Cur.at(0)), A = ld<X>(V), R = C;
      switch (AE->getOp()) {
      // Atomic arithmetic wraps, signed too (as C11's atomic_fetch_add).
      case AtomicExpr::Add:
        R = apply<X>(*this, Op::Add, C, A, {}, Who(), T, /*Wraps=*/true);
        break;
      case AtomicExpr::Sub:
        R = apply<X>(*this, Op::Sub, C, A, {}, Who(), T, /*Wraps=*/true);
        break;
      case AtomicExpr::Min:
        R = A < C ? A : C;
        break;
      case AtomicExpr::Max:
        R = A > C ? A : C;
        break;
      case AtomicExpr::Exch:
        R = A;
        break;
      case AtomicExpr::CAS:
        if (std::memcmp(Cur.at(0), V, Size) == 0)
          R = ld<X>(Vals[1].at(I));
        break;
      default:
        if constexpr (std::is_integral_v<X>) {
          if (AE->getOp() == AtomicExpr::And)
            R = C & A;
          if (AE->getOp() == AtomicExpr::Or)
            R = C | A;
          if (AE->getOp() == AtomicExpr::Xor)
            R = C ^ A;
        }
        break;
      }
      st<X>(New.at(0), R);
    });
    store(F, P, New, T, One, AE->getRange(), /*Untracked=*/true);
  }
  return Old;
}

/// min, max, clamp and abs, lane-wise on vectors, as MLIRGen emits them;
/// clamp is min(max(x, lo), hi); a signed abs wraps at the minimum.
Column Interpreter::evalMathBuiltin(Frame &F, MathBuiltinExpr *M, Lanes &L) {
  llvm::SmallVector<Column, 3> Vals;
  for (Expr *A : M->args())
    Vals.push_back(eval(F, A, L));
  const Type *T = M->getType()->getUnqualified();
  unsigned NC = numComponents(T);
  uint32_t ES = componentSize(T);
  Column Res(sizeOf(T), L.size());
  dispatchKind(scalarKind(T), [&](auto Tag) {
    using X = decltype(Tag);
    // Floats: C's fmin and fmax (a NaN gives the other operand); between
    // -0.0 and +0.0 the targets may return either, and so may this.
    auto Min = [](X A, X B) -> X {
      if constexpr (std::is_floating_point_v<X>)
        return std::fmin(A, B);
      else
        return B < A ? B : A;
    };
    auto Max = [](X A, X B) -> X {
      if constexpr (std::is_floating_point_v<X>)
        return std::fmax(A, B);
      else
        return A < B ? B : A;
    };
    for (uint32_t K = 0; K < L.size(); ++K)
      for (unsigned C = 0; C < NC; ++C) {
        auto Arg = [&](unsigned I) { return ld<X>(Vals[I].at(K) + C * ES); };
        X R = Arg(0);
        switch (M->getOp()) {
        case MathBuiltinExpr::Min:
          R = Min(R, Arg(1));
          break;
        case MathBuiltinExpr::Max:
          R = Max(R, Arg(1));
          break;
        case MathBuiltinExpr::Clamp:
          R = Min(Max(R, Arg(1)), Arg(2));
          break;
        case MathBuiltinExpr::Abs:
          if constexpr (std::is_floating_point_v<X>)
            R = std::fabs(R);
          else if constexpr (std::is_signed_v<X>)
            R = R < 0 ? (X)(0 - (std::make_unsigned_t<X>)R) : R;
          break;
        }
        st<X>(Res.at(K) + C * ES, R);
      }
  });
  return Res;
}
