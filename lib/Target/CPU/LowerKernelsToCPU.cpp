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
//===----------------------------------------------------------------------===//

#include "bsgp/Target/KernelABI.h"
#include "bsgp/Target/KernelBody.h"
#include "bsgp/Target/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace bsgp {
#define GEN_PASS_DEF_LOWERKERNELSTOCPU
#include "bsgp/Target/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

namespace {

struct LowerKernelsToCPUPass
    : public bsgp::impl::LowerKernelsToCPUBase<LowerKernelsToCPUPass> {
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
    if (isa<bsgp::GroupRankOp, bsgp::GroupSizeOp, bsgp::GroupIdOp,
            bsgp::GroupCountOp, bsgp::SubgroupRankOp, bsgp::SubgroupSizeOp,
            bsgp::GroupBarrierOp, bsgp::GroupLocalOp, bsgp::SubgroupShuffleOp,
            bsgp::SubgroupVoteOp>(op))
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

LogicalResult LowerKernelsToCPUPass::lowerKernel(bsgp::KernelOp kernel) {
  if (kernel.getBody().empty())
    return kernel.emitOpError("has no body to compile for the CPU");

  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  OpBuilder b(kernel);
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  Type ptrTy = LLVM::LLVMPointerType::get(ctx);

  // An llvm.func from the start, so that the module descriptor can take its
  // address before the rest of the module is lowered.
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                            {ptrTy, i64, i64, i64});
  auto fn = LLVM::LLVMFuncOp::create(
      b, loc, bsgp::getCPUEntryName(kernel.getSymName()), fnType,
      LLVM::Linkage::Internal);
  // The body is still device code until it is lowered to LLVM.
  fn->setAttr(bsgp::BSGPDialect::getDeviceAttrName(), b.getUnitAttr());
  if (Attribute srcloc = kernel->getAttr("bsgp.srcloc"))
    fn->setAttr("bsgp.srcloc", srcloc);
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
    Value addr = LLVM::GEPOp::create(
        b, loc, ptrTy, argsTy, args,
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

  auto loop = scf::ForOp::create(b, loc, begin32, end32, one);
  b.setInsertionPointToStart(loop.getBody());
  Value rank = loop.getInductionVar();
  bsgp::cloneKernelBody(kernel, b, mapping, rank, size32, entry);
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
    if (failed(lowerKernel(k)))
      return signalPassFailure();
}
