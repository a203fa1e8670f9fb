//===- PrivateArrays.h - thread-private arrays of a spawn -------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
// What bsgp-carry-private-arrays (across barriers) and
// bsgp-split-uniform-flow (through branches and loops) share about a
// thread-private array: how to recognize one and how to make a fresh copy.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_PRIVATEARRAYS_H
#define BSGP_LIB_TRANSFORMS_PRIVATEARRAYS_H

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace bsgp {

/// Words of one array that may be carried (across one barrier, or through
/// one branch or loop): each word is a stream or list of thread.size words
/// (docs/stream-allocation.md).
inline constexpr uint64_t kMaxCarriedArrayWords = 256;

/// A private array of a spawn: its slot and the !bsgp.ptr that the program
/// uses (MLIRGen casts the slot to it).
struct PrivateArray {
  mlir::LLVM::AllocaOp slot;
  mlir::Value ptr;
  uint64_t count;
  /// What its contents are carried as (across a barrier, through a branch
  /// or loop): `words` values of type `word`. They are its elements where
  /// each is a scalar, vector or pointer; an array of structs (elements of
  /// bytes, `!llvm.array<N x i8>`) goes as 32-bit words, or as 16- or 8-bit
  /// ones where its size is not a multiple of four. A null `word` where
  /// the elements are neither.
  mlir::Type word;
  uint64_t words = 0;

  /// `p`, a pointer to such an array's contents, as a pointer to `word`s.
  mlir::Value wordPointer(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value p) const;
};

/// The private array that `op` turns into a !bsgp.ptr, if it is such a
/// cast: of an llvm.alloca with a constant element count.
std::optional<PrivateArray> asPrivateArray(mlir::Operation &op);

/// Reports `array` at its declaration if its words are more than
/// kMaxCarriedArrayWords, so that it cannot live through the `flow` (a
/// "branch or loop") holding a barrier.
mlir::LogicalResult checkCarriedArraySize(const PrivateArray &array,
                                          llvm::StringRef flow);

/// A fresh, uninitialized copy of `array` at `b`'s insertion point: its
/// size, slot and cast cloned (the cast keeps the array's source name).
PrivateArray clonePrivateArray(mlir::OpBuilder &b, const PrivateArray &array);

} // namespace bsgp

#endif // BSGP_LIB_TRANSFORMS_PRIVATEARRAYS_H
