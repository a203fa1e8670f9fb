//===- StreamAllocation.cpp - Temporary streams for saved values ----------===//
//
// Part of bsgpc, a compiler for BSGP (Bulk-Synchronous GPU Programming).
//
//===----------------------------------------------------------------------===//

#include "bsgp/Support/StreamAllocation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <iterator>
#include <tuple>

using namespace bsgp;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static std::string getValueName(llvm::ArrayRef<SavedValue> values,
                                unsigned index) {
  if (!values[index].name.empty())
    return values[index].name;
  return "v" + std::to_string(index);
}

unsigned bsgp::getValueEdgeTarget(unsigned numSupersteps,
                                  const SavedValue &value) {
  if (!value.needsWholeLastStep)
    return getBeginNode(value.lastUseStep);
  // Ending at end(lastUseStep) would not do: values saved by the last using
  // superstep start there, so a path could hand them the stream while other
  // threads still load from it.
  return std::min(getBeginNode(value.lastUseStep + 1),
                  getEndNode(numSupersteps - 1));
}

static llvm::Error checkValues(unsigned numSupersteps,
                               llvm::ArrayRef<SavedValue> values) {
  for (auto [index, value] : llvm::enumerate(values)) {
    std::string name = getValueName(values, index);
    if (value.words == 0)
      return makeError(
          llvm::formatv("saved value {0} '{1}' has zero words", index, name));
    if (value.lastUseStep >= numSupersteps)
      return makeError(llvm::formatv(
          "saved value {0} '{1}' is used in superstep {2} but there are only "
          "{3} supersteps",
          index, name, value.lastUseStep, numSupersteps));
    if (value.defStep >= value.lastUseStep)
      return makeError(llvm::formatv(
          "saved value {0} '{1}' is defined in superstep {2}, not before its "
          "last use in superstep {3}",
          index, name, value.defStep, value.lastUseStep));
  }
  return llvm::Error::success();
}

llvm::Expected<StreamAllocation>
bsgp::allocateStreams(unsigned numSupersteps,
                      llvm::ArrayRef<SavedValue> values) {
  if (llvm::Error err = checkValues(numSupersteps, values))
    return std::move(err);

  StreamAllocation result;
  FlowNetwork &network = result.network;
  unsigned numNodes = 2 * numSupersteps;
  for (unsigned i = 0; i < numNodes; ++i)
    network.addNode();
  for (unsigned i = 0; i + 1 < numNodes; ++i)
    network.addEdge(i, i + 1, 0, FlowNetwork::Unbounded);
  unsigned firstValueEdge = network.getNumEdges();
  for (const SavedValue &value : values)
    result.valueEdge.push_back(network.addEdge(
        getEndNode(value.defStep), getValueEdgeTarget(numSupersteps, value),
        value.words, value.words));

  result.wordStream.resize(values.size());
  if (values.empty()) {
    // Nothing to cover: the zero flow, and no source/sink pair is needed
    // (there may be no superstep at all).
    result.flow.edgeFlow.assign(network.getNumEdges(), 0);
    return result;
  }

  unsigned source = 0, sink = numNodes - 1;
  llvm::Expected<Flow> flow = computeMinFlow(network, source, sink);
  if (!flow)
    return flow.takeError();
  result.flow = std::move(*flow);
  auto paths = decomposeFlow(network, source, sink, result.flow);
  if (!paths)
    return paths.takeError();

  // Each unit of a path is one word-stream; the k-th unit through a value
  // edge holds the next unassigned word of that value.
  llvm::SmallVector<unsigned, 0> nextWord(values.size(), 0);
  for (const FlowPath &path : *paths) {
    for (int64_t unit = 0; unit < path.amount; ++unit) {
      TemporaryStream stream;
      for (unsigned edge : path.edges) {
        if (edge < firstValueEdge)
          continue;
        unsigned v = edge - firstValueEdge;
        stream.slots.push_back({v, nextWord[v]++});
      }
      // A path without a value edge could be cancelled, so a minimum flow
      // has none; skip it rather than allocate an unused stream.
      if (stream.slots.empty())
        continue;
      stream.firstWriteStep = values[stream.slots.front().value].defStep;
      stream.lastReadStep = values[stream.slots.back().value].lastUseStep;
      result.streams.push_back(std::move(stream));
    }
  }

  // Keys are unique (a word lives on one stream only), so the order is total.
  llvm::sort(result.streams,
             [](const TemporaryStream &a, const TemporaryStream &b) {
               return std::make_tuple(a.firstWriteStep, a.slots.front().value,
                                      a.slots.front().word) <
                      std::make_tuple(b.firstWriteStep, b.slots.front().value,
                                      b.slots.front().word);
             });
  for (auto [v, value] : llvm::enumerate(values))
    result.wordStream[v].assign(value.words, ~0u);
  for (auto [index, stream] : llvm::enumerate(result.streams))
    for (const WordSlot &slot : stream.slots)
      result.wordStream[slot.value][slot.word] = index;
  return result;
}

static std::string escapeDot(llvm::StringRef text) {
  std::string escaped;
  for (char c : text) {
    if (c == '"' || c == '\\')
      escaped += '\\';
    escaped += c;
  }
  return escaped;
}

void bsgp::writeStreamGraphDot(llvm::raw_ostream &os, unsigned numSupersteps,
                               llvm::ArrayRef<SavedValue> values,
                               const StreamAllocation &allocation) {
  // Distinct colours for neighbouring stream indices; they repeat beyond ten.
  static const char *const palette[] = {
      "red",   "blue",  "darkgreen", "orange", "purple",
      "brown", "cyan4", "magenta",   "gold3",  "deepskyblue"};
  const unsigned numColors = std::size(palette);

  os << "digraph supersteps {\n";
  os << "  node [shape=circle, style=filled, fillcolor=white];\n";
  for (unsigned s = 0; s < numSupersteps; ++s) {
    os << "  subgraph cluster_step" << s << " {\n";
    os << "    style=filled;\n    color=lightgrey;\n";
    os << "    label=\"superstep " << s << "\";\n";
    os << "    n" << getBeginNode(s) << " [label=\"" << s << "\"];\n";
    os << "    n" << getEndNode(s) << " [label=\"" << s << "\"];\n";
    os << "  }\n";
  }
  const FlowNetwork &network = allocation.network;
  auto flowOf = [&](unsigned edge) -> int64_t {
    return edge < allocation.flow.edgeFlow.size()
               ? allocation.flow.edgeFlow[edge]
               : 0;
  };
  for (unsigned i = 0; i + 1 < 2 * numSupersteps; ++i)
    os << "  n" << i << " -> n" << i + 1 << " [label=\"" << flowOf(i)
       << "\"];\n";
  for (auto [v, edge] : llvm::enumerate(allocation.valueEdge)) {
    if (v >= values.size() || edge >= network.getNumEdges())
      break;
    const FlowNetwork::Edge &e = network.getEdge(edge);
    std::string name = escapeDot(getValueName(values, v));
    for (unsigned w = 0; w < values[v].words; ++w) {
      std::string label = name;
      if (values[v].words > 1)
        label += "[" + std::to_string(w) + "]";
      os << "  n" << e.from << " -> n" << e.to << " [label=\"" << label << "\"";
      if (v < allocation.wordStream.size() &&
          w < allocation.wordStream[v].size() &&
          allocation.wordStream[v][w] < allocation.streams.size()) {
        unsigned stream = allocation.wordStream[v][w];
        const char *color = palette[stream % numColors];
        os << ", color=" << color << ", fontcolor=" << color
           << ", tooltip=\"stream " << stream << "\"";
      }
      os << "];\n";
    }
  }
  os << "}\n";
}
