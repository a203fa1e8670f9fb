//===- LowerKernelsToCPU.cpp - kernels as native rank loops ---------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A superstep kernel runs once per thread. On the CPU the runtime splits the
// ranks into one contiguous range per core and calls the kernel's native
// entry point on each range; the entry point loops over its ranks. Putting
// the rank loop innermost and the parameter unpacking outside it is what lets
// LLVM vectorize a kernel across threads.
//
// The collective library's bsgp.chunk_reduce and bsgp.chunk_scan accumulate
// a value over the ranks of the calling chunk. Their accumulators become
// values carried by the rank loop (iter_args): LLVM keeps them in registers
// and vectorizes the reductions, and only one value per chunk touches
// memory. A float sum is a tree of blocks of ranks rather than a sequence
// (isTreeSum), for its rounding error.
//
//===----------------------------------------------------------------------===//

#include "GridLoopsCPU.h"

#include "bsgp/Conversion/BSGPToLLVM/KernelABI.h"
#include "bsgp/Conversion/BSGPToLLVM/RuntimeAPI.h"
#include "bsgp/Conversion/Common/KernelBody.h"
#include "bsgp/Conversion/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPLOWERKERNELSTOCPUPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

namespace {

struct LowerKernelsToCPUPass
    : public bsgp::impl::BSGPLowerKernelsToCPUPassBase<LowerKernelsToCPUPass> {
  void runOnOperation() override;

private:
  LogicalResult lowerKernel(bsgp::KernelOp kernel);
};

} // namespace

/// The CPU target runs every rank on its own (OpenMP threads over ranges of
/// ranks), so a work group and a subgroup are one thread: group.rank is 0,
/// group.id the rank, group.barrier() has nothing to wait for, a `local`
/// array is private, and a shuffle or a vote sees only the thread itself.
static void lowerGroupOpsForCPU(Operation *root, Value rank, Value size,
                                Block *entry) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (bsgp::isGroupOp(op))
      ops.push_back(op);
  });
  MLIRContext *ctx = root->getContext();
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value v;
    if (isa<bsgp::GroupRankOp, bsgp::SubgroupRankOp>(op)) {
      v = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    } else if (isa<bsgp::GroupSizeOp, bsgp::GroupThreadsOp,
                   bsgp::SubgroupSizeOp>(op)) {
      v = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1);
    } else if (isa<bsgp::GroupIdOp>(op)) {
      v = rank;
    } else if (isa<bsgp::GroupCountOp>(op)) {
      v = size;
    } else if (auto shuffle = dyn_cast<bsgp::SubgroupShuffleOp>(op)) {
      v = shuffle.getValue();
    } else if (auto reduce = dyn_cast<bsgp::SubgroupReduceOp>(op)) {
      v = reduce.getValue();
    } else if (isa<bsgp::SubgroupMatchOp>(op)) {
      v = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 1);
    } else if (auto vote = dyn_cast<bsgp::SubgroupVoteOp>(op)) {
      v = vote.getPredicate();
      if (vote.getMode() == "ballot")
        v = arith::ExtUIOp::create(b, loc, b.getI64Type(), v);
    } else if (auto local = dyn_cast<bsgp::GroupLocalOp>(op)) {
      // A stack slot of the entry block, like a private local array.
      OpBuilder eb(entry, entry->begin());
      Type elem = cast<bsgp::PtrType>(local.getType()).getElementType();
      if (isa<bsgp::PtrType>(elem))
        elem = LLVM::LLVMPointerType::get(ctx);
      Value count = LLVM::ConstantOp::create(
          eb, loc, eb.getI64Type(), static_cast<int64_t>(local.getCount()));
      Value slot = LLVM::AllocaOp::create(
          eb, loc, LLVM::LLVMPointerType::get(ctx), elem, count,
          /*alignment=*/16);
      v = UnrealizedConversionCastOp::create(b, loc, local.getType(), slot)
              .getResult(0);
    }
    if (op->getNumResults() == 1)
      op->getResult(0).replaceAllUsesWith(v);
    op->erase();
  }
}

/// Checks that the lowering of `kernel`'s chunk ops is exact: each is in
/// the entry block, which every rank runs once, and accumulates into a list
/// that is a parameter (the same for every rank of the chunk). The
/// verifier allows them under a target branch too, which
/// bsgp::foldTargetQueries has removed by now.
static LogicalResult collectChunkOps(bsgp::KernelOp kernel,
                                     SmallVectorImpl<Operation *> &ops) {
  Block &entry = kernel.getBody().front();
  WalkResult r = kernel.walk([&](Operation *op) {
    if (!isa<bsgp::ChunkReduceOp, bsgp::ChunkScanOp>(op))
      return WalkResult::advance();
    if (op->getBlock() != &entry) {
      op->emitOpError("must be in straight-line code at the top level of "
                      "the kernel to be lowered for the CPU: every rank of "
                      "a chunk must run it once");
      return WalkResult::interrupt();
    }
    auto list = dyn_cast<BlockArgument>(op->getOperand(1));
    if (!list || list.getOwner() != &entry) {
      op->emitOpError("must accumulate into a list that is a kernel "
                      "parameter, the same for every rank of a chunk");
      return WalkResult::interrupt();
    }
    ops.push_back(op);
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

static StringRef getChunkKind(Operation *op) {
  if (auto reduce = dyn_cast<bsgp::ChunkReduceOp>(op))
    return reduce.getKind();
  return cast<bsgp::ChunkScanOp>(op).getKind();
}

/// Ranks a block of a float sum's tree (below) sums before its sum joins
/// the tree.
constexpr int32_t kTreeBlockRanks = 256;
/// Levels of the tree's stack of partial sums: 2^32 blocks.
constexpr int64_t kTreeLevels = 32;

/// Whether chunk op `op` sums floats. Such a sum is a tree, as the GPU forms
/// combine, not a sequence: in float, a sequential sum of 2^23 ranks is off
/// by several percent (its rounding error grows with n). The chunk's ranks
/// run in blocks of kTreeBlockRanks; a block sums its ranks in any order
/// (`reassoc`, so that LLVM vectorizes the sum into 8-wide partial sums), and
/// the block sums join a pairwise tree as each block completes (a binary
/// counter over a stack of partial sums), so the error grows with the block
/// length plus log2 of the number of blocks.
static bool isTreeSum(Operation *op) {
  return isa<bsgp::ChunkReduceOp>(op) && getChunkKind(op) == "add" &&
         isa<FloatType>(op->getOperand(0).getType());
}

/// A stack of kTreeLevels partial sums, the type of list `listTy`'s
/// elements, in the entry block.
static Value allocTreeStack(Block *entry, Location loc, Type listTy) {
  OpBuilder eb(entry, entry->begin());
  Type elem = cast<bsgp::PtrType>(listTy).getElementType();
  Value count = LLVM::ConstantOp::create(eb, loc, eb.getI64Type(), kTreeLevels);
  Value slot = LLVM::AllocaOp::create(
      eb, loc, LLVM::LLVMPointerType::get(eb.getContext()), elem, count,
      /*alignment=*/16);
  return UnrealizedConversionCastOp::create(eb, loc, listTy, slot).getResult(0);
}

/// Adds the sum `v` of block `index` (from 0) to the tree in `stack`: level
/// l holds the sum of 2^l blocks; while the index's low bits are ones, the
/// sum merges with the level's (a binary counter's carry).
static void pushTreeSum(OpBuilder &b, Location loc, Value stack, Value index,
                        Value v) {
  Type i32 = b.getI32Type(), t = v.getType();
  Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
  Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
  auto carry = scf::WhileOp::create(
      b, loc, TypeRange{i32, i32, t}, ValueRange{index, zero, v},
      [&](OpBuilder &ob, Location l, ValueRange args) {
        Value low = arith::AndIOp::create(ob, l, args[0], one);
        Value odd =
            arith::CmpIOp::create(ob, l, arith::CmpIPredicate::ne, low, zero);
        scf::ConditionOp::create(ob, l, odd, args);
      },
      [&](OpBuilder &ob, Location l, ValueRange args) {
        Value below = bsgp::PtrLoadOp::create(ob, l, t, stack, args[1]);
        Value sum = arith::AddFOp::create(ob, l, below, args[2]);
        scf::YieldOp::create(
            ob, l,
            ValueRange{arith::ShRUIOp::create(ob, l, args[0], one),
                       arith::AddIOp::create(ob, l, args[1], one), sum});
      });
  bsgp::PtrStoreOp::create(b, loc, carry.getResult(2), stack,
                           carry.getResult(1));
}

/// The sum of the tree in `stack` after `blocks` blocks: the levels whose
/// bit is set in `blocks` hold it.
static Value foldTreeSums(OpBuilder &b, Location loc, Value stack, Value blocks,
                          Value identity) {
  Type i32 = b.getI32Type(), t = identity.getType();
  Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
  Value one = arith::ConstantIntOp::create(b, loc, i32, 1);
  Value levels = arith::ConstantIntOp::create(b, loc, i32, kTreeLevels);
  auto fold = scf::ForOp::create(
      b, loc, zero, levels, one, ValueRange{identity},
      [&](OpBuilder &ob, Location l, Value level, ValueRange acc) {
        Value bit = arith::AndIOp::create(
            ob, l, arith::ShRUIOp::create(ob, l, blocks, level), one);
        Value set =
            arith::CmpIOp::create(ob, l, arith::CmpIPredicate::ne, bit, zero);
        auto add = scf::IfOp::create(
            ob, l, set,
            [&](OpBuilder &tb, Location tl) {
              Value v = bsgp::PtrLoadOp::create(tb, tl, t, stack, level);
              scf::YieldOp::create(
                  tb, tl, ValueRange{arith::AddFOp::create(tb, tl, v, acc[0])});
            },
            [&](OpBuilder &eb, Location el) {
              scf::YieldOp::create(eb, el, acc);
            });
        scf::YieldOp::create(ob, l, add.getResults());
      });
  return fold.getResult(0);
}

/// The initial accumulators of the chunk ops: a reduce starts from its
/// identity, a scan from its chunk's element of the list.
static SmallVector<Value> chunkInits(OpBuilder &b, Location loc,
                                     ArrayRef<Operation *> chunkOps,
                                     IRMapping &mapping, Value nonEmpty,
                                     Value chunk) {
  SmallVector<Value> inits;
  for (Operation *op : chunkOps) {
    StringRef kind = getChunkKind(op);
    Type type = op->getOperand(0).getType();
    Value identity = bsgp::getCombineIdentity(b, loc, kind, type);
    if (!isa<bsgp::ChunkScanOp>(op)) {
      inits.push_back(identity);
      continue;
    }
    Value list = mapping.lookup(op->getOperand(1));
    auto start = scf::IfOp::create(
        b, op->getLoc(), nonEmpty,
        [&](OpBuilder &tb, Location l) {
          Value v = bsgp::PtrLoadOp::create(tb, l, type, list, chunk);
          scf::YieldOp::create(tb, l, v);
        },
        [&](OpBuilder &eb, Location l) {
          scf::YieldOp::create(eb, l, identity);
        });
    inits.push_back(start.getResult(0));
  }
  return inits;
}

namespace {
/// The loop over the blocks of a kernel with float sums (isTreeSum).
struct TreeBlocks {
  scf::ForOp outer;
  /// Each sum's stack of partial sums (null for the other chunk ops).
  SmallVector<Value> stacks;
  Value blockRanks;
};
} // namespace

/// Opens the loop over blocks of kTreeBlockRanks ranks of [begin32, end32),
/// which carries the accumulators `inits` but the sums'; sets the three to
/// the rank loop's within the block, whose sums start from their identity.
static TreeBlocks openTreeBlocks(OpBuilder &b, Location loc, Block *entry,
                                 ArrayRef<Operation *> chunkOps, Value &begin32,
                                 Value &end32, SmallVectorImpl<Value> &inits) {
  TreeBlocks t;
  t.stacks.resize(chunkOps.size());
  for (auto [i, op] : llvm::enumerate(chunkOps))
    if (isTreeSum(op))
      t.stacks[i] = allocTreeStack(entry, loc, op->getOperand(1).getType());
  t.blockRanks =
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), kTreeBlockRanks);
  t.outer = scf::ForOp::create(b, loc, begin32, end32, t.blockRanks, inits);
  b.setInsertionPointToStart(t.outer.getBody());
  Value first = t.outer.getInductionVar();
  Value left = arith::SubIOp::create(b, loc, end32, first);
  Value last = arith::AddIOp::create(
      b, loc, first, arith::MinSIOp::create(b, loc, left, t.blockRanks));
  SmallVector<Value> blockInits(t.outer.getRegionIterArgs());
  for (auto [i, op] : llvm::enumerate(chunkOps))
    if (isTreeSum(op))
      blockInits[i] = inits[i];
  begin32 = first;
  end32 = last;
  inits.assign(blockInits);
  return t;
}

/// Ends the blocks of a kernel with float sums: after block loop `loop`,
/// adds each block's sum to its tree and carries the other accumulators;
/// after the outer loop, returns every op's chunk total. `inits` are the
/// block loop's initial values (the sums' identities).
static SmallVector<Value> finishTree(OpBuilder &b, Location loc,
                                     ArrayRef<Operation *> chunkOps,
                                     const TreeBlocks &t, scf::ForOp loop,
                                     ArrayRef<Value> inits) {
  scf::ForOp outer = t.outer;
  Value begin = outer.getLowerBound();
  Value index = arith::DivUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, outer.getInductionVar(), begin),
      t.blockRanks);
  SmallVector<Value> carried;
  for (auto [i, op] : llvm::enumerate(chunkOps)) {
    if (isTreeSum(op)) {
      pushTreeSum(b, loc, t.stacks[i], index, loop.getResult(i));
      carried.push_back(outer.getRegionIterArgs()[i]);
    } else {
      carried.push_back(loop.getResult(i));
    }
  }
  scf::YieldOp::create(b, loc, carried);
  b.setInsertionPointAfter(outer);
  // ceil((end - begin) / blockRanks), without overflow near 2^31 ranks.
  Type i32 = b.getI32Type();
  Value len = arith::SubIOp::create(b, loc, outer.getUpperBound(), begin);
  Value whole = arith::DivUIOp::create(b, loc, len, t.blockRanks);
  Value rest = arith::RemUIOp::create(b, loc, len, t.blockRanks);
  Value partial = arith::ExtUIOp::create(
      b, loc, i32,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rest,
                            arith::ConstantIntOp::create(b, loc, i32, 0)));
  Value blocks = arith::AddIOp::create(b, loc, whole, partial);
  SmallVector<Value> totals;
  for (auto [i, op] : llvm::enumerate(chunkOps))
    totals.push_back(isTreeSum(op)
                         ? foldTreeSums(b, loc, t.stacks[i], blocks, inits[i])
                         : outer.getResult(i));
  return totals;
}

LogicalResult LowerKernelsToCPUPass::lowerKernel(bsgp::KernelOp kernel) {
  if (kernel.getBody().empty())
    return kernel.emitOpError("has no body to compile for the CPU");
  SmallVector<Operation *> chunkOps;
  if (failed(collectChunkOps(kernel, chunkOps)))
    return failure();

  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  OpBuilder b(kernel);
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  Type ptrTy = LLVM::LLVMPointerType::get(ctx);

  // An llvm.func from the start, so that the module descriptor can take its
  // address before the rest of the module is lowered.
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                            {ptrTy, i64, i64, i64});
  auto fn = LLVM::LLVMFuncOp::create(b, loc,
                                     bsgp::getCPUEntryName(kernel.getSymName()),
                                     fnType, LLVM::Linkage::Internal);
  // The body is still device code until it is lowered to LLVM.
  fn->setAttr(bsgp::BSGPDialect::getDeviceAttrName(), b.getUnitAttr());
  if (Attribute srcloc =
          kernel->getAttr(bsgp::BSGPDialect::getSourceLocAttrName()))
    fn->setAttr(bsgp::BSGPDialect::getSourceLocAttrName(), srcloc);
  Block *entry = fn.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  Value args = entry->getArgument(0), begin = entry->getArgument(1),
        end = entry->getArgument(2), size = entry->getArgument(3);

  // Unpack the parameters once per range, outside the rank loop.
  LLVM::LLVMStructType argsTy = bsgp::getKernelArgsStructType(kernel);
  IRMapping mapping;
  Block &kernelEntry = kernel.getBody().front();
  for (auto [i, param] : llvm::enumerate(kernelEntry.getArguments())) {
    Type storage = argsTy.getBody()[i];
    Value addr =
        LLVM::GEPOp::create(b, loc, ptrTy, argsTy, args,
                            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    Value v = LLVM::LoadOp::create(b, loc, storage, addr);
    if (storage != param.getType())
      v = UnrealizedConversionCastOp::create(b, loc, param.getType(), v)
              .getResult(0);
    mapping.map(param, v);
  }
  // Ranks are 32-bit in BSGP. Looping over an i32 lets LLVM prove the
  // induction variable never wraps and widen the rank's sign extensions, so
  // element addresses stay affine and the loop vectorizes.
  Value size32 = arith::TruncIOp::create(b, loc, i32, size);
  Value begin32 = arith::TruncIOp::create(b, loc, i32, begin);
  Value end32 = arith::TruncIOp::create(b, loc, i32, end);
  Value one = arith::ConstantIntOp::create(b, loc, i32, 1);

  if (kernel->hasAttr(bsgp::BSGPDialect::GridLoopAttrHelper::getNameStr())) {
    // Every thread of the team runs the loop; its grid launches run the
    // ranks (GridLoopsCPU.cpp).
    Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
    bsgp::cloneKernelBody(kernel, b, mapping, zero, size32, entry);
    b.setInsertionPointToEnd(entry);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    return success();
  }

  // One accumulator per chunk op, set up once per chunk. A chunk without
  // ranks (never made by the runtime, which launches nothing for n = 0)
  // reads and writes no list element.
  Value chunk, nonEmpty;
  if (!chunkOps.empty()) {
    auto module = kernel->getParentOfType<ModuleOp>();
    chunk = LLVM::CallOp::create(b, loc,
                                 bsgp::getOrInsertRuntimeFn(
                                     module, bsgp::RuntimeFn::CPUChunkIndex),
                                 ValueRange{})
                .getResult();
    nonEmpty =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, begin, end);
  }
  SmallVector<Value> inits =
      chunkInits(b, loc, chunkOps, mapping, nonEmpty, chunk);
  // A float sum runs the ranks in blocks (isTreeSum).
  TreeBlocks tree;
  if (llvm::any_of(chunkOps, isTreeSum))
    tree = openTreeBlocks(b, loc, entry, chunkOps, begin32, end32, inits);
  auto loop = scf::ForOp::create(b, loc, begin32, end32, one, inits);
  b.setInsertionPointToStart(loop.getBody());
  Value rank = loop.getInductionVar();
  auto body = cast<scf::ExecuteRegionOp>(
      bsgp::cloneKernelBody(kernel, b, mapping, rank, size32, entry));
  if (!chunkOps.empty()) {
    // In the copy, each chunk op combines its rank's value into its
    // accumulator (a chunk_scan's result is the accumulator before that),
    // and the copy yields the new accumulators to the next iteration. The
    // entry block dominates every block that ends the rank's work, so
    // each of those yields can pass them on.
    SmallVector<Operation *> clones;
    for (Operation &op : body.getRegion().front())
      if (isa<bsgp::ChunkReduceOp, bsgp::ChunkScanOp>(op))
        clones.push_back(&op);
    SmallVector<Value> next;
    for (auto [i, op] : llvm::enumerate(clones)) {
      OpBuilder ob(op);
      Value acc = loop.getRegionIterArgs()[i];
      next.push_back(bsgp::emitCombine(ob, op->getLoc(), getChunkKind(op), acc,
                                       op->getOperand(0)));
      if (isTreeSum(chunkOps[i]))
        next.back().getDefiningOp<arith::AddFOp>().setFastmath(
            arith::FastMathFlags::reassoc);
      if (isa<bsgp::ChunkScanOp>(op))
        op->getResult(0).replaceAllUsesWith(acc);
      op->erase();
    }
    auto carried =
        scf::ExecuteRegionOp::create(b, loc, ValueRange(inits).getTypes());
    carried.getRegion().takeBody(body.getRegion());
    body.erase();
    for (Block &block : carried.getRegion())
      if (auto yield = dyn_cast<scf::YieldOp>(block.getTerminator()))
        yield.getResultsMutable().assign(next);
    scf::YieldOp::create(b, loc, carried.getResults());

    b.setInsertionPointAfter(loop);
    SmallVector<Value> totals(loop.getResults());
    if (tree.outer)
      totals = finishTree(b, loc, chunkOps, tree, loop, inits);

    // The chunk's total, once its last rank has run.
    for (auto [i, op] : llvm::enumerate(chunkOps)) {
      if (!isa<bsgp::ChunkReduceOp>(op))
        continue;
      Value list = mapping.lookup(op->getOperand(1));
      Value total = totals[i];
      scf::IfOp::create(b, op->getLoc(), nonEmpty,
                        [&](OpBuilder &tb, Location l) {
                          bsgp::PtrStoreOp::create(tb, l, total, list, chunk);
                          scf::YieldOp::create(tb, l);
                        });
    }
  }
  lowerGroupOpsForCPU(loop, rank, size32, entry);
  b.setInsertionPointToEnd(entry);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return success();
}

void LowerKernelsToCPUPass::runOnOperation() {
  // The other targets have cloned what they need, so the kernels and the
  // device functions they share with host code are folded in place.
  bsgp::foldTargetQueries(getOperation(), bsgp::Target::CPU);
  SmallVector<bsgp::KernelOp> kernels;
  bsgp::getKernelsForTarget(getOperation(), bsgp::Target::CPU, kernels);
  // Grid loops last: they call the entries of the kernels they launch.
  StringRef gridLoop = bsgp::BSGPDialect::GridLoopAttrHelper::getNameStr();
  for (bool grid : {false, true})
    for (bsgp::KernelOp k : kernels)
      if (k->hasAttr(gridLoop) == grid &&
          (failed(bsgp::rejectGroupLookbacks(k, "CPU")) ||
           failed(lowerKernel(k))))
        return signalPassFailure();
  for (bsgp::KernelOp k : kernels)
    if (k->hasAttr(gridLoop))
      if (failed(bsgp::lowerGridLaunchesForCPU(
              getOperation().lookupSymbol<LLVM::LLVMFuncOp>(
                  bsgp::getCPUEntryName(k.getSymName())),
              getOperation())))
        return signalPassFailure();
}
