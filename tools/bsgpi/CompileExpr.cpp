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

/// The same for every lane, slot K for lane K.
template <unsigned S>
static void strided(uint8_t *O, const uint8_t *Base, uint32_t N,
                    uint64_t Stride) {
  for (uint32_t K = 0; K < N; ++K)
    std::memcpy(O + K * S, Base + K * Stride, S);
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
    if (allLanes(F, L)) {
      // The lanes' slots in order: one copy, or a strided one.
      if (Size == VarSize)
        return (void)std::memcpy(O, Base, (size_t)N * Size);
      if (Size == 4)
        return strided<4>(O, Base, N, VarSize);
      for (uint32_t K = 0; K < N; ++K)
        std::memcpy(O + K * Size, Base + K * (uint64_t)VarSize, Size);
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
  const Type *Ty;
  SourceRange R;
  bool Wraps;

  /// Applies the operator to the \p Words words at \p Bytes; the negation
  /// of the most negative int or int64 (undefined in C) is reported, for
  /// the lane of the word (\p LaneOf).
  template <typename LaneFn>
  void apply(Interpreter &I, Frame &F, uint8_t *Bytes, size_t Words,
             LaneFn &&LaneOf) {
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
          if constexpr (std::is_signed_v<X> && sizeof(X) >= 4)
            if (Code == UnaryOperator::Minus && !Wraps &&
                A == std::numeric_limits<X>::min())
              I.signedNegationOverflow(R, A, Ty, F, LaneOf(W));
          using UX = std::make_unsigned_t<X>;
          st<X>(P, Code == UnaryOperator::Minus ? (X)(UX(0) - (UX)A) : (X)~A);
        }
      }
    });
  }

public:
  UnaryExpr(CExprPtr Sub, UnaryOperator *U)
      : Sub(std::move(Sub)), Code(U->getOpcode()), Ty(U->getType()),
        R(U->getRange()), Wraps(U->wrapsOnOverflow()) {
    const Type *T = U->getType()->getUnqualified();
    K = scalarKind(T);
    ES = componentSize(T);
    SubSize = sizeOf(U->getSubExpr()->getType());
    OneOk = SubSize <= MaxOne && SubSize == sizeOf(T);
  }
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) override {
    Sub->run(I, F, L, Out);
    size_t PerLane = Out.Size / ES;
    apply(I, F, Out.Bytes.data(), Out.Bytes.size() / ES,
          [&](size_t W) { return L[W / PerLane]; });
  }
  void runOne(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Out) override {
    if (!OneOk)
      return CExpr::runOne(I, F, Lane, Out);
    Sub->runOne(I, F, Lane, Out);
    apply(I, F, Out, SubSize / ES, [&](size_t) { return Lane; });
  }
};

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
