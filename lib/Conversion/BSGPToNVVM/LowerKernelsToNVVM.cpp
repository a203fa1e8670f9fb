//===- LowerKernelsToNVVM.cpp - kernels into the CUDA device module -------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A superstep kernel runs as one CUDA thread per BSGP thread. The runtime
// launches it with the packed argument struct as one `.param` aggregate,
// the thread count, and the first and end ranks of the slice it runs
// ([0, count) on one device; a device's slice with several); the block size
// is the runtime's choice, so every kernel checks its rank against the end. The
// kernels are built in a device module nested in the host module, which the
// passes after this one lower to NVVM and bsgp-serialize-ptx compiles.
//
//===----------------------------------------------------------------------===//

#include "CoarsenGroups.h"
#include "GridLoops.h"

#include "bsgp/Conversion/BSGPToLLVM/KernelABI.h"
#include "bsgp/Conversion/Common/KernelBody.h"
#include "bsgp/Conversion/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"
#include "bsgp/Transforms/TargetQueries.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/StringSet.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPLOWERKERNELSTONVVMPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

namespace {

struct LowerKernelsToNVVMPass
    : public bsgp::impl::BSGPLowerKernelsToNVVMPassBase<
          LowerKernelsToNVVMPass> {
  void runOnOperation() override;

private:
  LogicalResult buildKernel(bsgp::KernelOp kernel, OpBuilder &db,
                            bool gridStride, bsgp::KernelOp folded,
                            unsigned groupsPerBlock, StringRef name,
                            bool entryPoint);
  LogicalResult addKernel(bsgp::KernelOp kernel, ModuleOp device,
                          OpBuilder &db);

  /// The kernels that grid-loop kernels launch.
  llvm::StringSet<> gridLaunched;
};

} // namespace

/// A kernel without work-group operations loops over the ranks
/// rank, rank + grid, ... (a grid-stride loop), so the runtime may launch
/// fewer blocks than ranks / block size: a launch of 2^28 ranks that do
/// little would otherwise spend its time starting a million blocks.
/// Kernels with work-group operations keep one rank per thread, since a
/// work group is a block of consecutive ranks; with `groupsPerBlock` > 1
/// each block runs that many work groups (CoarsenGroups.h), compiled from
/// `folded`, the kernel with its target queries folded for CUDA.
///
/// With `entryPoint` false the function is a device function called `name`
/// that a grid-loop kernel calls where the host would launch the kernel.
/// A kernel marked bsgp.grid_loop runs its body once in every thread.
LogicalResult
LowerKernelsToNVVMPass::buildKernel(bsgp::KernelOp kernel, OpBuilder &db,
                                    bool gridStride, bsgp::KernelOp folded,
                                    unsigned groupsPerBlock, StringRef name,
                                    bool entryPoint) {
  if (kernel.getBody().empty())
    return kernel.emitOpError("has no body to compile for CUDA");
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  Type i32 = db.getI32Type(), i64 = db.getI64Type();
  Type ptrTy = LLVM::LLVMPointerType::get(ctx);
  Type globalPtrTy =
      LLVM::LLVMPointerType::get(ctx, bsgp::kNVVMGlobalAddressSpace);
  LLVM::LLVMStructType argsTy = bsgp::getKernelArgsStructType(kernel);

  // (args, size, first, end): kCUDAFirstArg and kCUDAEndArg.
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                            {ptrTy, i64, i64, i64});
  auto fn = LLVM::LLVMFuncOp::create(db, loc, name, fnType,
                                     entryPoint ? LLVM::Linkage::External
                                                : LLVM::Linkage::Internal);
  fn->setAttr(bsgp::BSGPDialect::getDeviceAttrName(), db.getUnitAttr());
  // A body function takes a pointer to its caller's argument struct.
  if (entryPoint) {
    fn->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), db.getUnitAttr());
    // The argument struct is a `.param` aggregate: byval in LLVM's terms. A
    // kernel that captures nothing still takes one byte: ptxas rejects a
    // `.b8 args[0]` parameter that is not the last one.
    Type byvalTy = argsTy;
    if (argsTy.getBody().empty())
      byvalTy = LLVM::LLVMStructType::getLiteral(ctx, {db.getI8Type()});
    fn.setArgAttr(0, LLVM::LLVMDialect::getByValAttrName(),
                  TypeAttr::get(byvalTy));
    fn.setArgAttr(0, LLVM::LLVMDialect::getAlignAttrName(),
                  db.getI64IntegerAttr(8));
    fn.setArgAttr(0, LLVM::LLVMDialect::getNoAliasAttrName(), db.getUnitAttr());
  }

  OpBuilder b(ctx);
  Block *entry = fn.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  Value args = entry->getArgument(0), size = entry->getArgument(1);
  Value first = entry->getArgument(bsgp::kCUDAFirstArg),
        end = entry->getArgument(bsgp::kCUDAEndArg);

  IRMapping mapping;
  Block &kernelEntry = kernel.getBody().front();
  for (auto [i, param] : llvm::enumerate(kernelEntry.getArguments())) {
    Type storage = argsTy.getBody()[i];
    Value addr =
        LLVM::GEPOp::create(b, loc, ptrTy, argsTy, args,
                            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    Value v;
    if (isa<bsgp::PtrType, bsgp::StreamType>(param.getType())) {
      // Pointers from the host are generic addresses of device memory.
      // Converting them to global addresses (cvta.to.global) and back says
      // so, and lets their loads and stores use ld/st.global.
      v = LLVM::LoadOp::create(b, loc, ptrTy, addr);
      v = LLVM::AddrSpaceCastOp::create(b, loc, globalPtrTy, v);
      v = LLVM::AddrSpaceCastOp::create(b, loc, ptrTy, v);
      v = UnrealizedConversionCastOp::create(b, loc, param.getType(), v)
              .getResult(0);
      mapping.map(param, v);
      continue;
    }
    v = LLVM::LoadOp::create(b, loc, storage, addr);
    if (storage != param.getType()) {
      v = UnrealizedConversionCastOp::create(b, loc, param.getType(), v)
              .getResult(0);
    }
    mapping.map(param, v);
  }

  if (kernel->hasAttr(bsgp::BSGPDialect::GridLoopAttrHelper::getNameStr())) {
    // Every thread runs the loop; its grid launches run the ranks.
    Value zero = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0));
    Value size32 = LLVM::TruncOp::create(b, loc, i32, size);
    bsgp::cloneKernelBody(kernel, b, mapping, zero, size32, entry);
  } else if (groupsPerBlock > 1) {
    // The body comes from the folded copy, whose parameters are its own.
    for (auto [param, copy] :
         llvm::zip(kernelEntry.getArguments(), folded.getBody().getArguments()))
      mapping.map(copy, mapping.lookup(param));
    bsgp::emitCoarsenedGroupKernel(folded, b, mapping, size, first, end, entry,
                                   groupsPerBlock);
  } else {
    // rank = first + ctaid.x * ntid.x + tid.x, in 64 bits so that the
    // bounds check holds for any grid the runtime launches.
    Value ctaid = LLVM::ZExtOp::create(b, loc, i64,
                                       NVVM::BlockIdXOp::create(b, loc, i32));
    Value ntid = LLVM::ZExtOp::create(b, loc, i64,
                                      NVVM::BlockDimXOp::create(b, loc, i32));
    Value tid = LLVM::ZExtOp::create(b, loc, i64,
                                     NVVM::ThreadIdXOp::create(b, loc, i32));
    Value rank64 = LLVM::AddOp::create(
        b, loc, first,
        LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, ctaid, ntid),
                            tid));
    Value rank = LLVM::TruncOp::create(b, loc, i32, rank64);
    Value size32 = LLVM::TruncOp::create(b, loc, i32, size);

    if (gridStride) {
      Value grid = LLVM::ZExtOp::create(b, loc, i64,
                                        NVVM::GridDimXOp::create(b, loc, i32));
      Value stride = LLVM::MulOp::create(b, loc, grid, ntid);
      auto loop = scf::ForOp::create(b, loc, rank64, end, stride);
      b.setInsertionPointToStart(loop.getBody());
      Value r = LLVM::TruncOp::create(b, loc, i32, loop.getInductionVar());
      bsgp::cloneKernelBody(kernel, b, mapping, r, size32, entry);
    } else {
      Value inRange =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, rank64, end);
      auto guard = scf::IfOp::create(b, loc, TypeRange{}, inRange,
                                     /*addThenBlock=*/true,
                                     /*addElseBlock=*/false);
      b.setInsertionPointToStart(&guard.getThenRegion().front());
      bsgp::cloneKernelBody(kernel, b, mapping, rank, size32, entry);
      scf::YieldOp::create(b, loc);
    }
  }
  b.setInsertionPointToEnd(entry);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  // Look-backs, matches and the other group ops stay for
  // bsgp-lower-lookback and bsgp-lower-group-ops-nvvm.
  return success();
}

/// Adds the NVVM kernel of `kernel` to `device` and records on `kernel`
/// the block size its CUDA form was compiled for.
LogicalResult LowerKernelsToNVVMPass::addKernel(bsgp::KernelOp kernel,
                                                ModuleOp device,
                                                OpBuilder &db) {
  MLIRContext *ctx = kernel.getContext();
  // The ops the CUDA form of the kernel keeps decide its block size; the
  // CPU target folds the kernel for itself later.
  OwningOpRef<bsgp::KernelOp> folded(cast<bsgp::KernelOp>(kernel->clone()));
  bsgp::foldTargetQueries(*folded, bsgp::Target::CUDA);
  bool groups = bsgp::usesGroupOps(*folded);
  unsigned groupsPerBlock = 1;
  if (auto coarsened =
          kernel->getAttrOfType<IntegerAttr>(bsgp::kGroupsPerBlockAttrName);
      coarsened && groups)
    groupsPerBlock = unsigned(coarsened.getInt());
  unsigned blockSize = groups ? bsgp::kCUDAGroupSize : 0;
  // `spawn (n) [[block_size(N)]]`: a grid-stride kernel runs with any
  // block size; work-group operations were compiled for one.
  if (auto asked =
          kernel->getAttrOfType<IntegerAttr>(bsgp::kBlockSizeAttrName)) {
    if (groups && asked.getInt() != bsgp::kCUDAGroupSize)
      return emitError(kernel.getLoc())
             << "this superstep uses work-group operations, which run in "
                "blocks of "
             << bsgp::kCUDAGroupSize << " threads on CUDA, but its spawn asks "
             << "for [[block_size(" << asked.getInt() << ")]]";
    blockSize = unsigned(asked.getInt());
  }
  if (blockSize)
    kernel->setAttr(bsgp::kGroupSizeAttrName,
                    IntegerAttr::get(IntegerType::get(ctx, 32), blockSize));
  if (failed(buildKernel(kernel, db, /*gridStride=*/!groups, *folded,
                         groupsPerBlock, kernel.getSymName(),
                         /*entryPoint=*/true)))
    return failure();
  // The ranks of a kernel a grid loop runs, as a function it calls.
  if (gridLaunched.contains(kernel.getSymName()) &&
      failed(buildKernel(kernel, db, /*gridStride=*/true, *folded,
                         /*groupsPerBlock=*/1,
                         bsgp::getGridBodyName(kernel.getSymName()),
                         /*entryPoint=*/false)))
    return failure();
  // `spawn (n) [[min_blocks(N)]]`: `.maxntid` and `.minnctapersm` bound the
  // registers ptxas gives the kernel so that N blocks fit a
  // multiprocessor. Only where the block size is fixed: a kernel the
  // runtime sizes could be launched with more threads than `.maxntid`.
  auto minBlocks = kernel->getAttrOfType<IntegerAttr>(bsgp::kMinBlocksAttrName);
  // A look-back's blocks wait for the blocks before them: it asks for
  // enough blocks beside them to keep the memory busy (the fewest any of
  // the kernel's look-backs asks for).
  if (!minBlocks)
    kernel.walk([&](bsgp::GroupLookbackOp op) {
      if (!minBlocks || op.getMinBlocks() < minBlocks.getInt())
        minBlocks = op.getMinBlocksAttr();
    });
  // The runtime runs the slices of a kernel with a look-back on several
  // GPUs one device after another, so that no block waits for a block of
  // another device.
  if (folded
          ->walk([](bsgp::GroupLookbackOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    kernel->setAttr(bsgp::kLookbackAttrName, UnitAttr::get(ctx));
  if (minBlocks && blockSize) {
    auto fn = device.lookupSymbol<LLVM::LLVMFuncOp>(kernel.getSymName());
    fn->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                db.getDenseI32ArrayAttr({int32_t(blockSize), 1, 1}));
    fn->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                db.getI32IntegerAttr(int32_t(minBlocks.getInt())));
  }
  return success();
}

void LowerKernelsToNVVMPass::runOnOperation() {
  ModuleOp host = getOperation();
  SmallVector<bsgp::KernelOp> kernels;
  bsgp::getKernelsForTarget(host, bsgp::Target::CUDA, kernels);
  if (kernels.empty())
    return;

  // The device module goes at the end of the host module, where IR dumps
  // show it after the host code it was made from.
  OpBuilder hb = OpBuilder::atBlockEnd(host.getBody());
  auto device = ModuleOp::create(hb, host.getLoc(),
                                 StringRef(bsgp::kCUDADeviceModuleName));
  device->setAttr(bsgp::BSGPDialect::getTargetAttrName(),
                  hb.getStringAttr("cuda"));
  OpBuilder db = OpBuilder::atBlockEnd(device.getBody());

  // The device functions kernels call, transitively.
  SmallVector<func::FuncOp> callees;
  if (failed(bsgp::collectDeviceFunctions(host, kernels, callees)))
    return signalPassFailure();
  // Device functions are internal to the PTX module.
  for (func::FuncOp callee : callees)
    cast<func::FuncOp>(db.clone(*callee)).setPrivate();
  gridLaunched.clear();
  for (bsgp::KernelOp kernel : kernels)
    kernel.walk(
        [&](bsgp::GridLaunchOp l) { gridLaunched.insert(l.getKernel()); });
  for (bsgp::KernelOp kernel : kernels)
    if (failed(addKernel(kernel, device, db)))
      return signalPassFailure();
  for (bsgp::KernelOp kernel : kernels)
    if (kernel->hasAttr(bsgp::BSGPDialect::GridLoopAttrHelper::getNameStr()))
      if (failed(bsgp::lowerGridLaunches(
              device.lookupSymbol<LLVM::LLVMFuncOp>(kernel.getSymName()), host,
              device)))
        return signalPassFailure();
  // Before any conversion: code for the other targets goes away.
  bsgp::foldTargetQueries(device, bsgp::Target::CUDA);
  if (failed(bsgp::rejectChunkOps(device, "CUDA")))
    return signalPassFailure();
}
