//===- CompileStmt.cpp - compiled statements and control flow -------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Blocks, declarations, expression statements, if, the loops, break,
// continue and return run as nodes that do what Interpreter::execTree does
// (Stmt.cpp) with compiled children. The tree walk keeps what needs its
// bookkeeping: a statement that may reassign ranks (its live lane lists), a
// block with require blocks in it (their hoisting), spawns, barriers, par,
// ddelete.
//
//===----------------------------------------------------------------------===//

#include "Compile.h"

#include <algorithm>

using namespace bsgp;
using namespace bsgp::interp;

CStmt &Interpreter::compiled(Stmt *S) {
  auto It = CompiledStmts.find(S);
  if (It != CompiledStmts.end())
    return *It->second;
  CStmtPtr C = compileStmt(*this, S);
  CStmt &Ref = *C;
  CompiledStmts[S] = std::move(C);
  return Ref;
}

Lanes Interpreter::exec(Frame &F, Stmt *S, Lanes L) {
  if (L.empty() || !S)
    return L;
  compiled(S).run(*this, F, L);
  return L;
}

/// Merges two non-empty sorted lane lists into \p Dst.
LLVM_ATTRIBUTE_NOINLINE static void mergeSlow(Lanes &Dst, const Lanes &Src) {
  Lanes R;
  R.reserve(Dst.size() + Src.size());
  std::merge(Dst.begin(), Dst.end(), Src.begin(), Src.end(),
             std::back_inserter(R));
  Dst = std::move(R);
}

/// Adds the lanes \p Src to the sorted list \p Dst.
static inline void mergeInto(Lanes &Dst, const Lanes &Src) {
  if (Src.empty())
    return;
  if (Dst.empty())
    Dst = Src;
  else
    mergeSlow(Dst, Src);
}

namespace {

/// A compiled expression with the size of its value, so that a statement
/// run for one lane can ask for the value without columns.
struct Value {
  CExprPtr E;
  uint32_t Size = 0;
  Value() = default;
  Value(Interpreter &I, Expr *X)
      : E(compileExpr(I, X)), Size(sizeOf(X->getType())) {}
  explicit operator bool() const { return E != nullptr; }
  /// The value for the lanes \p L: in \p Buf for one lane when it fits
  /// (returned), else in \p C (null returned).
  const uint8_t *get(Interpreter &I, Frame &F, Lanes &L, uint8_t *Buf,
                     Column &C) {
    if (L.size() == 1 && Size <= 8) {
      uint64_t V = E->bits(I, F, L[0]);
      std::memcpy(Buf, &V, 8);
      return Buf;
    }
    if (L.size() == 1 && Size <= MaxOne) {
      E->runOne(I, F, L[0], Buf);
      return Buf;
    }
    E->run(I, F, L, C);
    return nullptr;
  }
};

/// Runs \p C (a statement's compiled form, or null for none).
inline void runStmt(CStmt *C, Interpreter &I, Frame &F, Lanes &L) {
  if (!L.empty() && C)
    C->run(I, F, L);
}

class TreeStmt : public CStmt {
  Stmt *S;

public:
  TreeStmt(Stmt *S) : S(S) {}
  void run(Interpreter &I, Frame &F, Lanes &L) override {
    L = I.execTree(F, S, std::move(L));
  }
};

class BlockStmt : public CStmt {
  llvm::SmallVector<CStmtPtr, 4> Body;

public:
  BlockStmt(Interpreter &I, CompoundStmt *S) {
    for (Stmt *C : S->body())
      Body.push_back(compileStmt(I, C));
  }
  void run(Interpreter &I, Frame &F, Lanes &L) override {
    for (CStmtPtr &C : Body) {
      C->run(I, F, L);
      if (L.empty())
        break;
    }
  }
};

class DeclStmtNode : public CStmt {
  struct Init {
    VarSlot Slot;
    uint64_t Size;
    Value V;
  };
  llvm::SmallVector<Init, 1> Inits;

public:
  DeclStmtNode(Interpreter &I, DeclStmt *S) {
    for (VarDecl *D : S->decls())
      if (Expr *E = D->getInit()) {
        Init In;
        In.Slot.D = D;
        In.Size = sizeOf(D->getType());
        In.V = Value(I, E);
        if (In.V.Size != In.Size)
          In.V.Size = UINT32_MAX; // Columns, as the tree walk copies.
        Inits.push_back(std::move(In));
      }
  }
  void run(Interpreter &I, Frame &F, Lanes &L) override {
    for (Init &In : Inits) {
      Column V;
      alignas(16) uint8_t Buf[MaxOne];
      if (const uint8_t *P = In.V.get(I, F, L, Buf, V)) {
        In.Slot.get(I, F);
        copyBytes(In.Slot.at(L, 0, In.Size), P, In.Size);
        continue;
      }
      In.Slot.get(I, F);
      if (In.Slot.PerLane && V.Size == In.Size && allLanes(F, L)) {
        std::memcpy(In.Slot.Base, V.Bytes.data(), (size_t)L.size() * In.Size);
        continue;
      }
      for (uint32_t K = 0; K < L.size(); ++K)
        copyBytes(In.Slot.at(L, K, In.Size), V.at(K), In.Size);
    }
  }
};

class ExprStmtNode : public CStmt {
  Value E;

public:
  ExprStmtNode(Interpreter &I, Expr *X) : E(I, X) {}
  void run(Interpreter &I, Frame &F, Lanes &L) override {
    Column Ignored;
    alignas(16) uint8_t Buf[MaxOne];
    (void)E.get(I, F, L, Buf, Ignored);
  }
};

class NullStmtNode : public CStmt {
public:
  void run(Interpreter &I, Frame &F, Lanes &L) override {}
};

/// Splits \p L by the bool column \p C into \p Stay (true) and \p Leave.
/// Returns false, leaving both empty, when every lane is true.
static bool split(const Column &C, const Lanes &L, Lanes &Stay, Lanes &Leave) {
  uint32_t K = 0;
  while (K < L.size() && C.Bytes[K])
    ++K;
  if (K == L.size())
    return false;
  Stay.append(L.begin(), L.begin() + K);
  for (; K < L.size(); ++K)
    (C.Bytes[K] ? Stay : Leave).push_back(L[K]);
  return true;
}

class IfStmtNode : public CStmt {
  Value Cond;
  CStmtPtr Then, Else;

public:
  IfStmtNode(Interpreter &I, IfStmt *S)
      : Cond(I, S->getCond()),
        Then(S->getThen() ? compileStmt(I, S->getThen()) : nullptr),
        Else(S->getElse() ? compileStmt(I, S->getElse()) : nullptr) {}
  void run(Interpreter &I, Frame &F, Lanes &L) override {
    Column C;
    alignas(16) uint8_t Buf[MaxOne];
    if (const uint8_t *P = Cond.get(I, F, L, Buf, C))
      return runStmt((*P ? Then : Else).get(), I, F, L);
    // All lanes one way: no lists to build.
    bool AllFalse = true;
    for (uint32_t K = 0; K < L.size() && AllFalse; ++K)
      AllFalse = !C.Bytes[K];
    if (AllFalse)
      return runStmt(Else.get(), I, F, L);
    Lanes TL, FL;
    if (!split(C, L, TL, FL))
      return runStmt(Then.get(), I, F, L);
    size_t NT = TL.size(), NF = FL.size();
    runStmt(Then.get(), I, F, TL);
    runStmt(Else.get(), I, F, FL);
    // A statement only removes lanes: none left either branch, so the
    // lanes are L's.
    if (TL.size() == NT && FL.size() == NF)
      return;
    mergeInto(TL, FL);
    L = std::move(TL);
  }
};

/// while, do and for (after its init), as execLoop.
class LoopStmt : public CStmt {
  SourceRange R;
  Value Cond, Inc;
  CStmtPtr Body;
  bool CondFirst;

public:
  LoopStmt(Interpreter &I, Stmt *S, Expr *C, Expr *In, Stmt *B, bool First)
      : R(S->getRange()), Body(B ? compileStmt(I, B) : nullptr),
        CondFirst(First) {
    if (C)
      Cond = Value(I, C);
    if (In)
      Inc = Value(I, In);
  }
  void run(Interpreter &I, Frame &F, Lanes &L) override {
    Lanes Out, Broken, Continued;
    Lanes *SavedB = F.Broken, *SavedC = F.Continued;
    F.Broken = &Broken;
    F.Continued = &Continued;
    bool First = true;
    Column C;
    alignas(16) uint8_t Buf[MaxOne];
    while (!L.empty()) {
      I.step(R);
      if (Cond && (CondFirst || !First)) {
        if (const uint8_t *P = Cond.get(I, F, L, Buf, C)) {
          if (!*P) {
            mergeInto(Out, L);
            break;
          }
        } else if (Lanes Stay, Leave; split(C, L, Stay, Leave)) {
          mergeInto(Out, Leave);
          L = std::move(Stay);
          if (L.empty())
            break;
        }
      }
      First = false;
      runStmt(Body.get(), I, F, L);
      mergeInto(L, Continued);
      Continued.clear();
      mergeInto(Out, Broken);
      Broken.clear();
      if (Inc && !L.empty()) {
        Column Ignored;
        (void)Inc.get(I, F, L, Buf, Ignored);
      }
    }
    F.Broken = SavedB;
    F.Continued = SavedC;
    L = std::move(Out);
  }
};

class ForStmtNode : public CStmt {
  CStmtPtr Init;
  LoopStmt Loop;

public:
  ForStmtNode(Interpreter &I, ForStmt *S)
      : Init(S->getInit() ? compileStmt(I, S->getInit()) : nullptr),
        Loop(I, S, S->getCond(), S->getInc(), S->getBody(), true) {}
  void run(Interpreter &I, Frame &F, Lanes &L) override {
    runStmt(Init.get(), I, F, L);
    if (!L.empty())
      Loop.run(I, F, L);
  }
};

class JumpStmt : public CStmt {
  bool IsBreak;

public:
  JumpStmt(bool IsBreak) : IsBreak(IsBreak) {}
  void run(Interpreter &I, Frame &F, Lanes &L) override {
    mergeInto(IsBreak ? *F.Broken : *F.Continued, L);
    L.clear();
  }
};

class ReturnStmtNode : public CStmt {
  Value V;

public:
  ReturnStmtNode(Interpreter &I, Expr *X) {
    if (X)
      V = Value(I, X);
  }
  void run(Interpreter &I, Frame &F, Lanes &L) override {
    if (V) {
      Column C;
      alignas(16) uint8_t Buf[MaxOne];
      if (F.Ret.Size <= V.Size) {
        if (const uint8_t *P = V.get(I, F, L, Buf, C)) {
          std::memcpy(F.Ret.at(L[0]), P, F.Ret.Size);
          L.clear();
          return;
        }
      } else {
        V.E->run(I, F, L, C);
      }
      if (F.Ret.Size)
        for (uint32_t K = 0; K < L.size(); ++K)
          std::memcpy(F.Ret.at(L[K]), C.at(K), F.Ret.Size);
    }
    L.clear();
  }
};

} // namespace

CStmtPtr interp::compileStmt(Interpreter &I, Stmt *S) {
  // Rank reassignment moves the lanes of every live list: the tree walk
  // keeps track of them.
  if (I.mayRemap(S))
    return std::make_unique<TreeStmt>(S);
  switch (S->getKind()) {
  case Stmt::SK_Compound: {
    auto *C = llvm::cast<CompoundStmt>(S);
    // Require blocks run hoisted, and device lines are written around
    // branches and loops that cut the spawn, as the tree walk arranges.
    for (Stmt *X : C->body())
      if (llvm::isa<RequireStmt>(X) || I.cutsSpawn(X))
        return std::make_unique<TreeStmt>(S);
    return std::make_unique<BlockStmt>(I, C);
  }
  case Stmt::SK_Decl:
    return std::make_unique<DeclStmtNode>(I, llvm::cast<DeclStmt>(S));
  case Stmt::SK_Expr:
    return std::make_unique<ExprStmtNode>(I,
                                          llvm::cast<ExprStmt>(S)->getExpr());
  case Stmt::SK_Null:
    return std::make_unique<NullStmtNode>();
  case Stmt::SK_If:
    return std::make_unique<IfStmtNode>(I, llvm::cast<IfStmt>(S));
  case Stmt::SK_While: {
    auto *W = llvm::cast<WhileStmt>(S);
    return std::make_unique<LoopStmt>(I, S, W->getCond(), nullptr, W->getBody(),
                                      true);
  }
  case Stmt::SK_Do: {
    auto *D = llvm::cast<DoStmt>(S);
    return std::make_unique<LoopStmt>(I, S, D->getCond(), nullptr, D->getBody(),
                                      false);
  }
  case Stmt::SK_For:
    return std::make_unique<ForStmtNode>(I, llvm::cast<ForStmt>(S));
  case Stmt::SK_Break:
    return std::make_unique<JumpStmt>(true);
  case Stmt::SK_Continue:
    return std::make_unique<JumpStmt>(false);
  case Stmt::SK_Return: {
    return std::make_unique<ReturnStmtNode>(
        I, llvm::cast<ReturnStmt>(S)->getValue());
  }
  default:
    if (auto *E = llvm::dyn_cast<Expr>(S))
      return std::make_unique<ExprStmtNode>(I, E);
    return std::make_unique<TreeStmt>(S);
  }
}
