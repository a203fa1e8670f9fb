//===- AST.h - BSGP declarations, statements and expressions ----*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The AST is a faithful picture of the source: every node keeps its
/// SourceRange (Begin and End are the first and last character), and the
/// parser does not rewrite anything. Nodes live in the ASTContext's allocator
/// and are never destroyed, so they hold only trivially destructible members
/// (arrays are ArrayRefs into the same allocator).
///
/// Node classes.
///  - Decl: VarDecl (global, parameter, local; explicit, `auto` or inferred),
///    FunctionDecl, StructDecl, FieldDecl, TypedefDecl, ImportDecl.
///  - Stmt: CompoundStmt, DeclStmt, ExprStmt, NullStmt, IfStmt, ForStmt,
///    WhileStmt, DoStmt, BreakStmt, ContinueStmt, ReturnStmt, and the BSGP
///    statements SpawnStmt, BarrierStmt, RequireStmt, ParStmt.
///  - Expr: IntegerLiteral, FloatingLiteral, BoolLiteral, CharLiteral,
///    StringLiteral, NullLiteral, DeclRefExpr, ParenExpr, UnaryOperator,
///    BinaryOperator (assignments, compound assignments and ',' included),
///    ConditionalOperator, CallExpr, BuiltinCallExpr (thread.get/put/fork/
///    kill/sortby/split, reduce, scan, compact, split, sort_idx),
///    ThreadAttrExpr (thread.rank/size/oldrank), IndexExpr, MemberExpr
///    (struct fields and vector components/swizzles), CastExpr,
///    ImplicitCastExpr, ConstructExpr (`float4(...)`, `int(x)`), SizeofExpr,
///    NewExpr (dnew / dtempnew), TargetQueryExpr (target.cpu/cuda/spirv),
///    AtomicExpr (atomicAdd, ..., atomicCAS).
///
/// What Sema guarantees when bsgp::parseAndAnalyze() succeeds (no error):
///  - Every Expr has a non-null getType(), never the ErrorType. Types are
///    interned; compare them by pointer. Top-level const may appear on the
///    type of an lvalue (a `const int` variable); rvalue results are
///    unqualified.
///  - isLValue() is set on expressions that denote storage: DeclRefExpr to a
///    variable, IndexExpr, `*p`, MemberExpr of an lvalue or through `->`,
///    thread.oldrank, and ParenExpr around those. An lvalue used as a value
///    means a load: there is no explicit lvalue-to-rvalue cast.
///  - Every other conversion is an ImplicitCastExpr whose getType() is the
///    target type: the usual arithmetic conversions of C (bool and char are
///    promoted to int; the wider type wins; same width: unsigned wins),
///    conversions to the declared type on initialization, assignment, call
///    arguments and return, ToBool on every condition (if/for/while/do, `!`,
///    `&&`, `||`, `?:`), ArrayToPointer decay of arrays used as values,
///    NullToPointer, VectorSplat of scalars mixed with vectors. The two
///    operands of an arithmetic, bitwise or comparison operator on
///    arithmetic or vector types therefore have the same type (the result
///    type, or bool for comparisons). Shift operands are promoted
///    separately; in pointer arithmetic (`p + i`, `p - q`) and pointer
///    comparisons the operands keep their types, except NULL, which is
///    converted to the other pointer type. A compound assignment's RHS is
///    converted to getComputationType(). IndexExpr may index an array lvalue
///    directly (no decay) or a pointer.
///  - Every DeclRefExpr has getDecl(): a VarDecl or, for a callee, a
///    FunctionDecl (the definition when there is one). CallExpr::
///    getDirectCallee() is therefore never null. MemberExpr has getField()
///    for structs or getComponents() for vectors.
///  - Inferred locals: the first assignment `x = e;` to an unknown name
///    creates a VarDecl (isImplicit(), Local, type = type of e after array
///    decay, Init = e) listed in getImplicitDecls() of the innermost
///    enclosing CompoundStmt (or of a ForStmt for its init clause); a
///    `require` block opens no scope, so its inferred locals belong to the
///    block around it. The defining DeclRefExpr has isDefinition(). Later
///    assignments to the same name are plain assignments.
///  - VarDecl::isHost(): false for variables declared or first assigned in a
///    spawn body (outside require) and for locals and parameters of inline
///    functions; true otherwise (globals, host locals and parameters,
///    variables of require blocks, which also have isRequireDecl()).
///  - FunctionDecl::getFunctionType() is set; getReturnType() is void when
///    the return type was omitted. getFunctionKind(): FK_Collective for an
///    inline function that (transitively) contains a barrier or collective
///    primitive, FK_Host for main, extern "C" functions and functions
///    containing spawn, FK_Device otherwise.
///  - The BSGP rules hold: spawn only in host code and never nested; barrier,
///    thread.*, collectives and par only inside a spawn body or an inline
///    function; require only there and not nested; no collective under
///    thread-dependent control flow; no recursion among collective functions;
///    device code does not assign host variables; dnew/dtempnew only in host
///    code (including require blocks).
///  - Every declaration's tree is at most ParseSession::MaxTreeDepth deep, so
///    recursive walkers (like the dumper) cannot exhaust the stack.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_AST_AST_H
#define BSGP_AST_AST_H

#include "bsgp/AST/Type.h"
#include "bsgp/Basic/SourceManager.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"

namespace bsgp {

class ASTContext;
class CompoundStmt;
class FunctionTemplateDecl;
class Expr;
class Stmt;

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

class Decl {
public:
  enum DeclKind {
    DK_Var,
    DK_Function,
    DK_Struct,
    DK_Field,
    DK_Typedef,
    DK_Import,
    DK_FunctionTemplate
  };
  DeclKind getKind() const { return Kind; }
  SourceRange getRange() const { return Range; }
  SourceLocation getLoc() const { return NameLoc; }
  llvm::StringRef getName() const { return Name; }
  /// Renames the declaration (Sema names a template instantiation by its
  /// mangled name, docs/language.md "Generic functions").
  void setName(llvm::StringRef N) { Name = N; }

  void *operator new(size_t Size, ASTContext &Ctx);
  void operator delete(void *) {}

protected:
  Decl(DeclKind K, SourceRange R, SourceLocation NameLoc, llvm::StringRef Name)
      : Kind(K), Range(R), NameLoc(NameLoc), Name(Name) {}

private:
  DeclKind Kind;
  SourceRange Range;
  SourceLocation NameLoc;
  llvm::StringRef Name;
};

class VarDecl : public Decl {
public:
  enum StorageKind { Global, Param, Local };
  VarDecl(SourceRange R, SourceLocation NameLoc, llvm::StringRef Name,
          const Type *T, Expr *Init, StorageKind S)
      : Decl(DK_Var, R, NameLoc, Name), Ty(T), Init(Init), Storage(S) {}

  /// The declared type; for `auto` and inferred locals, set by Sema.
  const Type *getType() const { return Ty; }
  void setType(const Type *T) { Ty = T; }
  Expr *getInit() const { return Init; }
  void setInit(Expr *E) { Init = E; }
  StorageKind getStorage() const { return Storage; }

  /// Declared by `auto x = e;`.
  bool isAuto() const { return IsAuto; }
  void setAuto(bool V) { IsAuto = V; }
  /// Introduced by its first assignment, with no declaration in the source.
  bool isImplicit() const { return IsImplicit; }
  void setImplicit(bool V) { IsImplicit = V; }
  /// Lives on the host (parameters, host locals, globals, variables first
  /// assigned in a require block). Variables of a spawn body are
  /// thread-local (isHost() false). Set by Sema.
  bool isHost() const { return IsHost; }
  void setHost(bool V) { IsHost = V; }
  /// Declared inside a require block.
  bool isRequireDecl() const { return IsRequire; }
  void setRequireDecl(bool V) { IsRequire = V; }
  bool isRead() const { return IsRead; }
  void setRead() { IsRead = true; }
  /// Declared `local T a[N];`: one array shared by the threads of a work
  /// group (CUDA __shared__), not a private array.
  bool isGroupLocal() const { return IsGroupLocal; }
  void setGroupLocal(bool V) { IsGroupLocal = V; }

  static bool classof(const Decl *D) { return D->getKind() == DK_Var; }

private:
  const Type *Ty;
  Expr *Init;
  StorageKind Storage;
  bool IsAuto = false, IsImplicit = false, IsHost = true, IsRequire = false,
       IsRead = false, IsGroupLocal = false;
};

class FunctionDecl : public Decl {
public:
  /// Classification computed by Sema (docs/language.md, "Function kinds").
  enum FunctionKind {
    FK_Device,     ///< Callable from host and device code.
    FK_Host,       ///< Contains spawn, is main, calls host-only things, or
                   ///< is extern "C".
    FK_Collective, ///< inline and contains barriers or collectives.
  };

  FunctionDecl(SourceRange R, SourceLocation NameLoc, llvm::StringRef Name,
               const Type *WrittenRet, llvm::ArrayRef<VarDecl *> Params,
               CompoundStmt *Body)
      : Decl(DK_Function, R, NameLoc, Name), WrittenRet(WrittenRet),
        Params(Params), Body(Body) {}

  /// The return type as written; null when omitted (the function returns
  /// void, as `findFaces(...) {` in the paper).
  const Type *getWrittenReturnType() const { return WrittenRet; }
  const Type *getReturnType() const;
  llvm::ArrayRef<VarDecl *> getParams() const { return Params; }
  CompoundStmt *getBody() const { return Body; }
  bool isDefinition() const { return Body != nullptr; }

  bool isInline() const { return IsInline; }
  void setInline(bool V) { IsInline = V; }
  bool isExternC() const { return IsExternC; }
  void setExternC(bool V) { IsExternC = V; }
  bool isVarargs() const { return IsVarargs; }
  void setVarargs(bool V) { IsVarargs = V; }
  /// What `[[library(kind)]]` says a function of the collective library
  /// is (MLIRGen's #bsgp.library<kind>); empty if not annotated.
  llvm::StringRef getLibraryKind() const { return LibraryKind; }
  void setLibraryKind(llvm::StringRef K) { LibraryKind = K; }

  const FunctionType *getFunctionType() const { return FnTy; }
  void setFunctionType(const FunctionType *T) { FnTy = T; }
  FunctionKind getFunctionKind() const { return FKind; }
  void setFunctionKind(FunctionKind K) { FKind = K; }

  /// For an instantiation of a generic function (`f<int>`): the template
  /// it was instantiated from and its arguments; null otherwise. Every
  /// program that uses an instantiation defines its own (private) copy.
  FunctionTemplateDecl *getInstantiatedFrom() const { return From; }
  llvm::ArrayRef<const Type *> getTemplateArgs() const { return TArgs; }
  void setInstantiatedFrom(FunctionTemplateDecl *T,
                           llvm::ArrayRef<const Type *> Args) {
    From = T;
    TArgs = Args;
  }

  /// A function of the collective library that the program does not
  /// reach: Sema did not check it and MLIRGen does not emit it.
  bool isUnchecked() const { return IsUnchecked; }
  void setUnchecked(bool V) { IsUnchecked = V; }

  static bool classof(const Decl *D) { return D->getKind() == DK_Function; }

private:
  const Type *WrittenRet;
  llvm::ArrayRef<VarDecl *> Params;
  CompoundStmt *Body;
  const FunctionType *FnTy = nullptr;
  FunctionKind FKind = FK_Device;
  bool IsInline = false, IsExternC = false, IsVarargs = false,
       IsUnchecked = false;
  llvm::StringRef LibraryKind;
  FunctionTemplateDecl *From = nullptr;
  llvm::ArrayRef<const Type *> TArgs;
};

/// `template <typename T, ...> function-definition`: a generic function.
/// The parser reads the function once with each parameter standing for a
/// placeholder type (getPattern(), never checked, used for deduction and
/// to classify calls); Sema instantiates it on demand by parsing the
/// definition again (from getFileId()/getOffset()) with the parameters
/// naming the argument types, which gives an ordinary FunctionDecl.
class FunctionTemplateDecl : public Decl {
public:
  FunctionTemplateDecl(SourceRange R, SourceLocation NameLoc,
                       llvm::StringRef Name,
                       llvm::ArrayRef<llvm::StringRef> ParamNames,
                       llvm::ArrayRef<const Type *> Placeholders,
                       FunctionDecl *Pattern, uint32_t FileId, size_t Offset)
      : Decl(DK_FunctionTemplate, R, NameLoc, Name), ParamNames(ParamNames),
        Placeholders(Placeholders), Pattern(Pattern), FileId(FileId),
        Offset(Offset) {}
  llvm::ArrayRef<llvm::StringRef> getParamNames() const { return ParamNames; }
  /// The type each parameter stands for in getPattern().
  llvm::ArrayRef<const Type *> getPlaceholders() const { return Placeholders; }
  FunctionDecl *getPattern() const { return Pattern; }
  uint32_t getFileId() const { return FileId; }
  /// Byte offset of the function definition after the template header.
  size_t getOffset() const { return Offset; }
  static bool classof(const Decl *D) {
    return D->getKind() == DK_FunctionTemplate;
  }

private:
  llvm::ArrayRef<llvm::StringRef> ParamNames;
  llvm::ArrayRef<const Type *> Placeholders;
  FunctionDecl *Pattern;
  uint32_t FileId;
  size_t Offset;
};

class FieldDecl : public Decl {
public:
  FieldDecl(SourceRange R, SourceLocation NameLoc, llvm::StringRef Name,
            const Type *T, unsigned Index)
      : Decl(DK_Field, R, NameLoc, Name), Ty(T), Index(Index) {}
  const Type *getType() const { return Ty; }
  unsigned getIndex() const { return Index; }
  static bool classof(const Decl *D) { return D->getKind() == DK_Field; }

private:
  const Type *Ty;
  unsigned Index;
};

class StructDecl : public Decl {
public:
  StructDecl(SourceRange R, SourceLocation NameLoc, llvm::StringRef Name,
             StructType *T, llvm::ArrayRef<FieldDecl *> Fields)
      : Decl(DK_Struct, R, NameLoc, Name), Ty(T), Fields(Fields) {}
  StructType *getType() const { return Ty; }
  llvm::ArrayRef<FieldDecl *> getFields() const { return Fields; }
  FieldDecl *getField(llvm::StringRef Name) const {
    for (FieldDecl *F : Fields)
      if (F->getName() == Name)
        return F;
    return nullptr;
  }
  static bool classof(const Decl *D) { return D->getKind() == DK_Struct; }

private:
  StructType *Ty;
  llvm::ArrayRef<FieldDecl *> Fields;
};

class TypedefDecl : public Decl {
public:
  TypedefDecl(SourceRange R, SourceLocation NameLoc, llvm::StringRef Name,
              const Type *T)
      : Decl(DK_Typedef, R, NameLoc, Name), Ty(T) {}
  const Type *getUnderlyingType() const { return Ty; }
  static bool classof(const Decl *D) { return D->getKind() == DK_Typedef; }

private:
  const Type *Ty;
};

/// `import "file.bsgp";`. getName() is the path as written.
class ImportDecl : public Decl {
public:
  ImportDecl(SourceRange R, llvm::StringRef Path)
      : Decl(DK_Import, R, R.Begin, Path) {}
  /// The SourceManager file id of the imported file; 0 until resolved.
  uint32_t getImportedFile() const { return FileId; }
  void setImportedFile(uint32_t Id) { FileId = Id; }
  static bool classof(const Decl *D) { return D->getKind() == DK_Import; }

private:
  uint32_t FileId = 0;
};

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

/// `spawn (Count) { ... }`: runs Body in Count GPU threads.
class SpawnStmt : public Stmt {
public:
  SpawnStmt(SourceRange R, Expr *Count, CompoundStmt *Body)
      : Stmt(SK_Spawn, R), Count(Count), Body(Body) {}
  Expr *getCount() const { return Count; }
  void setCount(Expr *E) { Count = E; }
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
  Expr *Count;
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

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

class Expr : public Stmt {
public:
  /// The type computed by Sema (null before Sema runs).
  const Type *getType() const { return Ty; }
  void setType(const Type *T) { Ty = T; }
  bool isLValue() const { return LValue; }
  void setLValue(bool V) { LValue = V; }
  /// Skips ParenExpr and ImplicitCastExpr.
  Expr *ignoreParenImpCasts();

  static bool classof(const Stmt *S) {
    return S->getKind() >= SK_FirstExpr && S->getKind() <= SK_LastExpr;
  }

protected:
  Expr(StmtKind K, SourceRange R) : Stmt(K, R) {}

private:
  const Type *Ty = nullptr;
  bool LValue = false;
};

class IntegerLiteral : public Expr {
public:
  IntegerLiteral(SourceRange R, uint64_t V, bool Unsigned, bool Long)
      : Expr(SK_IntegerLiteral, R), Value(V), Unsigned(Unsigned), Long(Long) {}
  uint64_t getValue() const { return Value; }
  bool hasUnsignedSuffix() const { return Unsigned; }
  bool hasLongSuffix() const { return Long; }
  static bool classof(const Stmt *S) {
    return S->getKind() == SK_IntegerLiteral;
  }

private:
  uint64_t Value;
  bool Unsigned, Long;
};

class FloatingLiteral : public Expr {
public:
  /// \p IsFloat: written with an `f` suffix (type float, otherwise double).
  FloatingLiteral(SourceRange R, double V, bool IsFloat)
      : Expr(SK_FloatingLiteral, R), Value(V), IsFloat(IsFloat) {}
  double getValue() const { return Value; }
  bool hasFloatSuffix() const { return IsFloat; }
  static bool classof(const Stmt *S) {
    return S->getKind() == SK_FloatingLiteral;
  }

private:
  double Value;
  bool IsFloat;
};

class BoolLiteral : public Expr {
public:
  BoolLiteral(SourceRange R, bool V) : Expr(SK_BoolLiteral, R), Value(V) {}
  bool getValue() const { return Value; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_BoolLiteral; }

private:
  bool Value;
};

class CharLiteral : public Expr {
public:
  CharLiteral(SourceRange R, unsigned char V)
      : Expr(SK_CharLiteral, R), Value(V) {}
  unsigned char getValue() const { return Value; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_CharLiteral; }

private:
  unsigned char Value;
};

/// A string literal; getValue() has escapes decoded (no terminating NUL).
class StringLiteral : public Expr {
public:
  StringLiteral(SourceRange R, llvm::StringRef V)
      : Expr(SK_StringLiteral, R), Value(V) {}
  llvm::StringRef getValue() const { return Value; }
  static bool classof(const Stmt *S) {
    return S->getKind() == SK_StringLiteral;
  }

private:
  llvm::StringRef Value;
};

class NullLiteral : public Expr {
public:
  explicit NullLiteral(SourceRange R) : Expr(SK_NullLiteral, R) {}
  static bool classof(const Stmt *S) { return S->getKind() == SK_NullLiteral; }
};

/// A name: a variable or a function.
class DeclRefExpr : public Expr {
public:
  DeclRefExpr(SourceRange R, llvm::StringRef Name)
      : Expr(SK_DeclRef, R), Name(Name) {}
  llvm::StringRef getName() const { return Name; }
  Decl *getDecl() const { return D; }
  void setDecl(Decl *X) { D = X; }
  /// This reference is the first assignment that introduces an inferred
  /// local (`rk = thread.rank;`).
  bool isDefinition() const { return IsDef; }
  void setDefinition(bool V) { IsDef = V; }
  /// Explicit template arguments: `f<int, float>`.
  bool hasTemplateArgs() const { return HasTArgs; }
  llvm::ArrayRef<const Type *> getTemplateArgs() const { return TArgs; }
  void setTemplateArgs(llvm::ArrayRef<const Type *> Args) {
    TArgs = Args;
    HasTArgs = true;
  }
  static bool classof(const Stmt *S) { return S->getKind() == SK_DeclRef; }

private:
  llvm::StringRef Name;
  Decl *D = nullptr;
  bool IsDef = false, HasTArgs = false;
  llvm::ArrayRef<const Type *> TArgs;
};

class ParenExpr : public Expr {
public:
  ParenExpr(SourceRange R, Expr *Sub) : Expr(SK_Paren, R), Sub(Sub) {}
  Expr *getSubExpr() const { return Sub; }
  void setSubExpr(Expr *E) { Sub = E; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Paren; }

private:
  Expr *Sub;
};

class UnaryOperator : public Expr {
public:
  enum Opcode {
    Plus,
    Minus,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec
  };
  UnaryOperator(SourceRange R, Opcode Op, Expr *Sub, SourceLocation OpLoc)
      : Expr(SK_Unary, R), Op(Op), Sub(Sub), OpLoc(OpLoc) {}
  Opcode getOpcode() const { return Op; }
  Expr *getSubExpr() const { return Sub; }
  void setSubExpr(Expr *E) { Sub = E; }
  SourceLocation getOperatorLoc() const { return OpLoc; }
  static const char *getSpelling(Opcode Op);
  static bool classof(const Stmt *S) { return S->getKind() == SK_Unary; }

private:
  Opcode Op;
  Expr *Sub;
  SourceLocation OpLoc;
};

class BinaryOperator : public Expr {
public:
  enum Opcode {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    LT,
    GT,
    LE,
    GE,
    EQ,
    NE,
    And,
    Xor,
    Or,
    LAnd,
    LOr,
    Assign,
    MulAssign,
    DivAssign,
    RemAssign,
    AddAssign,
    SubAssign,
    ShlAssign,
    ShrAssign,
    AndAssign,
    XorAssign,
    OrAssign,
    Comma
  };
  BinaryOperator(SourceRange R, Opcode Op, Expr *L, Expr *Rhs,
                 SourceLocation OpLoc)
      : Expr(SK_Binary, R), Op(Op), L(L), Rhs(Rhs), OpLoc(OpLoc) {}
  Opcode getOpcode() const { return Op; }
  Expr *getLHS() const { return L; }
  Expr *getRHS() const { return Rhs; }
  void setLHS(Expr *E) { L = E; }
  void setRHS(Expr *E) { Rhs = E; }
  SourceLocation getOperatorLoc() const { return OpLoc; }
  bool isAssignmentOp() const { return Op >= Assign && Op <= OrAssign; }
  bool isCompoundAssignmentOp() const { return Op > Assign && Op <= OrAssign; }
  /// For a compound assignment, the arithmetic operator it applies.
  static Opcode getBaseOp(Opcode Op);
  static const char *getSpelling(Opcode Op);
  /// The type of the computation for a compound assignment (the LHS type
  /// is the result). Set by Sema.
  const Type *getComputationType() const { return CompTy; }
  void setComputationType(const Type *T) { CompTy = T; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Binary; }

private:
  Opcode Op;
  Expr *L, *Rhs;
  SourceLocation OpLoc;
  const Type *CompTy = nullptr;
};

class ConditionalOperator : public Expr {
public:
  ConditionalOperator(SourceRange R, Expr *C, Expr *T, Expr *F)
      : Expr(SK_Conditional, R), C(C), T(T), F(F) {}
  Expr *getCond() const { return C; }
  Expr *getTrueExpr() const { return T; }
  Expr *getFalseExpr() const { return F; }
  void setCond(Expr *E) { C = E; }
  void setTrueExpr(Expr *E) { T = E; }
  void setFalseExpr(Expr *E) { F = E; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Conditional; }

private:
  Expr *C, *T, *F;
};

class CallExpr : public Expr {
public:
  CallExpr(SourceRange R, Expr *Callee, llvm::MutableArrayRef<Expr *> Args)
      : Expr(SK_Call, R), Callee(Callee), Args(Args) {}
  Expr *getCallee() const { return Callee; }
  llvm::MutableArrayRef<Expr *> args() const { return Args; }
  /// The called function, when the callee names one. Set by Sema.
  FunctionDecl *getDirectCallee() const;
  static bool classof(const Stmt *S) { return S->getKind() == SK_Call; }

private:
  Expr *Callee;
  llvm::MutableArrayRef<Expr *> Args;
};

/// A BSGP primitive: thread.get/put/fork/kill/sortby/split/rebind and the
/// collectives reduce, scan, compact, split, sort_idx. MLIRGen maps each kind
/// but get, put and rebind to a call of the BSGP library function
/// implementing it. The collective library itself also has
/// __bsgp_chunk_reduce(op, x, list) and __bsgp_chunk_scan(op, x, list),
/// which become the bsgp.chunk_reduce and bsgp.chunk_scan ops
/// (accumulation over a CPU chunk of ranks), __bsgp_group_lookback(v,
/// status) (bsgp.group_lookback: v summed over the work groups before the
/// caller's) and __bsgp_single_pass() (bsgp.single_pass: may the collective
/// skip its barrier here).
class BuiltinCallExpr : public Expr {
public:
  enum BuiltinKind {
    ThreadGet,
    ThreadPut,
    ThreadFork,
    ThreadKill,
    ThreadSortBy,
    ThreadSplit,
    Reduce,
    Scan,
    Compact,
    Split,
    SortIdx,
    ThreadRebind,
    ChunkReduce,
    ChunkScan,
    GroupLookback,
    SinglePass
  };
  /// The operator of reduce and scan.
  enum ReduceOp { None, OpAdd, OpMul, OpMin, OpMax, OpAnd, OpOr, OpXor };

  BuiltinCallExpr(SourceRange R, BuiltinKind K, ReduceOp Op,
                  SourceRange OpRange, llvm::MutableArrayRef<Expr *> Args)
      : Expr(SK_BuiltinCall, R), BKind(K), Op(Op), OpRange(OpRange),
        Args(Args) {}
  BuiltinKind getBuiltinKind() const { return BKind; }
  ReduceOp getReduceOp() const { return Op; }
  SourceRange getReduceOpRange() const { return OpRange; }
  /// The value arguments (reduce/scan and the chunk builtins: the operator
  /// is not among them).
  llvm::MutableArrayRef<Expr *> args() const { return Args; }
  static const char *getName(BuiltinKind K);
  static const char *getOpSpelling(ReduceOp Op);
  /// True for the kinds written with an operator first (`reduce(+, x)`).
  static bool hasReduceOp(BuiltinKind K) {
    return K == Reduce || K == Scan || K == ChunkReduce || K == ChunkScan;
  }
  /// True for the builtins that only the collective library may call.
  static bool isLibraryOnly(BuiltinKind K) {
    return K == ChunkReduce || K == ChunkScan || K == GroupLookback ||
           K == SinglePass;
  }
  /// True for the primitives that synchronize all threads (everything but
  /// get, put and kill... which still must run in a spawn). The chunk
  /// builtins count too: every thread must reach them.
  static bool isCollective(BuiltinKind K);
  static bool classof(const Stmt *S) { return S->getKind() == SK_BuiltinCall; }

private:
  BuiltinKind BKind;
  ReduceOp Op;
  SourceRange OpRange;
  llvm::MutableArrayRef<Expr *> Args;
};

/// thread.rank, thread.size, thread.oldrank.
class ThreadAttrExpr : public Expr {
public:
  enum Attr { Rank, Size, OldRank };
  ThreadAttrExpr(SourceRange R, Attr A) : Expr(SK_ThreadAttr, R), A(A) {}
  Attr getAttr() const { return A; }
  static const char *getName(Attr A);
  static bool classof(const Stmt *S) { return S->getKind() == SK_ThreadAttr; }

private:
  Attr A;
};

/// The work-group and subgroup queries and operations: group.rank,
/// group.size, group.id, group.count, group.barrier(), subgroup.rank,
/// subgroup.size, subgroup.shuffle*(x, n), subgroup.any/all/ballot(c),
/// subgroup.add/min/max/and/or/xor(x), subgroup.match(x).
class GroupExpr : public Expr {
public:
  enum GroupOp {
    GroupRank,
    GroupSize,
    GroupId,
    GroupCount,
    GroupBarrier,
    SubgroupRank,
    SubgroupSize,
    Shuffle,
    ShuffleXor,
    ShuffleUp,
    ShuffleDown,
    Any,
    All,
    Ballot,
    SubgroupAdd,
    SubgroupMin,
    SubgroupMax,
    SubgroupAnd,
    SubgroupOr,
    SubgroupXor,
    SubgroupMatch
  };
  GroupExpr(SourceRange R, GroupOp Op, llvm::MutableArrayRef<Expr *> Args)
      : Expr(SK_Group, R), Op(Op), Args(Args) {}
  GroupOp getGroupOp() const { return Op; }
  /// The arguments of the calls; empty for the queries.
  llvm::MutableArrayRef<Expr *> args() const { return Args; }
  /// The queries are written without parentheses, the others are calls.
  static bool isQuery(GroupOp Op);
  /// The name as written, e.g. "subgroup.shuffle_xor".
  static const char *getName(GroupOp Op);
  static bool classof(const Stmt *S) { return S->getKind() == SK_Group; }

private:
  GroupOp Op;
  llvm::MutableArrayRef<Expr *> Args;
};

class IndexExpr : public Expr {
public:
  IndexExpr(SourceRange R, Expr *Base, Expr *Index)
      : Expr(SK_Index, R), Base(Base), Index(Index) {}
  Expr *getBase() const { return Base; }
  Expr *getIndex() const { return Index; }
  void setBase(Expr *E) { Base = E; }
  void setIndex(Expr *E) { Index = E; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Index; }

private:
  Expr *Base, *Index;
};

/// `s.f`, `p->f`, or a vector component access `v.x` / swizzle `v.xy`.
class MemberExpr : public Expr {
public:
  MemberExpr(SourceRange R, Expr *Base, llvm::StringRef Member, bool IsArrow,
             SourceLocation MemberLoc)
      : Expr(SK_Member, R), Base(Base), Member(Member), IsArrow(IsArrow),
        MemberLoc(MemberLoc) {}
  Expr *getBase() const { return Base; }
  void setBase(Expr *E) { Base = E; }
  llvm::StringRef getMemberName() const { return Member; }
  bool isArrow() const { return IsArrow; }
  SourceLocation getMemberLoc() const { return MemberLoc; }
  /// The struct field, or null for a vector component access.
  FieldDecl *getField() const { return Field; }
  void setField(FieldDecl *F) { Field = F; }
  /// For vector accesses: the component indices (0..3) in order.
  llvm::ArrayRef<unsigned> getComponents() const { return Components; }
  void setComponents(llvm::ArrayRef<unsigned> C) { Components = C; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Member; }

private:
  Expr *Base;
  llvm::StringRef Member;
  bool IsArrow;
  SourceLocation MemberLoc;
  FieldDecl *Field = nullptr;
  llvm::ArrayRef<unsigned> Components;
};

/// `(T)e` as written.
class CastExpr : public Expr {
public:
  CastExpr(SourceRange R, const Type *To, Expr *Sub)
      : Expr(SK_Cast, R), To(To), Sub(Sub) {}
  const Type *getWrittenType() const { return To; }
  Expr *getSubExpr() const { return Sub; }
  void setSubExpr(Expr *E) { Sub = E; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Cast; }

private:
  const Type *To;
  Expr *Sub;
};

/// A conversion Sema inserted; getType() is the target type.
class ImplicitCastExpr : public Expr {
public:
  enum CastKind {
    IntegralCast, ///< Between integer types (bool and char included).
    IntegralToFloating,
    FloatingToIntegral,
    FloatingCast,
    ToBool, ///< Scalar or pointer compared against zero.
    ArrayToPointer,
    NullToPointer,
    PointerCast,   ///< To void* or adding const to the pointee.
    VectorSplat,   ///< Scalar broadcast to every vector lane.
    VectorConvert, ///< Lane-wise conversion between vector types.
    NoOp,          ///< Only const changes.
  };
  ImplicitCastExpr(CastKind K, Expr *Sub, const Type *To)
      : Expr(SK_ImplicitCast, Sub->getRange()), CK(K), Sub(Sub) {
    setType(To);
  }
  CastKind getCastKind() const { return CK; }
  Expr *getSubExpr() const { return Sub; }
  static const char *getCastKindName(CastKind K);
  static bool classof(const Stmt *S) { return S->getKind() == SK_ImplicitCast; }

private:
  CastKind CK;
  Expr *Sub;
};

/// `float4(a, b, c, d)` or a functional cast `int(x)`.
class ConstructExpr : public Expr {
public:
  ConstructExpr(SourceRange R, const Type *T,
                llvm::MutableArrayRef<Expr *> Args)
      : Expr(SK_Construct, R), T(T), Args(Args) {}
  const Type *getConstructedType() const { return T; }
  llvm::MutableArrayRef<Expr *> args() const { return Args; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Construct; }

private:
  const Type *T;
  llvm::MutableArrayRef<Expr *> Args;
};

/// `sizeof(T)` or `sizeof e`.
class SizeofExpr : public Expr {
public:
  SizeofExpr(SourceRange R, const Type *Arg)
      : Expr(SK_Sizeof, R), ArgTy(Arg), ArgExpr(nullptr) {}
  SizeofExpr(SourceRange R, Expr *Arg)
      : Expr(SK_Sizeof, R), ArgTy(nullptr), ArgExpr(Arg) {}
  const Type *getArgType() const { return ArgTy; }
  Expr *getArgExpr() const { return ArgExpr; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Sizeof; }

private:
  const Type *ArgTy;
  Expr *ArgExpr;
};

/// `dnew[n]T` (device memory that outlives the spawn) or `dtempnew[n]T`
/// (temporary device memory freed when the spawn ends).
class NewExpr : public Expr {
public:
  NewExpr(SourceRange R, bool Temp, Expr *Count, const Type *Elem)
      : Expr(SK_New, R), Temp(Temp), Count(Count), Elem(Elem) {}
  bool isTemporary() const { return Temp; }
  Expr *getCount() const { return Count; }
  void setCount(Expr *E) { Count = E; }
  const Type *getElementType() const { return Elem; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_New; }

private:
  bool Temp;
  Expr *Count;
  const Type *Elem;
};

/// `target.cpu`, `target.cuda`, `target.spirv`: a bool rvalue that is true
/// when the code runs on that target. Constant per target in device code;
/// see docs/language.md for when host code knows it.
class TargetQueryExpr : public Expr {
public:
  enum Target { CPU, CUDA, SPIRV };
  TargetQueryExpr(SourceRange R, Target T) : Expr(SK_TargetQuery, R), T(T) {}
  Target getTarget() const { return T; }
  /// The name after `target.`; also the name the bsgp dialect uses.
  static const char *getName(Target T);
  static bool classof(const Stmt *S) { return S->getKind() == SK_TargetQuery; }

private:
  Target T;
};

/// A CUDA-style atomic on device memory: `atomicAdd(p, v)` and friends,
/// `atomicCAS(p, expected, desired)` and `atomicLoad(p)`. Returns the old
/// value of `*p` (atomicLoad: its value). After
/// Sema, args()[0] is a pointer and the other arguments have its pointee
/// type (unqualified).
class AtomicExpr : public Expr {
public:
  enum AtomicOp { Add, Sub, Min, Max, And, Or, Xor, Exch, CAS, Load };
  AtomicExpr(SourceRange R, AtomicOp Op, llvm::MutableArrayRef<Expr *> Args)
      : Expr(SK_Atomic, R), Op(Op), Args(Args) {}
  AtomicOp getOp() const { return Op; }
  llvm::MutableArrayRef<Expr *> args() const { return Args; }
  /// The builtin's name, e.g. "atomicAdd".
  static const char *getName(AtomicOp Op);
  static bool classof(const Stmt *S) { return S->getKind() == SK_Atomic; }

private:
  AtomicOp Op;
  llvm::MutableArrayRef<Expr *> Args;
};

/// Calls \p F on every direct child statement or expression of \p S (null
/// children skipped), in source order; for a DeclStmt, the initializers.
void forEachChild(Stmt *S, llvm::function_ref<void(Stmt *)> F);

/// All declarations of one source file, in order.
struct TranslationUnit {
  uint32_t FileId = 0;
  llvm::ArrayRef<Decl *> Decls;
};

} // namespace bsgp

#endif // BSGP_AST_AST_H
