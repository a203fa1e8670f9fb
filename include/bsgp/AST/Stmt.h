//===- Stmt.h - statements --------------------------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The statements of the BSGP AST (AST.h describes the whole).
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_AST_STMT_H
#define BSGP_AST_STMT_H

#include "bsgp/AST/Decl.h"

namespace bsgp {

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt {
public:
  enum StmtKind {
    SK_Compound,
    SK_Decl,
    SK_Expr,
    SK_Null,
    SK_If,
    SK_For,
    SK_While,
    SK_Do,
    SK_Break,
    SK_Continue,
    SK_Return,
    SK_Spawn,
    SK_Barrier,
    SK_Require,
    SK_Par,
    SK_Delete,
    // Expressions; keep them last (Expr::classof relies on the order).
    SK_FirstExpr,
    SK_IntegerLiteral = SK_FirstExpr,
    SK_FloatingLiteral,
    SK_BoolLiteral,
    SK_CharLiteral,
    SK_StringLiteral,
    SK_NullLiteral,
    SK_DeclRef,
    SK_Paren,
    SK_Unary,
    SK_Binary,
    SK_Conditional,
    SK_Call,
    SK_BuiltinCall,
    SK_ThreadAttr,
    SK_Index,
    SK_Member,
    SK_Cast,
    SK_ImplicitCast,
    SK_Construct,
    SK_Sizeof,
    SK_New,
    SK_TargetQuery,
    SK_Atomic,
    SK_MathBuiltin,
    SK_InitList,
    SK_Group,
    SK_LastExpr = SK_Group,
  };
  StmtKind getKind() const { return Kind; }
  SourceRange getRange() const { return Range; }
  SourceLocation getBeginLoc() const { return Range.Begin; }

  void *operator new(size_t Size, ASTContext &Ctx);
  void operator delete(void *) {}

protected:
  Stmt(StmtKind K, SourceRange R) : Kind(K), Range(R) {}

private:
  StmtKind Kind;
  SourceRange Range;
};

class CompoundStmt : public Stmt {
public:
  CompoundStmt(SourceRange R, llvm::ArrayRef<Stmt *> Body)
      : Stmt(SK_Compound, R), Body(Body) {}
  llvm::ArrayRef<Stmt *> body() const { return Body; }
  /// Variables introduced in this block by a first assignment (inferred
  /// locals), in order of appearance. Set by Sema.
  llvm::ArrayRef<VarDecl *> getImplicitDecls() const { return Implicit; }
  void setImplicitDecls(llvm::ArrayRef<VarDecl *> D) { Implicit = D; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Compound; }

private:
  llvm::ArrayRef<Stmt *> Body;
  llvm::ArrayRef<VarDecl *> Implicit;
};

/// `int a = 1, *b;` or `auto x = e;`.
class DeclStmt : public Stmt {
public:
  DeclStmt(SourceRange R, llvm::ArrayRef<VarDecl *> Decls)
      : Stmt(SK_Decl, R), Decls(Decls) {}
  llvm::ArrayRef<VarDecl *> decls() const { return Decls; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Decl; }

private:
  llvm::ArrayRef<VarDecl *> Decls;
};

class ExprStmt : public Stmt {
public:
  ExprStmt(SourceRange R, Expr *E) : Stmt(SK_Expr, R), E(E) {}
  Expr *getExpr() const { return E; }
  void setExpr(Expr *X) { E = X; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Expr; }

private:
  Expr *E;
};

class NullStmt : public Stmt {
public:
  explicit NullStmt(SourceRange R) : Stmt(SK_Null, R) {}
  static bool classof(const Stmt *S) { return S->getKind() == SK_Null; }
};

class IfStmt : public Stmt {
public:
  IfStmt(SourceRange R, Expr *Cond, Stmt *Then, Stmt *Else)
      : Stmt(SK_If, R), Cond(Cond), Then(Then), Else(Else) {}
  Expr *getCond() const { return Cond; }
  void setCond(Expr *E) { Cond = E; }
  Stmt *getThen() const { return Then; }
  Stmt *getElse() const { return Else; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_If; }

private:
  Expr *Cond;
  Stmt *Then, *Else;
};

/// `for (Init; Cond; Inc) Body`; every part but Body may be null. A
/// declaration in Init is scoped to the loop.
class ForStmt : public Stmt {
public:
  ForStmt(SourceRange R, Stmt *Init, Expr *Cond, Expr *Inc, Stmt *Body)
      : Stmt(SK_For, R), Init(Init), Cond(Cond), Inc(Inc), Body(Body) {}
  Stmt *getInit() const { return Init; }
  Expr *getCond() const { return Cond; }
  void setCond(Expr *E) { Cond = E; }
  Expr *getInc() const { return Inc; }
  void setInc(Expr *E) { Inc = E; }
  Stmt *getBody() const { return Body; }
  /// Inferred locals introduced by the Init clause (`for (i = 0; ...)`).
  llvm::ArrayRef<VarDecl *> getImplicitDecls() const { return Implicit; }
  void setImplicitDecls(llvm::ArrayRef<VarDecl *> D) { Implicit = D; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_For; }

private:
  Stmt *Init;
  Expr *Cond, *Inc;
  Stmt *Body;
  llvm::ArrayRef<VarDecl *> Implicit;
};

class WhileStmt : public Stmt {
public:
  WhileStmt(SourceRange R, Expr *Cond, Stmt *Body)
      : Stmt(SK_While, R), Cond(Cond), Body(Body) {}
  Expr *getCond() const { return Cond; }
  void setCond(Expr *E) { Cond = E; }
  Stmt *getBody() const { return Body; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_While; }

private:
  Expr *Cond;
  Stmt *Body;
};

class DoStmt : public Stmt {
public:
  DoStmt(SourceRange R, Stmt *Body, Expr *Cond)
      : Stmt(SK_Do, R), Body(Body), Cond(Cond) {}
  Stmt *getBody() const { return Body; }
  Expr *getCond() const { return Cond; }
  void setCond(Expr *E) { Cond = E; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Do; }

private:
  Stmt *Body;
  Expr *Cond;
};

class BreakStmt : public Stmt {
public:
  explicit BreakStmt(SourceRange R) : Stmt(SK_Break, R) {}
  static bool classof(const Stmt *S) { return S->getKind() == SK_Break; }
};

class ContinueStmt : public Stmt {
public:
  explicit ContinueStmt(SourceRange R) : Stmt(SK_Continue, R) {}
  static bool classof(const Stmt *S) { return S->getKind() == SK_Continue; }
};

class ReturnStmt : public Stmt {
public:
  ReturnStmt(SourceRange R, Expr *Value) : Stmt(SK_Return, R), Value(Value) {}
  Expr *getValue() const { return Value; }
  void setValue(Expr *E) { Value = E; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Return; }

private:
  Expr *Value;
};

/// `ddelete List;`: frees a list that `dnew` made (host code).
class DeleteStmt : public Stmt {
public:
  DeleteStmt(SourceRange R, Expr *List) : Stmt(SK_Delete, R), List(List) {}
  Expr *getList() const { return List; }
  void setList(Expr *E) { List = E; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Delete; }

private:
  Expr *List;
};

/// `spawn (Count) { ... }`: runs Body in Count GPU threads. `spawn (nx, ny)`
/// and `spawn (nx, ny, nz)` give the threads a domain of 2 or 3 dimensions
/// of nx * ny (* nz) threads (docs/language.md, "Spawn domains").
class SpawnStmt : public Stmt {
public:
  SpawnStmt(SourceRange R, llvm::MutableArrayRef<Expr *> Extents,
            CompoundStmt *Body)
      : Stmt(SK_Spawn, R), Extents(Extents), Body(Body) {}
  /// The domain's extents, 1 to 3 of them, x first.
  llvm::MutableArrayRef<Expr *> getExtents() const { return Extents; }
  unsigned getNumDims() const { return Extents.size(); }
  CompoundStmt *getBody() const { return Body; }
  /// The CUDA block size `[[block_size(N)]]` asks for; 0 lets the runtime
  /// choose.
  unsigned getBlockSize() const { return BlockSize; }
  void setBlockSize(unsigned N) { BlockSize = N; }
  /// The thread blocks per multiprocessor `[[min_blocks(N)]]` asks the CUDA
  /// code generator to fit (registers permitting); 0 for none.
  unsigned getMinBlocks() const { return MinBlocks; }
  void setMinBlocks(unsigned N) { MinBlocks = N; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Spawn; }

private:
  llvm::MutableArrayRef<Expr *> Extents;
  CompoundStmt *Body;
  unsigned BlockSize = 0;
  unsigned MinBlocks = 0;
};

/// `barrier;` or `barrier(RANK_REASSIGNED);`.
class BarrierStmt : public Stmt {
public:
  BarrierStmt(SourceRange R, bool RankReassigned)
      : Stmt(SK_Barrier, R), RankReassigned(RankReassigned) {}
  bool isRankReassigned() const { return RankReassigned; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Barrier; }

private:
  bool RankReassigned;
};

/// `require stmt` / `require { ... }`: host code run before the enclosing
/// superstep is launched. It opens no scope: variables first assigned in it
/// belong to the enclosing block and are host variables.
class RequireStmt : public Stmt {
public:
  RequireStmt(SourceRange R, Stmt *Body) : Stmt(SK_Require, R), Body(Body) {}
  Stmt *getBody() const { return Body; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Require; }

private:
  Stmt *Body;
};

/// `par { s1; s2; ... }`: the statements are independent; their barriers are
/// aligned.
class ParStmt : public Stmt {
public:
  ParStmt(SourceRange R, CompoundStmt *Body) : Stmt(SK_Par, R), Body(Body) {}
  CompoundStmt *getBody() const { return Body; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Par; }

private:
  CompoundStmt *Body;
};

} // namespace bsgp

#endif // BSGP_AST_STMT_H
