//===- CarryArraysThroughFlow.h - private arrays through uniform flow -*- C++
//-*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_CARRYARRAYSTHROUGHFLOW_H
#define BSGP_LIB_TRANSFORMS_CARRYARRAYSTHROUGHFLOW_H

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace bsgp {

/// Passes the elements of each thread-private array that lives through a
/// branch or loop for which `isSynchronizing` holds through it as SSA
/// values (loop-carried values, branch results), with a fresh array in each
/// region and after it. Arrays of more than 256 words, and pointers made
/// from an array before the branch or loop and used in or after it, are
/// left as they are.
void carryArraysThroughFlow(
    SpawnOp spawn, llvm::function_ref<bool(mlir::Operation *)> isSynchronizing);

} // namespace bsgp

#endif // BSGP_LIB_TRANSFORMS_CARRYARRAYSTHROUGHFLOW_H
