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

#include "llvm/Support/Compiler.h"

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
  // Tests rather than a switch: a jump table costs more than these.
  if (Size == 4)
    std::memcpy(Dst, Src, 4);
  else if (Size == 8)
    std::memcpy(Dst, Src, 8);
  else if (Size == 16)
    std::memcpy(Dst, Src, 16);
  else if (Size == 1)
    *Dst = *Src;
  else
    std::memcpy(Dst, Src, Size);
}

/// Whether \p L is every lane of \p F in order, 0 to NumLanes - 1, so that
/// the lanes' slots are contiguous. (Statements' lane lists are sorted, but
/// thread.get evaluates for the lanes of the threads asked, in any order.)
inline bool allLanes(const Frame &F, const Lanes &L) {
  if (L.size() != F.NumLanes)
    return false;
  for (uint32_t K = 0; K < L.size(); ++K)
    if (L[K] != K)
      return false;
  return true;
}

/// Where a variable's storage is, looked up once per frame (Frame::Id).
struct VarSlot {
  const VarDecl *D = nullptr;
  uint64_t FrameId = 0;
  uint8_t *Base = nullptr;
  bool PerLane = false;
  uint8_t *get(Interpreter &I, Frame &F) {
    if (LLVM_UNLIKELY(F.Id != FrameId))
      refresh(I, F);
    return Base;
  }
  /// Looks the storage up in frame \p F (out of line: the fast path of
  /// get() stays small).
  LLVM_ATTRIBUTE_NOINLINE void refresh(Interpreter &I, Frame &F);
  /// Lane \p K's value.
  uint8_t *at(Lanes &L, uint32_t K, uint64_t Size) const {
    return PerLane ? Base + L[K] * Size : Base;
  }
};

/// A read of a variable, or of a field or component of one.
class VarReadBase : public CExpr {
public:
  VarSlot Slot;
  uint32_t Off, Size, VarSize;

  VarReadBase(const VarDecl *D, uint32_t Off, uint32_t Size)
      : Off(Off), Size(Size), VarSize(sizeOf(D->getType())) {
    Slot.D = D;
  }
  VarReadBase *asVarRead() override { return this; }
  /// Where lane \p Lane's value is.
  const uint8_t *at(Interpreter &I, Frame &F, uint32_t Lane) {
    const uint8_t *P = Slot.get(I, F) + Off;
    return Slot.PerLane ? P + Lane * (uint64_t)VarSize : P;
  }
};

/// An operand of a node: a variable is read without a call.
struct Operand {
  CExprPtr E;
  VarReadBase *V = nullptr;

  Operand() = default;
  Operand(CExprPtr X) : E(std::move(X)), V(E->asVarRead()) {}
  void run(Interpreter &I, Frame &F, Lanes &L, Column &Out) {
    E->run(I, F, L, Out);
  }
  /// Lane \p Lane's value into \p Buf (MaxOne bytes).
  void one(Interpreter &I, Frame &F, uint32_t Lane, uint8_t *Buf) {
    if (V && V->Size <= MaxOne)
      copyBytes(Buf, V->at(I, F, Lane), V->Size);
    else
      E->runOne(I, F, Lane, Buf);
  }
  /// Lane \p Lane's value of at most 8 bytes (CExpr::bits).
  uint64_t bits(Interpreter &I, Frame &F, uint32_t Lane) {
    if (V && V->Size == 4) {
      uint32_t B;
      std::memcpy(&B, V->at(I, F, Lane), 4);
      return B;
    }
    if (V && V->Size == 8) {
      uint64_t B;
      std::memcpy(&B, V->at(I, F, Lane), 8);
      return B;
    }
    return E->bits(I, F, Lane);
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
/// A binary operator other than assignments, && || and the comma
/// (CompileArith.cpp).
CExprPtr compileBinaryOp(Interpreter &I, BinaryOperator *E);

/// A node that evaluates \p E by the tree walk.
CExprPtr treeExpr(Expr *E);
/// A node reading \p Size bytes at \p Off in variable \p D (not
/// group-local).
CExprPtr varFieldRead(const VarDecl *D, uint32_t Off, uint32_t Size);

} // namespace interp
} // namespace bsgp

#endif // BSGPI_COMPILE_H
