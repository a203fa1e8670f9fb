//===- SplitUniformFlow.cpp - barriers under uniform control flow ---------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A barrier may sit under an `if` or inside a loop whose condition every
/// thread computes alike (docs/language.md, "Uniform control flow"). The
/// paper's control processor runs such flow on the host: this pass turns
/// each `scf.if`/`scf.while` of a spawn body that holds a barrier (a
/// *synchronizing* branch or loop) into host control flow, and the device
/// code between them into spawns of their own, each of which the rest of
/// the pipeline splits into supersteps as before.
///
/// Between two of these spawns (segments), a value of each thread that is
/// still needed lives in a list of `thread.size` elements: the segment that
/// computes it allocates the list in a require at its end (when the
/// thread count of its last superstep is known) and stores the value at the
/// thread's rank; the segment that uses it loads it at the rank. A list
/// belongs to one value at one point of the program and is freed on the
/// host after the segment that reads it last, so loops do not accumulate
/// lists (and the program's dtempnew lists where the spawn ends:
/// SegmentLists.h). Where a segment reassigns ranks or changes the thread
/// count, every value live across it goes through it (loaded at its start,
/// stored at its end), so that values follow their threads.
///
/// A uniform value that the host needs (a condition, a loop bound, the
/// operand of a require) is computed on the host when it depends only on
/// host values and side-effect-free ops; otherwise rank 0 stores it at the
/// end of its segment and the host reads it back: one small device-to-host
/// copy per segment, which is the cost of a condition computed on the
/// device (a reduce result).
///
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "CarryArraysThroughFlow.h"
#include "HostTests.h"
#include "PrivateArrays.h"
#include "SegmentEndValues.h"
#include "SegmentLists.h"
#include "SegmentRanks.h"
#include "SourceNames.h"
#include "SynchronizingFlow.h"
#include "Uniformity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPSPLITUNIFORMFLOWPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

/// True if `op` (or an op nested in it) reassigns ranks or sets the thread
/// count: values must then follow their threads through it.
bool movesThreads(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        auto barrier = dyn_cast<BarrierOp>(nested);
        return (barrier && barrier.getRankReassigned()) ||
                       isa<SetOldRankOp, SetSizeOp>(nested)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Every value used by `op` or the ops nested in it.
void collectUses(Operation *op, llvm::SetVector<Value> &uses) {
  op->walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      uses.insert(v);
  });
}

/// The host state at a point of the spawn body: the current thread count,
/// the host value of each uniform value computed so far, and the list
/// holding each per-thread value that is live.
struct Env {
  Value count;
  DenseMap<Value, Value> host;
  llvm::MapVector<Value, Value> lists;
};

class Splitter {
public:
  Splitter(SpawnOp spawn, UniformityInfo &uni, const TempListPlan &temps)
      : spawn(spawn), uni(uni), temps(temps), hb(spawn) {
    auto fn = spawn->getParentOfType<FunctionOpInterface>();
    entry = &fn->getRegion(0).front();
    resizes = spawn.getBody()
                  .walk([](SetSizeOp) { return WalkResult::interrupt(); })
                  .wasInterrupted();
  }

  LogicalResult run();

private:
  // Values.
  bool inSpawn(Value v) const {
    Region *r = v.getParentRegion();
    return r && const_cast<SpawnOp &>(spawn).getBody().isAncestor(r);
  }
  bool perThread(Value v) const { return inSpawn(v) && !uni.isUniform(v); }
  Value hostValue(Value v, Env &env);
  bool hostable(Operation *op, Env &env) const;
  Type listElement(Type t) const {
    return t.isInteger(1) ? IntegerType::get(t.getContext(), 8) : t;
  }
  Type listType(Type t) const {
    return PtrType::get(t.getContext(), listElement(t));
  }

  // Structure.
  LogicalResult emitBlock(Block &src, Env &env, ArrayRef<Value> liveOut,
                          const llvm::SetVector<Value> &force);
  LogicalResult flush(ArrayRef<Operation *> seg, Env &env,
                      const llvm::SetVector<Value> &later,
                      const llvm::SetVector<Value> &force);
  LogicalResult emitIf(scf::IfOp op, Env &env,
                       const llvm::SetVector<Value> &later);
  LogicalResult emitWhile(scf::WhileOp op, Env &env,
                          const llvm::SetVector<Value> &later);
  /// Host values to yield for `values` (host values, or lists where
  /// `asList`, copied where one list would be yielded twice), then the
  /// lists of `carried` and the count; frees the other lists of `env`.
  FailureOr<SmallVector<Value>> yieldState(Env &env, ArrayRef<Value> values,
                                           ArrayRef<bool> asList,
                                           ArrayRef<Value> carried,
                                           Location loc);
  SmallVector<Type> stateTypes(ArrayRef<Value> values, ArrayRef<bool> asList,
                               ArrayRef<Value> carried) const;
  /// Reads the state back from host values `state` (as yieldState wrote).
  void bindState(Env &env, ArrayRef<Value> values, ArrayRef<bool> asList,
                 ArrayRef<Value> carried, ValueRange state);
  void freeDead(Env &env, const llvm::SetVector<Value> &live, Location loc);
  SmallVector<Value>
  emitSegmentEnd(OpBuilder &db, Location loc, ArrayRef<Type> reqTypes,
                 ArrayRef<Value> outLists, ArrayRef<Value> outUniform,
                 ArrayRef<Value> outAtEnd, ArrayRef<Operation *> dev,
                 IRMapping &map, bool early);
  /// The ops of `seg` the device must run; the others are computed on the
  /// host, before the segment, into `env.host`.
  SmallVector<Operation *> hoist(ArrayRef<Operation *> seg, Env &env);
  void rewriteLiveInGets(Block *body, const llvm::SetVector<Value> &liveIn,
                         IRMapping &map, Env &env);
  Value readBack(Value list, Type type, Location loc);
  LogicalResult mapInputs(OpBuilder &db, Location loc, Env &env,
                          const llvm::SetVector<Value> &liveIn,
                          ArrayRef<ArrayRef<Value>> used,
                          llvm::function_ref<bool(Value)> definedHere,
                          IRMapping &map);
  /// The values a segment stores in lists for later ones: per thread
  /// (`lists`) and those the host reads back (`uniform`).
  LogicalResult checkCarried(ArrayRef<Value> lists, ArrayRef<Value> uniform);
  LogicalResult checkCarried(Value v);

  SpawnOp spawn;
  UniformityInfo &uni;
  const TempListPlan &temps;
  OpBuilder hb;
  Block *entry;
  bool resizes = false;
};

} // namespace

Value Splitter::hostValue(Value v, Env &env) {
  if (!inSpawn(v))
    return v;
  return env.host.lookup(v);
}

SmallVector<Operation *> Splitter::hoist(ArrayRef<Operation *> seg, Env &env) {
  // What the host can compute, it computes before the segment.
  SmallVector<Operation *> dev;
  for (Operation *op : seg) {
    if (hostable(op, env)) {
      IRMapping map;
      for (Value v : getExternalUses(op))
        if (inSpawn(v))
          map.map(v, env.host.lookup(v));
      Operation *copy = hb.clone(*op, map);
      for (auto [r, c] : llvm::zip(op->getResults(), copy->getResults()))
        env.host[r] = c;
      continue;
    }
    dev.push_back(op);
  }
  // The segment's end synchronizes all threads: a plain barrier ending it
  // would only add an empty superstep (unless a put waits for it).
  bool puts = llvm::any_of(dev, [](Operation *op) {
    return op->walk([](PutOp) { return WalkResult::interrupt(); })
        .wasInterrupted();
  });
  if (!dev.empty() && !puts)
    if (auto barrier = dyn_cast<BarrierOp>(dev.back());
        barrier && !barrier.getRankReassigned())
      dev.pop_back();
  return dev;
}

/// A hostable op whose operands the host has.
bool Splitter::hostable(Operation *op, Env &env) const {
  if (!isHostableKind(op))
    return false;
  for (Value v : getExternalUses(op))
    if (inSpawn(v) && !env.host.count(v))
      return false;
  return true;
}

LogicalResult Splitter::checkCarried(ArrayRef<Value> lists,
                                     ArrayRef<Value> uniform) {
  for (Value v : llvm::concat<const Value>(lists, uniform))
    if (getStreamWordCount(v.getType()) == 0)
      return ssutil::emitUnsavableError(
          v, "across a branch or loop that holds a barrier");
  for (Value v : lists)
    if (failed(checkCarried(v)))
      return failure();
  return success();
}

LogicalResult Splitter::checkCarried(Value v) {
  // A pointer into the thread's own stack or its work group's memory
  // means nothing in another kernel.
  Value base = v;
  while (Operation *def = base.getDefiningOp()) {
    // An array too large to carry (carryArraysThroughFlow) is the error.
    if (std::optional<PrivateArray> array = asPrivateArray(*def))
      if (failed(checkCarriedArraySize(*array, "branch or loop")))
        return failure();
    if (isa<LLVM::AllocaOp, GroupLocalOp>(def)) {
      InFlightDiagnostic diag = v.getDefiningOp()
                                    ? v.getDefiningOp()->emitError()
                                    : mlir::emitError(v.getLoc());
      diag << "a pointer into a thread-private or 'local' array cannot "
              "live across a branch or loop that holds a barrier";
      return failure();
    }
    if (!isa<PtrOffsetOp, PtrCastOp, UnrealizedConversionCastOp>(def))
      break;
    base = def->getOperand(0);
  }
  return success();
}

Value Splitter::readBack(Value list, Type type, Location loc) {
  // A slot in the host function's entry block (once per read, not per
  // iteration of a host loop), filled by the runtime's copy.
  auto llvmPtr = LLVM::LLVMPointerType::get(hb.getContext());
  Type element = listElement(type);
  Type slotType = isa<PtrType>(element) ? Type(llvmPtr) : element;
  Value slot;
  {
    OpBuilder::InsertionGuard guard(hb);
    hb.setInsertionPointToStart(entry);
    Value one = LLVM::ConstantOp::create(hb, loc, hb.getI64Type(),
                                         static_cast<int64_t>(1));
    slot = LLVM::AllocaOp::create(hb, loc, llvmPtr, slotType, one, 16);
  }
  unsigned bytes = listElementBytes(element);
  Value size = arith::ConstantIntOp::create(hb, loc, bytes, 64);
  ssutil::buildRuntimeCall(hb, loc, "bsgprt_memcpy_dtoh", Type(),
                           {slot, list, size});
  Value v = LLVM::LoadOp::create(hb, loc, slotType, slot);
  if (isa<PtrType>(element))
    v = UnrealizedConversionCastOp::create(hb, loc, element, v).getResult(0);
  if (element != type)
    v = arith::TruncIOp::create(hb, loc, type, v);
  freeSegmentList(hb, loc, list);
  return v;
}

void Splitter::freeDead(Env &env, const llvm::SetVector<Value> &live,
                        Location loc) {
  SmallVector<Value> dead;
  for (auto &[v, list] : env.lists)
    if (!live.contains(v))
      dead.push_back(v);
  for (Value v : dead) {
    freeSegmentList(hb, loc, env.lists.lookup(v));
    env.lists.erase(v);
  }
}

/// thread.get of a value from before the segment reads its list at the
/// other rank (within the list, whatever the rank: the get of an invalid
/// rank is undefined, not a fault). The list is in the ranks of the
/// segment's start: a get after the segment moves threads stays a get of the
/// value loaded at the start, which bsgp-save-restore carries along.
void Splitter::rewriteLiveInGets(Block *body,
                                 const llvm::SetVector<Value> &liveIn,
                                 IRMapping &map, Env &env) {
  DenseMap<Value, Value> listOfLoad;
  for (Value v : liveIn)
    listOfLoad[map.lookup(v)] = env.lists.lookup(v);
  auto move =
      llvm::find_if(*body, [](Operation &op) { return movesThreads(&op); });
  Operation *firstMove = move == body->end() ? nullptr : &*move;
  SmallVector<GetOp> gets;
  body->walk([&](GetOp get) {
    if (!listOfLoad.count(get.getValue()))
      return;
    Operation *top = body->findAncestorOpInBlock(*get);
    if (firstMove && !top->isBeforeInBlock(firstMove))
      return;
    gets.push_back(get);
  });
  for (GetOp get : gets) {
    OpBuilder gb(get);
    Location gl = get.getLoc();
    Value r = get.getRank();
    Value valid =
        arith::CmpIOp::create(gb, gl, arith::CmpIPredicate::ult, r, env.count);
    Value at = arith::SelectOp::create(
        gb, gl, valid, r, arith::ConstantIntOp::create(gb, gl, 0, 32));
    Value list = listOfLoad.lookup(get.getValue());
    Value l = PtrLoadOp::create(
        gb, gl, cast<PtrType>(list.getType()).getElementType(), list, at);
    if (l.getType() != get.getType())
      l = arith::TruncIOp::create(gb, gl, get.getType(), l);
    get.replaceAllUsesWith(l);
    // The original get may be live after the segment: its copy is now `l`.
    SmallVector<Value> keys;
    for (auto &[from, to] : map.getValueMap())
      if (to == get.getResult())
        keys.push_back(from);
    for (Value k : keys)
      map.map(k, l);
    get.erase();
  }
}

//===----------------------------------------------------------------------===//
// Segments
//===----------------------------------------------------------------------===//

/// The end of a segment's spawn at `db`: a require allocating a list per
/// value of `outLists` (thread.size elements) and of `outUniform` (one),
/// then the count where threads may be forked or killed, then the values
/// of `outAtEnd` computed there on the host (SegmentEndValues.h); each
/// thread stores its value of `outLists` at its rank, rank 0 those of
/// `outUniform`. Returns the require's results.
///
/// With `early` (the segment keeps its threads' ranks and count, and the
/// host computes nothing at its end), the lists are allocated before the
/// segment's code and each thread stores a value where it is computed: a
/// value computed before the segment's last barrier is then not kept
/// across the barrier to be stored after it, and a last superstep that
/// would only store (`x = v; barrier;` closing a loop after a reduce) is
/// not launched at all.
SmallVector<Value>
Splitter::emitSegmentEnd(OpBuilder &db, Location loc, ArrayRef<Type> reqTypes,
                         ArrayRef<Value> outLists, ArrayRef<Value> outUniform,
                         ArrayRef<Value> outAtEnd, ArrayRef<Operation *> dev,
                         IRMapping &map, bool early) {
  size_t numLists = outLists.size() + outUniform.size();
  SmallVector<Value> spawnYield;
  if (!reqTypes.empty() || !outAtEnd.empty()) {
    SmallVector<Type> types(reqTypes);
    for (Value v : outAtEnd)
      types.push_back(v.getType());
    OpBuilder at = early ? OpBuilder::atBlockBegin(db.getInsertionBlock()) : db;
    auto req = RequireOp::create(at, loc, types);
    Block *rb = new Block;
    req.getBody().push_back(rb);
    OpBuilder rbb = OpBuilder::atBlockBegin(rb);
    Value n = ThreadSizeOp::create(rbb, loc, rbb.getI32Type());
    Value one = arith::ConstantIntOp::create(rbb, loc, 1, 32);
    SmallVector<Value> yielded;
    for (Type t : ArrayRef<Type>(reqTypes).take_front(numLists))
      yielded.push_back(allocSegmentList(
          rbb, loc, t, yielded.size() < outLists.size() ? n : one));
    if (resizes)
      yielded.push_back(n);
    llvm::append_range(yielded, cloneAtSegmentEnd(rbb, outAtEnd, n, dev, map));
    YieldOp::create(rbb, loc, yielded);
    spawnYield.append(req.getResults().begin(), req.getResults().end());
  }
  Value rankAfter;
  if (!outLists.empty() || !outUniform.empty())
    rankAfter = ThreadRankOp::create(db, loc, db.getI32Type());
  // A bool's list holds bytes.
  auto widen = [&](OpBuilder &b, Value m) -> Value {
    if (!m.getType().isInteger(1))
      return m;
    return arith::ExtUIOp::create(b, loc, listElement(m.getType()), m);
  };
  auto stored = [&](Value v) { return widen(db, map.lookupOrDefault(v)); };
  for (auto [i, v] : llvm::enumerate(outLists)) {
    if (PutOp put = getPendingPut(v, dev)) {
      storePendingPut(db, loc, stored(put.getValue()), spawnYield[i],
                      map.lookupOrDefault(put.getRank()));
      continue;
    }
    if (early &&
        storeWhereComputed(db, loc, map.lookupOrDefault(v), spawnYield[i],
                           db.getInsertionBlock(), widen))
      continue;
    PtrStoreOp::create(db, loc, stored(v), spawnYield[i], rankAfter);
  }
  if (!outUniform.empty()) {
    SmallVector<Value> values;
    for (Value v : outUniform)
      values.push_back(stored(v));
    Value zero = arith::ConstantIntOp::create(db, loc, 0, 32);
    Value first = arith::CmpIOp::create(db, loc, arith::CmpIPredicate::eq,
                                        rankAfter, zero);
    auto ifOp = scf::IfOp::create(db, loc, first, /*withElseRegion=*/false);
    OpBuilder ib = ifOp.getThenBodyBuilder();
    for (auto [i, v] : llvm::enumerate(values))
      PtrStoreOp::create(ib, loc, v, spawnYield[outLists.size() + i], zero);
  }
  return spawnYield;
}

/// Maps the values a segment's device code uses from before it: per-thread
/// ones (`liveIn`) to loads from their lists at the thread's rank, uniform
/// ones of `used` to their host copies.
LogicalResult Splitter::mapInputs(OpBuilder &db, Location loc, Env &env,
                                  const llvm::SetVector<Value> &liveIn,
                                  ArrayRef<ArrayRef<Value>> used,
                                  llvm::function_ref<bool(Value)> definedHere,
                                  IRMapping &map) {
  Value rank;
  if (!liveIn.empty())
    rank = ThreadRankOp::create(db, loc, db.getI32Type());
  for (Value v : liveIn) {
    Value l = PtrLoadOp::create(db, v.getLoc(), listElement(v.getType()),
                                env.lists.lookup(v), rank);
    if (l.getType() != v.getType())
      l = arith::TruncIOp::create(db, v.getLoc(), v.getType(), l);
    map.map(v, l);
  }
  auto mapUniform = [&](Value v) -> LogicalResult {
    if (!inSpawn(v) || definedHere(v) || perThread(v) || map.contains(v))
      return success();
    Value h = env.host.lookup(v);
    if (!h)
      return mlir::emitError(v.getLoc(),
                             "internal error: a uniform value has no host "
                             "copy at a branch or loop that holds a barrier");
    map.map(v, h);
    return success();
  };
  for (ArrayRef<Value> values : used)
    for (Value v : values)
      if (failed(mapUniform(v)))
        return failure();
  return success();
}

LogicalResult Splitter::flush(ArrayRef<Operation *> seg, Env &env,
                              const llvm::SetVector<Value> &later,
                              const llvm::SetVector<Value> &force) {
  Location loc = seg.empty() ? spawn.getLoc() : seg.front()->getLoc();
  SmallVector<Operation *> dev = hoist(seg, env);
  llvm::SmallPtrSet<Operation *, 16> inSeg;
  for (Operation *op : dev)
    op->walk([&](Operation *nested) { inSeg.insert(nested); });
  auto definedHere = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def) {
      Operation *owner = cast<BlockArgument>(v).getOwner()->getParentOp();
      return inSeg.contains(owner);
    }
    return inSeg.contains(def);
  };
  bool moves = llvm::any_of(dev, movesThreads);

  // Per-thread values used here from before, and those live after.
  llvm::SetVector<Value> uses, liveIn;
  for (Operation *op : dev)
    collectUses(op, uses);
  for (Value v : uses)
    if (!definedHere(v) && perThread(v))
      liveIn.insert(v);
  SmallVector<Value> outLists, outUniform, outHost;
  for (Value v : force)
    if (!inSpawn(v))
      outLists.push_back(v);
  for (Value v : later) {
    if (!inSpawn(v))
      continue;
    bool here = definedHere(v);
    // A uniform value the host reads; forced into a list too when a loop
    // argument that varies takes it (`x = thread.size` in a loop where x
    // started per-thread), while a uniform argument may take it as well.
    if (!perThread(v) && here) {
      if (getHostSource(v))
        outHost.push_back(v);
      else
        outUniform.push_back(v);
    }
    if (!perThread(v) && !force.contains(v))
      continue;
    // Unchanged lists of values this segment does not touch stay where
    // they are, unless threads move.
    if (!here && env.lists.count(v) && !moves && !force.contains(v))
      continue;
    if (!here && !env.lists.count(v) && !force.contains(v))
      continue;
    outLists.push_back(v);
  }
  // A host value forced into a list (for the per-thread loop argument it
  // feeds) is stored from the host value itself: loading it would replace
  // its every use in the segment, those of host code included.
  SmallVector<Value> replacedHostLists;
  for (Value v : outLists) {
    if (definedHere(v) || !env.lists.count(v))
      continue;
    if (inSpawn(v))
      liveIn.insert(v);
    else
      replacedHostLists.push_back(v);
  }
  // Uniform values the host computes at the segment's end instead of
  // reading them back (thread.size after a kill, even of every thread).
  SmallVector<Value> outAtEnd =
      takeComputableAtSegmentEnd(outUniform, dev, [&](Value u) {
        return !inSpawn(u) || env.host.count(u);
      });
  if (dev.empty() && outLists.empty()) {
    freeDead(env, later, loc);
    return success();
  }
  if (failed(checkCarried(outLists, outUniform)))
    return failure();

  // The segment's spawn: loads, the ops, a require allocating the lists
  // (and reading the count of the last superstep), stores.
  SmallVector<Type> reqTypes, types;
  for (Value v : outLists)
    reqTypes.push_back(listType(v.getType()));
  for (Value v : outUniform)
    reqTypes.push_back(listType(v.getType()));
  // The count of the last superstep, where fork or kill may change it.
  if (resizes)
    reqTypes.push_back(hb.getI32Type());
  types = reqTypes;
  for (Value v : outAtEnd)
    types.push_back(v.getType());
  for (Value v : outHost)
    types.push_back(v.getType());
  auto piece = SpawnOp::create(hb, loc, types, env.count);
  piece->setDiscardableAttrs(spawn->getDiscardableAttrDictionary());
  Block *body = new Block;
  piece.getBody().push_back(body);
  OpBuilder db = OpBuilder::atBlockBegin(body);
  IRMapping map;
  if (failed(mapInputs(db, loc, env, liveIn, {uses.getArrayRef(), outLists},
                       definedHere, map)))
    return failure();
  for (Operation *op : dev)
    db.clone(*op, map);
  rewriteLiveInGets(body, liveIn, map, env);

  SmallVector<Value> spawnYield =
      emitSegmentEnd(db, loc, reqTypes, outLists, outUniform, outAtEnd, dev,
                     map, /*early=*/!moves && !resizes && outAtEnd.empty());
  for (Value v : outHost)
    spawnYield.push_back(map.lookupOrDefault(getHostSource(v)));
  YieldOp::create(db, loc, spawnYield);

  // After it, on the host: the lists it read and replaced go, the new ones
  // and the uniform values take their place.
  for (Value v : liveIn) {
    if (!llvm::is_contained(outLists, v) && later.contains(v))
      continue;
    freeSegmentList(hb, loc, env.lists.lookup(v));
    env.lists.erase(v);
  }
  for (Value v : replacedHostLists)
    freeSegmentList(hb, loc, env.lists.lookup(v));
  for (auto [i, v] : llvm::enumerate(outLists))
    env.lists[v] = piece.getResult(i);
  for (auto [i, v] : llvm::enumerate(outUniform))
    env.host[v] =
        readBack(piece.getResult(outLists.size() + i), v.getType(), loc);
  if (resizes)
    env.count = piece.getResult(reqTypes.size() - 1);
  for (auto [i, v] : llvm::enumerate(outAtEnd))
    env.host[v] = piece.getResult(reqTypes.size() + i);
  for (auto [i, v] : llvm::enumerate(outHost))
    env.host[v] = piece.getResult(reqTypes.size() + outAtEnd.size() + i);
  freeDead(env, later, loc);
  return success();
}

//===----------------------------------------------------------------------===//
// Branches and loops
//===----------------------------------------------------------------------===//

SmallVector<Type> Splitter::stateTypes(ArrayRef<Value> values,
                                       ArrayRef<bool> asList,
                                       ArrayRef<Value> carried) const {
  SmallVector<Type> types;
  for (auto [v, list] : llvm::zip(values, asList))
    types.push_back(list ? listType(v.getType()) : v.getType());
  for (Value c : carried)
    types.push_back(listType(c.getType()));
  types.push_back(IntegerType::get(hb.getContext(), 32));
  return types;
}

FailureOr<SmallVector<Value>>
Splitter::yieldState(Env &env, ArrayRef<Value> values, ArrayRef<bool> asList,
                     ArrayRef<Value> carried, Location loc) {
  SmallVector<Value> out;
  llvm::SmallPtrSet<Value, 8> taken;
  auto take = [&](Value v) -> Value {
    Value l = env.lists.lookup(v);
    if (!l)
      return {};
    if (taken.insert(l).second)
      return l;
    // One list yielded twice: each place gets a list of its own, so that
    // each is freed once.
    Type element = cast<PtrType>(l.getType()).getElementType();
    Value copy = allocSegmentList(hb, loc, l.getType(), env.count);
    Value n = arith::ExtSIOp::create(hb, loc, hb.getI64Type(), env.count);
    Value size = arith::MulIOp::create(
        hb, loc, n,
        arith::ConstantIntOp::create(hb, loc, listElementBytes(element), 64));
    ssutil::buildRuntimeCall(hb, loc, "bsgprt_memcpy_dtod", Type(),
                             {copy, l, size});
    return copy;
  };
  for (auto [v, list] : llvm::zip(values, asList)) {
    Value h = list ? take(v) : hostValue(v, env);
    if (!h)
      return mlir::emitError(v.getLoc(), "internal error: no host state for "
                                         "a value at a branch or loop that "
                                         "holds a barrier");
    out.push_back(h);
  }
  for (Value c : carried) {
    Value l = take(c);
    if (!l)
      return mlir::emitError(c.getLoc(), "internal error: no list for a "
                                         "value carried through a branch or "
                                         "loop that holds a barrier");
    out.push_back(l);
  }
  out.push_back(env.count);
  for (auto &[v, l] : env.lists)
    if (!taken.contains(l))
      freeSegmentList(hb, loc, l);
  env.lists.clear();
  return out;
}

void Splitter::bindState(Env &env, ArrayRef<Value> values,
                         ArrayRef<bool> asList, ArrayRef<Value> carried,
                         ValueRange state) {
  size_t i = 0;
  for (auto [v, list] : llvm::zip(values, asList)) {
    if (list)
      env.lists[v] = state[i++];
    else
      env.host[v] = state[i++];
  }
  for (Value c : carried)
    env.lists[c] = state[i++];
  env.count = state[i];
}

/// Uses of the ops from `from` to the end of its block (its terminator
/// included), and `liveOut`.
static llvm::SetVector<Value> usesFrom(Block::iterator from, Block &block,
                                       ArrayRef<Value> liveOut) {
  llvm::SetVector<Value> uses;
  for (auto it = from; it != block.end(); ++it)
    collectUses(&*it, uses);
  uses.insert(liveOut.begin(), liveOut.end());
  return uses;
}

LogicalResult Splitter::emitBlock(Block &src, Env &env,
                                  ArrayRef<Value> blockLiveOut,
                                  const llvm::SetVector<Value> &force) {
  // The dtempnew lists of the block's requires are freed at its end: the
  // host keeps them until then.
  SmallVector<Value> tempLists = temps.freeAtEnd.lookup(&src);
  SmallVector<Value> liveOut(blockLiveOut);
  llvm::append_range(liveOut, tempLists);
  SmallVector<Operation *> seg;
  // Values the host will know once `seg` is flushed without a read back:
  // hostable ops' results and require results.
  DenseSet<Value> known;
  auto isKnown = [&](Value v) {
    return !inSpawn(v) || env.host.count(v) || known.contains(v);
  };
  for (auto it = src.begin(); it != src.end(); ++it) {
    Operation &op = *it;
    if (op.hasTrait<OpTrait::IsTerminator>())
      break;
    bool sco = isSynchronizing(&op);
    bool boundary = sco;
    if (auto req = dyn_cast<RequireOp>(op)) {
      llvm::SetVector<Value> uses;
      collectUses(req, uses);
      for (Value v : uses)
        if (inSpawn(v) && !req.getBody().isAncestor(v.getParentRegion()) &&
            !isKnown(v) && uni.isUniform(v) && !matchPattern(v, m_Constant()))
          boundary = true;
    }
    if (!boundary) {
      seg.push_back(&op);
      if (isa<RequireOp>(op))
        known.insert(op.getResults().begin(), op.getResults().end());
      else if (isHostableKind(&op) &&
               llvm::all_of(getExternalUses(&op), isKnown))
        known.insert(op.getResults().begin(), op.getResults().end());
      continue;
    }
    llvm::SetVector<Value> later = usesFrom(it, src, liveOut);
    llvm::SetVector<Value> entryForce;
    if (auto w = dyn_cast<scf::WhileOp>(op))
      for (auto [init, arg] :
           llvm::zip(w.getInits(), w.getBeforeBody()->getArguments()))
        if (perThread(arg) && !perThread(init))
          entryForce.insert(init);
    if (failed(flush(seg, env, later, entryForce)))
      return failure();
    seg.clear();
    known.clear();
    if (!sco) {
      seg.push_back(&op);
      known.insert(op.getResults().begin(), op.getResults().end());
      continue;
    }
    llvm::SetVector<Value> after = usesFrom(std::next(it), src, liveOut);
    if (failed(isa<scf::IfOp>(op)
                   ? emitIf(cast<scf::IfOp>(op), env, after)
                   : emitWhile(cast<scf::WhileOp>(op), env, after)))
      return failure();
  }
  llvm::SetVector<Value> later = usesFrom(std::prev(src.end()), src, liveOut);
  if (failed(flush(seg, env, later, force)))
    return failure();
  for (Value list : tempLists) {
    Value h = env.host.lookup(list);
    if (!h)
      return mlir::emitError(list.getLoc(),
                             "internal error: a dtempnew list has no host "
                             "value at the end of its block");
    freeSegmentList(hb, list.getLoc(), h);
  }
  return success();
}

LogicalResult Splitter::emitIf(scf::IfOp op, Env &env,
                               const llvm::SetVector<Value> &later) {
  Location loc = op.getLoc();
  Value cond = hostValue(op.getCondition(), env);
  if (!cond)
    return op.emitError("internal error: the condition of a branch that "
                        "holds a barrier has no host value");
  SmallVector<Value> results(op.getResults());
  SmallVector<bool> asList;
  for (Value r : results)
    asList.push_back(perThread(r));
  SmallVector<Value> carried;
  for (auto &[v, l] : env.lists)
    if (later.contains(v))
      carried.push_back(v);
  SmallVector<Type> types = stateTypes(results, asList, carried);
  auto hostIf = scf::IfOp::create(hb, loc, types, cond, /*withElse=*/true);
  for (Region *region : {&op.getThenRegion(), &op.getElseRegion()}) {
    OpBuilder::InsertionGuard guard(hb);
    Block *dst =
        region == &op.getThenRegion() ? hostIf.thenBlock() : hostIf.elseBlock();
    hb.setInsertionPointToEnd(dst);
    // An if without results may have no else block.
    SmallVector<Value> yielded;
    if (!region->empty())
      yielded.append(region->front().getTerminator()->operand_begin(),
                     region->front().getTerminator()->operand_end());
    Env sub = env;
    SmallVector<Value> liveOut(carried);
    llvm::SetVector<Value> force;
    for (auto [v, list] : llvm::zip(yielded, asList))
      if (list) {
        liveOut.push_back(v);
        if (!perThread(v))
          force.insert(v);
      }
    if (region->empty()) {
      if (failed(flush({}, sub,
                       llvm::SetVector<Value>(liveOut.begin(), liveOut.end()),
                       force)))
        return failure();
    } else if (failed(emitBlock(region->front(), sub, liveOut, force))) {
      return failure();
    }
    auto state = yieldState(sub, yielded, asList, carried, loc);
    if (failed(state))
      return failure();
    scf::YieldOp::create(hb, loc, *state);
  }
  env.lists.clear();
  bindState(env, results, asList, carried, hostIf.getResults());
  freeDead(env, later, loc);
  return success();
}

LogicalResult Splitter::emitWhile(scf::WhileOp op, Env &env,
                                  const llvm::SetVector<Value> &later) {
  Location loc = op.getLoc();
  Block *before = op.getBeforeBody(), *after = op.getAfterBody();
  SmallVector<bool> beforeList, afterList;
  for (BlockArgument a : before->getArguments())
    beforeList.push_back(perThread(a));
  for (BlockArgument a : after->getArguments())
    afterList.push_back(perThread(a));
  // The lists of values from before the loop that it uses or that are
  // needed after it go around it.
  llvm::SetVector<Value> inside;
  for (Region &r : op->getRegions())
    r.walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        inside.insert(v);
    });
  SmallVector<Value> carried;
  for (auto &[v, l] : env.lists)
    if (inside.contains(v) || later.contains(v))
      carried.push_back(v);
  auto init = yieldState(env, SmallVector<Value>(op.getInits()), beforeList,
                         carried, loc);
  if (failed(init))
    return failure();
  SmallVector<Type> beforeTypes = stateTypes(
      SmallVector<Value>(before->getArguments()), beforeList, carried);
  SmallVector<Type> afterTypes =
      stateTypes(SmallVector<Value>(after->getArguments()), afterList, carried);
  auto hostWhile = scf::WhileOp::create(hb, loc, afterTypes, *init);
  Env outer = env;
  {
    OpBuilder::InsertionGuard guard(hb);
    Block *hbBefore =
        hb.createBlock(&hostWhile.getBefore(), {}, beforeTypes,
                       SmallVector<Location>(beforeTypes.size(), loc));
    Env b;
    b.host = outer.host;
    bindState(b, SmallVector<Value>(before->getArguments()), beforeList,
              carried, hbBefore->getArguments());
    scf::ConditionOp cond = op.getConditionOp();
    SmallVector<Value> liveOut(carried);
    for (auto [v, list] : llvm::zip(cond.getArgs(), afterList))
      if (list)
        liveOut.push_back(v);
    if (failed(emitBlock(*before, b, liveOut, {})))
      return failure();
    Value c = hostValue(cond.getCondition(), b);
    if (!c)
      return op.emitError("internal error: the condition of a loop that "
                          "holds a barrier has no host value");
    // A loop whose threads are all gone (killed, or a spawn of none) stops:
    // a value that only the threads compute (a counter stepped under a
    // branch) has no thread left to compute it.
    Value none = arith::ConstantIntOp::create(hb, loc, 0, 32);
    c = arith::AndIOp::create(hb, loc, c,
                              arith::CmpIOp::create(hb, loc,
                                                    arith::CmpIPredicate::sgt,
                                                    b.count, none));
    auto state = yieldState(b, SmallVector<Value>(cond.getArgs()), afterList,
                            carried, loc);
    if (failed(state))
      return failure();
    scf::ConditionOp::create(hb, loc, c, *state);

    Block *hbAfter =
        hb.createBlock(&hostWhile.getAfter(), {}, afterTypes,
                       SmallVector<Location>(afterTypes.size(), loc));
    Env a;
    a.host = outer.host;
    bindState(a, SmallVector<Value>(after->getArguments()), afterList, carried,
              hbAfter->getArguments());
    scf::YieldOp yield = op.getYieldOp();
    SmallVector<Value> liveOut2(carried);
    llvm::SetVector<Value> force;
    for (auto [v, list] : llvm::zip(yield.getOperands(), beforeList))
      if (list) {
        liveOut2.push_back(v);
        if (!perThread(v))
          force.insert(v);
      }
    if (failed(emitBlock(*after, a, liveOut2, force)))
      return failure();
    auto next = yieldState(a, SmallVector<Value>(yield.getOperands()),
                           beforeList, carried, loc);
    if (failed(next))
      return failure();
    scf::YieldOp::create(hb, loc, *next);
  }
  env.lists.clear();
  bindState(env, SmallVector<Value>(op.getResults()), afterList, carried,
            hostWhile.getResults());
  freeDead(env, later, loc);
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

LogicalResult Splitter::run() {
  // Every branch or loop holding a barrier must be taken alike by all
  // threads; Sema says so first, with notes on the per-thread value.
  WalkResult walk = spawn.getBody().walk([&](Operation *op) {
    if (!isSynchronizing(op))
      return WalkResult::advance();
    Value cond = UniformityInfo::getBranchCondition(op);
    if (uni.isUniform(cond))
      return WalkResult::advance();
    Operation *sync = nullptr;
    op->walk([&](Operation *nested) {
      if (!sync && isSyncOp(nested))
        sync = nested;
    });
    InFlightDiagnostic diag =
        sync->emitError("barrier under control flow that differs between "
                        "threads: every thread must reach it");
    diag.attachNote(op->getLoc()) << "the condition depends on the thread";
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return failure();
  hb.setInsertionPoint(spawn);
  // dtempnew lists the host cannot name where the spawn ends are freed
  // there by the runtime (SegmentLists.h).
  Value mark;
  if (temps.deferred)
    mark = ssutil::buildRuntimeCall(
        hb, spawn.getLoc(), "bsgprt_temp_defer_mark", hb.getI64Type(), {});
  Env env;
  env.count = spawn.getThreadCount();
  Block &body = spawn.getBody().front();
  if (failed(emitBlock(body, env, {}, {})))
    return failure();
  if (mark)
    ssutil::buildRuntimeCall(hb, spawn.getLoc(), "bsgprt_temp_free_deferred",
                             Type(), {mark});
  for (auto [r, v] :
       llvm::zip(spawn.getResults(), body.getTerminator()->getOperands()))
    r.replaceAllUsesWith(hostValue(v, env));
  for (auto &[v, l] : env.lists)
    freeSegmentList(hb, spawn.getLoc(), l);
  spawn.erase();
  return success();
}

namespace {
struct SplitUniformFlowPass
    : public bsgp::impl::BSGPSplitUniformFlowPassBase<SplitUniformFlowPass> {
  void runOnOperation() override {
    SmallVector<SpawnOp> spawns;
    getOperation()->walk([&](SpawnOp spawn) { spawns.push_back(spawn); });
    for (SpawnOp spawn : spawns) {
      if (!needsUniformFlowSplit(spawn))
        continue;
      answerQuestionsInFlow(spawn);
      // Before the analysis: the elements are new per-thread values.
      carryArraysThroughFlow(spawn, isSynchronizing);
      recomputeRanksInSegments(spawn, movesThreads);
      TempListPlan temps = planTempLists(spawn, isSynchronizing);
      UniformityInfo uni(spawn);
      Splitter splitter(spawn, uni, temps);
      if (failed(splitter.run()))
        return signalPassFailure();
    }
    SmallVector<UniformOp> marks;
    getOperation()->walk([&](UniformOp u) { marks.push_back(u); });
    for (UniformOp u : marks) {
      u.replaceAllUsesWith(u.getValue());
      u.erase();
    }
  }
};
} // namespace
