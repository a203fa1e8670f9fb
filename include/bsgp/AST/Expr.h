//===- Expr.h - expressions -------------------------------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The expressions of the BSGP AST (AST.h describes the whole).
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_AST_EXPR_H
#define BSGP_AST_EXPR_H

#include "bsgp/AST/Stmt.h"
#include "bsgp/Basic/Target.h"

#include <algorithm>
#include <string>

namespace bsgp {

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
  /// \p Decimal: written in decimal (C types octal and hexadecimal
  /// literals differently, integerLiteralKind in ConstantEval.h).
  IntegerLiteral(SourceRange R, uint64_t V, bool Unsigned, bool Long,
                 bool Decimal = true)
      : Expr(SK_IntegerLiteral, R), Value(V), Unsigned(Unsigned), Long(Long),
        Decimal(Decimal) {}
  uint64_t getValue() const { return Value; }
  bool hasUnsignedSuffix() const { return Unsigned; }
  bool hasLongSuffix() const { return Long; }
  bool isDecimal() const { return Decimal; }
  static bool classof(const Stmt *S) {
    return S->getKind() == SK_IntegerLiteral;
  }

private:
  uint64_t Value;
  bool Unsigned, Long, Decimal;
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
  /// Whether a negation that overflows wraps instead of being undefined:
  /// one of a constant operand, which Sema folds with a warning as clang
  /// does (-Winteger-overflow).
  bool wrapsOnOverflow() const { return Wraps; }
  void setWrapsOnOverflow(bool W) { Wraps = W; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Unary; }

private:
  Opcode Op;
  Expr *Sub;
  SourceLocation OpLoc;
  bool Wraps = false;
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
  /// Whether signed integer overflow wraps (two's complement) instead of
  /// being undefined as in C: the application `Op(a, b)` of an operator
  /// parameter, with which the collectives combine values (reduce and
  /// scan of signed integers wrap, docs/collectives.md), and an operation
  /// on constants that overflows, which Sema folds with a warning as clang
  /// does (-Winteger-overflow).
  bool wrapsOnOverflow() const { return Wraps; }
  void setWrapsOnOverflow(bool W) { Wraps = W; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Binary; }

private:
  Opcode Op;
  Expr *L, *Rhs;
  SourceLocation OpLoc;
  const Type *CompTy = nullptr;
  bool Wraps = false;
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
  /// A call of C's printf from device code whose format Sema checked
  /// (docs/language.md, "Device printf"): MLIRGen emits bsgp.printf.
  bool isDevicePrintf() const { return DevicePrintf; }
  void setDevicePrintf(bool V) { DevicePrintf = V; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Call; }

private:
  Expr *Callee;
  llvm::MutableArrayRef<Expr *> Args;
  bool DevicePrintf = false;
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
/// skip its barrier here); on the host, __bsgp_native_reduce(op, in, n),
/// __bsgp_native_scan_exclusive(op, in, out, n) and
/// __bsgp_native_sort_pairs(keys, values, n), the runtime's list primitives.
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
    SinglePass,
    SegReduce,
    SegScan,
    NativeReduce,
    NativeScanExclusive,
    NativeSortPairs
  };
  /// The operator of reduce and scan.
  enum ReduceOp { None, OpAdd, OpMul, OpMin, OpMax, OpAnd, OpOr, OpXor };

  BuiltinCallExpr(SourceRange R, BuiltinKind K, ReduceOp Op,
                  SourceRange OpRange, llvm::MutableArrayRef<Expr *> Args)
      : Expr(SK_BuiltinCall, R), BKind(K), Op(Op), OpRange(OpRange),
        Args(Args) {}
  BuiltinKind getBuiltinKind() const { return BKind; }
  ReduceOp getReduceOp() const { return Op; }
  void setReduceOp(ReduceOp O) { Op = O; }
  SourceRange getReduceOpRange() const { return OpRange; }
  /// The operator written as a type (`reduce(Op, x)` in a generic function,
  /// Op a template parameter); Sema sets the operator from it. Null when
  /// the operator is written as such.
  const Type *getOperatorTypeArg() const { return OpType; }
  void setOperatorTypeArg(const Type *T) { OpType = T; }
  /// The instantiation of the collective library's generic function that
  /// implements this call, as Sema resolved it (isBoundByLibraryKind);
  /// MLIRGen calls it. Null for the other kinds and before Sema.
  FunctionDecl *getCallee() const { return Callee; }
  void setCallee(FunctionDecl *F) { Callee = F; }
  /// For scan: the library's reduce for the same operator and type, which
  /// gives the total where the library's scan returns only the scanned
  /// value (64-bit types). Set by Sema; null otherwise.
  FunctionDecl *getTotalCallee() const { return TotalCallee; }
  void setTotalCallee(FunctionDecl *F) { TotalCallee = F; }
  /// For scan: the library's scan without the total (`[[library(scan_only,
  /// op)]]`), which MLIRGen calls where the call is a statement. Null where
  /// the library has none for the operator and type.
  FunctionDecl *getCalleeWithoutTotal() const { return CalleeWithoutTotal; }
  void setCalleeWithoutTotal(FunctionDecl *F) { CalleeWithoutTotal = F; }
  /// The value arguments (reduce/scan and the chunk builtins: the operator
  /// is not among them).
  llvm::MutableArrayRef<Expr *> args() const { return Args; }
  static const char *getName(BuiltinKind K);
  static const char *getOpSpelling(ReduceOp Op);
  /// True for the kinds written with an operator first (`reduce(+, x)`).
  static bool hasReduceOp(BuiltinKind K) {
    return K == Reduce || K == Scan || K == ChunkReduce || K == ChunkScan ||
           K == SegReduce || K == SegScan || K == NativeReduce ||
           K == NativeScanExclusive;
  }
  /// True for the primitives Sema binds to a generic function of the
  /// collective library declared with `[[library(<kind>)]]` (kind as
  /// getLibraryKindName gives it): getCallee() is that function's
  /// instantiation.
  static bool isBoundByLibraryKind(BuiltinKind K) {
    return K == Reduce || K == Scan || K == SortIdx || K == ThreadSortBy ||
           K == SegReduce || K == SegScan || K == Compact || K == Split ||
           K == ThreadSplit || K == ThreadKill || K == ThreadFork;
  }
  /// The kind that names a primitive's function in the library: the
  /// primitive's name, `thread_<m>` for `thread.<m>`.
  static std::string getLibraryKindName(BuiltinKind K) {
    std::string Name = getName(K);
    std::replace(Name.begin(), Name.end(), '.', '_');
    return Name;
  }
  /// True for the builtins that only the collective library may call.
  static bool isLibraryOnly(BuiltinKind K) {
    return K == ChunkReduce || K == ChunkScan || K == GroupLookback ||
           K == SinglePass || isHostOnly(K);
  }
  /// True for the library's builtins that run on the host, in host
  /// functions and require blocks: the runtime's list primitives
  /// (bsgp.list_reduce, bsgp.list_scan_exclusive, bsgp.list_sort_pairs).
  static bool isHostOnly(BuiltinKind K) {
    return K == NativeReduce || K == NativeScanExclusive ||
           K == NativeSortPairs;
  }
  /// True for the primitives that synchronize all threads (everything but
  /// get, put and kill... which still must run in a spawn). The chunk
  /// builtins count too: every thread must reach them. The host-only
  /// builtins do not.
  static bool isCollective(BuiltinKind K);
  static bool classof(const Stmt *S) { return S->getKind() == SK_BuiltinCall; }

private:
  BuiltinKind BKind;
  ReduceOp Op;
  SourceRange OpRange;
  const Type *OpType = nullptr;
  FunctionDecl *Callee = nullptr;
  FunctionDecl *TotalCallee = nullptr;
  FunctionDecl *CalleeWithoutTotal = nullptr;
  llvm::MutableArrayRef<Expr *> Args;
};

/// thread.rank, thread.size, thread.oldrank.
class ThreadAttrExpr : public Expr {
public:
  /// X..NZ: the coordinates in a spawn's domain and its extents
  /// (docs/language.md, "Spawn domains").
  enum Attr { Rank, Size, OldRank, X, Y, Z, NX, NY, NZ };
  ThreadAttrExpr(SourceRange R, Attr A) : Expr(SK_ThreadAttr, R), A(A) {}
  Attr getAttr() const { return A; }
  static const char *getName(Attr A);
  /// True where threads see different values (rank, oldrank, x, y, z); the
  /// others are the spawn's (size, nx, ny, nz).
  static bool isThreadDependent(Attr A) {
    return A == Rank || A == OldRank || A == X || A == Y || A == Z;
  }
  /// thread.x .. thread.nz, which need the spawn's domain.
  static bool isDomainAttr(Attr A) { return A >= X; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_ThreadAttr; }

private:
  Attr A;
};

/// The work-group and subgroup queries and operations: group.rank,
/// group.size, group.id, group.count, group.threads, group.barrier(),
/// subgroup.rank,
/// subgroup.size, subgroup.shuffle*(x, n), subgroup.any/all/ballot(c),
/// subgroup.add/min/max/and/or/xor(x), subgroup.match(x).
class GroupExpr : public Expr {
public:
  enum GroupOp {
    GroupRank,
    GroupSize,
    GroupId,
    GroupCount,
    GroupThreads,
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
  /// An array compound literal's unnamed object, as Sema declares it (its
  /// initializer the literal's list); null for other casts.
  VarDecl *getLiteralVar() const { return LiteralVar; }
  void setLiteralVar(VarDecl *V) { LiteralVar = V; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_Cast; }

private:
  const Type *To;
  Expr *Sub;
  VarDecl *LiteralVar = nullptr;
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
  TargetQueryExpr(SourceRange R, bsgp::Target T)
      : Expr(SK_TargetQuery, R), T(T) {}
  bsgp::Target getTarget() const { return T; }
  /// The name after `target.`; also the name the bsgp dialect uses.
  llvm::StringRef getName() const { return getTargetName(T); }
  static bool classof(const Stmt *S) { return S->getKind() == SK_TargetQuery; }

private:
  bsgp::Target T;
};

/// A CUDA-style atomic on device memory: `atomicAdd(p, v)` and friends,
/// `atomicCAS(p, expected, desired)` and `atomicLoad(p)`. Returns the old
/// value of `*p` (atomicLoad: its value). After
/// Sema, args()[0] is a pointer and the other arguments have its pointee
/// type (unqualified).
class AtomicExpr : public Expr {
public:
  /// Fence is `__threadfence()`: no arguments, void, orders the calling
  /// thread's memory accesses at device scope (CUDA's `__threadfence`).
  enum AtomicOp { Add, Sub, Min, Max, And, Or, Xor, Exch, CAS, Load, Fence };
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

/// The type-generic arithmetic builtins `min(a, b)`, `max(a, b)`,
/// `clamp(x, lo, hi)` and `abs(x)` (a user function of the same name hides
/// them). After Sema every argument has the result type: the usual
/// arithmetic conversions of all arguments (scalars splat to a vector),
/// which is an integer or floating scalar or vector type.
class MathBuiltinExpr : public Expr {
public:
  enum MathOp { Min, Max, Clamp, Abs };
  MathBuiltinExpr(SourceRange R, MathOp Op, llvm::MutableArrayRef<Expr *> Args)
      : Expr(SK_MathBuiltin, R), Op(Op), Args(Args) {}
  MathOp getOp() const { return Op; }
  llvm::MutableArrayRef<Expr *> args() const { return Args; }
  /// The builtin's name, e.g. "min".
  static const char *getName(MathOp Op);
  /// How many arguments it takes.
  static unsigned getArity(MathOp Op) {
    return Op == Clamp ? 3 : Op == Abs ? 1 : 2;
  }
  static bool classof(const Stmt *S) { return S->getKind() == SK_MathBuiltin; }

private:
  MathOp Op;
  llvm::MutableArrayRef<Expr *> Args;
};

/// `{a, b, {c, d}}`: the initializer of an array, as written (inits()).
/// Sema fills getFlat(): one entry per element of the flattened array (C's
/// brace elision included), each converted to the element type, null for
/// the elements the list leaves to zero.
class InitListExpr : public Expr {
public:
  InitListExpr(SourceRange R, llvm::MutableArrayRef<Expr *> Inits)
      : Expr(SK_InitList, R), Inits(Inits) {}
  llvm::MutableArrayRef<Expr *> inits() const { return Inits; }
  llvm::ArrayRef<Expr *> getFlat() const { return Flat; }
  void setFlat(llvm::ArrayRef<Expr *> F) { Flat = F; }
  static bool classof(const Stmt *S) { return S->getKind() == SK_InitList; }

private:
  llvm::MutableArrayRef<Expr *> Inits;
  llvm::ArrayRef<Expr *> Flat;
};

/// Calls \p F on every direct child statement or expression of \p S (null
/// children skipped), in source order; for a DeclStmt, the initializers.
void forEachChild(Stmt *S, llvm::function_ref<void(Stmt *)> F);

/// The first dimension that list \p IL gives an array of \p AT's element
/// type (`T a[] = {...}`), placing its elements as C does: an expression
/// takes the next element of the flattened array (brace elision), a
/// nested list the next whole row. 0 for an empty list.
uint64_t initListArraySize(const InitListExpr *IL, const ArrayType *AT);

/// All declarations of one source file, in order.

} // namespace bsgp

#endif // BSGP_AST_EXPR_H
