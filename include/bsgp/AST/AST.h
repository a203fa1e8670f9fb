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
/// Node classes (declared in Decl.h, Stmt.h and Expr.h, which this header
/// includes).
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
///    AtomicExpr (atomicAdd, ..., atomicCAS), MathBuiltinExpr (min, max,
///    clamp, abs).
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

#include "bsgp/AST/Decl.h"
#include "bsgp/AST/Expr.h"
#include "bsgp/AST/Stmt.h"

namespace bsgp {

struct TranslationUnit {
  uint32_t FileId = 0;
  llvm::ArrayRef<Decl *> Decls;
};

} // namespace bsgp

#endif // BSGP_AST_AST_H
