//===- BSGPDialect.h - the bsgp dialect and its types -----------*- C++ -*-===//
//
// The bsgp dialect class, the !bsgp.ptr and !bsgp.stream types, and the
// side-effect resource that models the thread state (rank and size).
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DIALECT_BSGP_IR_BSGPDIALECT_H
#define BSGP_DIALECT_BSGP_IR_BSGPDIALECT_H

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

} // namespace bsgp

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "bsgp/Dialect/BSGP/IR/BSGPTypes.h.inc"

#endif // BSGP_DIALECT_BSGP_IR_BSGPDIALECT_H
