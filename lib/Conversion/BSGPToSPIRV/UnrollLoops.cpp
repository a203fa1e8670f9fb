//===- UnrollLoops.cpp - SPIR-V target: short counted loops unrolled ------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The CPU and CUDA targets go through LLVM, whose full unrolling turns a
// loop over a thread's private array (`uint ks[16]; for (i < 16) ks[i] =
// ...`) into straight-line code and the array into registers (SROA). The
// SPIR-V target has no such step: the array stayed a Function variable
// indexed by the loop's counter, and the loop a loop, for the driver to
// undo or not. So the kernels' short counted loops are unrolled here, on
// scf, before the ranks are predicated: a loop whose counter runs from a
// constant to a constant (an `scf.while` in counted form is first lifted
// to an `scf.for`), at most kMaxTrips times, with at most kMaxOps ops
// after unrolling. Inner loops go first, so that an outer loop counts
// what its unrolled inner loops became.
//
//===----------------------------------------------------------------------===//

#include "SPIRVCommon.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

/// A loop of more trips keeps its form (the radix sorts' per-thread loops
/// take 16).
constexpr int64_t kMaxTrips = 16;
/// Nor does one whose unrolled body would exceed this many ops.
constexpr int64_t kMaxOps = 2048;

/// The trip count of a counted `scf.while`: its before block only
/// compares its counter (argument k) with a constant bound, `<` signed or
/// unsigned, and forwards its arguments; the after block adds a constant
/// step > 0 to the counter, which starts at a constant. For an unsigned
/// compare the counter must stay a non-negative signed value, so that the
/// uplifting's signed loop is the same loop: it does, in [init, bound +
/// step), when both are non-negative and bound + step is in range.
std::optional<int64_t> countedTrips(scf::WhileOp loop) {
  Block *before = loop.getBeforeBody();
  if (before->getOperations().size() != 2)
    return std::nullopt;
  auto cmp = dyn_cast<arith::CmpIOp>(before->front());
  scf::ConditionOp cond = loop.getConditionOp();
  if (!cmp || cond.getCondition() != cmp.getResult() ||
      (cmp.getPredicate() != arith::CmpIPredicate::ult &&
       cmp.getPredicate() != arith::CmpIPredicate::slt))
    return std::nullopt;
  if (cond.getArgs() != ValueRange(before->getArguments()))
    return std::nullopt;
  auto iv = dyn_cast<BlockArgument>(cmp.getLhs());
  std::optional<int64_t> bound = getConstantIntValue(cmp.getRhs());
  if (!iv || iv.getOwner() != before || !bound || *bound < 0 ||
      !isa<IntegerType>(iv.getType()))
    return std::nullopt;
  unsigned k = iv.getArgNumber();
  std::optional<int64_t> init = getConstantIntValue(loop.getInits()[k]);
  auto add = loop.getYieldOp().getOperand(k).getDefiningOp<arith::AddIOp>();
  if (!init || *init < 0 || !add || add.getLhs() != loop.getAfterArguments()[k])
    return std::nullopt;
  std::optional<int64_t> step = getConstantIntValue(add.getRhs());
  unsigned width = iv.getType().getIntOrFloatBitWidth();
  if (!step || *step <= 0 || width > 63 ||
      *bound + *step >= (int64_t(1) << (width - 1)))
    return std::nullopt;
  if (*bound <= *init)
    return 0;
  return (*bound - *init + *step - 1) / *step;
}

} // namespace

void bsgp::spv::unrollShortLoops(Operation *root) {
  // Inner loops first.
  SmallVector<scf::WhileOp> loops;
  root->walk<WalkOrder::PostOrder>(
      [&](scf::WhileOp loop) { loops.push_back(loop); });
  IRRewriter rewriter(root->getContext());
  for (scf::WhileOp loop : loops) {
    std::optional<int64_t> trips = countedTrips(loop);
    if (!trips || *trips < 1 || *trips > kMaxTrips)
      continue;
    int64_t ops = 0;
    loop.getAfterBody()->walk([&](Operation *) { ++ops; });
    if (ops * *trips > kMaxOps)
      continue;
    auto cmp = cast<arith::CmpIOp>(loop.getBeforeBody()->front());
    cmp.setPredicate(arith::CmpIPredicate::slt);
    rewriter.setInsertionPoint(loop);
    FailureOr<scf::ForOp> counted = scf::upliftWhileToForLoop(rewriter, loop);
    if (succeeded(counted))
      (void)loopUnrollFull(*counted);
  }
}
