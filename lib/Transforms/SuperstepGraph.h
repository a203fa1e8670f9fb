//===- SuperstepGraph.h - the superstep graph of a host function -*- C++
//-*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_SUPERSTEPGRAPH_H
#define BSGP_LIB_TRANSFORMS_SUPERSTEPGRAPH_H

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace bsgp {

/// True if a spawn of `func` sits under host control flow (a loop or a
/// branch, the user's or bsgp-split-uniform-flow's), so that which
/// supersteps run next is decided on the host.
bool hasSuperstepGraph(mlir::FunctionOpInterface func);

/// The spawns of `func` numbered in source order from 0, as in the tables.
llvm::DenseMap<mlir::Operation *, unsigned>
numberSpawns(mlir::FunctionOpInterface func);

/// The spawns of `func` in order with the loops and branches around them:
///   superstep graph of @jacobi:
///     spawn 0: 1 superstep
///     loop at jacobi.bsgp:24:5 {
///       condition:
///         spawn 1: 1 superstep
///       body:
///         spawn 2: 2 supersteps
///     }
void printSuperstepOutline(mlir::FunctionOpInterface func,
                           llvm::raw_ostream &os);

/// The same graph as a Graphviz digraph: a node per superstep, an edge to
/// each superstep that may run next, loop heads as dashed boxes.
void writeSuperstepGraphDot(mlir::FunctionOpInterface func,
                            llvm::raw_ostream &os);

} // namespace bsgp

#endif // BSGP_LIB_TRANSFORMS_SUPERSTEPGRAPH_H
