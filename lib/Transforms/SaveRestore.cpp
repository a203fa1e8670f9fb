//===- SaveRestore.cpp - save and load saved values (§4.2 step 6) --------===//
//
// Every superstep result becomes a bsgp.save at the end of its superstep and
// a bsgp.load at the start of each superstep using it, on streams of its
// own (one per 32-bit word) allocated in a bsgp.require at the start of the
// spawn; bsgp-allocate-streams shares them afterwards.
//
// In a superstep after barrier(RANK_REASSIGNED), every value live across it
// is loaded right after bsgp.set_oldrank at the old rank, and the values
// that later supersteps need are saved again at the new rank (Listing 4,
// pass2); set_oldrank then has no further use and is erased.
// bsgp.get(r, v) becomes a load of v's streams at r; bsgp.put(r, v) defines
// a saved value whose save writes v at r instead of the thread's own slot.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "SourceNames.h"
#include "Supersteps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPSAVERESTOREPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

class SpawnSaveRestore {
public:
  explicit SpawnSaveRestore(SpawnOp spawn)
      : spawn(spawn), steps(ssutil::getSupersteps(spawn)) {}

  LogicalResult run();

private:
  /// One-word streams for `value`, allocated before the first superstep.
  FailureOr<SmallVector<Value>> newStreams(Value value);
  LogicalResult loadValues(unsigned t);
  LogicalResult rewriteGets(unsigned t);
  LogicalResult saveResults(unsigned t);
  /// Uses of `result` in superstep `t`, other than as the value of a get.
  SmallVector<OpOperand *> usesIn(Value result, unsigned t);
  bool usedAfter(Value result, unsigned t);

  SpawnOp spawn;
  SmallVector<SuperstepOp> steps;
  /// The streams holding each superstep result at the current superstep.
  DenseMap<Value, SmallVector<Value>> current;
  /// Results in definition order (for deterministic output).
  SmallVector<Value> results;
  SmallVector<Operation *> toErase;
};

FailureOr<SmallVector<Value>> SpawnSaveRestore::newStreams(Value value) {
  Location loc = value.getLoc();
  unsigned words = getStreamWordCount(value.getType());
  if (words == 0)
    return ssutil::emitUnsavableError(value, "across a barrier");
  OpBuilder b(steps.front());
  Type streamType = StreamType::get(spawn.getContext());
  SmallVector<Type> types(words, streamType);
  auto require = RequireOp::create(b, loc, types);
  Block *block = new Block;
  require.getBody().push_back(block);
  b.setInsertionPointToStart(block);
  Value size = ThreadSizeOp::create(b, loc, b.getI32Type());
  SmallVector<Value> streams;
  for (unsigned w = 0; w < words; ++w)
    streams.push_back(StreamAllocOp::create(b, loc, streamType, size));
  YieldOp::create(b, loc, streams);
  return SmallVector<Value>(require.getResults());
}

SmallVector<OpOperand *> SpawnSaveRestore::usesIn(Value result, unsigned t) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : result.getUses()) {
    if (!steps[t]->isProperAncestor(use.getOwner()))
      continue;
    if (isa<GetOp>(use.getOwner()) && use.getOperandNumber() == 1)
      continue;
    uses.push_back(&use);
  }
  return uses;
}

bool SpawnSaveRestore::usedAfter(Value result, unsigned t) {
  return llvm::any_of(result.getUsers(), [&](Operation *user) {
    return ssutil::getStepNumber(steps, user) > static_cast<int>(t);
  });
}

LogicalResult SpawnSaveRestore::rewriteGets(unsigned t) {
  SmallVector<GetOp> gets;
  steps[t].walk([&](GetOp get) { gets.push_back(get); });
  for (GetOp get : gets) {
    auto it = current.find(get.getValue());
    if (it == current.end()) {
      // A value the same in every thread (a constant, one defined outside
      // the spawn, or a require block's result such as a reduce's total)
      // is thread r's value too: nothing was saved for it.
      Value value = get.getValue();
      auto spawn = get->getParentOfType<SpawnOp>();
      if (matchPattern(value, m_Constant()) ||
          value.getDefiningOp<RequireOp>() ||
          (spawn &&
           !spawn->isAncestor(value.getParentRegion()->getParentOp()))) {
        get.replaceAllUsesWith(value);
        get->erase();
        continue;
      }
      return get.emitError("thread.get of a value that is not saved by an "
                           "earlier superstep");
    }
    // Thread r's value from before a rank reassignment is stored at the
    // rank r had then; which thread has rank r now is known only once the
    // values are shuffled, at the end of this superstep.
    if (steps[t].getRankReassigned())
      return get.emitError(
          "thread.get right after a rank reassignment (such as "
          "thread.sortby or barrier(RANK_REASSIGNED)) cannot find thread r "
          "by its new rank; put a 'barrier;' between them");
    OpBuilder b(get);
    Value loaded = LoadOp::create(b, get.getLoc(), get.getType(), it->second,
                                  get.getRank());
    get.replaceAllUsesWith(loaded);
    get->erase();
  }
  return success();
}

LogicalResult SpawnSaveRestore::loadValues(unsigned t) {
  Block &body = steps[t].getBody().front();
  Location loc = steps[t].getLoc();
  if (!steps[t].getRankReassigned()) {
    // The loads open the superstep, in result order.
    OpBuilder b(&body, body.begin());
    Value rank;
    for (Value result : results) {
      SmallVector<OpOperand *> uses = usesIn(result, t);
      if (uses.empty())
        continue;
      if (!rank)
        rank = ThreadRankOp::create(b, loc, b.getI32Type());
      Value loaded = LoadOp::create(b, result.getLoc(), result.getType(),
                                    current[result], rank);
      for (OpOperand *use : uses)
        use->set(loaded);
    }
    return success();
  }

  // Rank reassignment: shuffle every value live across the barrier.
  SmallVector<Value> live;
  for (Value result : results)
    if (!usesIn(result, t).empty() || usedAfter(result, t))
      live.push_back(result);
  SetOldRankOp setOld;
  for (Operation &op : body)
    if (auto s = dyn_cast<SetOldRankOp>(op))
      setOld = s;
  if (live.empty()) {
    if (setOld)
      setOld->erase();
    return success();
  }
  if (!setOld)
    return emitError(steps[t].getLoc(), "superstep ")
           << steps[t].getIndex()
           << " follows barrier(RANK_REASSIGNED) but does not set "
              "thread.oldrank, so the values live across the barrier cannot "
              "be shuffled";
  Value oldRank = setOld.getOldRank();
  OpBuilder b(setOld->getNextNode());
  Value newRank;
  for (Value result : live) {
    Value loaded = LoadOp::create(b, result.getLoc(), result.getType(),
                                  current[result], oldRank);
    for (OpOperand *use : usesIn(result, t)) {
      Operation *top = body.findAncestorOpInBlock(*use->getOwner());
      if (top->isBeforeInBlock(setOld))
        return emitError(
            use->getOwner()->getLoc(),
            "a value saved before barrier(RANK_REASSIGNED) is used before "
            "thread.oldrank is set");
      use->set(loaded);
    }
    if (!usedAfter(result, t))
      continue;
    OpBuilder end(body.getTerminator());
    if (!newRank)
      newRank = ThreadRankOp::create(end, loc, end.getI32Type());
    FailureOr<SmallVector<Value>> streams = newStreams(result);
    if (failed(streams))
      return failure();
    SaveOp::create(end, result.getLoc(), loaded, *streams, newRank);
    current[result] = *streams;
  }
  setOld->erase();
  return success();
}

LogicalResult SpawnSaveRestore::saveResults(unsigned t) {
  SuperstepOp step = steps[t];
  auto yield = cast<YieldOp>(step.getBody().front().getTerminator());
  Value rank;
  for (auto [result, yielded] :
       llvm::zip(step.getResults(), yield.getValues())) {
    FailureOr<SmallVector<Value>> streams = newStreams(yielded);
    if (failed(streams))
      return failure();
    OpBuilder b(yield);
    Location loc = yielded.getLoc();
    if (auto put = yielded.getDefiningOp<PutOp>()) {
      // A put to an invalid rank does nothing (§5).
      Value size = ThreadSizeOp::create(b, loc, b.getI32Type());
      Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
      Value r = put.getRank();
      Value geZero =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, r, zero);
      Value ltSize =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r, size);
      Value valid = arith::AndIOp::create(b, loc, geZero, ltSize);
      auto ifOp = scf::IfOp::create(b, loc, valid, /*withElseRegion=*/false);
      OpBuilder inner = ifOp.getThenBodyBuilder();
      SaveOp::create(inner, loc, put.getValue(), *streams, r);
      toErase.push_back(put);
    } else {
      if (!rank)
        rank = ThreadRankOp::create(b, loc, b.getI32Type());
      SaveOp::create(b, loc, yielded, *streams, rank);
    }
    current[result] = *streams;
    results.push_back(result);
  }
  return success();
}

LogicalResult SpawnSaveRestore::run() {
  if (steps.empty())
    return success();
  for (unsigned t = 0; t < steps.size(); ++t) {
    if (failed(rewriteGets(t)) || failed(loadValues(t)) ||
        failed(saveResults(t)))
      return failure();
  }
  for (Value result : results)
    for (Operation *user : result.getUsers())
      return user->emitError("a saved value is used outside the supersteps "
                             "of its spawn");
  for (SuperstepOp &step : steps)
    if (step->getNumResults() != 0)
      step = ssutil::replaceSuperstepResults(step, {});
  for (Operation *op : toErase) {
    if (!op->use_empty())
      return op->emitError("the result of thread.put is used in its own "
                           "superstep");
    op->erase();
  }
  // A put whose value no later superstep reads assigns nothing observable.
  for (SuperstepOp step : steps)
    step.walk([](PutOp put) {
      if (put->use_empty())
        put->erase();
    });
  return success();
}

struct SaveRestorePass
    : public bsgp::impl::BSGPSaveRestorePassBase<SaveRestorePass> {
  void runOnOperation() override {
    SmallVector<SpawnOp> spawns;
    getOperation()->walk([&](SpawnOp spawn) { spawns.push_back(spawn); });
    for (SpawnOp spawn : spawns)
      if (failed(SpawnSaveRestore(spawn).run()))
        return signalPassFailure();
  }
};

} // namespace
