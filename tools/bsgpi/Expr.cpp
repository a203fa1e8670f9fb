//===- Expr.cpp - evaluating expressions over lanes -----------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "Interp.h"

#include "bsgp/AST/AST.h"

using namespace bsgp;
using namespace bsgp::interp;
using BK = BuiltinType::BuiltinKind;

/// A column holding \p V, converted from kind \p From to \p T, in every lane.
static Column constant(Interpreter &I, BK From, const uint8_t *V, const Type *T,
                       uint32_t N) {
  uint8_t Buf[16] = {0};
  if (llvm::isa<BuiltinType>(T->getUnqualified()))
    convertScalar(From, V, scalarKind(T), Buf);
  return I.splat(Buf, sizeOf(T), N);
}

template <typename V>
static Column constantOf(Interpreter &I, BK From, V Value, const Type *T,
                         uint32_t N) {
  return constant(I, From, reinterpret_cast<const uint8_t *>(&Value), T, N);
}

/// Splits \p L by the bool column \p C into lanes and positions.
static void splitLanes(const Column &C, const Lanes &L, Lanes &TL,
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

static Column evalConditional(Interpreter &I, Frame &F, ConditionalOperator *E,
                              Lanes &L) {
  Column C = I.eval(F, E->getCond(), L);
  Lanes TL, FL;
  llvm::SmallVector<uint32_t, 4> TP, FP;
  splitLanes(C, L, TL, TP, FL, FP);
  uint32_t Size = sizeOf(E->getType());
  Column R(Size, L.size());
  if (!TL.empty()) {
    Column T = I.eval(F, E->getTrueExpr(), TL);
    for (uint32_t K = 0; K < TP.size(); ++K)
      std::memcpy(R.at(TP[K]), T.at(K), Size);
  }
  if (!FL.empty()) {
    Column X = I.eval(F, E->getFalseExpr(), FL);
    for (uint32_t K = 0; K < FP.size(); ++K)
      std::memcpy(R.at(FP[K]), X.at(K), Size);
  }
  return R;
}

/// `Op(a, b)` with Op min or max (Sema makes the others binary operators):
/// `b < a ? b : a` or `a < b ? b : a` in every lane.
template <typename V>
static void minOrMax(bool IsMin, const uint8_t *PA, const uint8_t *PB,
                     uint8_t *PR) {
  V A, B;
  std::memcpy(&A, PA, sizeof(V));
  std::memcpy(&B, PB, sizeof(V));
  V R = IsMin ? (B < A ? B : A) : (A < B ? B : A);
  std::memcpy(PR, &R, sizeof(V));
}

static Column evalOperatorApply(Interpreter &I, Frame &F, ConstructExpr *E,
                                const OperatorType *Op, Lanes &L) {
  Column A = I.eval(F, E->args()[0], L);
  Column B = I.eval(F, E->args()[1], L);
  Column R(sizeOf(E->getType()), L.size());
  bool IsMin = Op->getSpelling() == "min";
  BK K = scalarKind(E->getType());
  for (uint32_t J = 0; J < L.size(); ++J) {
    const uint8_t *PA = A.at(J), *PB = B.at(J);
    uint8_t *PR = R.at(J);
    switch (K) {
    case BK::Bool:
      minOrMax<bool>(IsMin, PA, PB, PR);
      break;
    case BK::Char:
      minOrMax<signed char>(IsMin, PA, PB, PR);
      break;
    case BK::UChar:
      minOrMax<uint8_t>(IsMin, PA, PB, PR);
      break;
    case BK::Short:
      minOrMax<int16_t>(IsMin, PA, PB, PR);
      break;
    case BK::UShort:
      minOrMax<uint16_t>(IsMin, PA, PB, PR);
      break;
    case BK::Int:
      minOrMax<int32_t>(IsMin, PA, PB, PR);
      break;
    case BK::UInt:
      minOrMax<uint32_t>(IsMin, PA, PB, PR);
      break;
    case BK::Int64:
      minOrMax<int64_t>(IsMin, PA, PB, PR);
      break;
    case BK::UInt64:
      minOrMax<uint64_t>(IsMin, PA, PB, PR);
      break;
    case BK::Float:
      minOrMax<float>(IsMin, PA, PB, PR);
      break;
    case BK::Double:
      minOrMax<double>(IsMin, PA, PB, PR);
      break;
    case BK::Void:
      break;
    }
  }
  return R;
}

static Column evalConstruct(Interpreter &I, Frame &F, ConstructExpr *E,
                            Lanes &L) {
  const Type *T = E->getConstructedType()->getUnqualified();
  if (auto *Op = llvm::dyn_cast<OperatorType>(T))
    return evalOperatorApply(I, F, E, Op, L);
  auto Args = E->args();
  if (!llvm::isa<VectorType>(T) ||
      (Args.size() == 1 && Args[0]->getType()->getUnqualified() == T)) {
    Column A = I.eval(F, Args[0], L);
    return I.convert(A, Args[0]->getType(), T);
  }
  BK EK = scalarKind(T);
  unsigned TN = numComponents(T);
  uint32_t ES = componentSize(T);
  Column R(sizeOf(T), L.size());
  if (Args.size() == 1 &&
      !llvm::isa<VectorType>(Args[0]->getType()->getUnqualified())) {
    Column A = I.eval(F, Args[0], L);
    BK AK = scalarKind(Args[0]->getType());
    for (uint32_t K = 0; K < L.size(); ++K)
      for (unsigned J = 0; J < TN; ++J)
        convertScalar(AK, A.at(K), EK, R.at(K) + J * ES);
    return R;
  }
  unsigned Pos = 0;
  for (Expr *Arg : Args) {
    Column A = I.eval(F, Arg, L);
    BK AK = scalarKind(Arg->getType());
    unsigned AN = numComponents(Arg->getType());
    uint32_t AS = componentSize(Arg->getType());
    for (uint32_t K = 0; K < L.size(); ++K)
      for (unsigned J = 0; J < AN && Pos + J < TN; ++J)
        convertScalar(AK, A.at(K) + J * AS, EK, R.at(K) + (Pos + J) * ES);
    Pos += AN;
  }
  return R;
}

static Column evalMemberRValue(Interpreter &I, Frame &F, MemberExpr *M,
                               Lanes &L) {
  Column B = I.eval(F, M->getBase(), L);
  const Type *BT = M->getBase()->getType()->getUnqualified();
  uint32_t Size = sizeOf(M->getType());
  Column R(Size, L.size());
  if (FieldDecl *FD = M->getField()) {
    uint64_t Off = fieldOffset(llvm::cast<StructType>(BT), FD->getIndex());
    for (uint32_t K = 0; K < L.size(); ++K)
      std::memcpy(R.at(K), B.at(K) + Off, Size);
    return R;
  }
  uint32_t ES = componentSize(BT);
  auto Comps = M->getComponents();
  for (uint32_t K = 0; K < L.size(); ++K)
    for (unsigned J = 0; J < Comps.size(); ++J)
      std::memcpy(R.at(K) + J * ES, B.at(K) + Comps[J] * ES, ES);
  return R;
}

/// An array's or a struct's initializer list: the whole value, element by
/// element (a struct's field by field, a nested list a nested struct); what
/// the list leaves out is 0.
static Column evalInitList(Interpreter &I, Frame &F, InitListExpr *IL,
                           Lanes &L) {
  if (auto *ST = llvm::dyn_cast<StructType>(IL->getType()->getUnqualified())) {
    Column R(sizeOf(ST), L.size());
    for (auto [K, X] : llvm::enumerate(IL->inits())) {
      uint64_t Offset = fieldOffset(ST, K);
      Column V = llvm::isa<InitListExpr>(X)
                     ? evalInitList(I, F, llvm::cast<InitListExpr>(X), L)
                     : I.eval(F, X, L);
      for (uint32_t Lane = 0; Lane < L.size(); ++Lane)
        std::memcpy(R.at(Lane) + Offset, V.at(Lane), V.Size);
    }
    return R;
  }
  auto Flat = IL->getFlat();
  uint64_t Size = sizeOf(IL->getType());
  uint64_t Stride = Flat.empty() ? 0 : Size / Flat.size();
  Column R(Size, L.size());
  for (auto [K, X] : llvm::enumerate(Flat)) {
    if (!X)
      continue;
    Column V = I.eval(F, X, L);
    for (uint32_t Lane = 0; Lane < L.size(); ++Lane)
      std::memcpy(R.at(Lane) + K * Stride, V.at(Lane), V.Size);
  }
  return R;
}

Column Interpreter::evalTree(Frame &F, Expr *E, Lanes &L) {
  uint32_t N = L.size();
  const Type *T = E->getType();
  switch (E->getKind()) {
  case Stmt::SK_IntegerLiteral:
    return constantOf(*this, BK::UInt64,
                      llvm::cast<IntegerLiteral>(E)->getValue(), T, N);
  case Stmt::SK_FloatingLiteral:
    return constantOf(*this, BK::Double,
                      llvm::cast<FloatingLiteral>(E)->getValue(), T, N);
  case Stmt::SK_BoolLiteral:
    return constantOf(*this, BK::Int,
                      (int32_t)llvm::cast<BoolLiteral>(E)->getValue(), T, N);
  case Stmt::SK_CharLiteral:
    return constantOf(*this, BK::Char,
                      (int8_t)llvm::cast<CharLiteral>(E)->getValue(), T, N);
  case Stmt::SK_StringLiteral: {
    auto *S = llvm::cast<StringLiteral>(E);
    uint8_t *&P = Strings[S];
    if (!P) {
      P = Mem.allocate(S->getValue().size() + 1, AllocKind::String);
      std::memcpy(P, S->getValue().data(), S->getValue().size());
    }
    uint64_t V = reinterpret_cast<uint64_t>(P);
    return splat(reinterpret_cast<uint8_t *>(&V), 8, N);
  }
  case Stmt::SK_NullLiteral: {
    uint64_t V = 0;
    return splat(reinterpret_cast<uint8_t *>(&V), 8, N);
  }
  case Stmt::SK_Paren:
    return eval(F, llvm::cast<ParenExpr>(E)->getSubExpr(), L);
  case Stmt::SK_Unary:
    return evalUnary(F, llvm::cast<UnaryOperator>(E), L);
  case Stmt::SK_Binary:
    return evalBinary(F, llvm::cast<BinaryOperator>(E), L);
  case Stmt::SK_Conditional:
    return evalConditional(*this, F, llvm::cast<ConditionalOperator>(E), L);
  case Stmt::SK_Call:
    return call(F, llvm::cast<CallExpr>(E), L);
  case Stmt::SK_BuiltinCall:
    return evalBuiltin(F, llvm::cast<BuiltinCallExpr>(E), L);
  case Stmt::SK_Group:
    return evalGroup(F, llvm::cast<GroupExpr>(E), L);
  case Stmt::SK_Atomic:
    return evalAtomic(F, llvm::cast<AtomicExpr>(E), L);
  case Stmt::SK_MathBuiltin:
    return evalMathBuiltin(F, llvm::cast<MathBuiltinExpr>(E), L);
  case Stmt::SK_InitList:
    return evalInitList(*this, F, llvm::cast<InitListExpr>(E), L);
  case Stmt::SK_ThreadAttr:
    return evalThreadAttr(F, llvm::cast<ThreadAttrExpr>(E)->getAttr(), L);
  case Stmt::SK_DeclRef: {
    // A variable: its storage is the interpreter's own, no checks needed.
    auto *D = llvm::dyn_cast<VarDecl>(llvm::cast<DeclRefExpr>(E)->getDecl());
    if (!D || D->isGroupLocal())
      return load(F, address(F, E, L), T, L, E->getRange());
    bool PerLane = false;
    uint8_t *Base = varBase(F, D, PerLane);
    uint32_t Size = sizeOf(D->getType());
    Column R(Size, N);
    for (uint32_t K = 0; K < N; ++K)
      std::memcpy(R.at(K), Base + (PerLane ? L[K] : 0) * (uint64_t)Size, Size);
    return R;
  }
  case Stmt::SK_Index:
    return load(F, address(F, E, L), T, L, E->getRange());
  case Stmt::SK_Member:
    if (E->isLValue() && llvm::cast<MemberExpr>(E)->getComponents().size() <= 1)
      return load(F, address(F, E, L), T, L, E->getRange());
    return evalMemberRValue(*this, F, llvm::cast<MemberExpr>(E), L);
  case Stmt::SK_Cast: {
    auto *C = llvm::cast<CastExpr>(E);
    Column V = eval(F, C->getSubExpr(), L);
    if (C->getWrittenType()->getUnqualified()->isVoid())
      return Column(0, N);
    return convert(V, C->getSubExpr()->getType(), C->getWrittenType());
  }
  case Stmt::SK_ImplicitCast: {
    auto *C = llvm::cast<ImplicitCastExpr>(E);
    if (C->getCastKind() == ImplicitCastExpr::ArrayToPointer)
      return address(F, C->getSubExpr(), L);
    Column V = eval(F, C->getSubExpr(), L);
    if (C->getCastKind() == ImplicitCastExpr::NullToPointer)
      return Column(8, N);
    return convert(V, C->getSubExpr()->getType(), T);
  }
  case Stmt::SK_Construct:
    return evalConstruct(*this, F, llvm::cast<ConstructExpr>(E), L);
  case Stmt::SK_Sizeof: {
    auto *S = llvm::cast<SizeofExpr>(E);
    const Type *AT =
        S->getArgType() ? S->getArgType() : S->getArgExpr()->getType();
    return constantOf(*this, BK::UInt64, sizeOf(AT), T, N);
  }
  case Stmt::SK_New: {
    auto *NE = llvm::cast<NewExpr>(E);
    Column C = eval(F, NE->getCount(), L);
    int64_t Count = scalarToInt(scalarKind(NE->getCount()->getType()), C.at(0));
    // The reports word the compiled runtime's (sizes-64bit.test).
    const char *Kw = NE->isTemporary() ? "dtempnew" : "dnew";
    if (Count < 0)
      fatal(E->getRange(), llvm::Twine(Kw) +
                               " of a negative number of elements (" +
                               llvm::Twine(Count) + ")");
    uint64_t ES = sizeOf(NE->getElementType()), Bytes;
    if (__builtin_mul_overflow((uint64_t)Count, ES, &Bytes))
      fatal(E->getRange(), llvm::Twine(Kw) + " of " + llvm::Twine(Count) +
                               " elements of " + llvm::Twine(ES) +
                               " bytes: the size does not fit in 64 bits");
    uint8_t *P = Mem.allocate(Bytes, NE->isTemporary() ? AllocKind::TempList
                                                       : AllocKind::List);
    if (!P)
      fatal(E->getRange(), "out of device memory allocating " +
                               llvm::Twine(Bytes) + " bytes for " + Kw);
    if (NE->isTemporary() && Spawn)
      Spawn->Temps.push_back(P);
    uint64_t V = reinterpret_cast<uint64_t>(P);
    return splat(reinterpret_cast<uint8_t *>(&V), 8, N);
  }
  case Stmt::SK_TargetQuery: {
    bool V = llvm::cast<TargetQueryExpr>(E)->getTarget() == Opts.Tgt;
    return constantOf(*this, BK::Int, (int32_t)V, T, N);
  }
  default:
    fatal(E->getRange(), "bsgpi cannot evaluate this expression");
  }
}

/// Checks that element \p Index of the object \p Ptr points into lies in
/// it: the allocation (for lists), the lane's slot (for variables) or the
/// fixed array \p ArrayLen (when known).
void Interpreter::checkIndex(Frame &F, uint64_t Ptr, int64_t Index,
                             uint64_t ElemSize, uint64_t ArrayLen,
                             uint32_t Lane, SourceRange R) {
  Interpreter &I = *this;
  auto Who = [&] {
    return F.Device ? " by rank " + std::to_string(I.rankOf(F, Lane))
                    : std::string();
  };
  if (ArrayLen) {
    if (Index < 0 || (uint64_t)Index >= ArrayLen)
      I.fatal(R, "index " + llvm::Twine(Index) +
                     " is out of bounds of an array of " +
                     llvm::Twine(ArrayLen) + " elements" + Who());
    return;
  }
  Allocation *A = I.Mem.findBase(reinterpret_cast<void *>(Ptr));
  if (!A || A->Kind == AllocKind::Variable)
    return;
  int64_t Off = (int64_t)(Ptr - (uint64_t)A->Base) + Index * (int64_t)ElemSize;
  if (Off < 0 || (uint64_t)Off + ElemSize > A->Size) {
    const char *Kind = A->Kind == AllocKind::List       ? "list"
                       : A->Kind == AllocKind::TempList ? "temporary list"
                       : A->Kind == AllocKind::Heap     ? "heap block"
                                                        : "block";
    I.fatal(R, "index " + llvm::Twine(Index) + " is out of bounds of a " +
                   Kind + " of " + llvm::Twine(A->Size / ElemSize) +
                   " elements (element " +
                   llvm::Twine(Off / (int64_t)ElemSize) + ")" + Who());
  }
}

Column Interpreter::storeTemporary(Frame &F, VarDecl *D, const Column &V,
                                   Lanes &L) {
  bool PerLane = false;
  uint8_t *Base = varBase(F, D, PerLane);
  uint64_t Size = sizeOf(D->getType());
  Column R(8, L.size());
  for (uint32_t K = 0; K < L.size(); ++K) {
    uint8_t *P = Base + (PerLane ? L[K] : 0) * Size;
    std::memcpy(P, V.at(K), Size);
    R.set<uint64_t>(K, reinterpret_cast<uint64_t>(P));
  }
  return R;
}

Column Interpreter::address(Frame &F, Expr *E, Lanes &L) {
  uint32_t N = L.size();
  switch (E->getKind()) {
  case Stmt::SK_Paren:
    return address(F, llvm::cast<ParenExpr>(E)->getSubExpr(), L);
  case Stmt::SK_DeclRef: {
    auto *D = llvm::dyn_cast<VarDecl>(llvm::cast<DeclRefExpr>(E)->getDecl());
    if (!D)
      fatal(E->getRange(), "bsgpi cannot take the address of a function");
    bool PerLane = false;
    uint8_t *Base = varBase(F, D, PerLane);
    uint64_t Size = sizeOf(D->getType());
    Column R(8, N);
    for (uint32_t K = 0; K < N; ++K) {
      uint64_t Slot = 0;
      if (PerLane)
        Slot = D->isGroupLocal() ? F.Thread[L[K]] / Opts.GroupSize : L[K];
      R.set<uint64_t>(K, reinterpret_cast<uint64_t>(Base + Slot * Size));
    }
    return R;
  }
  case Stmt::SK_Cast: {
    // An array compound literal: its object, initialized by its list each
    // time it is evaluated, as C's automatic compound literals are.
    auto *C = llvm::cast<CastExpr>(E);
    VarDecl *D = C->getLiteralVar();
    if (!D)
      break;
    return storeTemporary(F, D, eval(F, C->getSubExpr(), L), L);
  }
  case Stmt::SK_Index: {
    auto *IE = llvm::cast<IndexExpr>(E);
    Expr *B = IE->getBase();
    const Type *BT = B->getType()->getUnqualified();
    uint64_t ArrayLen = 0;
    Column Base;
    if (auto *AT = llvm::dyn_cast<ArrayType>(BT)) {
      ArrayLen = AT->getSize();
      Base = address(F, B, L);
    } else {
      Base = eval(F, B, L);
    }
    Column Idx = eval(F, IE->getIndex(), L);
    BK IK = scalarKind(IE->getIndex()->getType());
    uint64_t ES = sizeOf(E->getType());
    Column R(8, N);
    for (uint32_t K = 0; K < N; ++K) {
      int64_t I = scalarToInt(IK, Idx.at(K));
      uint64_t P = Base.get<uint64_t>(K);
      checkIndex(F, P, I, ES, ArrayLen, L[K], E->getRange());
      R.set<uint64_t>(K, P + I * ES);
    }
    return R;
  }
  case Stmt::SK_Member: {
    auto *M = llvm::cast<MemberExpr>(E);
    Column Base =
        M->isArrow() ? eval(F, M->getBase(), L) : address(F, M->getBase(), L);
    const Type *BT = M->getBase()->getType()->getUnqualified();
    if (M->isArrow())
      BT = llvm::cast<PointerType>(BT)->getPointee()->getUnqualified();
    uint64_t Off;
    if (FieldDecl *FD = M->getField()) {
      Off = fieldOffset(llvm::cast<StructType>(BT), FD->getIndex());
    } else {
      if (M->getComponents().size() != 1)
        fatal(E->getRange(), "bsgpi cannot assign to a swizzle");
      Off = M->getComponents()[0] * componentSize(BT);
    }
    for (uint32_t K = 0; K < N; ++K)
      Base.set<uint64_t>(K, Base.get<uint64_t>(K) + Off);
    return Base;
  }
  case Stmt::SK_Unary: {
    auto *U = llvm::cast<UnaryOperator>(E);
    if (U->getOpcode() == UnaryOperator::Deref)
      return eval(F, U->getSubExpr(), L);
    break;
  }
  case Stmt::SK_ThreadAttr: {
    Column R(8, N);
    for (uint32_t K = 0; K < N; ++K)
      R.set<uint64_t>(
          K, reinterpret_cast<uint64_t>(&Spawn->OldRank[rankOf(F, L[K])]));
    return R;
  }
  default:
    break;
  }
  if (llvm::isa<StructType>(E->getType()->getUnqualified())) {
    // A struct value that is not an object (a call's result, `c ? a : b`),
    // indexed through an array field: a temporary object of its own, made
    // again each time the expression is evaluated, as C materializes it.
    VarDecl *&D = Temporaries[E];
    if (!D) {
      D = new (Ctx) VarDecl(E->getRange(), E->getBeginLoc(), "temporary",
                            E->getType(), nullptr, VarDecl::Local);
      // Threads' temporaries are their own.
      D->setHost(!F.Device);
    }
    return storeTemporary(F, D, eval(F, E, L), L);
  }
  fatal(E->getRange(), "bsgpi: expression is not an lvalue");
}

/// thread.rank, .size, .oldrank and the coordinates and extents of the
/// spawn's domain, for each lane.
Column Interpreter::evalThreadAttr(Frame &F, ThreadAttrExpr::Attr A,
                                   const Lanes &L) {
  uint32_t N = L.size();
  Column R(4, N);
  for (uint32_t K = 0; K < N; ++K) {
    uint32_t Th = rankOf(F, L[K]);
    const auto &Dims = Spawn->Dims;
    int32_t V = 0;
    switch (A) {
    case ThreadAttrExpr::Rank:
      V = Th;
      break;
    case ThreadAttrExpr::Size:
      V = Spawn->N;
      break;
    case ThreadAttrExpr::OldRank:
      V = Spawn->OldRank[Th];
      break;
    // rank == x + nx * (y + ny * z) for whatever rank the thread has
    // now, beyond nx * ny * nz too (after a fork): the last dimension
    // takes what the others leave.
    case ThreadAttrExpr::X:
      V = Spawn->NumDims == 1 ? Th : Th % Dims[0];
      break;
    case ThreadAttrExpr::Y:
      V = Spawn->NumDims == 1   ? 0
          : Spawn->NumDims == 2 ? Th / Dims[0]
                                : Th / Dims[0] % Dims[1];
      break;
    case ThreadAttrExpr::Z:
      V = Spawn->NumDims == 3 ? Th / (Dims[0] * Dims[1]) : 0;
      break;
    case ThreadAttrExpr::NX:
    case ThreadAttrExpr::NY:
    case ThreadAttrExpr::NZ:
      V = Dims[A - ThreadAttrExpr::NX];
      break;
    }
    R.set<int32_t>(K, V);
  }
  return R;
}
