//===- BSGPDialect.h - the bsgp dialect and its types -----------*- C++ -*-===//
//
// The bsgp dialect class, the !bsgp.ptr and !bsgp.stream types, the
// #bsgp.library attribute, and the side-effect resource that models the
// thread state (rank and size).
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DIALECT_BSGP_IR_BSGPDIALECT_H
#define BSGP_DIALECT_BSGP_IR_BSGPDIALECT_H

#include "bsgp/Basic/Target.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace bsgp {

/// The rank and size of the calling thread. Rank and size reads must stay in
/// their superstep, so thread intrinsics read this resource and the ops that
/// change the thread state write it.
struct ThreadStateResource
    : public mlir::SideEffects::Resource::Base<ThreadStateResource> {
  llvm::StringRef getName() final { return "bsgp.thread_state"; }
};

/// Number of 32-bit stream words a value of type `type` occupies when it is
/// saved to temporary streams, or 0 if it cannot be saved.
unsigned getStreamWordCount(mlir::Type type);

/// The operands of a `#bsgp.library<sort_ranks>` function (BSGPAttrs.td),
/// which the verifier checks: the sort of (input[i], i) in (keys, ids) or
/// in the spare lists of `count` elements, its result true if in the spare
/// lists.
enum SortRanksOperand : unsigned {
  kSortInput,
  kSortKeys,
  kSortIds,
  kSortSpareKeys,
  kSortSpareIds,
  kSortCount,
  kNumSortOperands
};

} // namespace bsgp

// The attributes come first: the dialect's discardable-attribute helpers
// (BSGPDialect::LibraryAttrHelper) return them.
#include "bsgp/Dialect/BSGP/IR/BSGPEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "bsgp/Dialect/BSGP/IR/BSGPAttrs.h.inc"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "bsgp/Dialect/BSGP/IR/BSGPTypes.h.inc"

#endif // BSGP_DIALECT_BSGP_IR_BSGPDIALECT_H
