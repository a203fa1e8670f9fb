//===- Compile.h - bsgpi's compiled form of the checked AST -----*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The first time the interpreter reaches an expression or a statement it
/// compiles it into a tree of nodes (CExpr, CStmt) that does what the tree
/// walk does for it, with the work that depends only on the AST done once:
/// types, sizes, scalar kinds and field offsets are resolved, operators are
/// picked by the C++ type they compute in, variables remember where their
/// storage is (until the frame's Id says it moved) and loads and stores
/// remember the allocation they hit, so that a bounds check is a compare.
/// Nodes still run for a list of lanes and keep every check: anything that
/// fails a fast path's check goes to the tree walk's code, which reports it
/// in the same words. What the nodes do not cover (calls, collectives,
/// spawns, anything that may reassign ranks) is a node that runs the tree
/// walk, whose children are compiled in their turn.
///
//===----------------------------------------------------------------------===//

#ifndef BSGPI_COMPILE_H
#define BSGPI_COMPILE_H

#include "Interp.h"

#include "bsgp/AST/AST.h"

namespace bsgp {
namespace interp {

using CExprPtr = std::unique_ptr<CExpr>;
using CStmtPtr = std::unique_ptr<CStmt>;

/// Makes \p Out a column of \p N values of \p Size bytes whose bytes the
/// caller all writes.
inline void shape(Column &Out, uint32_t Size, uint32_t N) {
  Out.Size = Size;
  Out.N = N;
  Out.Bytes.resize_for_overwrite((size_t)Size * N);
}
/// The same, zeroed (padding of 3-vectors, what a caller leaves out).
inline void shapeZero(Column &Out, uint32_t Size, uint32_t N) {
  shape(Out, Size, N);
  std::memset(Out.Bytes.data(), 0, Out.Bytes.size());
}

/// Copies \p Size bytes, the common sizes without a call.
inline void copyBytes(uint8_t *Dst, const uint8_t *Src, uint32_t Size) {
  switch (Size) {
  case 1:
    *Dst = *Src;
    return;
  case 4:
    std::memcpy(Dst, Src, 4);
    return;
  case 8:
    std::memcpy(Dst, Src, 8);
    return;
  case 16:
    std::memcpy(Dst, Src, 16);
    return;
  default:
    std::memcpy(Dst, Src, Size);
  }
}

/// Where a variable's storage is, looked up once per frame (Frame::Id).
struct VarSlot {
  const VarDecl *D = nullptr;
  uint64_t FrameId = 0;
  uint8_t *Base = nullptr;
  bool PerLane = false;
  uint8_t *get(Interpreter &I, Frame &F) {
    if (F.Id != FrameId) {
      Base = I.varBase(F, D, PerLane);
      // varBase may allocate the variable, which changes no frame's Id.
      FrameId = F.Id;
    }
    return Base;
  }
  /// Lane \p K's value.
  uint8_t *at(Lanes &L, uint32_t K, uint64_t Size) const {
    return PerLane ? Base + L[K] * Size : Base;
  }
};

/// The allocation the last checked access of a node hit.
struct AccessCache {
  Allocation *A = nullptr;
  uint64_t Epoch = 0;
  /// The access's number in race records (0: not asked yet).
  uint32_t Site = 0;
};

/// Checked loads and stores of \p Size bytes at the addresses \p Addr, as
/// Interpreter::load and store do them.
void loadLanes(Interpreter &I, Frame &F, const Column &Addr, uint32_t Size,
               Lanes &L, SourceRange R, AccessCache &C, Column &Out);
void storeLanes(Interpreter &I, Frame &F, const Column &Addr, const Column &V,
                uint32_t Size, Lanes &L, SourceRange R, AccessCache &C);

/// The compiled form of \p E, or of its address (an lvalue); the address
/// of what has no compiled form falls back to Interpreter::address.
CExprPtr compileExpr(Interpreter &I, Expr *E);
CExprPtr compileAddress(Interpreter &I, Expr *E);
CStmtPtr compileStmt(Interpreter &I, Stmt *S);

/// Nodes of CompileMemory.cpp: loads (of an index, a member, a deref),
/// stores and the assignment operators, ++ and --.
CExprPtr compileLoad(Interpreter &I, Expr *E);
CExprPtr compileAssign(Interpreter &I, BinaryOperator *B);
CExprPtr compileIncDec(Interpreter &I, UnaryOperator *U);

/// A node that evaluates \p E by the tree walk.
CExprPtr treeExpr(Expr *E);
/// A node reading variable \p D (not group-local), or \p Size bytes at
/// \p Off in it.
CExprPtr varRead(const VarDecl *D);
CExprPtr varFieldRead(const VarDecl *D, uint32_t Off, uint32_t Size);

} // namespace interp
} // namespace bsgp

#endif // BSGPI_COMPILE_H
