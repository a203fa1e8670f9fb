//===- SuperstepTable.cpp - saved-value tables of spawns ------------------===//
//
// Reads Table 1 / Table 2 of the paper off spawns in superstep form: for
// each value defined at the top level of a superstep, its defining and
// using supersteps. A use through a superstep result is a use in the
// superstep of the user.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/SuperstepTable.h"

#include "HostTests.h"
#include "SourceNames.h"
#include "SuperstepGraph.h"
#include "Supersteps.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Support/StreamAllocation.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace bsgp {

namespace {

/// True if step `steps[t]` may load a value at another thread's index or
/// write other threads' slots, so that a stream read there must not be
/// reused by a value that step saves (SavedValue::needsWholeLastStep).
bool readsOtherSlots(SuperstepOp step) {
  if (step.getRankReassigned())
    return true;
  bool found = false;
  step.walk([&](Operation *op) {
    if (isa<PutOp, GetOp>(op))
      found = true;
  });
  return found;
}

SpawnSuperstepTable computeTable(SpawnOp spawn) {
  SpawnSuperstepTable table;
  SmallVector<SuperstepOp> steps = ssutil::getSupersteps(spawn);
  table.numSupersteps = steps.size();
  unsigned unnamed = 0;
  for (unsigned i = 0; i < steps.size(); ++i) {
    SuperstepOp step = steps[i];
    Block &body = step.getBody().front();
    Operation *yield = body.getTerminator();
    for (Operation &op : body.without_terminator()) {
      for (Value value : op.getResults()) {
        SuperstepValueInfo info;
        info.name = ssutil::getValueName(value);
        info.defStep = i + 1;
        info.words = getStreamWordCount(value.getType());
        if (FileLineColLoc pos = ssutil::findFileLineCol(value.getLoc())) {
          info.file = pos.getFilename().getValue().str();
          info.line = pos.getLine();
          info.col = pos.getColumn();
        }
        for (OpOperand &use : value.getUses()) {
          if (use.getOwner() != yield) {
            info.useSteps.push_back(i + 1);
            continue;
          }
          for (Operation *user :
               step.getResult(use.getOperandNumber()).getUsers()) {
            int t = ssutil::getStepNumber(steps, user);
            if (t >= 0)
              info.useSteps.push_back(t + 1);
          }
        }
        llvm::sort(info.useSteps);
        info.useSteps.erase(llvm::unique(info.useSteps), info.useSteps.end());
        info.saved =
            llvm::any_of(info.useSteps, [&](unsigned s) { return s != i + 1; });
        if (info.saved)
          info.needsWholeLastStep =
              readsOtherSlots(steps[info.useSteps.back() - 1]);
        if (!info.saved && info.name.empty())
          continue;
        if (info.name.empty())
          info.name = "%" + std::to_string(unnamed++);
        table.values.push_back(std::move(info));
      }
    }
  }
  return table;
}

} // namespace

SmallVector<SpawnSuperstepTable, 2>
computeSuperstepTables(ModuleOp module, bool includeLibrary) {
  SmallVector<SpawnSuperstepTable, 2> tables;
  module.walk([&](FunctionOpInterface func) {
    // The collective library's own spawns are not the program's.
    if (!includeLibrary &&
        func->hasAttr(BSGPDialect::LibraryAttrHelper::getNameStr()))
      return;
    unsigned spawnIndex = 0;
    func.walk([&](SpawnOp spawn) {
      unsigned index = spawnIndex++;
      if (ssutil::getSupersteps(spawn).empty())
        return;
      SpawnSuperstepTable table = computeTable(spawn);
      table.function = func.getName().str();
      table.spawnIndex = index;
      if (FileLineColLoc pos = ssutil::findFileLineCol(spawn.getLoc())) {
        table.file = pos.getFilename().getValue().str();
        table.line = pos.getLine();
        table.col = pos.getColumn();
      }
      // "the copy that runs in one pass, that reads again" and the like.
      for (StringRef attr :
           {kPassVersionAttr, kResultVersionAttr, kLoadVersionAttr})
        if (auto version = spawn->getAttrOfType<StringAttr>(attr))
          table.version += (table.version.empty() ? "" : ", that ") +
                           version.getValue().str();
      tables.push_back(std::move(table));
    });
  });
  return tables;
}

/// The functions whose spawns sit under host control flow, by name.
static llvm::StringMap<FunctionOpInterface> graphFunctions(ModuleOp module) {
  llvm::StringMap<FunctionOpInterface> funcs;
  module.walk([&](FunctionOpInterface func) {
    if (hasSuperstepGraph(func) &&
        !func->hasAttr(BSGPDialect::LibraryAttrHelper::getNameStr()))
      funcs[func.getName()] = func;
  });
  return funcs;
}

/// The saved values of \p table as the stream allocator takes them, and for
/// each row of the table the index of its value there (-1: not saved).
static SmallVector<SavedValue>
getSavedValues(const SpawnSuperstepTable &table,
               SmallVectorImpl<int> *rowValue = nullptr) {
  SmallVector<SavedValue> values;
  for (const SuperstepValueInfo &info : table.values) {
    if (rowValue)
      rowValue->push_back(-1);
    if (!info.saved || info.words == 0)
      continue;
    SavedValue value;
    value.defStep = info.defStep - 1;
    value.lastUseStep = info.useSteps.back() - 1;
    value.words = info.words;
    value.needsWholeLastStep = info.needsWholeLastStep;
    value.name = info.name;
    if (rowValue)
      rowValue->back() = values.size();
    values.push_back(std::move(value));
  }
  return values;
}

void printSuperstepTable(ModuleOp module, llvm::raw_ostream &os,
                         bool includeLibrary) {
  llvm::StringMap<FunctionOpInterface> graphs = graphFunctions(module);
  for (const SpawnSuperstepTable &table :
       computeSuperstepTables(module, includeLibrary)) {
    // A function's graph comes before the first of its tables.
    if (FunctionOpInterface func = graphs.lookup(table.function)) {
      printSuperstepOutline(func, os);
      graphs.erase(table.function);
    }
    os << "spawn " << table.spawnIndex << " in @" << table.function << ": "
       << table.numSupersteps << " supersteps";
    if (!table.version.empty())
      os << " (versioned: the copy that " << table.version << ")";
    os << "\n";
    // The temporary stream of each word of a saved value, as the paper's
    // Table 2 gives it (the minimum-flow allocation of §4.3).
    SmallVector<int> rowValue;
    SmallVector<SavedValue> values = getSavedValues(table, &rowValue);
    llvm::Expected<StreamAllocation> allocation =
        allocateStreams(table.numSupersteps, values);
    if (!allocation)
      llvm::consumeError(allocation.takeError());
    os << llvm::formatv("  {0,-12} {1,-4} {2,-12} {3,-6} {4,-6} {5}\n", "value",
                        "def", "uses", "saved", "words", "streams");
    for (auto [row, info] : llvm::enumerate(table.values)) {
      std::string uses;
      for (auto [k, s] : llvm::enumerate(info.useSteps))
        uses += (k ? "," : "") + std::to_string(s);
      if (uses.empty())
        uses = "-";
      std::string streams;
      if (allocation && rowValue[row] >= 0)
        for (auto [k, stream] :
             llvm::enumerate(allocation->wordStream[rowValue[row]]))
          streams += (k ? "," : "") + std::to_string(stream);
      if (streams.empty())
        streams = "-";
      os << llvm::formatv("  {0,-12} {1,-4} {2,-12} {3,-6} {4,-6} {5}\n",
                          info.name, info.defStep, uses,
                          info.saved ? "yes" : "no", info.words, streams);
    }
  }
}

void writeSuperstepDot(ModuleOp module, llvm::raw_ostream &os) {
  llvm::StringMap<FunctionOpInterface> graphs = graphFunctions(module);
  for (const SpawnSuperstepTable &table : computeSuperstepTables(module)) {
    if (FunctionOpInterface func = graphs.lookup(table.function)) {
      writeSuperstepGraphDot(func, os);
      graphs.erase(table.function);
    }
    SmallVector<SavedValue> values = getSavedValues(table);
    os << "// spawn " << table.spawnIndex << " in @" << table.function << "\n";
    llvm::Expected<StreamAllocation> allocation =
        allocateStreams(table.numSupersteps, values);
    if (!allocation) {
      os << "// stream allocation failed: "
         << llvm::toString(allocation.takeError()) << "\n";
      continue;
    }
    writeStreamGraphDot(os, table.numSupersteps, values, *allocation);
  }
}

} // namespace bsgp
