//===- MinFlow.cpp - Minimum s-t flow with lower bounds -------------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//

#include "bsgp/Support/MinFlow.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace bsgp;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

namespace {
/// Dinic's maximum flow on a residual graph. Arc `a ^ 1` is the reverse of
/// arc `a`, so the tail of `a` is the head of `a ^ 1`.
class Dinic {
public:
  explicit Dinic(unsigned numNodes) : adjacency(numNodes) {}

  unsigned addArc(unsigned from, unsigned to, int64_t capacity) {
    unsigned id = arcs.size();
    arcs.push_back({to, capacity});
    arcs.push_back({from, 0});
    adjacency[from].push_back(id);
    adjacency[to].push_back(id + 1);
    return id;
  }

  int64_t &residual(unsigned arc) { return arcs[arc].capacity; }

  int64_t maxFlow(unsigned source, unsigned sink) {
    int64_t total = 0;
    while (buildLevels(source, sink))
      total += blockingFlow(source, sink);
    return total;
  }

private:
  struct Arc {
    unsigned to;
    int64_t capacity;
  };

  bool buildLevels(unsigned source, unsigned sink) {
    level.assign(adjacency.size(), -1);
    llvm::SmallVector<unsigned, 0> queue{source};
    level[source] = 0;
    for (size_t head = 0; head < queue.size(); ++head) {
      unsigned u = queue[head];
      for (unsigned a : adjacency[u]) {
        if (arcs[a].capacity > 0 && level[arcs[a].to] < 0) {
          level[arcs[a].to] = level[u] + 1;
          queue.push_back(arcs[a].to);
        }
      }
    }
    return level[sink] >= 0;
  }

  /// Pushes augmenting paths along the level graph until none is left. The
  /// search is iterative so that long chains (one node per superstep
  /// boundary) cannot overflow the call stack.
  int64_t blockingFlow(unsigned source, unsigned sink) {
    next.assign(adjacency.size(), 0);
    int64_t total = 0;
    llvm::SmallVector<unsigned, 32> path;
    unsigned u = source;
    while (true) {
      if (u == sink) {
        int64_t bottleneck = arcs[path.front()].capacity;
        for (unsigned a : path)
          bottleneck = std::min(bottleneck, arcs[a].capacity);
        for (unsigned a : path) {
          arcs[a].capacity -= bottleneck;
          arcs[a ^ 1].capacity += bottleneck;
        }
        total += bottleneck;
        path.clear();
        u = source;
        continue;
      }
      auto &arcList = adjacency[u];
      unsigned &i = next[u];
      while (i < arcList.size() && (arcs[arcList[i]].capacity <= 0 ||
                                    level[arcs[arcList[i]].to] != level[u] + 1))
        ++i;
      if (i < arcList.size()) {
        path.push_back(arcList[i]);
        u = arcs[arcList[i]].to;
        continue;
      }
      // Dead end: no augmenting path continues through u in this phase.
      if (u == source)
        return total;
      level[u] = -1;
      unsigned back = path.pop_back_val();
      u = arcs[back ^ 1].to;
      ++next[u];
    }
  }

  llvm::SmallVector<Arc, 0> arcs;
  llvm::SmallVector<llvm::SmallVector<unsigned, 4>, 0> adjacency;
  llvm::SmallVector<int, 0> level;
  llvm::SmallVector<unsigned, 0> next;
};
} // namespace

llvm::Error FlowNetwork::verify() const {
  for (auto [id, e] : llvm::enumerate(edges)) {
    if (e.from >= numNodes || e.to >= numNodes)
      return makeError(llvm::formatv("edge {0} has an endpoint outside the "
                                     "{1} nodes of the network",
                                     id, numNodes));
    if (e.lower < 0 || e.lower == Unbounded)
      return makeError(llvm::formatv("edge {0} has an invalid lower bound {1}",
                                     id, e.lower));
    if (e.capacity < e.lower)
      return makeError(
          llvm::formatv("edge {0} has capacity {1} below its lower bound {2}",
                        id, e.capacity, e.lower));
  }
  return llvm::Error::success();
}

llvm::Expected<Flow> bsgp::computeMinFlow(const FlowNetwork &network,
                                          unsigned source, unsigned sink) {
  if (llvm::Error err = network.verify())
    return std::move(err);
  unsigned n = network.getNumNodes();
  if (source >= n || sink >= n)
    return makeError("source or sink outside the network");
  if (source == sink)
    return makeError("source and sink must differ");

  // `bound` exceeds every finite flow this construction can carry: the total
  // of the lower bounds and finite capacities, plus one. An unbounded edge
  // gets the stand-in capacity 4 * bound, which neither phase can saturate
  // unless an unbounded path closes a cycle through sink and source.
  int64_t bound = 1;
  for (const FlowNetwork::Edge &e : network.getEdges()) {
    int64_t finite = e.capacity == FlowNetwork::Unbounded ? 0 : e.capacity;
    if (__builtin_add_overflow(bound, e.lower, &bound) ||
        __builtin_add_overflow(bound, finite, &bound))
      return makeError("the bounds of the network overflow 64-bit sums");
  }
  if (bound > std::numeric_limits<int64_t>::max() / 8)
    return makeError("the bounds of the network overflow 64-bit sums");
  const int64_t infinity = 4 * bound;

  // Phase 1: a feasible flow. Each edge keeps capacity - lower; the lower
  // bound becomes a demand at its head and a supply at its tail.
  Dinic dinic(n + 2);
  unsigned superSource = n, superSink = n + 1;
  llvm::SmallVector<unsigned, 0> arcOfEdge;
  llvm::SmallVector<int64_t, 0> arcCapacity;
  llvm::SmallVector<int64_t, 0> excess(n, 0);
  for (const FlowNetwork::Edge &e : network.getEdges()) {
    int64_t capacity =
        e.capacity == FlowNetwork::Unbounded ? infinity : e.capacity;
    arcCapacity.push_back(capacity - e.lower);
    arcOfEdge.push_back(dinic.addArc(e.from, e.to, capacity - e.lower));
    excess[e.to] += e.lower;
    excess[e.from] -= e.lower;
  }
  unsigned closing = dinic.addArc(sink, source, infinity);
  int64_t demand = 0;
  llvm::SmallVector<unsigned, 0> superArcs;
  for (unsigned v = 0; v < n; ++v) {
    if (excess[v] > 0) {
      superArcs.push_back(dinic.addArc(superSource, v, excess[v]));
      demand += excess[v];
    } else if (excess[v] < 0) {
      superArcs.push_back(dinic.addArc(v, superSink, -excess[v]));
    }
  }
  if (dinic.maxFlow(superSource, superSink) != demand)
    return makeError("no flow satisfies the lower bounds and capacities");

  // The flow on the closing arc is the value of the feasible flow. Removing
  // the closing and super arcs leaves the residual network of that flow.
  int64_t value = infinity - dinic.residual(closing);
  dinic.residual(closing) = dinic.residual(closing ^ 1) = 0;
  for (unsigned a : superArcs)
    dinic.residual(a) = dinic.residual(a ^ 1) = 0;

  // Phase 2: every unit pushed from sink to source cancels a unit of flow
  // value without breaking a lower bound.
  int64_t decrease = dinic.maxFlow(sink, source);
  if (decrease >= bound)
    return makeError("the flow value is unbounded below: an unbounded path "
                     "leads from the sink back to the source");

  Flow flow;
  flow.value = value - decrease;
  for (auto [id, e] : llvm::enumerate(network.getEdges()))
    flow.edgeFlow.push_back(e.lower + arcCapacity[id] -
                            dinic.residual(arcOfEdge[id]));
  return flow;
}

llvm::Error bsgp::verifyFlow(const FlowNetwork &network, unsigned source,
                             unsigned sink, const Flow &flow) {
  if (llvm::Error err = network.verify())
    return err;
  unsigned n = network.getNumNodes();
  if (source >= n || sink >= n || source == sink)
    return makeError("source and sink must be distinct nodes of the network");
  if (flow.edgeFlow.size() != network.getNumEdges())
    return makeError("the flow does not have one value per edge");
  llvm::SmallVector<int64_t, 0> balance(n, 0);
  for (auto [id, e] : llvm::enumerate(network.getEdges())) {
    int64_t f = flow.edgeFlow[id];
    if (f < e.lower || f > e.capacity)
      return makeError(
          llvm::formatv("flow {0} on edge {1} is outside its bounds [{2}, {3}]",
                        f, id, e.lower, e.capacity));
    balance[e.from] -= f;
    balance[e.to] += f;
  }
  for (unsigned v = 0; v < n; ++v)
    if (v != source && v != sink && balance[v] != 0)
      return makeError(llvm::formatv("flow is not conserved at node {0}", v));
  if (-balance[source] != flow.value || balance[sink] != flow.value)
    return makeError("the flow value does not match the flow on the edges");
  return llvm::Error::success();
}

llvm::Expected<llvm::SmallVector<FlowPath, 0>>
bsgp::decomposeFlow(const FlowNetwork &network, unsigned source, unsigned sink,
                    const Flow &flow) {
  if (llvm::Error err = verifyFlow(network, source, sink, flow))
    return std::move(err);
  if (flow.value < 0)
    return makeError("a negative flow has no source-sink paths");

  unsigned n = network.getNumNodes();
  llvm::SmallVector<int64_t, 0> remaining(flow.edgeFlow.begin(),
                                          flow.edgeFlow.end());
  llvm::SmallVector<llvm::SmallVector<unsigned, 4>, 0> outEdges(n);
  for (auto [id, e] : llvm::enumerate(network.getEdges()))
    outEdges[e.from].push_back(id);
  llvm::SmallVector<unsigned, 0> next(n, 0);
  // Position of a node on the current walk, or -1.
  llvm::SmallVector<int, 0> onWalk(n, -1);

  llvm::SmallVector<FlowPath, 0> paths;
  int64_t routed = 0;
  while (routed < flow.value) {
    // Walk from the source along edges that still carry flow. Conservation
    // guarantees that every node reached (other than the sink) has one; a
    // node met twice closes a cycle, which is cancelled on the spot.
    llvm::SmallVector<unsigned, 16> walkEdges;
    llvm::SmallVector<unsigned, 16> walkNodes{source};
    onWalk[source] = 0;
    unsigned u = source;
    while (u != sink) {
      auto &list = outEdges[u];
      unsigned &i = next[u];
      while (i < list.size() && remaining[list[i]] == 0)
        ++i;
      if (i == list.size())
        return makeError("flow is not conserved"); // Unreachable if verified.
      unsigned e = list[i];
      unsigned v = network.getEdge(e).to;
      walkEdges.push_back(e);
      if (onWalk[v] < 0) {
        onWalk[v] = walkNodes.size();
        walkNodes.push_back(v);
        u = v;
        continue;
      }
      unsigned start = onWalk[v];
      int64_t amount = remaining[e];
      for (unsigned k = start; k < walkEdges.size(); ++k)
        amount = std::min(amount, remaining[walkEdges[k]]);
      for (unsigned k = start; k < walkEdges.size(); ++k)
        remaining[walkEdges[k]] -= amount;
      for (unsigned k = start + 1; k < walkNodes.size(); ++k)
        onWalk[walkNodes[k]] = -1;
      walkEdges.truncate(start);
      walkNodes.truncate(start + 1);
      u = v;
    }
    FlowPath path;
    path.amount = flow.value - routed;
    for (unsigned e : walkEdges)
      path.amount = std::min(path.amount, remaining[e]);
    for (unsigned e : walkEdges)
      remaining[e] -= path.amount;
    for (unsigned v : walkNodes)
      onWalk[v] = -1;
    path.edges.assign(walkEdges.begin(), walkEdges.end());
    routed += path.amount;
    paths.push_back(std::move(path));
  }
  for (int64_t r : remaining)
    if (r != 0)
      return makeError("the flow contains a circulation that no source-sink "
                       "path covers");
  return paths;
}
