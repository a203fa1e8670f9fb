//===- StreamAllocation.h - Temporary streams for saved values --*- C++ -*-===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// Assigns the values saved across barriers to temporary streams so that the
// peak number of live 32-bit words is minimal (BSGP paper §4.3, refined to
// word granularity). The superstep graph has a begin and an end node per
// superstep, chained in execution order by unbounded non-value edges; a saved
// value is an edge from the end of its defining superstep to the begin of its
// last using superstep whose flow is fixed to its size in words. A minimum
// source->sink flow decomposed into unit paths gives one 32-bit word-stream
// per path. docs/stream-allocation.md explains the construction.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_SUPPORT_STREAMALLOCATION_H
#define BSGP_SUPPORT_STREAMALLOCATION_H

#include "bsgp/Support/MinFlow.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace bsgp {

/// A value that lives across at least one barrier. Supersteps are numbered
/// 0..K-1 in execution order.
struct SavedValue {
  /// Superstep whose kernel computes the value and saves it at its end.
  unsigned defStep = 0;
  /// Last superstep whose kernel loads the value; must exceed `defStep`.
  unsigned lastUseStep = 0;
  /// Number of 32-bit words (a float4 takes 4); at least 1.
  unsigned words = 1;
  /// Set when the last using superstep loads the value at another thread's
  /// index (through thread.oldrank after barrier(RANK_REASSIGNED), or
  /// thread.get(r, v)). A thread of that superstep may then still have to read
  /// slot i after the thread of rank i has saved a new value, so no value
  /// saved by that superstep may reuse the value's streams.
  bool needsWholeLastStep = false;
  /// Name shown in the DOT graph; "v<index>" when empty.
  std::string name;
};

/// One 32-bit word of a saved value.
struct WordSlot {
  unsigned value; ///< Index into the values given to allocateStreams.
  unsigned word;  ///< 0 .. words-1.
};

/// A temporary 32-bit word-stream (one SoA array of thread.size words).
struct TemporaryStream {
  /// The value words it holds, in execution order; their live ranges are
  /// disjoint.
  llvm::SmallVector<WordSlot, 4> slots;
  /// First superstep whose kernel writes the stream: stream_alloc goes
  /// before that kernel's launch.
  unsigned firstWriteStep = 0;
  /// Last superstep whose kernel reads the stream: stream_free goes right
  /// after that kernel's launch.
  unsigned lastReadStep = 0;
};

struct StreamAllocation {
  /// Ordered by (firstWriteStep, first value index, word).
  llvm::SmallVector<TemporaryStream, 0> streams;
  /// wordStream[v][w] is the index in `streams` of word w of value v.
  llvm::SmallVector<llvm::SmallVector<unsigned, 4>, 0> wordStream;
  /// The superstep graph and its minimum flow, kept for diagnostics (DOT).
  FlowNetwork network;
  Flow flow;
  /// Edge id of each value in `network`; edges 0 .. 2K-2 are the non-value
  /// edges node i -> node i+1.
  llvm::SmallVector<unsigned, 0> valueEdge;

  /// Equal to the peak number of simultaneously live words.
  unsigned getNumStreams() const { return streams.size(); }
};

/// Node ids of the superstep graph: begin(s) = 2s, end(s) = 2s + 1.
inline unsigned getBeginNode(unsigned step) { return 2 * step; }
inline unsigned getEndNode(unsigned step) { return 2 * step + 1; }

/// The node where the value edge of `value` ends: begin(lastUseStep), or,
/// when the whole last step needs the value, the node after end(lastUseStep)
/// (begin(lastUseStep + 1), or the sink if that is the last superstep), so
/// that no value saved at end(lastUseStep) can follow it on a stream.
unsigned getValueEdgeTarget(unsigned numSupersteps, const SavedValue &value);

/// Allocates word-streams for `values` over `numSupersteps` supersteps.
/// Fails, without asserting, on a value whose steps are out of range or not
/// increasing, or whose size is zero words.
llvm::Expected<StreamAllocation>
allocateStreams(unsigned numSupersteps, llvm::ArrayRef<SavedValue> values);

/// Writes the superstep graph of paper Fig. 4 in Graphviz DOT: one grey
/// cluster per superstep holding its begin and end node, non-value edges
/// labelled with their flow, one edge per value word labelled with the value's
/// name and coloured after its stream.
void writeStreamGraphDot(llvm::raw_ostream &os, unsigned numSupersteps,
                         llvm::ArrayRef<SavedValue> values,
                         const StreamAllocation &allocation);

} // namespace bsgp

#endif // BSGP_SUPPORT_STREAMALLOCATION_H
