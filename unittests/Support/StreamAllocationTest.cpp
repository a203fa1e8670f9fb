//===- StreamAllocationTest.cpp - Tests for temporary stream allocation ---===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//

#include "bsgp/Support/StreamAllocation.h"

#include "ExpectedHelpers.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>
#include <set>
#include <utility>

using namespace bsgp;
using bsgp::test::errorMessage;
using bsgp::test::succeeded;

namespace {

SavedValue makeValue(unsigned def, unsigned lastUse, unsigned words = 1,
                     bool whole = false, std::string name = "") {
  SavedValue v;
  v.defStep = def;
  v.lastUseStep = lastUse;
  v.words = words;
  v.needsWholeLastStep = whole;
  v.name = std::move(name);
  return v;
}

std::vector<std::pair<unsigned, unsigned>>
slotsOf(const TemporaryStream &stream) {
  std::vector<std::pair<unsigned, unsigned>> result;
  for (const WordSlot &slot : stream.slots)
    result.push_back({slot.value, slot.word});
  return result;
}

using Slots = std::vector<std::pair<unsigned, unsigned>>;

// Paper Listing 5 / Table 2, supersteps renumbered from 0: v0 defined in 0
// and used in 1; v1 defined in 0 and used in 2 and 3; v2 defined in 1, used
// in 2; v3 defined in 2, used in 3. Fig. 4(c): two streams, {v0, v2, v3} and
// {v1}.
std::vector<SavedValue> listing5() {
  return {makeValue(0, 1, 1, false, "v0"), makeValue(0, 3, 1, false, "v1"),
          makeValue(1, 2, 1, false, "v2"), makeValue(2, 3, 1, false, "v3")};
}

TEST(StreamAllocationTest, Listing5GivesTheTwoStreamsOfFigure4) {
  auto values = listing5();
  auto alloc = allocateStreams(4, values);
  ASSERT_TRUE(succeeded(alloc));
  ASSERT_EQ(alloc->getNumStreams(), 2u);
  EXPECT_EQ(slotsOf(alloc->streams[0]), (Slots{{0, 0}, {2, 0}, {3, 0}}));
  EXPECT_EQ(slotsOf(alloc->streams[1]), (Slots{{1, 0}}));
  EXPECT_EQ(alloc->wordStream[0][0], 0u);
  EXPECT_EQ(alloc->wordStream[1][0], 1u);
  EXPECT_EQ(alloc->wordStream[2][0], 0u);
  EXPECT_EQ(alloc->wordStream[3][0], 0u);
  // Both streams are written by superstep 0 and last read by superstep 3.
  for (const TemporaryStream &s : alloc->streams) {
    EXPECT_EQ(s.firstWriteStep, 0u);
    EXPECT_EQ(s.lastReadStep, 3u);
  }
  // Fig. 4(c): flow 2 leaves the source and enters the sink; along the chain
  // begin0 end0 begin1 end1 begin2 end2 begin3 end3 only the {v0, v2, v3}
  // path walks inside supersteps 1 and 2, and nothing crosses a barrier
  // outside a value edge.
  EXPECT_EQ(alloc->flow.value, 2);
  std::vector<int64_t> chain(alloc->flow.edgeFlow.begin(),
                             alloc->flow.edgeFlow.begin() + 7);
  EXPECT_EQ(chain, (std::vector<int64_t>{2, 0, 1, 0, 1, 0, 2}));
  for (unsigned e : alloc->valueEdge)
    EXPECT_EQ(alloc->flow.edgeFlow[e], 1);
}

// Paper Listing 3 / Table 1 after the rank-reassignment rewrite of Listing 4:
// f and v are saved by superstep 0 and loaded in superstep 1 through
// thread.oldrank, so that whole superstep needs them; v is then saved again
// (v', "moved to t2") by superstep 1 for superstep 2. Listing 4 uses three
// streams t0 = {f}, t1 = {v}, t2 = {v'}, and t2 must not reuse t0 or t1.
TEST(StreamAllocationTest, Listing3RankReassignmentNeedsThreeStreams) {
  std::vector<SavedValue> values = {makeValue(0, 1, 1, true, "f"),
                                    makeValue(0, 1, 1, true, "v"),
                                    makeValue(1, 2, 1, false, "v'")};
  auto alloc = allocateStreams(3, values);
  ASSERT_TRUE(succeeded(alloc));
  ASSERT_EQ(alloc->getNumStreams(), 3u);
  EXPECT_EQ(slotsOf(alloc->streams[0]), (Slots{{0, 0}}));
  EXPECT_EQ(slotsOf(alloc->streams[1]), (Slots{{1, 0}}));
  EXPECT_EQ(slotsOf(alloc->streams[2]), (Slots{{2, 0}}));
  // t0 and t1: __newstream before pass1, __freestream after pass2.
  EXPECT_EQ(alloc->streams[0].firstWriteStep, 0u);
  EXPECT_EQ(alloc->streams[0].lastReadStep, 1u);
  EXPECT_EQ(alloc->streams[1].firstWriteStep, 0u);
  EXPECT_EQ(alloc->streams[1].lastReadStep, 1u);
  // t2: __newstream before pass2, __freestream after pass3.
  EXPECT_EQ(alloc->streams[2].firstWriteStep, 1u);
  EXPECT_EQ(alloc->streams[2].lastReadStep, 2u);
}

TEST(StreamAllocationTest, WithoutOldrankLoadsTheMovedValueReusesAStream) {
  // Same values, but loaded at the thread's own rank: v' may take the stream
  // of f or v, since every thread reads its own slot before it writes it.
  std::vector<SavedValue> values = {makeValue(0, 1), makeValue(0, 1),
                                    makeValue(1, 2)};
  auto alloc = allocateStreams(3, values);
  ASSERT_TRUE(succeeded(alloc));
  ASSERT_EQ(alloc->getNumStreams(), 2u);
  unsigned shared = alloc->wordStream[2][0];
  EXPECT_TRUE(shared == alloc->wordStream[0][0] ||
              shared == alloc->wordStream[1][0]);
  EXPECT_EQ(alloc->streams[shared].lastReadStep, 2u);
}

TEST(StreamAllocationTest, WholeLastStepEdgeSkipsPastTheEndNode) {
  // Ending at end(1) would let a value saved by superstep 1 follow on the
  // same path; the edge ends at begin(2) instead, or at the sink when the
  // last use is the last superstep.
  EXPECT_EQ(getValueEdgeTarget(4, makeValue(0, 1)), getBeginNode(1));
  EXPECT_EQ(getValueEdgeTarget(4, makeValue(0, 1, 1, true)), getBeginNode(2));
  EXPECT_EQ(getValueEdgeTarget(4, makeValue(0, 3, 1, true)), getEndNode(3));
}

TEST(StreamAllocationTest, MultiWordValuesAreAllocatedPerWord) {
  // a: float4 saved by 0 for 2; b: int saved by 0 for 1; c: float2 saved by
  // 1 for 2. Live words: 5 while a and b are saved, 6 once c replaces b.
  // So 6 word-streams: b's stream is reused by one word of c.
  std::vector<SavedValue> values = {makeValue(0, 2, 4, false, "a"),
                                    makeValue(0, 1, 1, false, "b"),
                                    makeValue(1, 2, 2, false, "c")};
  auto alloc = allocateStreams(3, values);
  ASSERT_TRUE(succeeded(alloc));
  EXPECT_EQ(alloc->getNumStreams(), 6u);
  std::set<unsigned> aStreams(alloc->wordStream[0].begin(),
                              alloc->wordStream[0].end());
  EXPECT_EQ(aStreams.size(), 4u);
  unsigned c0 = alloc->wordStream[2][0], c1 = alloc->wordStream[2][1];
  EXPECT_NE(c0, c1);
  EXPECT_EQ(aStreams.count(c0) + aStreams.count(c1), 0u);
  unsigned b = alloc->wordStream[1][0];
  EXPECT_TRUE(b == c0 || b == c1);
  // Streams sized per value would need 4 + 1 + 2 = 7 words.
  EXPECT_EQ(alloc->flow.value, 6);
}

TEST(StreamAllocationTest, NoValuesNoStreams) {
  auto alloc = allocateStreams(3, {});
  ASSERT_TRUE(succeeded(alloc));
  EXPECT_EQ(alloc->getNumStreams(), 0u);
  auto none = allocateStreams(0, {});
  ASSERT_TRUE(succeeded(none));
  EXPECT_EQ(none->getNumStreams(), 0u);
}

TEST(StreamAllocationTest, MalformedValuesAreErrors) {
  EXPECT_EQ(errorMessage(allocateStreams(3, {makeValue(1, 1, 1, false, "x")})),
            "saved value 0 'x' is defined in superstep 1, "
            "not before its last use in superstep 1");
  EXPECT_NE(errorMessage(allocateStreams(3, {makeValue(2, 1)})), "");
  EXPECT_EQ(
      errorMessage(allocateStreams(3, {makeValue(0, 1), makeValue(1, 3)})),
      "saved value 1 'v1' is used in superstep 3 but "
      "there are only 3 supersteps");
  EXPECT_EQ(errorMessage(allocateStreams(3, {makeValue(0, 1, 0)})),
            "saved value 0 'v0' has zero words");
  EXPECT_NE(errorMessage(allocateStreams(0, {makeValue(0, 1)})), "");
}

/// Moments of execution: 2s is superstep s loading its saved values, 2s+1 is
/// superstep s saving values. A value occupies its words from the moment it
/// is saved through the moment it is last loaded, or through the end of that
/// superstep when other threads may still load it.
std::pair<unsigned, unsigned> liveMoments(const SavedValue &v) {
  return {2 * v.defStep + 1,
          2 * v.lastUseStep + (v.needsWholeLastStep ? 1 : 0)};
}

/// Peak number of live words, by a sweep over the moments.
unsigned peakLiveWords(unsigned numSupersteps,
                       llvm::ArrayRef<SavedValue> values) {
  std::vector<unsigned> live(2 * numSupersteps, 0);
  for (const SavedValue &v : values) {
    auto [first, last] = liveMoments(v);
    for (unsigned m = first; m <= last; ++m)
      live[m] += v.words;
  }
  return live.empty() ? 0 : *std::max_element(live.begin(), live.end());
}

void checkAllocation(unsigned numSupersteps, llvm::ArrayRef<SavedValue> values,
                     const StreamAllocation &alloc) {
  // Optimality: as many word-streams as words live at the peak.
  EXPECT_EQ(alloc.getNumStreams(), peakLiveWords(numSupersteps, values));

  // Every word of every value is on exactly one stream, as wordStream says.
  std::vector<std::vector<unsigned>> seen(values.size());
  for (unsigned v = 0; v < values.size(); ++v)
    seen[v].assign(values[v].words, 0);
  for (unsigned s = 0; s < alloc.streams.size(); ++s) {
    const TemporaryStream &stream = alloc.streams[s];
    ASSERT_FALSE(stream.slots.empty());
    for (const WordSlot &slot : stream.slots) {
      ASSERT_LT(slot.value, values.size());
      ASSERT_LT(slot.word, values[slot.value].words);
      ++seen[slot.value][slot.word];
      EXPECT_EQ(alloc.wordStream[slot.value][slot.word], s);
    }
    // Values on one stream never overlap, in order, including the rule that
    // a value loaded through another thread's rank keeps its stream for the
    // whole last superstep.
    for (unsigned i = 0; i < stream.slots.size(); ++i) {
      for (unsigned j = i + 1; j < stream.slots.size(); ++j) {
        const SavedValue &a = values[stream.slots[i].value];
        const SavedValue &b = values[stream.slots[j].value];
        EXPECT_LT(liveMoments(a).second, liveMoments(b).first);
      }
      if (i + 1 < stream.slots.size()) {
        const SavedValue &a = values[stream.slots[i].value];
        const SavedValue &b = values[stream.slots[i + 1].value];
        if (a.needsWholeLastStep)
          EXPECT_GT(b.defStep, a.lastUseStep);
        else
          EXPECT_GE(b.defStep, a.lastUseStep);
      }
    }
    EXPECT_EQ(stream.firstWriteStep,
              values[stream.slots.front().value].defStep);
    EXPECT_EQ(stream.lastReadStep,
              values[stream.slots.back().value].lastUseStep);
  }
  for (unsigned v = 0; v < values.size(); ++v)
    for (unsigned w = 0; w < values[v].words; ++w)
      EXPECT_EQ(seen[v][w], 1u) << "value " << v << " word " << w;

  // The flow: bounds and conservation on the superstep graph; each value
  // edge carries exactly its words; the value is the stream count.
  const FlowNetwork &net = alloc.network;
  ASSERT_EQ(net.getNumNodes(), 2 * numSupersteps);
  ASSERT_EQ(alloc.flow.edgeFlow.size(), net.getNumEdges());
  std::vector<int64_t> balance(net.getNumNodes(), 0);
  for (unsigned e = 0; e < net.getNumEdges(); ++e) {
    const FlowNetwork::Edge &edge = net.getEdge(e);
    int64_t f = alloc.flow.edgeFlow[e];
    EXPECT_GE(f, edge.lower);
    EXPECT_LE(f, edge.capacity);
    balance[edge.from] -= f;
    balance[edge.to] += f;
  }
  for (unsigned n = 1; n + 1 < net.getNumNodes(); ++n)
    EXPECT_EQ(balance[n], 0) << "node " << n;
  if (!values.empty()) {
    EXPECT_EQ(-balance[0], int64_t(alloc.getNumStreams()));
    EXPECT_EQ(balance[net.getNumNodes() - 1], int64_t(alloc.getNumStreams()));
  }
  for (unsigned v = 0; v < values.size(); ++v) {
    EXPECT_EQ(alloc.flow.edgeFlow[alloc.valueEdge[v]], values[v].words);
    EXPECT_EQ(net.getEdge(alloc.valueEdge[v]).from,
              getEndNode(values[v].defStep));
  }
}

std::vector<SavedValue> randomValues(std::mt19937 &rng, unsigned numSupersteps,
                                     unsigned count) {
  std::vector<SavedValue> values;
  for (unsigned i = 0; i < count; ++i) {
    unsigned def = rng() % (numSupersteps - 1);
    unsigned use = def + 1 + rng() % (numSupersteps - 1 - def);
    unsigned words = rng() % 3 == 0 ? 1 + rng() % 4 : 1;
    values.push_back(makeValue(def, use, words, rng() % 4 == 0));
  }
  return values;
}

TEST(StreamAllocationTest, RandomGraphsAreOptimalAndConsistent) {
  std::mt19937 rng(4242);
  for (int iter = 0; iter < 3000; ++iter) {
    unsigned numSupersteps = 2 + rng() % 11;
    auto values = randomValues(rng, numSupersteps, rng() % 16);
    auto alloc = allocateStreams(numSupersteps, values);
    ASSERT_TRUE(succeeded(alloc)) << "iteration " << iter;
    SCOPED_TRACE("iteration " + std::to_string(iter));
    checkAllocation(numSupersteps, values, *alloc);
    if (::testing::Test::HasFailure())
      return;
  }
}

TEST(StreamAllocationTest, LargeGraphIsOptimal) {
  // Thousands of nodes and values, with short live ranges as in real code.
  std::mt19937 rng(7);
  unsigned numSupersteps = 2000;
  std::vector<SavedValue> values;
  for (unsigned i = 0; i < 6000; ++i) {
    unsigned def = rng() % (numSupersteps - 1);
    unsigned use = std::min(numSupersteps - 1, def + 1 + unsigned(rng() % 20));
    values.push_back(makeValue(def, use, 1 + rng() % 4, rng() % 5 == 0));
  }
  auto alloc = allocateStreams(numSupersteps, values);
  ASSERT_TRUE(succeeded(alloc));
  checkAllocation(numSupersteps, values, *alloc);
}

TEST(StreamAllocationTest, DotShowsFigure4) {
  auto values = listing5();
  auto alloc = allocateStreams(4, values);
  ASSERT_TRUE(succeeded(alloc));
  std::string text;
  llvm::raw_string_ostream os(text);
  writeStreamGraphDot(os, 4, values, *alloc);
  llvm::StringRef dot(text);

  EXPECT_TRUE(dot.starts_with("digraph supersteps {\n"));
  EXPECT_TRUE(dot.ends_with("}\n"));
  EXPECT_EQ(dot.count("subgraph cluster_step"), 4u);
  EXPECT_EQ(dot.count("color=lightgrey"), 4u);
  EXPECT_EQ(dot.count("->"), 7u + 4u);
  // begin and end of superstep 2 inside its cluster.
  EXPECT_TRUE(dot.contains("  subgraph cluster_step2 {\n    style=filled;\n"
                           "    color=lightgrey;\n    label=\"superstep 2\";\n"
                           "    n4 [label=\"2\"];\n    n5 [label=\"2\"];\n"
                           "  }\n"));
  // Non-value edges carry their flow; value edges their name and the colour
  // of their stream: stream 0 = {v0, v2, v3}, stream 1 = {v1}.
  EXPECT_TRUE(dot.contains("n0 -> n1 [label=\"2\"];"));
  EXPECT_TRUE(dot.contains("n1 -> n2 [label=\"0\"];"));
  EXPECT_TRUE(dot.contains("n1 -> n2 [label=\"v0\", color=red"));
  EXPECT_TRUE(dot.contains("n1 -> n6 [label=\"v1\", color=blue"));
  EXPECT_TRUE(dot.contains("n3 -> n4 [label=\"v2\", color=red"));
  EXPECT_TRUE(dot.contains("n5 -> n6 [label=\"v3\", color=red"));
}

TEST(StreamAllocationTest, DotEscapesNamesAndSplitsWords) {
  std::vector<SavedValue> values = {makeValue(0, 1, 2, false, "a\"b")};
  auto alloc = allocateStreams(2, values);
  ASSERT_TRUE(succeeded(alloc));
  std::string text;
  llvm::raw_string_ostream os(text);
  writeStreamGraphDot(os, 2, values, *alloc);
  EXPECT_TRUE(llvm::StringRef(text).contains("label=\"a\\\"b[0]\""));
  EXPECT_TRUE(llvm::StringRef(text).contains("label=\"a\\\"b[1]\""));
  EXPECT_EQ(llvm::StringRef(text).count("n1 -> n2 [label=\"a"), 2u);
}

} // namespace
