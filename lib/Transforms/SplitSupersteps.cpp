//===- SplitSupersteps.cpp - cut spawns at barriers (§4.2 step 3) --------===//
//
// The body of a spawn becomes a sequence of bsgp.superstep ops, one per
// barrier-delimited piece, with the requireOps of each piece moved in front of
// it (they run on the host before the superstep's kernel is launched). A
// value used by a later piece is yielded by its superstep, so the results of
// the supersteps are the candidates of the saved values of step 5.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "SourceNames.h"
#include "Supersteps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <functional>

namespace bsgp {
#define GEN_PASS_DEF_BSGPSPLITSUPERSTEPSPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

/// A barrier-delimited piece of a spawn body.
struct Piece {
  SmallVector<Operation *> ops;
  SmallVector<RequireOp> requireOps;
  /// The barrier that starts the piece reassigns ranks.
  bool rankReassigned = false;
  /// The barrier that ends the piece, if any (its location ends the range).
  Operation *endBarrier = nullptr;
};

/// Checks what the split cannot handle: unexpanded pars, collectives that
/// were not inlined, and barriers below the top level.
LogicalResult checkSpawn(SpawnOp spawn) {
  Block &body = spawn.getBody().front();
  for (Operation &op : body) {
    if (isa<ParOp>(op))
      return op.emitError("bsgp.par must be expanded before superstep "
                          "splitting (run bsgp-expand-par)");
  }
  WalkResult walk = spawn.getBody().walk([&](Operation *op) {
    if (isa<BarrierOp>(op) && op->getParentOp() != spawn) {
      op->emitError("barrier inside control flow is not supported: stream "
                    "processors synchronize only between kernel launches "
                    "(§4.4)");
      return WalkResult::interrupt();
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      Operation *callee =
          SymbolTable::lookupNearestSymbolFrom(op, call.getCalleeAttr());
      if (callee && isCollectiveFunction(callee)) {
        op->emitError("call to collective function '")
            << call.getCallee()
            << "' must be inlined before superstep splitting (run "
               "bsgp-inline-collectives)";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Makes `require` independent of the device code before it. A require
/// runs on the host before its superstep; Sema lets it read no device
/// variable, but CSE merges the ops of its body with equal ops of the
/// spawn that dominate it (`0 - max(sp.i, n)` of a segment's end value
/// with the thread's own copy). Such an op is copied back, with the ops
/// it reads: constants, target queries, pure ops of no operands
/// (thread.size, bsgp.ptr.null) and pure ops over those and host values.
/// Anything else computed in the spawn is an error.
LogicalResult detachRequire(SpawnOp spawn, RequireOp require) {
  Block &body = spawn.getBody().front();
  Block &reqBody = require.getBody().front();
  // The op of the spawn's device code defining `v`, or null for a host
  // value: one from outside the spawn, a block argument, the result of a
  // require, or one the require computes.
  auto deviceDef = [&](Value v) -> Operation * {
    Operation *def = v.getDefiningOp();
    if (!def || !spawn->isProperAncestor(def) || require->isAncestor(def) ||
        isa<RequireOp>(def) || !body.findAncestorOpInBlock(*def))
      return nullptr;
    return def;
  };
  DenseMap<Operation *, bool> copyable;
  std::function<bool(Operation *)> canCopy = [&](Operation *def) {
    auto [it, inserted] = copyable.try_emplace(def, false);
    if (!inserted)
      return it->second;
    bool ok = def->hasTrait<OpTrait::ConstantLike>() || isa<TargetIsOp>(def);
    if (!ok && def->getNumRegions() == 0 && isPure(def))
      ok = llvm::all_of(def->getOperands(), [&](Value operand) {
        Operation *d = deviceDef(operand);
        return !d || canCopy(d);
      });
    copyable[def] = ok;
    return ok;
  };
  OpBuilder b(&reqBody, reqBody.begin());
  IRMapping copies;
  std::function<Value(Value)> copy = [&](Value v) -> Value {
    Operation *def = deviceDef(v);
    if (!def)
      return v;
    if (Value c = copies.lookupOrNull(v))
      return c;
    for (Value operand : def->getOperands())
      copies.map(operand, copy(operand));
    Operation *clone = b.clone(*def, copies);
    return clone->getResult(cast<OpResult>(v).getResultNumber());
  };
  WalkResult walk = require.getBody().walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      Operation *def = deviceDef(operand.get());
      if (!def)
        continue;
      if (canCopy(def)) {
        operand.set(copy(operand.get()));
        continue;
      }
      InFlightDiagnostic diag =
          require.emitError("require code runs on the host before its "
                            "superstep and cannot use a value computed by "
                            "the spawn's device code");
      diag.attachNote(def->getLoc()) << "value defined here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Gives every piece its own copy of the target queries it uses from an
/// earlier piece. CSE merges the `bsgp.target_is` of two
/// collectives into one op; were it a saved value, a later superstep's
/// branch on it would no longer be a target branch, and the ops that must
/// sit in straight-line code under one (bsgp.chunk_reduce) would be
/// rejected. A query is the same constant in every kernel anyway.
/// (Constants are recomputed where they are used by bsgp-rematerialize.)
void cloneQueriesPerPiece(Block &body, MutableArrayRef<Piece> pieces,
                          DenseMap<Operation *, unsigned> &pieceOf) {
  for (auto [i, piece] : llvm::enumerate(pieces)) {
    for (Operation *op : llvm::to_vector(piece.ops)) {
      if (!isa<TargetIsOp>(op))
        continue;
      DenseMap<unsigned, Operation *> copies;
      for (OpOperand &use :
           llvm::make_early_inc_range(op->getResult(0).getUses())) {
        Operation *top = body.findAncestorOpInBlock(*use.getOwner());
        auto it = top ? pieceOf.find(top) : pieceOf.end();
        if (it == pieceOf.end() || it->second == i)
          continue;
        Operation *&copy = copies[it->second];
        if (!copy) {
          Piece &user = pieces[it->second];
          copy = op->clone();
          // The piece's first op gives the superstep its source range.
          copy->setLoc(user.ops.front()->getLoc());
          body.getOperations().insert(user.ops.front()->getIterator(), copy);
          user.ops.insert(user.ops.begin(), copy);
          pieceOf[copy] = it->second;
        }
        use.set(copy->getResult(0));
      }
    }
  }
}

/// The source range of a superstep: from the first to the last source
/// position of its operations and of the barrier that ends it, in the file
/// of its first operation (code inlined from a collective counts at its
/// call site). Taking the extremes rather than the first operation and the
/// barrier keeps the range from running backwards where the compiler put an
/// operation of a later column first (`37:12-37:9`).
static std::pair<LocationAttr, LocationAttr>
getSourceRange(const Piece &piece) {
  FileLineColLoc begin, end;
  auto extend = [&](Location loc) {
    FileLineColLoc flc = ssutil::findFileLineCol(loc);
    if (!flc)
      return;
    if (!begin) {
      begin = end = flc;
      return;
    }
    if (flc.getFilename() != begin.getFilename())
      return;
    auto before = [](FileLineColLoc a, FileLineColLoc b) {
      return std::make_pair(a.getLine(), a.getColumn()) <
             std::make_pair(b.getLine(), b.getColumn());
    };
    if (before(flc, begin))
      begin = flc;
    if (before(end, flc))
      end = flc;
  };
  for (Operation *op : piece.ops)
    op->walk([&](Operation *nested) { extend(nested->getLoc()); });
  if (piece.endBarrier)
    extend(piece.endBarrier->getLoc());
  return {begin, end};
}

LogicalResult splitSpawn(SpawnOp spawn) {
  // Already in superstep form: the pass is idempotent.
  if (!ssutil::getSupersteps(spawn).empty())
    return success();
  if (failed(checkSpawn(spawn)))
    return failure();
  Block &body = spawn.getBody().front();

  SmallVector<Piece> pieces(1);
  for (Operation &op : body.without_terminator()) {
    if (auto barrier = dyn_cast<BarrierOp>(op)) {
      pieces.back().endBarrier = barrier;
      pieces.emplace_back();
      pieces.back().rankReassigned = barrier.getRankReassigned();
      continue;
    }
    if (auto require = dyn_cast<RequireOp>(op)) {
      pieces.back().requireOps.push_back(require);
      continue;
    }
    pieces.back().ops.push_back(&op);
  }

  DenseMap<Operation *, unsigned> pieceOf;
  for (auto [i, piece] : llvm::enumerate(pieces))
    for (Operation *op : piece.ops)
      pieceOf[op] = i;
  cloneQueriesPerPiece(body, pieces, pieceOf);

  for (Piece &piece : pieces)
    for (RequireOp require : piece.requireOps)
      if (failed(detachRequire(spawn, require)))
        return failure();

  Operation *terminator = body.getTerminator();
  unsigned index = 0;
  for (unsigned i = 0; i < pieces.size(); ++i) {
    Piece &piece = pieces[i];
    for (RequireOp require : piece.requireOps)
      require->moveBefore(terminator);
    // An empty piece (two barriers in a row, a trailing barrier) would only
    // launch an empty kernel.
    if (piece.ops.empty())
      continue;

    SmallVector<Value> saved;
    for (Operation *op : piece.ops)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              Operation *top = body.findAncestorOpInBlock(*user);
              return top && pieceOf.lookup(top) != i;
            }))
          saved.push_back(result);

    OpBuilder b(terminator);
    // The first op with a location (a constant the folder made has none):
    // launches, line tables and run-time errors name this place.
    Location loc = spawn.getLoc();
    for (Operation *op : piece.ops)
      if (!isa<UnknownLoc>(op->getLoc())) {
        loc = op->getLoc();
        break;
      }
    auto [begin, end] = getSourceRange(piece);
    auto step = SuperstepOp::create(
        b, loc, ValueRange(saved).getTypes(), b.getI32IntegerAttr(++index),
        piece.rankReassigned ? b.getUnitAttr() : nullptr, begin, end);
    Block *stepBody = new Block;
    step.getBody().push_back(stepBody);
    for (Operation *op : piece.ops)
      op->moveBefore(stepBody, stepBody->end());
    b.setInsertionPointToEnd(stepBody);
    YieldOp::create(b, loc, saved);
    for (auto [result, value] : llvm::zip(step.getResults(), saved))
      value.replaceUsesWithIf(result, [&](OpOperand &use) {
        return !step->isProperAncestor(use.getOwner());
      });
  }
  for (Piece &piece : pieces)
    if (piece.endBarrier)
      piece.endBarrier->erase();
  return success();
}

struct SplitSuperstepsPass
    : public bsgp::impl::BSGPSplitSuperstepsPassBase<SplitSuperstepsPass> {
  void runOnOperation() override {
    SmallVector<SpawnOp> spawns;
    getOperation()->walk([&](SpawnOp spawn) { spawns.push_back(spawn); });
    for (SpawnOp spawn : spawns)
      if (failed(splitSpawn(spawn)))
        return signalPassFailure();
  }
};

} // namespace
