//===- MinFlowTest.cpp - Tests for the minimum flow solver ----------------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//

#include "bsgp/Support/MinFlow.h"

#include "ExpectedHelpers.h"

#include "gtest/gtest.h"

#include <random>

using namespace bsgp;
using bsgp::test::errorMessage;
using bsgp::test::succeeded;

namespace {

constexpr int64_t Inf = FlowNetwork::Unbounded;

/// Independent check of a flow: bounds, conservation and value.
void expectValidFlow(const FlowNetwork &net, unsigned s, unsigned t,
                     const Flow &flow) {
  ASSERT_EQ(flow.edgeFlow.size(), net.getNumEdges());
  std::vector<int64_t> balance(net.getNumNodes(), 0);
  for (unsigned i = 0; i < net.getNumEdges(); ++i) {
    const auto &e = net.getEdge(i);
    EXPECT_GE(flow.edgeFlow[i], e.lower) << "edge " << i;
    EXPECT_LE(flow.edgeFlow[i], e.capacity) << "edge " << i;
    balance[e.from] -= flow.edgeFlow[i];
    balance[e.to] += flow.edgeFlow[i];
  }
  for (unsigned v = 0; v < net.getNumNodes(); ++v)
    if (v != s && v != t)
      EXPECT_EQ(balance[v], 0) << "node " << v;
  EXPECT_EQ(-balance[s], flow.value);
  EXPECT_EQ(balance[t], flow.value);
}

TEST(MinFlowTest, SingleLowerBoundIsTheMinimum) {
  // s=0 -> a=1 needs 2 units; the free edge s->t carries nothing.
  FlowNetwork net(3);
  unsigned sa = net.addEdge(0, 1, 2, 5);
  unsigned at = net.addEdge(1, 2, 0, Inf);
  unsigned st = net.addEdge(0, 2, 0, Inf);
  auto flow = computeMinFlow(net, 0, 2);
  ASSERT_TRUE(succeeded(flow));
  EXPECT_EQ(flow->value, 2);
  EXPECT_EQ(flow->edgeFlow[sa], 2);
  EXPECT_EQ(flow->edgeFlow[at], 2);
  EXPECT_EQ(flow->edgeFlow[st], 0);
  expectValidFlow(net, 0, 2, *flow);
}

TEST(MinFlowTest, LowerBoundForcesFlowThroughLongPath) {
  // s=0, a=1, b=2, c=3, t=4. The only way to meet b->c's requirement of 3 is
  // the long path s->a->b->c->t; the direct s->t edge stays empty.
  FlowNetwork net(5);
  unsigned direct = net.addEdge(0, 4, 0, Inf);
  unsigned sa = net.addEdge(0, 1, 0, Inf);
  unsigned ab = net.addEdge(1, 2, 0, Inf);
  unsigned bc = net.addEdge(2, 3, 3, 3);
  unsigned ct = net.addEdge(3, 4, 0, Inf);
  auto flow = computeMinFlow(net, 0, 4);
  ASSERT_TRUE(succeeded(flow));
  EXPECT_EQ(flow->value, 3);
  EXPECT_EQ(flow->edgeFlow[direct], 0);
  EXPECT_EQ(flow->edgeFlow[sa], 3);
  EXPECT_EQ(flow->edgeFlow[ab], 3);
  EXPECT_EQ(flow->edgeFlow[bc], 3);
  EXPECT_EQ(flow->edgeFlow[ct], 3);

  auto paths = decomposeFlow(net, 0, 4, *flow);
  ASSERT_TRUE(succeeded(paths));
  ASSERT_EQ(paths->size(), 1u);
  EXPECT_EQ((*paths)[0].amount, 3);
  EXPECT_EQ(llvm::ArrayRef<unsigned>((*paths)[0].edges),
            llvm::ArrayRef<unsigned>({sa, ab, bc, ct}));
}

TEST(MinFlowTest, RequirementsInSeriesShareOnePath) {
  // Two unit requirements one after the other (s->a and b->c) need one unit
  // of flow, not two; side by side (s->d, s->e) they need two.
  {
    FlowNetwork net(5); // s=0 a=1 b=2 c=3 t=4
    net.addEdge(0, 1, 1, 1);
    net.addEdge(1, 2, 0, Inf);
    net.addEdge(2, 3, 1, 1);
    net.addEdge(3, 4, 0, Inf);
    net.addEdge(0, 4, 0, Inf);
    net.addEdge(1, 4, 0, Inf);
    net.addEdge(0, 2, 0, Inf);
    auto flow = computeMinFlow(net, 0, 4);
    ASSERT_TRUE(succeeded(flow));
    EXPECT_EQ(flow->value, 1);
    expectValidFlow(net, 0, 4, *flow);
  }
  {
    FlowNetwork net(4); // s=0 d=1 e=2 t=3
    net.addEdge(0, 1, 1, 1);
    net.addEdge(0, 2, 1, 1);
    net.addEdge(1, 3, 0, Inf);
    net.addEdge(2, 3, 0, Inf);
    net.addEdge(1, 2, 0, Inf);
    auto flow = computeMinFlow(net, 0, 3);
    ASSERT_TRUE(succeeded(flow));
    EXPECT_EQ(flow->value, 2);
    expectValidFlow(net, 0, 3, *flow);
  }
}

TEST(MinFlowTest, InfeasibleCapacityIsAnError) {
  // a=1 must pass 2 units on to b=2 but can receive only 1 from s=0.
  FlowNetwork net(4);
  net.addEdge(0, 1, 0, 1);
  net.addEdge(1, 2, 2, Inf);
  net.addEdge(2, 3, 0, Inf);
  EXPECT_EQ(errorMessage(computeMinFlow(net, 0, 3)),
            "no flow satisfies the lower bounds and capacities");
  // A second unit-capacity edge into a makes it feasible, with value 2.
  net.addEdge(0, 1, 0, 1);
  auto flow = computeMinFlow(net, 0, 3);
  ASSERT_TRUE(succeeded(flow));
  EXPECT_EQ(flow->value, 2);
  EXPECT_EQ(flow->edgeFlow[0], 1);
  EXPECT_EQ(flow->edgeFlow[3], 1);
}

TEST(MinFlowTest, BackwardCapacityMakesTheValueNegative) {
  // s->t must carry 1; t->s can carry up to 5 back, so the net value is -4.
  FlowNetwork net(2);
  net.addEdge(0, 1, 1, 1);
  net.addEdge(1, 0, 0, 5);
  auto flow = computeMinFlow(net, 0, 1);
  ASSERT_TRUE(succeeded(flow));
  EXPECT_EQ(flow->value, -4);
  EXPECT_EQ(flow->edgeFlow[1], 5);
  EXPECT_NE(errorMessage(decomposeFlow(net, 0, 1, *flow)), "");
}

TEST(MinFlowTest, UnboundedBackwardPathIsAnError) {
  FlowNetwork net(3);
  net.addEdge(0, 2, 1, 1);
  net.addEdge(2, 1, 0, Inf);
  net.addEdge(1, 0, 0, Inf);
  EXPECT_NE(errorMessage(computeMinFlow(net, 0, 2)), "");
}

TEST(MinFlowTest, MalformedNetworksAreErrors) {
  {
    FlowNetwork net(2);
    net.addEdge(0, 1, 3, 2); // capacity below the lower bound
    EXPECT_NE(errorMessage(computeMinFlow(net, 0, 1)), "");
  }
  {
    FlowNetwork net(2);
    net.addEdge(0, 1, -1, 2);
    EXPECT_NE(errorMessage(computeMinFlow(net, 0, 1)), "");
  }
  {
    FlowNetwork net(2);
    net.addEdge(0, 5, 0, 2); // endpoint outside the network
    EXPECT_NE(errorMessage(computeMinFlow(net, 0, 1)), "");
  }
  {
    FlowNetwork net(2);
    net.addEdge(0, 1, 0, 2);
    EXPECT_NE(errorMessage(computeMinFlow(net, 0, 0)), "");
    EXPECT_NE(errorMessage(computeMinFlow(net, 0, 7)), "");
  }
  {
    // Finite bounds too large to add up safely.
    FlowNetwork net(2);
    net.addEdge(0, 1, 0, Inf - 1);
    net.addEdge(0, 1, 0, Inf - 1);
    EXPECT_NE(errorMessage(computeMinFlow(net, 0, 1)), "");
  }
}

TEST(MinFlowTest, VerifyAndDecomposeRejectBadFlows) {
  FlowNetwork net(3);
  net.addEdge(0, 1, 0, Inf);
  net.addEdge(1, 2, 0, Inf);
  Flow broken;
  broken.value = 1;
  broken.edgeFlow = {1, 0}; // lost at node 1
  EXPECT_NE(errorMessage(verifyFlow(net, 0, 2, broken)), "");
  EXPECT_NE(errorMessage(decomposeFlow(net, 0, 2, broken)), "");
  Flow good;
  good.value = 1;
  good.edgeFlow = {1, 1};
  EXPECT_EQ(errorMessage(verifyFlow(net, 0, 2, good)), "");
}

TEST(MinFlowTest, CirculationIsNotAPathCover) {
  // a=2 -> b=3 needs a unit that can only circulate through b -> a.
  FlowNetwork net(4);
  net.addEdge(0, 1, 1, 1);
  net.addEdge(2, 3, 1, 1);
  net.addEdge(3, 2, 0, Inf);
  auto flow = computeMinFlow(net, 0, 1);
  ASSERT_TRUE(succeeded(flow));
  EXPECT_EQ(flow->value, 1);
  expectValidFlow(net, 0, 1, *flow);
  EXPECT_EQ(errorMessage(decomposeFlow(net, 0, 1, *flow)),
            "the flow contains a circulation that no "
            "source-sink path covers");
}

TEST(MinFlowTest, DecompositionCancelsCyclesOnTheWay) {
  // s=0 -> a=1 -> b=2 -> t=3 with a cycle a -> c=4 -> a that also carries
  // flow; the cycle is cancelled and one path of 2 units remains.
  FlowNetwork net(5);
  unsigned sa = net.addEdge(0, 1, 2, 2);
  net.addEdge(1, 4, 1, 1);
  net.addEdge(4, 1, 0, Inf);
  unsigned ab = net.addEdge(1, 2, 0, Inf);
  unsigned bt = net.addEdge(2, 3, 0, Inf);
  Flow flow;
  flow.value = 2;
  flow.edgeFlow = {2, 1, 1, 2, 2};
  auto paths = decomposeFlow(net, 0, 3, flow);
  ASSERT_TRUE(succeeded(paths));
  ASSERT_EQ(paths->size(), 1u);
  EXPECT_EQ((*paths)[0].amount, 2);
  EXPECT_EQ(llvm::ArrayRef<unsigned>((*paths)[0].edges),
            llvm::ArrayRef<unsigned>({sa, ab, bt}));
}

/// Feasibility by Hoffman's circulation theorem on the network closed by an
/// unbounded t->s edge: feasible iff no node set S needs more flow in (lower
/// bounds of edges entering S) than it can send out (capacities of edges
/// leaving S). Exponential; for tiny networks only.
bool bruteForceFeasible(const FlowNetwork &net, unsigned s, unsigned t) {
  unsigned n = net.getNumNodes();
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    auto in = [&](unsigned v) { return (mask >> v) & 1; };
    bool closedOut = in(t) && !in(s); // the t->s edge leaves S
    if (closedOut)
      continue;
    int64_t needIn = 0, canOut = 0;
    bool unboundedOut = false;
    for (const auto &e : net.getEdges()) {
      if (!in(e.from) && in(e.to))
        needIn += e.lower;
      if (in(e.from) && !in(e.to)) {
        if (e.capacity == Inf)
          unboundedOut = true;
        else
          canOut += e.capacity;
      }
    }
    if (!unboundedOut && needIn > canOut)
      return false;
  }
  return true;
}

/// Min-flow max-cut: max over s-t cuts (S, T) of l(S->T) - c(T->S). Returns
/// false when every cut has an unbounded backward edge (value unbounded).
bool bruteForceMinFlow(const FlowNetwork &net, unsigned s, unsigned t,
                       int64_t &best) {
  unsigned n = net.getNumNodes();
  bool any = false;
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    auto in = [&](unsigned v) { return (mask >> v) & 1; };
    if (!in(s) || in(t))
      continue;
    int64_t value = 0;
    bool minusInfinity = false;
    for (const auto &e : net.getEdges()) {
      if (in(e.from) && !in(e.to))
        value += e.lower;
      if (!in(e.from) && in(e.to)) {
        if (e.capacity == Inf)
          minusInfinity = true;
        else
          value -= e.capacity;
      }
    }
    if (minusInfinity)
      continue;
    if (!any || value > best)
      best = value;
    any = true;
  }
  return any;
}

TEST(MinFlowTest, RandomNetworksMatchBruteForceCuts) {
  std::mt19937 rng(20080811);
  unsigned feasibleCount = 0, infeasibleCount = 0, unboundedCount = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    unsigned n = 2 + rng() % 6;
    bool acyclic = iter % 2 == 0;
    FlowNetwork net(n);
    unsigned numEdges = rng() % (3 * n);
    for (unsigned i = 0; i < numEdges; ++i) {
      unsigned a = rng() % n, b = rng() % n;
      if (acyclic) {
        if (a == b)
          continue;
        if (a > b)
          std::swap(a, b);
      }
      int64_t lower = rng() % 3 == 0 ? rng() % 3 : 0;
      int64_t capacity = rng() % 3 == 0 ? Inf : lower + rng() % 4;
      net.addEdge(a, b, lower, capacity);
    }
    unsigned s = 0, t = n - 1;
    auto flow = computeMinFlow(net, s, t);
    bool feasible = bruteForceFeasible(net, s, t);
    int64_t expected = 0;
    bool bounded = bruteForceMinFlow(net, s, t, expected);
    if (!feasible) {
      ++infeasibleCount;
      EXPECT_NE(errorMessage(std::move(flow)), "") << "iteration " << iter;
      continue;
    }
    if (!bounded) {
      ++unboundedCount;
      EXPECT_NE(errorMessage(std::move(flow)), "") << "iteration " << iter;
      continue;
    }
    ++feasibleCount;
    ASSERT_TRUE(succeeded(flow)) << "iteration " << iter;
    EXPECT_EQ(flow->value, expected) << "iteration " << iter;
    expectValidFlow(net, s, t, *flow);
    if (acyclic && flow->value >= 0) {
      // On a DAG a non-negative flow splits into s-t paths covering each edge
      // exactly as often as it carries flow.
      auto paths = decomposeFlow(net, s, t, *flow);
      ASSERT_TRUE(succeeded(paths)) << "iteration " << iter;
      std::vector<int64_t> covered(net.getNumEdges(), 0);
      int64_t total = 0;
      for (const FlowPath &p : *paths) {
        EXPECT_GT(p.amount, 0);
        unsigned at = s;
        for (unsigned e : p.edges) {
          EXPECT_EQ(net.getEdge(e).from, at);
          at = net.getEdge(e).to;
          covered[e] += p.amount;
        }
        EXPECT_EQ(at, t);
        total += p.amount;
      }
      EXPECT_EQ(total, flow->value);
      for (unsigned e = 0; e < net.getNumEdges(); ++e)
        EXPECT_EQ(covered[e], flow->edgeFlow[e]) << "edge " << e;
    }
  }
  // The generator must exercise every outcome.
  EXPECT_GT(feasibleCount, 1000u);
  EXPECT_GT(infeasibleCount, 50u);
  EXPECT_GT(unboundedCount, 50u);
}

} // namespace
