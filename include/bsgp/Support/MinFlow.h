//===- MinFlow.h - Minimum s-t flow with lower bounds -----------*- C++ -*-===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//
//
// A generic minimum flow solver for networks whose edges carry a lower bound
// (a flow requirement) and a capacity, plus the decomposition of a flow into
// source-to-sink paths. Temporary stream allocation (StreamAllocation.h,
// BSGP paper §4.3) is built on it, but nothing here knows about supersteps.
//
// The minimum flow is computed with the classical two-phase reduction:
//   1. a feasible flow: remove the lower bounds, balance the node excesses
//      through a super source and sink and close the network with an
//      unbounded sink->source arc; a maximum flow (Dinic) that saturates the
//      super-source arcs is a feasible flow;
//   2. the smallest flow: remove the sink->source arc and push a maximum flow
//      from the sink back to the source in the residual network, which lowers
//      the flow value as far as the lower bounds allow.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_SUPPORT_MINFLOW_H
#define BSGP_SUPPORT_MINFLOW_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <limits>

namespace bsgp {

/// A directed network whose edges carry a lower bound and a capacity.
/// Parallel edges and self loops are allowed; edge ids are dense and follow
/// insertion order.
class FlowNetwork {
public:
  /// Capacity of an edge without an upper bound. Finite capacities and lower
  /// bounds must stay below it.
  static constexpr int64_t Unbounded = std::numeric_limits<int64_t>::max();

  struct Edge {
    unsigned from;
    unsigned to;
    int64_t lower;
    int64_t capacity; ///< `Unbounded` for +infinity.
  };

  explicit FlowNetwork(unsigned numNodes = 0) : numNodes(numNodes) {}

  unsigned addNode() { return numNodes++; }

  /// Adds an edge and returns its id. Bounds are validated by the solver, not
  /// here, so that malformed input is reported as an error rather than
  /// asserted on.
  unsigned addEdge(unsigned from, unsigned to, int64_t lower,
                   int64_t capacity) {
    edges.push_back({from, to, lower, capacity});
    return edges.size() - 1;
  }

  unsigned getNumNodes() const { return numNodes; }
  unsigned getNumEdges() const { return edges.size(); }
  const Edge &getEdge(unsigned id) const { return edges[id]; }
  llvm::ArrayRef<Edge> getEdges() const { return edges; }

  /// Checks node ids and bounds: 0 <= lower <= capacity, and every finite
  /// number smaller than `Unbounded`.
  llvm::Error verify() const;

private:
  unsigned numNodes;
  llvm::SmallVector<Edge, 0> edges;
};

/// A flow: one value per edge of the network it was computed for.
struct Flow {
  /// Net flow out of the source (equal to the net flow into the sink).
  int64_t value = 0;
  llvm::SmallVector<int64_t, 0> edgeFlow;
};

/// Computes a minimum source->sink flow that meets every edge's lower bound
/// and capacity. Fails if the network is malformed, if no feasible flow
/// exists, if the flow value is unbounded below (an unbounded path leads from
/// the sink back to the source), or if the finite bounds are too large to be
/// summed in 64 bits. Runs in O(V^2 E) (Dinic), much less on the unit-like
/// networks of stream allocation.
llvm::Expected<Flow> computeMinFlow(const FlowNetwork &network, unsigned source,
                                    unsigned sink);

/// One source->sink path of a flow decomposition, carrying `amount` units.
struct FlowPath {
  llvm::SmallVector<unsigned, 8> edges; ///< Edge ids, source to sink.
  int64_t amount = 0;
};

/// Checks that `flow` respects every edge's bounds and conserves flow at
/// every node but the source and the sink, and that its value is right.
llvm::Error verifyFlow(const FlowNetwork &network, unsigned source,
                       unsigned sink, const Flow &flow);

/// Decomposes a verified flow into at most E source->sink paths whose amounts
/// sum to the flow value. Every edge's flow is covered exactly: a circulation
/// left over once the value is routed (possible only on cyclic networks)
/// cannot be expressed as source->sink paths and is reported as an error, as
/// is a negative flow value.
llvm::Expected<llvm::SmallVector<FlowPath, 0>>
decomposeFlow(const FlowNetwork &network, unsigned source, unsigned sink,
              const Flow &flow);

} // namespace bsgp

#endif // BSGP_SUPPORT_MINFLOW_H
