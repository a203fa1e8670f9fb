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
// memory.
//
//===----------------------------------------------------------------------===//

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
    } else if (isa<bsgp::GroupSizeOp, bsgp::SubgroupSizeOp>(op)) {
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

  // One accumulator per chunk op, set up once per chunk. A chunk without
  // ranks (never made by the runtime, which launches nothing for n = 0)
  // reads and writes no list element.
  Value chunk, nonEmpty;
  SmallVector<Value> inits;
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
  for (Operation *op : chunkOps) {
    StringRef kind = getChunkKind(op);
    Type type = op->getOperand(0).getType();
    Value identity = bsgp::getCombineIdentity(b, loc, kind, type);
    if (!isa<bsgp::ChunkScanOp>(op)) {
      inits.push_back(identity);
      continue;
    }
    // A scan starts from its chunk's element of the list.
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

    // The chunk's total, once its last rank has run.
    b.setInsertionPointAfter(loop);
    for (auto [i, op] : llvm::enumerate(chunkOps)) {
      if (!isa<bsgp::ChunkReduceOp>(op))
        continue;
      Value list = mapping.lookup(op->getOperand(1));
      Value total = loop.getResult(i);
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
  bsgp::foldTargetQueries(getOperation(), "cpu");
  SmallVector<bsgp::KernelOp> kernels;
  bsgp::getKernelsForTarget(getOperation(), "cpu", kernels);
  for (bsgp::KernelOp k : kernels)
    if (failed(bsgp::rejectGroupLookbacks(k, "CPU")) || failed(lowerKernel(k)))
      return signalPassFailure();
}
