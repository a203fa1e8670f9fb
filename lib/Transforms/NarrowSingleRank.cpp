//===- NarrowSingleRank.cpp - launch one thread for a rank-guarded kernel -===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// `if (thread.rank == 0) out[0] = total;` after a reduce is the whole last
// superstep of many BSGP programs: a kernel of thread.size threads of which
// one does anything. Such a kernel runs with one thread whose rank is the
// guarded one, or with none when that rank is outside the launch.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Transforms/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPNARROWSINGLERANKPASS
#include "bsgp/Transforms/Passes.h.inc"
} // namespace bsgp

using namespace mlir;
using namespace bsgp;

namespace {

struct NarrowSingleRankPass
    : public bsgp::impl::BSGPNarrowSingleRankPassBase<NarrowSingleRankPass> {
  void runOnOperation() override;
};

/// True if `op` at most reads memory or thread state: running it for one
/// rank instead of all of them changes nothing the program can see.
bool onlyReads(Operation *op) {
  return op->getNumRegions() == 0 &&
         !mightHaveEffect<MemoryEffects::Write>(op) &&
         !hasEffect<MemoryEffects::Allocate>(op) &&
         !hasEffect<MemoryEffects::Free>(op);
}

/// The value V of a kernel whose body is reads, then `scf.if (rank == V)`
/// holding every write, then the return; V is a parameter or a constant,
/// so the host knows it. Null when the kernel is not of that form.
Value findGuardedRank(KernelOp kernel) {
  Block &body = kernel.getBody().front();
  scf::IfOp guard;
  for (Operation &op : body.without_terminator()) {
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      if (guard || branch.getNumResults() != 0 ||
          !branch.getElseRegion().empty())
        return {};
      guard = branch;
      continue;
    }
    if (!onlyReads(&op))
      return {};
  }
  if (!guard)
    return {};
  // Work-group operations, chunk accumulations, rank reassignment and
  // thread.size need the other threads.
  WalkResult unsupported = kernel.walk([](Operation *op) {
    if (isa<ThreadSizeOp, GetOp, SetOldRankOp, ChunkReduceOp, ChunkScanOp>(
            op) ||
        isGroupOp(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (unsupported.wasInterrupted())
    return {};
  auto cmp = guard.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq)
    return {};
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  if (!lhs.getDefiningOp<ThreadRankOp>())
    std::swap(lhs, rhs);
  if (!lhs.getDefiningOp<ThreadRankOp>())
    return {};
  bool known = isa<BlockArgument>(rhs) || matchPattern(rhs, m_Constant());
  return known ? rhs : Value();
}

} // namespace

void NarrowSingleRankPass::runOnOperation() {
  ModuleOp module = getOperation();
  DenseMap<StringAttr, SmallVector<LaunchOp>> launches;
  module.walk([&](LaunchOp launch) {
    launches[launch.getKernelAttr().getAttr()].push_back(launch);
  });

  for (KernelOp kernel : module.getOps<KernelOp>()) {
    Value rank = findGuardedRank(kernel);
    if (!rank)
      continue;
    // Each launch runs one thread when the rank is one of its ranks.
    for (LaunchOp launch : launches[kernel.getSymNameAttr()]) {
      OpBuilder b(launch);
      Location loc = launch.getLoc();
      Value atHost;
      if (auto arg = dyn_cast<BlockArgument>(rank))
        atHost = launch.getArgs()[arg.getArgNumber()];
      else
        atHost = b.clone(*rank.getDefiningOp())->getResult(0);
      Value count = launch.getThreadCount();
      // Unsigned, so that a negative rank is outside too.
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           atHost, count);
      Value one = arith::ConstantIntOp::create(b, loc, count.getType(), 1);
      Value none = arith::ConstantIntOp::create(b, loc, count.getType(), 0);
      launch.getThreadCountMutable().assign(
          arith::SelectOp::create(b, loc, inside, one, none));
    }
    // In the kernel, the one thread's rank is that rank.
    SmallVector<ThreadRankOp> ranks;
    kernel.walk([&](ThreadRankOp op) { ranks.push_back(op); });
    for (ThreadRankOp op : ranks) {
      Value r = rank;
      if (!isa<BlockArgument>(rank)) {
        OpBuilder b(op);
        r = b.clone(*rank.getDefiningOp())->getResult(0);
      }
      op.getResult().replaceAllUsesWith(r);
      op.erase();
    }
  }
}
