//===- CoarsenGroups.cpp - several work groups per CUDA block -------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A kernel with work-group operations runs one rank per CUDA thread, in
// blocks of one work group. A thread that loads one element and then waits
// at a shuffle or a group barrier keeps one load in flight: an H100 holds
// 2048 threads per multiprocessor, far too few loads to cover the memory's
// latency, and reduce, scan and compact of one element per rank reached a
// third of the memory bandwidth. Giving each thread block several work
// groups, interleaved op by op, multiplies the loads in flight without
// changing what any rank computes. What is the same in every work group is
// computed once, and an `if` on such a value holds every work group's
// branch, so that their reductions' last steps (`if (sg == 0)`) also run
// side by side.
//
//===----------------------------------------------------------------------===//

#include "CoarsenGroups.h"
#include "LowerLookback.h"

#include "bsgp/Conversion/Common/KernelBody.h"
#include "bsgp/Conversion/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"
#include "bsgp/Transforms/TargetQueries.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPCOARSENGROUPSPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

/// Static shared memory a kernel may declare without opting in to more.
static constexpr int64_t kStaticSharedBytes = 48 * 1024;

static int64_t localArrayBytes(bsgp::KernelOp kernel) {
  int64_t bytes = 0;
  kernel.walk([&](bsgp::GroupLocalOp local) {
    Type elem = cast<bsgp::PtrType>(local.getType()).getElementType();
    int64_t size = elem.isIntOrFloat()
                       ? std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8)
                       : 8;
    bytes += size * static_cast<int64_t>(local.getCount());
  });
  return bytes;
}

/// True if `ptr` points into a `local` array.
static bool isLocalPointer(Value ptr) {
  while (Operation *def = ptr.getDefiningOp()) {
    if (isa<bsgp::GroupLocalOp>(def))
      return true;
    auto offset = dyn_cast<bsgp::PtrOffsetOp>(def);
    if (!offset)
      return false;
    ptr = offset.getPtr();
  }
  return false;
}

static bool isDeviceLoad(Operation *op) {
  if (isa<bsgp::LoadOp>(op))
    return true;
  auto load = dyn_cast<bsgp::PtrLoadOp>(op);
  return load && !isLocalPointer(load.getPtr());
}

/// True if the top level of the body loads from device memory, which
/// interleaving puts in flight together, and no loop does. A kernel that
/// loads in loops (the radix sort's and the list scan's tiles) already has
/// several loads per thread, and more work groups per block only cost it
/// registers and shared memory.
static bool loadsOnceAtTopLevel(Block &body) {
  bool topLevel =
      llvm::any_of(body, [](Operation &op) { return isDeviceLoad(&op); });
  if (!topLevel)
    return false;
  for (Operation &op : body) {
    if (!isa<LoopLikeOpInterface>(op))
      continue;
    if (op.walk([](Operation *nested) {
            return isDeviceLoad(nested) ? WalkResult::interrupt()
                                        : WalkResult::advance();
          }).wasInterrupted())
      return false;
  }
  return true;
}

unsigned bsgp::chooseGroupsPerBlock(KernelOp kernel, unsigned asked) {
  if (asked <= 1 || !kernel.getBody().hasOneBlock())
    return 1;
  Block &body = kernel.getBody().front();
  if (!loadsOnceAtTopLevel(body))
    return 1;
  // Interleaving copies op by op needs one straight path through the top
  // level: a `return` anywhere but at its end ends a rank early.
  unsigned returns = 0;
  kernel.walk([&](ReturnOp) { ++returns; });
  if (returns != 1 || !isa<ReturnOp>(body.getTerminator()))
    return 1;
  // A block looks back once for all its work groups, which needs every
  // group's aggregate at once: at the top level.
  bool nestedLookback = false;
  kernel.walk(
      [&](GroupLookbackOp op) { nestedLookback |= op->getBlock() != &body; });
  if (nestedLookback)
    return 1;
  int64_t bytes = localArrayBytes(kernel);
  unsigned groups = asked;
  while (groups > 1 && bytes * groups > kStaticSharedBytes)
    groups /= 2;
  return groups;
}

namespace {

/// What one work group's copy of the body sees as its thread and group.
struct GroupCopy {
  Value rank, groupId;
  /// group.threads: a constant in full blocks, which lets each copy's
  /// group reduce and scan drop their partial-group cases.
  Value threads;
};

/// Interleaves the copies of a kernel body, one per work group of a block.
struct Interleaver {
  OpBuilder &b;
  ArrayRef<GroupCopy> copies;
  Value size32, groupCount;
  Block *entry;
  int64_t ranksPerBlock;
  /// Ops whose results are the same in every copy.
  DenseSet<Operation *> invariant;

  void findInvariant(bsgp::KernelOp kernel);
  bool isInvariant(Value v) const;
  void interleave(Block &body, MutableArrayRef<IRMapping> maps);
  void mergeIf(scf::IfOp op, MutableArrayRef<IRMapping> maps);
};

} // namespace

/// The value a copy sees for a thread or group query, or null for any other
/// op.
static Value queryValue(Operation *op, const GroupCopy &copy, Value size32,
                        Value groupCount) {
  if (isa<bsgp::ThreadRankOp>(op))
    return copy.rank;
  if (isa<bsgp::ThreadSizeOp>(op))
    return size32;
  if (isa<bsgp::GroupIdOp>(op))
    return copy.groupId;
  if (isa<bsgp::GroupThreadsOp>(op))
    return copy.threads;
  if (isa<bsgp::GroupCountOp>(op))
    return groupCount;
  return Value();
}

bool Interleaver::isInvariant(Value v) const {
  if (Operation *def = v.getDefiningOp())
    return invariant.contains(def);
  // The kernel's parameters; any other block argument (a loop's) may differ.
  auto arg = cast<BlockArgument>(v);
  return isa<bsgp::KernelOp>(arg.getOwner()->getParentOp());
}

/// A value is the same in every copy when it comes from the parameters and
/// from the queries that do not name the thread's rank or work group, by
/// ops without memory effects or regions. A local array (group_local) is
/// each copy's own, a load may read what the copy wrote.
void Interleaver::findInvariant(bsgp::KernelOp kernel) {
  // group.threads is one constant for the full blocks' copies.
  bool sameThreads = llvm::all_of(copies, [&](const GroupCopy &copy) {
    return copy.threads == copies.front().threads;
  });
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getNumResults() == 0 || op->getNumRegions() != 0)
      return;
    bool query =
        isa<bsgp::ThreadSizeOp, bsgp::GroupCountOp, bsgp::GroupRankOp,
            bsgp::GroupSizeOp, bsgp::SubgroupRankOp, bsgp::SubgroupSizeOp>(
            op) ||
        (isa<bsgp::GroupThreadsOp>(op) && sameThreads);
    if (!query && !isMemoryEffectFree(op))
      return;
    if (llvm::all_of(op->getOperands(),
                     [&](Value v) { return isInvariant(v); }))
      invariant.insert(op);
  });
}

/// An `scf.if` whose condition is the same in every copy runs every copy's
/// branch or none: one `scf.if` holds the copies' branches, interleaved as
/// the top level is, and yields each copy's results. The work groups'
/// reductions of a block then run their subgroup steps side by side, not
/// one branch after another (a reduce's superstep of 2^28 ints spent an
/// eighth of its time on that on the H200).
void Interleaver::mergeIf(scf::IfOp op, MutableArrayRef<IRMapping> maps) {
  SmallVector<Type> types;
  for (size_t i = 0; i < maps.size(); ++i)
    llvm::append_range(types, op.getResultTypes());
  bool withElse = !op.getElseRegion().empty();
  auto merged = scf::IfOp::create(
      b, op.getLoc(), types, maps.front().lookup(op.getCondition()), withElse);
  auto fill = [&](Region &from, Region &to) {
    OpBuilder::InsertionGuard guard(b);
    if (to.empty())
      b.createBlock(&to);
    Block &dest = to.front();
    if (!dest.empty() && dest.back().hasTrait<OpTrait::IsTerminator>())
      dest.back().erase();
    b.setInsertionPointToEnd(&dest);
    Block &src = from.front();
    interleave(src, maps);
    SmallVector<Value> yielded;
    for (IRMapping &map : maps)
      for (Value v : src.getTerminator()->getOperands())
        yielded.push_back(map.lookup(v));
    scf::YieldOp::create(b, op.getLoc(), yielded);
  };
  fill(op.getThenRegion(), merged.getThenRegion());
  if (withElse)
    fill(op.getElseRegion(), merged.getElseRegion());
  unsigned n = op.getNumResults();
  for (auto [i, map] : llvm::enumerate(maps))
    for (unsigned r = 0; r < n; ++r)
      map.map(op.getResult(r), merged.getResult(i * n + r));
}

/// Clones `body` for each copy at `b`, op by op across the copies, with
/// the thread and group queries of each copy answered by its values. A
/// look-back numbers blocks of `ranksPerBlock` ranks.
void Interleaver::interleave(Block &body, MutableArrayRef<IRMapping> maps) {
  for (Operation &op : body.without_terminator()) {
    if (invariant.contains(&op) &&
        !queryValue(&op, copies.front(), size32, groupCount)) {
      // Once for every copy.
      Operation *clone = b.clone(op, maps.front());
      for (IRMapping &map : maps.drop_front())
        map.map(op.getResults(), clone->getResults());
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op);
        ifOp && maps.size() > 1 && isInvariant(ifOp.getCondition())) {
      mergeIf(ifOp, maps);
      continue;
    }
    for (size_t i = 0; i < copies.size(); ++i) {
      IRMapping &map = maps[i];
      const GroupCopy &copy = copies[i];
      if (Value v = queryValue(&op, copy, size32, groupCount)) {
        map.map(op.getResult(0), v);
        continue;
      }
      // bar.sync waits for the whole block: one stands for every copy's
      // (eight in a row cost the single-pass scan 1-2%). A fence orders
      // all of the thread's accesses before it against all after it: one
      // stands for every copy's as well.
      if (isa<bsgp::GroupBarrierOp, bsgp::FenceOp>(op) && i + 1 < copies.size())
        continue;
      if (auto lookback = dyn_cast<bsgp::GroupLookbackOp>(op)) {
        // Once for the block, when every copy has its aggregate.
        if (i + 1 < copies.size())
          continue;
        SmallVector<Value> aggregates;
        for (IRMapping &m : maps)
          aggregates.push_back(m.lookup(lookback.getValue()));
        SmallVector<Value> prefixes = bsgp::emitBlockLookback(
            b, op.getLoc(), maps.front().lookup(lookback.getStatus()),
            aggregates, ranksPerBlock);
        for (auto [m, prefix] : llvm::zip(maps, prefixes))
          m.map(lookback.getResult(), prefix);
        continue;
      }
      Operation *clone = b.clone(op, map);
      // Queries nested in regions: the clone maps them to cloned ops.
      SmallVector<Operation *> queries;
      clone->walk([&](Operation *nested) {
        if (queryValue(nested, copy, size32, groupCount))
          queries.push_back(nested);
      });
      for (Operation *q : queries) {
        q->getResult(0).replaceAllUsesWith(
            queryValue(q, copy, size32, groupCount));
        q->erase();
      }
      bsgp::hoistConstantAllocas(clone, entry);
    }
  }
}

/// Clones the body of `kernel` for each of `copies` at `b`, interleaved.
static void cloneInterleaved(bsgp::KernelOp kernel, OpBuilder &b,
                             const IRMapping &params,
                             ArrayRef<GroupCopy> copies, Value size32,
                             Value groupCount, Block *entry,
                             int64_t ranksPerBlock) {
  Interleaver interleaver{b,     copies,        size32, groupCount,
                          entry, ranksPerBlock, {}};
  interleaver.findInvariant(kernel);
  SmallVector<IRMapping> maps(copies.size(), params);
  interleaver.interleave(kernel.getBody().front(), maps);
}

Value bsgp::emitFirstBlock(OpBuilder &b, Location loc, int64_t ranksPerBlock) {
  auto fn =
      b.getInsertionBlock()->getParent()->getParentOfType<LLVM::LLVMFuncOp>();
  Value first = fn.getArgument(kCUDAFirstArg);
  return LLVM::UDivOp::create(
      b, loc, first,
      LLVM::ConstantOp::create(b, loc, b.getI64Type(), ranksPerBlock));
}

Value bsgp::emitGroupThreads(OpBuilder &b, Location loc, Value size, Value id) {
  Value group =
      LLVM::ConstantOp::create(b, loc, b.getI64Type(), kCUDAGroupSize);
  Value left =
      LLVM::SubOp::create(b, loc, size, LLVM::MulOp::create(b, loc, id, group));
  return LLVM::TruncOp::create(b, loc, b.getI32Type(),
                               LLVM::UMinOp::create(b, loc, left, group));
}

void bsgp::emitCoarsenedGroupKernel(KernelOp kernel, OpBuilder &b,
                                    const IRMapping &params, Value size,
                                    Value first, Value end, Block *entry,
                                    unsigned groupsPerBlock) {
  Location loc = kernel.getLoc();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto c64 = [&](int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64, v);
  };
  auto trunc = [&](Value v) { return LLVM::TruncOp::create(b, loc, i32, v); };

  const int64_t group = kCUDAGroupSize;
  Value block =
      LLVM::ZExtOp::create(b, loc, i64, NVVM::BlockIdXOp::create(b, loc, i32));
  Value tid =
      LLVM::ZExtOp::create(b, loc, i64, NVVM::ThreadIdXOp::create(b, loc, i32));
  Value size32 = trunc(size);
  Value groupCount = trunc(LLVM::UDivOp::create(
      b, loc, LLVM::AddOp::create(b, loc, size, c64(group - 1)), c64(group)));
  // The slice's first work group: `first` is a multiple of the block's
  // ranks on every slice but the last, and a multiple of a work group on
  // all.
  Value firstGroup = LLVM::UDivOp::create(b, loc, first, c64(group));
  // The runtime launches either full blocks of groupsPerBlock work groups
  // and then a block for each group left, or, where that would leave
  // multiprocessors idle (a small launch), a block for every group of the
  // slice (ABI version 7). Only the second has a block per group, so the
  // grid's size says which.
  Value sliceRanks = LLVM::SubOp::create(b, loc, end, first);
  Value sliceGroups = LLVM::UDivOp::create(
      b, loc, LLVM::AddOp::create(b, loc, sliceRanks, c64(group - 1)),
      c64(group));
  Value grid =
      LLVM::ZExtOp::create(b, loc, i64, NVVM::GridDimXOp::create(b, loc, i32));
  Value onePerBlock =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, grid, sliceGroups);
  Value fullBlocks = LLVM::SelectOp::create(
      b, loc, onePerBlock, c64(0),
      LLVM::UDivOp::create(b, loc, sliceRanks, c64(group * groupsPerBlock)));
  Value isFull =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, block, fullBlocks);
  auto split = scf::IfOp::create(b, loc, TypeRange{}, isFull,
                                 /*withElseRegion=*/true);

  // Full blocks: work groups firstGroup + block * groupsPerBlock + i, all
  // in range.
  b.setInsertionPointToStart(&split.getThenRegion().front());
  SmallVector<GroupCopy> copies;
  Value blockFirst = LLVM::AddOp::create(
      b, loc, firstGroup,
      LLVM::MulOp::create(b, loc, block, c64(groupsPerBlock)));
  Value full = LLVM::ConstantOp::create(b, loc, i32, group);
  for (unsigned i = 0; i < groupsPerBlock; ++i) {
    Value id = LLVM::AddOp::create(b, loc, blockFirst, c64(i));
    Value rank = LLVM::AddOp::create(
        b, loc, LLVM::MulOp::create(b, loc, id, c64(group)), tid);
    copies.push_back({trunc(rank), trunc(id), full});
  }
  cloneInterleaved(kernel, b, params, copies, size32, groupCount, entry,
                   group * groupsPerBlock);

  // The rest: one work group per block, threads past `end` leave at once
  // (bar.sync and the .sync warp operations wait only for threads that have
  // not exited).
  b.setInsertionPointToStart(&split.getElseRegion().front());
  Value id = LLVM::AddOp::create(
      b, loc, firstGroup,
      LLVM::AddOp::create(
          b, loc, LLVM::MulOp::create(b, loc, fullBlocks, c64(groupsPerBlock)),
          LLVM::SubOp::create(b, loc, block, fullBlocks)));
  Value rank = LLVM::AddOp::create(
      b, loc, LLVM::MulOp::create(b, loc, id, c64(group)), tid);
  Value inRange =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, rank, end);
  auto guard = scf::IfOp::create(b, loc, TypeRange{}, inRange,
                                 /*withElseRegion=*/false);
  b.setInsertionPointToStart(&guard.getThenRegion().front());
  GroupCopy last{trunc(rank), trunc(id), emitGroupThreads(b, loc, size, id)};
  cloneInterleaved(kernel, b, params, last, size32, groupCount, entry,
                   group * groupsPerBlock);
  b.setInsertionPointAfter(split);
}

namespace {

struct CoarsenGroupsPass
    : public bsgp::impl::BSGPCoarsenGroupsPassBase<CoarsenGroupsPass> {
  using BSGPCoarsenGroupsPassBase::BSGPCoarsenGroupsPassBase;
  void runOnOperation() override;
};

} // namespace

void CoarsenGroupsPass::runOnOperation() {
  SmallVector<bsgp::KernelOp> kernels;
  bsgp::getKernelsForTarget(getOperation(), bsgp::Target::CUDA, kernels);
  for (bsgp::KernelOp kernel : kernels) {
    if (kernel.getBody().empty())
      continue;
    // What the CUDA form of the kernel keeps decides: group operations in
    // branches for other targets do not count.
    OwningOpRef<bsgp::KernelOp> folded(cast<bsgp::KernelOp>(kernel->clone()));
    bsgp::foldTargetQueries(*folded, bsgp::Target::CUDA);
    if (!bsgp::usesGroupOps(*folded))
      continue;
    unsigned groups = bsgp::chooseGroupsPerBlock(*folded, groupsPerBlock);
    if (groups > 1)
      kernel->setAttr(
          bsgp::kGroupsPerBlockAttrName,
          IntegerAttr::get(IntegerType::get(&getContext(), 32), groups));
  }
}
