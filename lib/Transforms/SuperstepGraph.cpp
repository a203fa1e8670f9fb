//===- SuperstepGraph.cpp - the superstep graph of a host function -------===//
//
// Part of bsgpc, the BSGP compiler.
//
// After bsgp-split-uniform-flow, a spawn whose barriers sit in uniform
// branches and loops is a host `scf.if` / `scf.while` around the spawns of
// its straight-line pieces: the paper's control processor decides which
// supersteps run next. `--print-supersteps` shows that graph, as an outline
// (table) or as a Graphviz control flow graph of supersteps (dot), for
// every function where a spawn sits under host control flow.
//
//===----------------------------------------------------------------------===//

#include "SuperstepGraph.h"

#include "HostTests.h"
#include "Supersteps.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace bsgp {

namespace {

bool holdsSpawn(Region &region) {
  bool found = false;
  region.walk([&](SpawnOp) { found = true; });
  return found;
}

bool holdsSpawn(Operation *op) {
  return llvm::any_of(op->getRegions(),
                      [](Region &r) { return holdsSpawn(r); });
}

/// `file:line:col` of the source construct, or "?" where none is known.
std::string where(Location loc) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto flc = loc->findInstanceOf<FileLineColLoc>())
    os << flc.getFilename().getValue() << ":" << flc.getLine() << ":"
       << flc.getColumn();
  else
    os << "?";
  return s;
}

/// A branch between the two copies of one spawn that a pass versioned
/// (bsgp-single-pass and the like): not the user's branch.
bool isVersionBranch(scf::IfOp op) {
  bool versioned = true;
  op->walk([&](SpawnOp spawn) {
    versioned &=
        llvm::any_of(ArrayRef<StringRef>{kPassVersionAttr, kResultVersionAttr,
                                         kLoadVersionAttr},
                     [&](StringRef attr) { return spawn->hasAttr(attr); });
  });
  return versioned;
}

/// MLIRGen's `if (n != 0)` around a spawn of n threads, which runs
/// nothing of a spawn without threads: not a branch of the user's, so the
/// outline and the graph show its spawns as if it were not there.
bool isThreadGuard(scf::IfOp op) {
  auto cmp = op.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::ne ||
      !matchPattern(cmp.getRhs(), m_Zero()) ||
      !(op.getElseRegion().empty() ||
        llvm::hasSingleElement(op.getElseRegion().front())))
    return false;
  SpawnOp first;
  op.getThenRegion().walk([&](SpawnOp s) {
    if (!first)
      first = s;
  });
  return first && first.getThreadCount() == cmp.getLhs();
}

unsigned stepCount(SpawnOp spawn) {
  return std::max<size_t>(ssutil::getSupersteps(spawn).size(), 1);
}

/// The outline: spawns in order, loops and branches as nested blocks.
class Outline {
public:
  Outline(const llvm::DenseMap<Operation *, unsigned> &index,
          llvm::raw_ostream &os)
      : index(index), os(os) {}

  void region(Region &r, unsigned depth) {
    for (Block &block : r)
      for (Operation &op : block)
        this->op(&op, depth);
  }

private:
  void line(unsigned depth, const llvm::Twine &text) {
    os.indent(2 * depth) << text << "\n";
  }

  void op(Operation *op, unsigned depth) {
    if (auto spawn = dyn_cast<SpawnOp>(op)) {
      unsigned n = ssutil::getSupersteps(spawn).size();
      line(depth, "spawn " + llvm::Twine(index.lookup(op)) + ": " +
                      llvm::Twine(n) + (n == 1 ? " superstep" : " supersteps"));
      return;
    }
    if (!holdsSpawn(op))
      return;
    if (auto w = dyn_cast<scf::WhileOp>(op)) {
      line(depth, "loop at " + where(op->getLoc()) + " {");
      if (holdsSpawn(w.getBefore())) {
        line(depth + 1, "condition:");
        region(w.getBefore(), depth + 2);
        line(depth + 1, "body:");
        region(w.getAfter(), depth + 2);
      } else {
        region(w.getAfter(), depth + 1);
      }
      line(depth, "}");
    } else if (isa<scf::ForOp>(op)) {
      line(depth, "loop at " + where(op->getLoc()) + " {");
      region(op->getRegion(0), depth + 1);
      line(depth, "}");
    } else if (auto i = dyn_cast<scf::IfOp>(op); i && isThreadGuard(i)) {
      region(i.getThenRegion(), depth);
    } else if (auto i = dyn_cast<scf::IfOp>(op)) {
      bool versions = isVersionBranch(i);
      line(depth, versions ? "one of two versions, chosen at run time {"
                           : "if at " + where(op->getLoc()) + " {");
      region(i.getThenRegion(), depth + 1);
      if (holdsSpawn(i.getElseRegion())) {
        line(depth, versions ? "} or {" : "} else {");
        region(i.getElseRegion(), depth + 1);
      }
      line(depth, "}");
    } else {
      for (Region &r : op->getRegions())
        region(r, depth);
    }
  }

  const llvm::DenseMap<Operation *, unsigned> &index;
  llvm::raw_ostream &os;
};

/// The control flow graph of supersteps: a node per superstep, an edge to
/// each superstep that may run next. `Preds` are the nodes the next node
/// follows, with the label of that edge.
class Graph {
public:
  using Preds = SmallVector<std::pair<std::string, std::string>>;

  Graph(StringRef prefix, const llvm::DenseMap<Operation *, unsigned> &index,
        llvm::raw_ostream &os)
      : prefix(prefix), index(index), os(os) {}

  Preds region(Region &r, Preds preds) {
    for (Block &block : r)
      for (Operation &op : block)
        preds = this->op(&op, std::move(preds));
    return preds;
  }

private:
  std::string node(const llvm::Twine &label, StringRef attrs = "") {
    std::string name =
        "\"" + prefix.str() + "." + std::to_string(nodes++) + "\"";
    os << "  " << name << " [label=\"" << label << "\"" << attrs << "];\n";
    return name;
  }

  void edges(const Preds &preds, StringRef to) {
    for (auto &[from, label] : preds) {
      os << "  " << from << " -> " << to;
      if (!label.empty())
        os << " [label=\"" << label << "\"]";
      os << ";\n";
    }
  }

  static Preds labelled(Preds preds, StringRef label) {
    for (auto &p : preds)
      if (p.second.empty())
        p.second = label.str();
    return preds;
  }

  Preds op(Operation *op, Preds preds) {
    if (auto spawn = dyn_cast<SpawnOp>(op)) {
      unsigned k = index.lookup(op);
      for (unsigned t = 0, e = stepCount(spawn); t < e; ++t) {
        std::string n = node("spawn " + llvm::Twine(k) + "\\nsuperstep " +
                             llvm::Twine(t + 1));
        edges(preds, n);
        preds = {{n, ""}};
      }
      return preds;
    }
    if (!holdsSpawn(op))
      return preds;
    if (isa<scf::WhileOp, scf::ForOp>(op)) {
      // A point for the loop's head: the way in and the back edge meet.
      std::string head =
          node("loop " + where(op->getLoc()), ", shape=box, style=dashed");
      edges(preds, head);
      Preds exits = {{head, "exit"}};
      Preds body = {{head, "repeat"}};
      if (auto w = dyn_cast<scf::WhileOp>(op)) {
        Preds cond = region(w.getBefore(), {{head, ""}});
        exits = labelled(cond, "exit");
        body = region(w.getAfter(), labelled(cond, "repeat"));
      } else {
        body = region(op->getRegion(0), body);
      }
      edges(labelled(body, "back"), head);
      return exits;
    }
    if (auto i = dyn_cast<scf::IfOp>(op); i && isThreadGuard(i))
      return region(i.getThenRegion(), std::move(preds));
    if (auto i = dyn_cast<scf::IfOp>(op)) {
      Preds out = region(i.getThenRegion(), labelled(preds, "then"));
      Preds other = region(i.getElseRegion(), labelled(preds, "else"));
      out.append(other.begin(), other.end());
      return out;
    }
    for (Region &r : op->getRegions())
      preds = region(r, std::move(preds));
    return preds;
  }

  StringRef prefix;
  const llvm::DenseMap<Operation *, unsigned> &index;
  llvm::raw_ostream &os;
  unsigned nodes = 0;
};

} // namespace

bool hasSuperstepGraph(FunctionOpInterface func) {
  bool found = false;
  func.walk([&](SpawnOp spawn) {
    if (spawn->getParentOp() != func.getOperation())
      found = true;
  });
  return found;
}

llvm::DenseMap<Operation *, unsigned> numberSpawns(FunctionOpInterface func) {
  llvm::DenseMap<Operation *, unsigned> index;
  func.walk([&](SpawnOp spawn) {
    unsigned k = index.size();
    index[spawn] = k;
  });
  return index;
}

void printSuperstepOutline(FunctionOpInterface func, llvm::raw_ostream &os) {
  os << "superstep graph of @" << func.getName() << ":\n";
  auto index = numberSpawns(func);
  Outline(index, os).region(func.getFunctionBody(), 1);
}

void writeSuperstepGraphDot(FunctionOpInterface func, llvm::raw_ostream &os) {
  os << "digraph \"superstep graph of @" << func.getName() << "\" {\n";
  os << "  node [shape=box];\n";
  auto index = numberSpawns(func);
  Graph graph(func.getName(), index, os);
  std::string entry = "\"" + func.getName().str() + ".entry\"";
  os << "  " << entry << " [label=\"@" << func.getName()
     << "\", shape=plaintext];\n";
  graph.region(func.getFunctionBody(), {{entry, ""}});
  os << "}\n";
}

} // namespace bsgp
