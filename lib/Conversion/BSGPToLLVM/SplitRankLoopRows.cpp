//===- SplitRankLoopRows.cpp - rank / u without a division per rank -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A BSGP thread often finds its place in a 2-D grid from its rank, `x =
// rank % w; y = rank / w;` with `w` a kernel parameter. In the CPU rank loop
// of bsgp-lower-kernels-cpu that is an integer division per rank (LLVM
// strength-reduces only constant divisors), which costs more than the rest
// of a memory-bound kernel, and the division keeps the element addresses
// from looking affine to the loop vectorizer.
//
// This pass splits the rank loop into rows of `w` ranks: an outer loop over
// the rows of the chunk (one division for the chunk's first rank), an inner
// loop, the original body, over the columns of one row, in which `rank / w`
// is the row (invariant), `rank % w` the loop's counter and the rank the
// row's first rank plus it: the loop the 2-D OpenMP version of the kernel
// writes by hand. The chunk's first row, which may start mid-row, is a loop
// of its own, so that in the other rows the column counts from 0, from
// which LLVM peels the first column off a test like `x > 0 && x < w - 1`
// (one compare per rank instead of two). The split loop
// runs where `w` is at least kMinRowLength and the chunk's ranks are not
// negative (always, for a rank loop); otherwise, and so for a zero or
// negative divisor, the original loop runs, so that every value, and a
// division by zero, behaves as before.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Conversion/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPSPLITRANKLOOPROWSPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

namespace {

/// Rows shorter than this cost more in loop overhead (and a mispredicted
/// exit branch per row) than the divisions they save.
constexpr int64_t kMinRowLength = 16;

struct SplitRankLoopRowsPass
    : public bsgp::impl::BSGPSplitRankLoopRowsPassBase<SplitRankLoopRowsPass> {
  void runOnOperation() override;
};

/// The divisions and remainders of the rank by one loop-invariant divisor.
struct RankDivisions {
  Value divisor;
  SmallVector<Operation *> quotients, remainders;
};

} // namespace

/// Whether `loop` is the rank loop of a CPU entry point: the top-level
/// loop of a device `llvm.func` from its `begin` to its `end` parameter,
/// step 1 (bsgp-lower-kernels-cpu).
static bool isRankLoop(scf::ForOp loop) {
  auto fn = dyn_cast<LLVM::LLVMFuncOp>(loop->getParentOp());
  if (!fn || !fn->hasAttr(bsgp::BSGPDialect::getDeviceAttrName()) ||
      fn.getNumArguments() != 4 ||
      !loop.getInductionVar().getType().isInteger(32))
    return false;
  auto lb = loop.getLowerBound().getDefiningOp<arith::TruncIOp>();
  auto ub = loop.getUpperBound().getDefiningOp<arith::TruncIOp>();
  return lb && ub && lb.getIn() == fn.getArgument(1) &&
         ub.getIn() == fn.getArgument(2) &&
         matchPattern(loop.getStep(), m_One());
}

/// Finds the first divisor (in program order) by which the loop's body
/// divides the rank, with every division and remainder by it. Constant
/// divisors are left to LLVM, which multiplies by their inverse.
static RankDivisions findRankDivisions(scf::ForOp loop) {
  RankDivisions found;
  Value rank = loop.getInductionVar();
  loop.getBody()->walk([&](Operation *op) {
    if (!isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp>(
            op) ||
        op->getOperand(0) != rank)
      return;
    Value divisor = op->getOperand(1);
    if (!loop.isDefinedOutsideOfLoop(divisor) ||
        matchPattern(divisor, m_Constant()))
      return;
    if (!found.divisor)
      found.divisor = divisor;
    if (divisor != found.divisor)
      return;
    if (isa<arith::DivSIOp, arith::DivUIOp>(op))
      found.quotients.push_back(op);
    else
      found.remainders.push_back(op);
  });
  return found;
}

/// Builds the split loop in place of `loop`, under `scf.if` with the
/// original loop as the other branch.
static void splitRows(scf::ForOp loop, const RankDivisions &divs) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value u = divs.divisor, begin = loop.getLowerBound(),
        end = loop.getUpperBound();
  Type i32 = b.getI32Type();
  auto cst = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32, v).getResult();
  };
  Value zero = cst(0), one = cst(1);
  // With u > 0 and 0 <= rank, the signed and unsigned divisions agree.
  Value longRows = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, u,
                                         cst(kMinRowLength));
  Value natural =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, begin, zero);
  Value cond = arith::AndIOp::create(b, loc, longRows, natural);
  TypeRange resultTypes = loop.getResultTypes();
  auto ifOp = scf::IfOp::create(b, loc, resultTypes, cond,
                                /*withElseRegion=*/true);

  // The original loop runs on the other path.
  Block *elseBlock = ifOp.elseBlock();
  if (!elseBlock->empty())
    elseBlock->getTerminator()->erase();
  b.setInsertionPointToEnd(elseBlock);
  Operation *original = loop->clone();
  b.insert(original);
  scf::YieldOp::create(b, loc, original->getResults());

  Block *thenBlock = ifOp.thenBlock();
  if (!thenBlock->empty())
    thenBlock->getTerminator()->erase();
  b.setInsertionPointToEnd(thenBlock);

  // The body over the columns [x0, x1) of the row starting at rank
  // rowStart, whose quotient is q: the loop counts the column, rank % u,
  // and the rank is rowStart + column.
  auto emitRow = [&](Value x0, Value x1, Value rowStart, Value q,
                     ValueRange inits) {
    IRMapping mapping;
    auto inner = cast<scf::ForOp>(b.clone(*loop, mapping));
    inner.getLowerBoundMutable().assign(x0);
    inner.getUpperBoundMutable().assign(x1);
    inner.getInitArgsMutable().assign(inits);
    Value x = inner.getInductionVar();
    OpBuilder rb = OpBuilder::atBlockBegin(inner.getBody());
    Value rank = arith::AddIOp::create(rb, loc, rowStart, x,
                                       arith::IntegerOverflowFlags::nsw);
    x.replaceAllUsesExcept(rank, rank.getDefiningOp());
    for (Operation *op : divs.quotients) {
      Operation *clone = mapping.lookup(op->getResult(0)).getDefiningOp();
      clone->getResult(0).replaceAllUsesWith(q);
      clone->erase();
    }
    for (Operation *op : divs.remainders) {
      Operation *clone = mapping.lookup(op->getResult(0)).getDefiningOp();
      clone->getResult(0).replaceAllUsesWith(x);
      clone->erase();
    }
    return inner;
  };

  // The chunk's first row, which may start past its first column.
  Value q0 = arith::DivSIOp::create(b, loc, begin, u);
  Value r0 = arith::RemSIOp::create(b, loc, begin, u);
  Value len0 =
      arith::MinSIOp::create(b, loc, arith::SubIOp::create(b, loc, u, r0),
                             arith::SubIOp::create(b, loc, end, begin));
  Value rowEnd0 = arith::AddIOp::create(b, loc, begin, len0);
  Value rowStart0 = arith::SubIOp::create(b, loc, begin, r0);
  scf::ForOp first = emitRow(r0, arith::AddIOp::create(b, loc, r0, len0),
                             rowStart0, q0, loop.getInitArgs());

  // Whole rows after it, each from its first column: with the remainder
  // counting from 0 in every row, LLVM peels the iterations that a test
  // of the column (x > 0, x < u - 1) sets apart.
  SmallVector<Value> inits{rowEnd0, arith::AddIOp::create(b, loc, q0, one)};
  llvm::append_range(inits, first.getResults());
  SmallVector<Type> types(2, i32);
  llvm::append_range(types, resultTypes);
  SmallVector<Location> locs(types.size(), loc);
  auto rows = scf::WhileOp::create(b, loc, types, inits);
  Block *before = b.createBlock(&rows.getBefore(), {}, types, locs);
  Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                     before->getArgument(0), end);
  scf::ConditionOp::create(b, loc, more, before->getArguments());

  Block *after = b.createBlock(&rows.getAfter(), {}, types, locs);
  Value rank = after->getArgument(0), q = after->getArgument(1);
  Value len = arith::MinSIOp::create(b, loc, u,
                                     arith::SubIOp::create(b, loc, end, rank));
  Value rowEnd = arith::AddIOp::create(b, loc, rank, len);
  scf::ForOp inner =
      emitRow(zero, len, rank, q, after->getArguments().drop_front(2));
  b.setInsertionPointAfter(inner);
  SmallVector<Value> next{rowEnd, arith::AddIOp::create(b, loc, q, one)};
  llvm::append_range(next, inner.getResults());
  scf::YieldOp::create(b, loc, next);

  b.setInsertionPointAfter(rows);
  scf::YieldOp::create(b, loc, rows.getResults().drop_front(2));
  loop->replaceAllUsesWith(ifOp.getResults());
  loop->erase();
}

void SplitRankLoopRowsPass::runOnOperation() {
  SmallVector<scf::ForOp> loops;
  getOperation()->walk([&](scf::ForOp loop) {
    if (isRankLoop(loop))
      loops.push_back(loop);
  });
  for (scf::ForOp loop : loops) {
    RankDivisions divs = findRankDivisions(loop);
    if (divs.divisor)
      splitRows(loop, divs);
  }
}
