//===- AllocateStreams.cpp - share temporary streams (§4.3) --------------===//
//
// Collects the saved values of a spawn from its bsgp.save / bsgp.load ops
// (one save per value, on streams that nothing else writes), asks
// allocateStreams (BSGPSupport) for the minimum-flow word-stream allocation,
// and rebinds every save and load to the shared streams. Each stream is
// allocated in a bsgp.require right before the first superstep writing it
// and freed in one right after the last superstep reading it.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "SourceNames.h"
#include "Supersteps.h"

#include "bsgp/Support/StreamAllocation.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPALLOCATESTREAMSPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

/// True if `index` is the thread's own rank, i.e. the access touches only
/// the thread's own slot.
bool isOwnSlot(Value index) { return index.getDefiningOp<ThreadRankOp>(); }

/// The saved values of one spawn and their allocation, built in the order of
/// the methods below.
class SpawnStreams {
public:
  explicit SpawnStreams(SpawnOp spawn)
      : spawn(spawn), steps(ssutil::getSupersteps(spawn)) {}

  LogicalResult run() {
    if (steps.empty())
      return success();
    for (SuperstepOp step : steps) {
      step.walk([&](SaveOp save) { saves.push_back(save); });
      step.walk([&](LoadOp load) { loads.push_back(load); });
    }
    if (saves.empty())
      return success();
    if (failed(collectValues()) || failed(allocateWords()))
      return failure();
    materializeStreams();
    rebind();
    return success();
  }

private:
  LogicalResult collectValues();
  SmallVector<unsigned> threadCountEpochs();
  LogicalResult allocateWords();
  void materializeStreams();
  void rebind();

  SpawnOp spawn;
  SmallVector<SuperstepOp> steps;
  SmallVector<SaveOp> saves;
  SmallVector<LoadOp> loads;
  /// One saved value per save; its streams identify it.
  DenseMap<Value, unsigned> valueOfStream;
  SmallVector<SavedValue> values;
  SmallVector<bool> loaded;
  /// The values that some superstep loads, as indices into `values`, and
  /// their descriptions for the allocation.
  SmallVector<unsigned> kept;
  SmallVector<SavedValue> keptValues;
  /// The shared streams, the streams of each word of each kept value, and
  /// the values of the shared streams once allocated in bsgp.require ops.
  SmallVector<TemporaryStream> allStreams;
  SmallVector<SmallVector<unsigned, 4>> wordStreamOf;
  SmallVector<Value> streams;
};

LogicalResult SpawnStreams::collectValues() {
  DenseSet<unsigned> writesOtherSlots;
  for (SaveOp save : saves) {
    for (Value stream : save.getStreams()) {
      auto require = stream.getDefiningOp<RequireOp>();
      if (!require || require->getParentOp() != spawn)
        return save.emitError("stream must be allocated by a bsgp.require "
                              "of the spawn (run bsgp-save-restore first)");
      if (!valueOfStream.try_emplace(stream, values.size()).second)
        return save.emitError("stream is written by more than one save; "
                              "streams are already shared");
    }
    SavedValue value;
    value.defStep = ssutil::getStepNumber(steps, save);
    value.lastUseStep = value.defStep;
    value.words = save.getStreams().size();
    value.name = ssutil::getValueName(save.getValue());
    if (!isOwnSlot(save.getIndex()))
      writesOtherSlots.insert(value.defStep);
    values.push_back(std::move(value));
    loaded.push_back(false);
  }
  for (LoadOp load : loads) {
    auto it = valueOfStream.find(load.getStreams().front());
    if (it == valueOfStream.end())
      return load.emitError("load from a stream that no save writes");
    SavedValue &value = values[it->second];
    unsigned step = ssutil::getStepNumber(steps, load);
    if (step <= value.defStep)
      return load.emitError("load in the superstep that saves the value");
    if (step > value.lastUseStep) {
      value.lastUseStep = step;
      value.needsWholeLastStep = false;
    }
    if (step == value.lastUseStep && !isOwnSlot(load.getIndex()))
      value.needsWholeLastStep = true;
    loaded[it->second] = true;
  }

  // Values saved but never loaded (dead after clean-up) need no stream.
  for (auto [i, value] : llvm::enumerate(values)) {
    if (!loaded[i])
      continue;
    if (writesOtherSlots.contains(value.lastUseStep))
      value.needsWholeLastStep = true;
    kept.push_back(i);
    keptValues.push_back(value);
  }
  return success();
}

/// A stream holds thread.size words of the superstep that first writes it.
/// set_size (fork, kill) changes that size, so values saved under different
/// thread counts never share a stream: each thread-count epoch is allocated
/// on its own. Values only cross into the next epoch to be loaded at
/// thread.oldrank by its first superstep. Returns each superstep's epoch.
SmallVector<unsigned> SpawnStreams::threadCountEpochs() {
  SmallVector<unsigned> epochOf;
  unsigned epoch = 0;
  bool resized = false;
  for (Operation &op : spawn.getBody().front()) {
    if (isa<RequireOp>(op))
      op.walk([&](SetSizeOp) { resized = true; });
    if (isa<SuperstepOp>(op)) {
      if (resized && !epochOf.empty())
        ++epoch;
      resized = false;
      epochOf.push_back(epoch);
    }
  }
  return epochOf;
}

LogicalResult SpawnStreams::allocateWords() {
  SmallVector<unsigned> epochOf = threadCountEpochs();
  wordStreamOf.resize(keptValues.size());
  for (unsigned epoch = 0, e = epochOf.back(); epoch <= e; ++epoch) {
    SmallVector<unsigned> members;
    SmallVector<SavedValue> epochValues;
    for (auto [k, value] : llvm::enumerate(keptValues))
      if (epochOf[value.defStep] == epoch) {
        members.push_back(k);
        epochValues.push_back(value);
      }
    if (members.empty())
      continue;
    llvm::Expected<StreamAllocation> allocation =
        allocateStreams(steps.size(), epochValues);
    if (!allocation)
      return spawn.emitError("stream allocation failed: ")
             << llvm::toString(allocation.takeError());
    unsigned offset = allStreams.size();
    llvm::append_range(allStreams, allocation->streams);
    for (auto [j, k] : llvm::enumerate(members))
      for (unsigned stream : allocation->wordStream[j])
        wordStreamOf[k].push_back(offset + stream);
  }
  return success();
}

/// Allocates each shared stream in a bsgp.require right before the first
/// superstep writing it, and frees it in one right after the last superstep
/// reading it.
void SpawnStreams::materializeStreams() {
  Type streamType = StreamType::get(spawn.getContext());
  DenseMap<unsigned, Operation *> lastFree;
  for (const TemporaryStream &ts : allStreams) {
    SuperstepOp first = steps[ts.firstWriteStep];
    OpBuilder b(first);
    Location loc = first.getLoc();
    auto alloc = RequireOp::create(b, loc, TypeRange{streamType});
    Block *block = new Block;
    alloc.getBody().push_back(block);
    b.setInsertionPointToStart(block);
    Value size = ThreadSizeOp::create(b, loc, b.getI32Type());
    Value stream = StreamAllocOp::create(b, loc, streamType, size);
    YieldOp::create(b, loc, stream);
    streams.push_back(alloc.getResult(0));

    SuperstepOp last = steps[ts.lastReadStep];
    Operation *&after = lastFree[ts.lastReadStep];
    if (!after)
      after = last;
    b.setInsertionPointAfter(after);
    auto free = RequireOp::create(b, last.getLoc(), TypeRange{});
    Block *freeBlock = new Block;
    free.getBody().push_back(freeBlock);
    b.setInsertionPointToStart(freeBlock);
    StreamFreeOp::create(b, last.getLoc(), alloc.getResult(0));
    YieldOp::create(b, last.getLoc());
    after = free;
  }
}

/// Rebinds saves and loads to the shared streams; drops the saves of
/// unloaded values and the requires of the streams they used to have.
void SpawnStreams::rebind() {
  DenseMap<unsigned, unsigned> keptIndex;
  for (auto [k, i] : llvm::enumerate(kept))
    keptIndex[i] = k;
  auto wordStreams = [&](unsigned value) {
    SmallVector<Value> result;
    for (unsigned s : wordStreamOf[keptIndex.lookup(value)])
      result.push_back(streams[s]);
    return result;
  };
  llvm::SetVector<Operation *> oldRequires;
  for (auto [i, save] : llvm::enumerate(saves)) {
    for (Value stream : save.getStreams())
      oldRequires.insert(stream.getDefiningOp());
    if (!loaded[i]) {
      save->erase();
      continue;
    }
    save.getStreamsMutable().assign(wordStreams(i));
  }
  for (LoadOp load : loads)
    load.getStreamsMutable().assign(
        wordStreams(valueOfStream.lookup(load.getStreams().front())));
  for (Operation *op : oldRequires)
    if (op->use_empty())
      op->erase();
}

struct AllocateStreamsPass
    : public bsgp::impl::BSGPAllocateStreamsPassBase<AllocateStreamsPass> {
  void runOnOperation() override {
    SmallVector<SpawnOp> spawns;
    getOperation()->walk([&](SpawnOp spawn) { spawns.push_back(spawn); });
    for (SpawnOp spawn : spawns)
      if (failed(SpawnStreams(spawn).run()))
        return signalPassFailure();
  }
};

} // namespace
