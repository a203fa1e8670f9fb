//===- RematerializeLoads.cpp - load again instead of saving -------------===//
//
// `int x = in[thread.rank]; scan(+, x); out[thread.rank] = x;` saves x to a
// temporary stream at the end of the first superstep and loads it in the
// second: the list makes four trips through memory where reading `in` again
// after the barrier makes three. Reading it again is right only if no store
// between the two reads can change in[thread.rank], and `in` and `out` are
// pointer parameters the compiler knows nothing about.
//
// So the pass versions the spawn, as LLVM's loop versioning does with its
// runtime alias checks: when every store between the two reads goes either
// to memory allocated inside the spawn (the collectives' temporary lists,
// work-group arrays) or to a host pointer q, the host tests before the
// spawn that each q stored to at thread.rank is far enough from `in` for
// the rank ranges [q, q + n) and [in, in + n) not to meet, and asks the
// runtime whether each q stored to elsewhere (compact's scatter, atomics)
// lies in another allocation. A store in the superstep that reads again
// may also go to `in` itself at the rank (q == in, the in-place scan):
// there each rank writes only its own element, after it has read it. If
// the test holds the copy of the spawn that loads again runs, otherwise
// the original, which saves. Without stores to check there is no test and
// no copy; that is always so for a list the spawn allocated itself (the
// sorted keys that thread.rebind reads), which no host pointer reaches.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "HostTests.h"
#include "MemoryChecks.h"
#include "Supersteps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPREMATERIALIZELOADSPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

/// A host pointer stored to between the two reads.
struct StoreTerm {
  Value ptr;
  enum Kind {
    /// At thread.rank, before the superstep that reads again: the ranks'
    /// elements must not meet the loaded ones.
    Apart,
    /// At thread.rank, in the superstep that reads again: apart, or the
    /// very same elements.
    ApartOrSame,
    /// Anywhere (another index, an atomic): another allocation.
    OtherAllocation,
  } kind;
};

/// A superstep result `p[thread.rank]` that its users can load again.
struct Candidate {
  SuperstepOp step;
  unsigned resultIndex;
  PtrLoadOp load;
  /// The allocation of the loaded list, if made inside the spawn.
  Operation *loadRoot;
  SmallVector<StoreTerm, 2> terms;
  /// When `load` reads the copy that the defining superstep stored: that
  /// store, which the window's check lets through (each rank writes its own
  /// element, the value it then reads again).
  PtrStoreOp copyStore;
};

using ssutil::getFreshRoot;
using ssutil::isDefinedIn;
using ssutil::isPointer;
using ssutil::isRankIndex;
using ssutil::sameElementWidth;

/// Adds to `terms` what the stores of `op` (not its nested ops) need from
/// the run-time test; false if a store may reach `load`'s element in a way
/// the test cannot rule out. `loadRoot` is the fresh root of the loaded
/// list, if it was allocated inside the spawn.
bool checkWrites(SpawnOp spawn, Operation *op, PtrLoadOp load,
                 Operation *loadRoot, bool lastStep,
                 SmallVectorImpl<StoreTerm> &terms) {
  if (std::optional<bool> known =
          ssutil::checkWritesBeforeEffects(spawn, op, loadRoot))
    return *known;
  SmallVector<MemoryEffects::EffectInstance> list;
  cast<MemoryEffectOpInterface>(op).getEffects(list);
  for (const MemoryEffects::EffectInstance &effect : list) {
    bool frees = isa<MemoryEffects::Free>(effect.getEffect());
    if ((!frees && !isa<MemoryEffects::Write>(effect.getEffect())) ||
        isa<ThreadStateResource>(effect.getResource()))
      continue;
    Value target = effect.getValue();
    if (!target)
      return false;
    auto store = dyn_cast<PtrStoreOp>(op);
    bool atRank = !frees && store && store.getPtr() == target &&
                  isa<PtrType>(target.getType()) &&
                  isRankIndex(store.getIndex()) &&
                  sameElementWidth(cast<PtrType>(target.getType()),
                                   cast<PtrType>(load.getPtr().getType()));
    // The loaded list itself, other than at the rank in the superstep that
    // reads again: the test could never hold. At the rank there, each rank
    // writes only its own element, after reading it again.
    if (target == load.getPtr()) {
      if (atRank && lastStep)
        continue;
      return false;
    }
    if (Operation *root = getFreshRoot(spawn, target)) {
      if (root == loadRoot)
        return false;
      continue;
    }
    if (isDefinedIn(spawn, target) || !isa<PtrType>(target.getType()))
      return false;
    // A list allocated inside the spawn is out of a host pointer's reach.
    if (loadRoot)
      continue;
    terms.push_back({target, !atRank    ? StoreTerm::OtherAllocation
                             : lastStep ? StoreTerm::ApartOrSame
                                        : StoreTerm::Apart});
  }
  return true;
}

/// Fills `cand.terms` for a read again in steps[last]; false if the stores
/// in between rule it out.
bool checkWindow(SpawnOp spawn, MutableArrayRef<SuperstepOp> steps,
                 unsigned first, unsigned last, Candidate &cand) {
  for (Operation *op = steps[first]; op; op = op->getNextNode()) {
    bool inLast = op == steps[last].getOperation();
    WalkResult walk = op->walk([&](Operation *nested) {
      if (nested == cand.copyStore.getOperation())
        return WalkResult::advance();
      return checkWrites(spawn, nested, cand.load, cand.loadRoot, inLast,
                         cand.terms)
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return false;
    if (inLast)
      return true;
  }
  return false;
}

/// Listing 1 stores its sorted key `v` to `owner[rk]` and, after the
/// barrier, compares `owner[rk - 1]` with `v`: reading `v` again from the
/// sorted keys reads two lists there, reading it from `owner[rk]` one, whose
/// lines the neighbour's read brings in anyway. So where the defining
/// superstep stores the value at the rank, unconditionally, into a list the
/// spawn allocated, and a using superstep reads that list, the value is
/// read from there, if no store up to the last use can reach the copy. The
/// read is a new load after the store; the caller erases it once the uses
/// are moved.
std::optional<Candidate> findStoredCopy(SpawnOp spawn,
                                        MutableArrayRef<SuperstepOp> steps,
                                        unsigned i, unsigned k, PtrLoadOp load,
                                        int last) {
  Value value = load.getResult();
  Block &body = steps[i].getBody().front();
  for (Operation &op : body) {
    auto store = dyn_cast<PtrStoreOp>(op);
    if (!store || store.getValue() != value || !isRankIndex(store.getIndex()) ||
        !sameElementWidth(cast<PtrType>(store.getPtr().getType()),
                          cast<PtrType>(load.getPtr().getType())))
      continue;
    Operation *root = getFreshRoot(spawn, store.getPtr());
    if (!root || isa<GroupLocalOp>(root))
      continue;
    bool readThere = false;
    for (int t = i + 1; t <= last && !readThere; ++t)
      steps[t].walk([&](PtrLoadOp other) {
        if (getFreshRoot(spawn, other.getPtr()) == root)
          readThere = true;
      });
    if (!readThere)
      continue;
    OpBuilder b(store->getContext());
    b.setInsertionPointAfter(store);
    auto copy = PtrLoadOp::create(b, store.getLoc(), value.getType(),
                                  store.getPtr(), store.getIndex());
    Candidate cand{steps[i], k, copy, root, {}, store};
    if (checkWindow(spawn, steps, i, last, cand) && cand.terms.empty())
      return cand;
    copy.erase();
  }
  return std::nullopt;
}

/// The candidates of `spawn`, with the stores each needs tested.
SmallVector<Candidate> findCandidates(SpawnOp spawn,
                                      MutableArrayRef<SuperstepOp> steps) {
  SmallVector<Candidate> found;
  bool setsSize = false;
  spawn.walk([&](SetSizeOp) { setsSize = true; });
  if (setsSize)
    return found;
  for (unsigned i = 0; i < steps.size(); ++i) {
    auto yield = cast<YieldOp>(steps[i].getBody().front().getTerminator());
    for (auto [k, yielded] : llvm::enumerate(yield.getValues())) {
      auto load = yielded.getDefiningOp<PtrLoadOp>();
      if (!load || !isRankIndex(load.getIndex()))
        continue;
      // A list from before the spawn, or one a require of the spawn
      // allocated (work-group arrays do not outlive their kernel).
      Operation *loadRoot = getFreshRoot(spawn, load.getPtr());
      if (loadRoot ? isa<GroupLocalOp>(loadRoot)
                   : isDefinedIn(spawn, load.getPtr()))
        continue;
      Value result = steps[i].getResult(k);
      int last = -1;
      bool usable = !result.use_empty();
      for (OpOperand &use : result.getUses()) {
        int t = ssutil::getStepNumber(steps, use.getOwner());
        // thread.get/put address other ranks: keep those values saved.
        if (t <= static_cast<int>(i) || isa<GetOp, PutOp>(use.getOwner()))
          usable = false;
        last = std::max(last, t);
      }
      if (!usable)
        continue;
      // After a rank reassignment thread.rank names another element.
      for (int j = i + 1; j <= last; ++j)
        usable &= !steps[j].getRankReassigned();
      if (!usable)
        continue;
      if (std::optional<Candidate> copy =
              findStoredCopy(spawn, steps, i, k, load, last)) {
        found.push_back(std::move(*copy));
        continue;
      }
      Candidate cand{steps[i], static_cast<unsigned>(k), load, loadRoot, {},
                     {}};
      if (checkWindow(spawn, steps, i, last, cand))
        found.push_back(std::move(cand));
    }
  }
  return found;
}

/// Replaces every use of the candidate's result by a load at the top of the
/// using superstep.
void loadAgain(MutableArrayRef<SuperstepOp> steps, SuperstepOp step,
               unsigned resultIndex, PtrLoadOp load) {
  DenseMap<Operation *, Value> reloaded;
  for (OpOperand &use :
       llvm::make_early_inc_range(step.getResult(resultIndex).getUses())) {
    int t = ssutil::getStepNumber(steps, use.getOwner());
    Value &value = reloaded[steps[t]];
    if (!value) {
      Block &body = steps[t].getBody().front();
      OpBuilder b(&body, body.begin());
      // The index chain from thread.rank, copied with a rank of this step.
      SmallVector<Operation *, 4> chain;
      for (Value v = load.getIndex(); v;) {
        Operation *def = v.getDefiningOp();
        chain.push_back(def);
        v = def->getNumOperands() ? def->getOperand(0) : Value();
      }
      IRMapping mapping;
      for (Operation *def : llvm::reverse(chain))
        b.clone(*def, mapping);
      value = b.clone(*load, mapping)->getResult(0);
    }
    use.set(value);
  }
}

/// What `term` needs of the store target and the loaded pointer `p`:
/// rank ranges of n elements that do not meet (or are the same one), or
/// two allocations of the runtime.
Value buildTest(OpBuilder &b, Location loc, Value p, const StoreTerm &term,
                Value n) {
  if (term.kind == StoreTerm::OtherAllocation)
    return ssutil::buildDistinctAllocationsTest(b, loc, p, term.ptr);
  return ssutil::buildApartTest(b, loc, p, term.ptr, n,
                                term.kind == StoreTerm::ApartOrSame);
}

void rematerializeLoads(SpawnOp spawn) {
  SmallVector<SuperstepOp> steps = ssutil::getSupersteps(spawn);
  SmallVector<Candidate> cands = findCandidates(spawn, steps);
  if (cands.empty())
    return;
  bool needsTest =
      llvm::any_of(cands, [](const Candidate &c) { return !c.terms.empty(); });
  if (!needsTest) {
    for (Candidate &c : cands) {
      loadAgain(steps, c.step, c.resultIndex, c.load);
      if (c.copyStore)
        c.load.erase();
    }
    return;
  }

  OpBuilder b(spawn);
  Location loc = spawn.getLoc();
  Value n = ssutil::buildThreadCount64(b, spawn);
  Value test;
  for (Candidate &c : cands)
    for (const StoreTerm &term : c.terms)
      test = ssutil::andTest(b, loc, test,
                             buildTest(b, loc, c.load.getPtr(), term, n));
  // The copy that loads again runs when the test holds; the original, which
  // saves, otherwise.
  IRMapping mapping;
  SpawnOp copy = ssutil::versionSpawn(spawn, test, kLoadVersionAttr,
                                      "reads again", "saves", mapping);

  SmallVector<SuperstepOp> copied = ssutil::getSupersteps(copy);
  for (Candidate &c : cands) {
    auto load = cast<PtrLoadOp>(mapping.lookup(c.load.getOperation()));
    loadAgain(copied, cast<SuperstepOp>(mapping.lookup(c.step.getOperation())),
              c.resultIndex, load);
    if (c.copyStore) {
      load.erase();
      c.load.erase();
    }
  }
}

struct RematerializeLoadsPass
    : public bsgp::impl::BSGPRematerializeLoadsPassBase<
          RematerializeLoadsPass> {
  void runOnOperation() override {
    SmallVector<SpawnOp> spawns;
    getOperation()->walk([&](SpawnOp spawn) { spawns.push_back(spawn); });
    for (SpawnOp spawn : spawns)
      rematerializeLoads(spawn);
  }
};

} // namespace
