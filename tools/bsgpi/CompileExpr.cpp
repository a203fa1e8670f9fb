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

public:
  ConstExpr(Column V) : V(std::move(V)) {}
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    uint32_t N = L.size();
    shape(Out, V.Size, N);
    for (uint32_t K = 0; K < N; ++K)
      copyBytes(Out.at(K), V.at(0), V.Size);
  }
};

/// A variable, or a field or component of one: the interpreter's own
/// storage, which no access can leave, so no checks (as in the tree walk).
class VarRead : public CExpr {
  VarSlot Slot;
  uint32_t Off, Size, VarSize;

public:
  VarRead(const VarDecl *D, uint32_t Off, uint32_t Size)
      : Off(Off), Size(Size), VarSize(sizeOf(D->getType())) {
    Slot.D = D;
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Slot.get(I, F);
    uint32_t N = L.size();
    shape(Out, Size, N);
    for (uint32_t K = 0; K < N; ++K)
      copyBytes(Out.at(K), Slot.at(L, K, VarSize) + Off, Size);
  }
};

/// Conversion between types, as Interpreter::convert.
class ConvertExpr : public CExpr {
  CExprPtr Sub;
  BK FK, TK;
  unsigned FN, TN;
  uint32_t FS, TS, OutSize;

public:
  ConvertExpr(CExprPtr Sub, const Type *From, const Type *To)
      : Sub(std::move(Sub)) {
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
    Sub->run(I, F, L, C);
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
};

/// - ~ ! on every word of the value, as evalUnary.
class UnaryExpr : public CExpr {
  CExprPtr Sub;
  UnaryOperator::Opcode Code;
  BK K;
  uint32_t ES;

public:
  UnaryExpr(CExprPtr Sub, UnaryOperator *U)
      : Sub(std::move(Sub)), Code(U->getOpcode()) {
    const Type *T = U->getType()->getUnqualified();
    K = scalarKind(T);
    ES = componentSize(T);
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Sub->run(I, F, L, Out);
    dispatchKind(K, [&](auto Tag) {
      using X = decltype(Tag);
      for (size_t W = 0; W < Out.Bytes.size() / ES; ++W) {
        uint8_t *P = Out.Bytes.data() + W * ES;
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
  uint32_t N = Out.N;
  if (NC == 1) {
    for (uint32_t K = 0; K < N; ++K)
      st<R>(Out.at(K), F(ld<T>(X.at(K)), ld<T>(Y.at(K))));
    return;
  }
  for (uint32_t K = 0; K < N; ++K)
    for (unsigned C = 0; C < NC; ++C)
      st<R>(Out.at(K) + C * ES,
            F(ld<T>(X.at(K) + C * ES), ld<T>(Y.at(K) + C * ES)));
}

/// An arithmetic, bitwise or comparison operator on two operands of one
/// scalar or vector type, computing in T: what arith() does for them.
template <typename T> class TypedBinExpr : public CExpr {
  Op O;
  CExprPtr A, B;
  const Type *AT, *BT, *ResT;
  SourceRange R;
  unsigned NC;
  uint32_t ES, Size;

  void compare(const Column &X, const Column &Y, Column &Out) {
    uint32_t N = Out.N;
    for (uint32_t K = 0; K < N; ++K) {
      // Vectors compare equal when every component does.
      bool All = true, Any = false;
      for (unsigned C = 0; C < NC; ++C) {
        T P = ld<T>(X.at(K) + C * ES), Q = ld<T>(Y.at(K) + C * ES);
        bool V;
        switch (O) {
        case Op::LT:
          V = P < Q;
          break;
        case Op::GT:
          V = P > Q;
          break;
        case Op::LE:
          V = P <= Q;
          break;
        case Op::GE:
          V = P >= Q;
          break;
        case Op::EQ:
          V = P == Q;
          break;
        default:
          V = P != Q;
          break;
        }
        All &= V;
        Any |= V;
      }
      Out.Bytes[K * Out.Size] = O == Op::NE ? Any : All;
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
  }

  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Column X, Y;
    A->run(I, F, L, X);
    B->run(I, F, L, Y);
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

public:
  CondExpr(ConditionalOperator *E, Interpreter &I)
      : C(compileExpr(I, E->getCond())), T(compileExpr(I, E->getTrueExpr())),
        X(compileExpr(I, E->getFalseExpr())), Size(sizeOf(E->getType())) {}
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
  bool IsAnd;

public:
  LogicalExpr(BinaryOperator *E, Interpreter &I)
      : A(compileExpr(I, E->getLHS())), B(compileExpr(I, E->getRHS())),
        IsAnd(E->getOpcode() == Op::LAnd) {}
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
  uint32_t Size = sizeOf(D->getType());
  return std::make_unique<VarRead>(D, 0, Size);
}

CExprPtr interp::varFieldRead(const VarDecl *D, uint32_t Off, uint32_t Size) {
  return std::make_unique<VarRead>(D, Off, Size);
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
