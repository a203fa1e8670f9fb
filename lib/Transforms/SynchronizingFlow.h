//===- SynchronizingFlow.h - branches and loops with barriers -*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler. Private to lib/Transforms, used by
// bsgp-split-uniform-flow and the analyses it runs first.
//
// A uniform branch or loop that holds a barrier is run by the host, and
// the spawn is cut around it into segments (SplitUniformFlow.cpp). These
// predicates say which ops are such cuts.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_TRANSFORMS_SYNCHRONIZINGFLOW_H
#define BSGP_LIB_TRANSFORMS_SYNCHRONIZINGFLOW_H

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

namespace bsgp {

/// True for the ops that end or begin a superstep, or that must stay at a
/// superstep level: a branch or loop holding one synchronizes.
bool isSyncOp(mlir::Operation *op);

/// A branch or loop of the spawn body that holds a sync op.
bool isSynchronizing(mlir::Operation *op);

/// True if the spawn must be cut into segments: it holds a synchronizing
/// branch or loop, or a require that reads a value its device code
/// computes.
bool needsUniformFlowSplit(SpawnOp spawn);

/// Answers no, in a spawn about to be split, to each single-pass question
/// whose branch yields a value a require reads (thread.fork's): the
/// splitter would take that value, a host value once the question is
/// answered, for a thread's value, to be carried from segment to segment.
void answerQuestionsInFlow(SpawnOp spawn);

} // namespace bsgp

#endif // BSGP_LIB_TRANSFORMS_SYNCHRONIZINGFLOW_H
