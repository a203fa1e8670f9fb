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
  return compiled(S).run(*this, F, std::move(L));
}

/// Adds the lanes \p Src to the sorted list \p Dst.
static void mergeInto(Lanes &Dst, const Lanes &Src) {
  if (Src.empty())
    return;
  if (Dst.empty()) {
    Dst = Src;
    return;
  }
  Lanes R;
  R.reserve(Dst.size() + Src.size());
  std::merge(Dst.begin(), Dst.end(), Src.begin(), Src.end(),
             std::back_inserter(R));
  Dst = std::move(R);
}

namespace {

/// Runs \p C (a statement's compiled form, or null for none).
inline Lanes runStmt(CStmt *C, Interpreter &I, Frame &F, Lanes L) {
  if (L.empty() || !C)
    return L;
  return C->run(I, F, std::move(L));
}

class TreeStmt : public CStmt {
  Stmt *S;

public:
  TreeStmt(Stmt *S) : S(S) {}
  Lanes run(Interpreter &I, Frame &F, Lanes L) override {
    return I.execTree(F, S, std::move(L));
  }
};

class BlockStmt : public CStmt {
  llvm::SmallVector<CStmtPtr, 4> Body;

public:
  BlockStmt(Interpreter &I, CompoundStmt *S) {
    for (Stmt *C : S->body())
      Body.push_back(compileStmt(I, C));
  }
  Lanes run(Interpreter &I, Frame &F, Lanes L) override {
    for (CStmtPtr &C : Body) {
      L = C->run(I, F, std::move(L));
      if (L.empty())
        break;
    }
    return L;
  }
};

class DeclStmtNode : public CStmt {
  struct Init {
    VarSlot Slot;
    uint64_t Size;
    CExprPtr Value;
  };
  llvm::SmallVector<Init, 1> Inits;

public:
  DeclStmtNode(Interpreter &I, DeclStmt *S) {
    for (VarDecl *D : S->decls())
      if (Expr *E = D->getInit()) {
        Init In;
        In.Slot.D = D;
        In.Size = sizeOf(D->getType());
        In.Value = compileExpr(I, E);
        Inits.push_back(std::move(In));
      }
  }
  Lanes run(Interpreter &I, Frame &F, Lanes L) override {
    for (Init &In : Inits) {
      Column V;
      In.Value->run(I, F, L, V);
      In.Slot.get(I, F);
      for (uint32_t K = 0; K < L.size(); ++K)
        std::memcpy(In.Slot.at(L, K, In.Size), V.at(K), In.Size);
    }
    return L;
  }
};

class ExprStmtNode : public CStmt {
  CExprPtr E;

public:
  ExprStmtNode(CExprPtr E) : E(std::move(E)) {}
  Lanes run(Interpreter &I, Frame &F, Lanes L) override {
    Column Ignored;
    E->run(I, F, L, Ignored);
    return L;
  }
};

class NullStmtNode : public CStmt {
public:
  Lanes run(Interpreter &I, Frame &F, Lanes L) override { return L; }
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
  CExprPtr Cond;
  CStmtPtr Then, Else;

public:
  IfStmtNode(Interpreter &I, IfStmt *S)
      : Cond(compileExpr(I, S->getCond())),
        Then(S->getThen() ? compileStmt(I, S->getThen()) : nullptr),
        Else(S->getElse() ? compileStmt(I, S->getElse()) : nullptr) {}
  Lanes run(Interpreter &I, Frame &F, Lanes L) override {
    Column C;
    Cond->run(I, F, L, C);
    Lanes TL, FL;
    if (!split(C, L, TL, FL))
      return runStmt(Then.get(), I, F, std::move(L));
    TL = runStmt(Then.get(), I, F, std::move(TL));
    FL = runStmt(Else.get(), I, F, std::move(FL));
    mergeInto(TL, FL);
    return TL;
  }
};

/// while, do and for (after its init), as execLoop.
class LoopStmt : public CStmt {
  SourceRange R;
  CExprPtr Cond, Inc;
  CStmtPtr Body;
  bool CondFirst;

public:
  LoopStmt(Interpreter &I, Stmt *S, Expr *C, Expr *In, Stmt *B, bool First)
      : R(S->getRange()), Cond(C ? compileExpr(I, C) : nullptr),
        Inc(In ? compileExpr(I, In) : nullptr),
        Body(B ? compileStmt(I, B) : nullptr), CondFirst(First) {}
  Lanes run(Interpreter &I, Frame &F, Lanes L) override {
    Lanes Out, Broken, Continued;
    Lanes *SavedB = F.Broken, *SavedC = F.Continued;
    F.Broken = &Broken;
    F.Continued = &Continued;
    bool First = true;
    Column C;
    while (!L.empty()) {
      I.step(R);
      if (Cond && (CondFirst || !First)) {
        Cond->run(I, F, L, C);
        Lanes Stay, Leave;
        if (split(C, L, Stay, Leave)) {
          mergeInto(Out, Leave);
          L = std::move(Stay);
          if (L.empty())
            break;
        }
      }
      First = false;
      L = runStmt(Body.get(), I, F, std::move(L));
      mergeInto(L, Continued);
      Continued.clear();
      mergeInto(Out, Broken);
      Broken.clear();
      if (Inc && !L.empty()) {
        Column Ignored;
        Inc->run(I, F, L, Ignored);
      }
    }
    F.Broken = SavedB;
    F.Continued = SavedC;
    return Out;
  }
};

class ForStmtNode : public CStmt {
  CStmtPtr Init;
  LoopStmt Loop;

public:
  ForStmtNode(Interpreter &I, ForStmt *S)
      : Init(S->getInit() ? compileStmt(I, S->getInit()) : nullptr),
        Loop(I, S, S->getCond(), S->getInc(), S->getBody(), true) {}
  Lanes run(Interpreter &I, Frame &F, Lanes L) override {
    L = runStmt(Init.get(), I, F, std::move(L));
    if (L.empty())
      return L;
    return Loop.run(I, F, std::move(L));
  }
};

class JumpStmt : public CStmt {
  bool IsBreak;

public:
  JumpStmt(bool IsBreak) : IsBreak(IsBreak) {}
  Lanes run(Interpreter &I, Frame &F, Lanes L) override {
    mergeInto(IsBreak ? *F.Broken : *F.Continued, L);
    return {};
  }
};

class ReturnStmtNode : public CStmt {
  CExprPtr Value;

public:
  ReturnStmtNode(CExprPtr Value) : Value(std::move(Value)) {}
  Lanes run(Interpreter &I, Frame &F, Lanes L) override {
    if (Value) {
      Column C;
      Value->run(I, F, L, C);
      if (F.Ret.Size)
        for (uint32_t K = 0; K < L.size(); ++K)
          std::memcpy(F.Ret.at(L[K]), C.at(K), F.Ret.Size);
    }
    return {};
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
    // Require blocks run hoisted, as the tree walk arranges.
    for (Stmt *X : C->body())
      if (llvm::isa<RequireStmt>(X))
        return std::make_unique<TreeStmt>(S);
    return std::make_unique<BlockStmt>(I, C);
  }
  case Stmt::SK_Decl:
    return std::make_unique<DeclStmtNode>(I, llvm::cast<DeclStmt>(S));
  case Stmt::SK_Expr:
    return std::make_unique<ExprStmtNode>(
        compileExpr(I, llvm::cast<ExprStmt>(S)->getExpr()));
  case Stmt::SK_Null:
    return std::make_unique<NullStmtNode>();
  case Stmt::SK_If:
    return std::make_unique<IfStmtNode>(I, llvm::cast<IfStmt>(S));
  case Stmt::SK_While: {
    auto *W = llvm::cast<WhileStmt>(S);
    return std::make_unique<LoopStmt>(I, S, W->getCond(), nullptr,
                                      W->getBody(), true);
  }
  case Stmt::SK_Do: {
    auto *D = llvm::cast<DoStmt>(S);
    return std::make_unique<LoopStmt>(I, S, D->getCond(), nullptr,
                                      D->getBody(), false);
  }
  case Stmt::SK_For:
    return std::make_unique<ForStmtNode>(I, llvm::cast<ForStmt>(S));
  case Stmt::SK_Break:
    return std::make_unique<JumpStmt>(true);
  case Stmt::SK_Continue:
    return std::make_unique<JumpStmt>(false);
  case Stmt::SK_Return: {
    Expr *V = llvm::cast<ReturnStmt>(S)->getValue();
    return std::make_unique<ReturnStmtNode>(V ? compileExpr(I, V) : nullptr);
  }
  default:
    if (auto *E = llvm::dyn_cast<Expr>(S))
      return std::make_unique<ExprStmtNode>(compileExpr(I, E));
    return std::make_unique<TreeStmt>(S);
  }
}
