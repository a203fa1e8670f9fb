//===- LowerKernelsToNVVM.cpp - kernels to PTX ----------------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// A superstep kernel runs as one CUDA thread per BSGP thread. The runtime
// launches it with the packed argument struct as one `.param` aggregate and
// the thread count as a second parameter; the block size is the runtime's
// choice, so every kernel checks its rank against the count.
//
//===----------------------------------------------------------------------===//

#include "CoarsenGroups.h"
#include "LowerLookback.h"

#include "bsgp/Target/CUDA/PTX.h"
#include "bsgp/Target/KernelABI.h"
#include "bsgp/Target/KernelBody.h"
#include "bsgp/Target/Passes.h"
#include "bsgp/Target/SymbolNames.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/StringExtras.h"


namespace bsgp {
#define GEN_PASS_DEF_LOWERKERNELSTONVVM
#include "bsgp/Target/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

/// Device memory is the global address space of NVPTX.
static constexpr unsigned kGlobalAddressSpace = 1;

/// `local` arrays live in shared memory.
static constexpr unsigned kSharedAddressSpace = 3;

/// BSGP pointers are generic addresses in device code: a pointer may point to
/// device memory or to a local array on the thread's stack, and device
/// functions take both. Pointers that come from the host are marked global
/// where they enter the kernel, and LLVM's address space inference carries
/// that to their loads and stores.
static constexpr unsigned kGenericAddressSpace = 0;

namespace {

/// Math that PTX has instructions for stays an LLVM intrinsic, ahead of
/// libdevice: sqrt.rn.f32 is the IEEE square root that nvcc emits, while
/// libdevice's __nv_sqrtf follows __nvvm_reflect's default (approximate).
template <typename MathOp, typename LLVMOp>
struct NativeMathLowering : public ConvertOpToLLVMPattern<MathOp> {
  using ConvertOpToLLVMPattern<MathOp>::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<FloatType>(op.getType()))
      return failure();
    rewriter.replaceOpWithNewOp<LLVMOp>(op, op.getType(),
                                        adaptor.getOperands());
    return success();
  }
};

struct LowerKernelsToNVVMPass
    : public bsgp::impl::LowerKernelsToNVVMBase<LowerKernelsToNVVMPass> {
  using LowerKernelsToNVVMBase::LowerKernelsToNVVMBase;
  void runOnOperation() override;

private:
  LogicalResult buildKernel(bsgp::KernelOp kernel, OpBuilder &db,
                            bool gridStride, bsgp::KernelOp folded,
                            unsigned groupsPerBlock);
  LogicalResult lowerDeviceModule(ModuleOp device);
};

} // namespace

/// Shuffles one 32-bit word (i32 or f32) across the warp. `clamp` is the
/// shfl.sync `c` operand CUDA uses for a whole warp: 0x1f, or 0 for `up`.
static Value shuffleWord(OpBuilder &b, Location loc, NVVM::ShflKind kind,
                         Value word, Value lane) {
  Type i32 = b.getI32Type();
  Value mask = LLVM::ConstantOp::create(b, loc, i32, -1);
  Value clamp = LLVM::ConstantOp::create(b, loc, i32,
                                         kind == NVVM::ShflKind::up ? 0 : 0x1f);
  return NVVM::ShflOp::create(b, loc, word.getType(), mask, word, lane, clamp,
                              kind, UnitAttr());
}

/// bsgp.subgroup_reduce over the warp's active lanes (activemask: the
/// threads past the thread count have exited): one redux.sync from sm_80;
/// before, a shuffle-down tree that combines only lanes in the mask, whose
/// result the lowest active lane broadcasts.
static Value lowerSubgroupReduce(OpBuilder &b, Location loc,
                                 bsgp::SubgroupReduceOp op, bool hasRedux) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  Value mask = LLVM::CallIntrinsicOp::create(
                   b, loc, i32, b.getStringAttr("llvm.nvvm.activemask"),
                   ValueRange{})
                   .getResult(0);
  StringRef kind = op.getKind();
  if (hasRedux) {
    auto k = llvm::StringSwitch<NVVM::ReduxKind>(kind)
                 .Case("add", NVVM::ReduxKind::ADD)
                 .Case("and", NVVM::ReduxKind::AND)
                 .Case("or", NVVM::ReduxKind::OR)
                 .Case("xor", NVVM::ReduxKind::XOR)
                 .Case("mins", NVVM::ReduxKind::MIN)
                 .Case("minu", NVVM::ReduxKind::UMIN)
                 .Case("maxs", NVVM::ReduxKind::MAX)
                 .Default(NVVM::ReduxKind::UMAX);
    return NVVM::ReduxOp::create(b, loc, i32, op.getValue(),
                                 NVVM::ReduxKindAttr::get(ctx, k), mask);
  }
  Value lane = NVVM::LaneIdOp::create(b, loc, i32);
  Value one = LLVM::ConstantOp::create(b, loc, i32, 1);
  Value v = op.getValue();
  for (int d = 16; d >= 1; d /= 2) {
    Value delta = LLVM::ConstantOp::create(b, loc, i32, d);
    Value y = NVVM::ShflOp::create(
        b, loc, i32, mask, v, delta,
        LLVM::ConstantOp::create(b, loc, i32, 0x1f), NVVM::ShflKind::down,
        UnitAttr());
    // Lane + d holds a value if it is below 32 and in the mask.
    Value src = LLVM::AddOp::create(b, loc, lane, delta);
    Value inWarp = LLVM::ICmpOp::create(
        b, loc, LLVM::ICmpPredicate::ult, src,
        LLVM::ConstantOp::create(b, loc, i32, 32));
    Value bit = LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, mask, src), one);
    Value active = LLVM::AndOp::create(
        b, loc, inWarp,
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, bit, one));
    v = LLVM::SelectOp::create(b, loc, active,
                               bsgp::emitCombine(b, loc, kind, v, y), v);
  }
  // The lowest active lane holds the combination of all of them.
  Value lowest = LLVM::CallIntrinsicOp::create(
                     b, loc, i32, b.getStringAttr("llvm.cttz.i32"),
                     ValueRange{mask, LLVM::ConstantOp::create(
                                          b, loc, b.getI1Type(), 0)})
                     .getResult(0);
  return NVVM::ShflOp::create(b, loc, i32, mask, v, lowest,
                              LLVM::ConstantOp::create(b, loc, i32, 0x1f),
                              NVVM::ShflKind::idx, UnitAttr());
}

/// A work group is a thread block of bsgp::kCUDAGroupSize threads (the
/// runtime launches kernels using these ops with that block size), a
/// subgroup is a warp. `local` arrays become one shared-memory global per
/// array and kernel. Threads past the thread count have already left
/// (the rank check), which bar.sync and the .sync warp operations allow:
/// they wait only for threads that have not exited.
static void lowerGroupOpsForNVVM(LLVM::LLVMFuncOp fn,
                                 OpBuilder &moduleBuilder, bool hasRedux) {
  SmallVector<Operation *> ops;
  fn.walk([&](Operation *op) {
    if (bsgp::isGroupOp(op))
      ops.push_back(op);
  });
  MLIRContext *ctx = fn.getContext();
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  unsigned numLocals = 0;
  for (Operation *op : ops) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value v;
    if (isa<bsgp::GroupRankOp>(op)) {
      v = NVVM::ThreadIdXOp::create(b, loc, i32);
    } else if (isa<bsgp::GroupSizeOp>(op)) {
      // A constant rather than %ntid.x: the block size is fixed for these
      // kernels, and loops strided by group.size then get constant trip
      // counts that LLVM unrolls, which puts their loads in flight together.
      v = LLVM::ConstantOp::create(b, loc, i32, bsgp::kCUDAGroupSize);
    } else if (isa<bsgp::GroupIdOp>(op)) {
      v = NVVM::BlockIdXOp::create(b, loc, i32);
    } else if (isa<bsgp::GroupCountOp>(op)) {
      v = NVVM::GridDimXOp::create(b, loc, i32);
    } else if (isa<bsgp::SubgroupRankOp>(op)) {
      v = NVVM::LaneIdOp::create(b, loc, i32);
    } else if (isa<bsgp::SubgroupSizeOp>(op)) {
      v = LLVM::ConstantOp::create(b, loc, i32, 32);
    } else if (isa<bsgp::GroupBarrierOp>(op)) {
      NVVM::Barrier0Op::create(b, loc);
    } else if (auto shuffle = dyn_cast<bsgp::SubgroupShuffleOp>(op)) {
      auto kind = llvm::StringSwitch<NVVM::ShflKind>(shuffle.getMode())
                      .Case("xor", NVVM::ShflKind::bfly)
                      .Case("up", NVVM::ShflKind::up)
                      .Case("down", NVVM::ShflKind::down)
                      .Default(NVVM::ShflKind::idx);
      Value x = shuffle.getValue(), lane = shuffle.getLane();
      Type t = x.getType();
      if (t.getIntOrFloatBitWidth() == 32) {
        v = shuffleWord(b, loc, kind, x, lane);
      } else {
        // Two 32-bit shuffles from the same lane, low word first.
        Value bits = t.isF64() ? LLVM::BitcastOp::create(b, loc, i64, x) : x;
        Value lo = LLVM::TruncOp::create(b, loc, i32, bits);
        Value hi = LLVM::TruncOp::create(
            b, loc, i32,
            LLVM::LShrOp::create(b, loc, bits,
                                 LLVM::ConstantOp::create(b, loc, i64, 32)));
        lo = LLVM::ZExtOp::create(b, loc, i64,
                                  shuffleWord(b, loc, kind, lo, lane));
        hi = LLVM::ZExtOp::create(b, loc, i64,
                                  shuffleWord(b, loc, kind, hi, lane));
        v = LLVM::OrOp::create(
            b, loc,
            LLVM::ShlOp::create(b, loc, hi,
                                LLVM::ConstantOp::create(b, loc, i64, 32)),
            lo);
        if (t.isF64())
          v = LLVM::BitcastOp::create(b, loc, t, v);
      }
    } else if (auto reduce = dyn_cast<bsgp::SubgroupReduceOp>(op)) {
      v = lowerSubgroupReduce(b, loc, reduce, hasRedux);
    } else if (auto match = dyn_cast<bsgp::SubgroupMatchOp>(op)) {
      // Over the active lanes, as redux.sync: past the thread count the
      // lanes have exited. (Before sm_70 the matches were expanded.)
      Value active = LLVM::CallIntrinsicOp::create(
                         b, loc, i32, b.getStringAttr("llvm.nvvm.activemask"),
                         ValueRange{})
                         .getResult(0);
      v = NVVM::MatchSyncOp::create(b, loc, i32, active, match.getValue(),
                                    NVVM::MatchSyncKind::any);
      v = LLVM::ZExtOp::create(b, loc, i64, v);
    } else if (auto vote = dyn_cast<bsgp::SubgroupVoteOp>(op)) {
      Value mask = LLVM::ConstantOp::create(b, loc, i32, -1);
      if (vote.getMode() == "ballot") {
        v = NVVM::VoteSyncOp::create(b, loc, i32, mask, vote.getPredicate(),
                                     NVVM::VoteSyncKind::ballot);
        v = LLVM::ZExtOp::create(b, loc, i64, v);
      } else {
        v = NVVM::VoteSyncOp::create(
            b, loc, b.getI1Type(), mask, vote.getPredicate(),
            vote.getMode() == "any" ? NVVM::VoteSyncKind::any
                                    : NVVM::VoteSyncKind::all);
      }
    } else if (auto local = dyn_cast<bsgp::GroupLocalOp>(op)) {
      Type elem = cast<bsgp::PtrType>(local.getType()).getElementType();
      if (isa<bsgp::PtrType>(elem))
        elem = LLVM::LLVMPointerType::get(ctx);
      auto arrayTy = LLVM::LLVMArrayType::get(elem, local.getCount());
      std::string name = (bsgp::kLocalArraySymbolPrefix + fn.getSymName() +
                          "_" + Twine(numLocals++))
                             .str();
      auto global = LLVM::GlobalOp::create(
          moduleBuilder, loc, arrayTy, /*isConstant=*/false,
          LLVM::Linkage::Internal, name, Attribute(), /*alignment=*/16,
          kSharedAddressSpace);
      Value addr = LLVM::AddressOfOp::create(b, loc, global);
      addr = LLVM::AddrSpaceCastOp::create(
          b, loc, LLVM::LLVMPointerType::get(ctx, kGenericAddressSpace), addr);
      v = UnrealizedConversionCastOp::create(b, loc, local.getType(), addr)
              .getResult(0);
    }
    if (op->getNumResults() == 1)
      op->getResult(0).replaceAllUsesWith(v);
    op->erase();
  }
}

/// A kernel without work-group operations loops over the ranks
/// rank, rank + grid, ... (a grid-stride loop), so the runtime may launch
/// fewer blocks than ranks / block size: a launch of 2^28 ranks that do
/// little would otherwise spend its time starting a million blocks.
/// Kernels with work-group operations keep one rank per thread, since a
/// work group is a block of consecutive ranks; with `groupsPerBlock` > 1
/// each block runs that many work groups (CoarsenGroups.h), compiled from
/// `folded`, the kernel with its target queries folded for CUDA.
LogicalResult LowerKernelsToNVVMPass::buildKernel(bsgp::KernelOp kernel,
                                                  OpBuilder &db,
                                                  bool gridStride,
                                                  bsgp::KernelOp folded,
                                                  unsigned groupsPerBlock) {
  if (kernel.getBody().empty())
    return kernel.emitOpError("has no body to compile for CUDA");
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  Type i32 = db.getI32Type(), i64 = db.getI64Type();
  Type ptrTy = LLVM::LLVMPointerType::get(ctx);
  Type globalPtrTy = LLVM::LLVMPointerType::get(ctx, kGlobalAddressSpace);
  LLVM::LLVMStructType argsTy = bsgp::getKernelArgsStructType(kernel);

  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                            {ptrTy, i64});
  auto fn = LLVM::LLVMFuncOp::create(db, loc, kernel.getSymName(), fnType);
  fn->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), db.getUnitAttr());
  fn->setAttr(bsgp::BSGPDialect::getDeviceAttrName(), db.getUnitAttr());
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

  OpBuilder b(ctx);
  Block *entry = fn.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  Value args = entry->getArgument(0), size = entry->getArgument(1);

  IRMapping mapping;
  Block &kernelEntry = kernel.getBody().front();
  for (auto [i, param] : llvm::enumerate(kernelEntry.getArguments())) {
    Type storage = argsTy.getBody()[i];
    Value addr = LLVM::GEPOp::create(
        b, loc, ptrTy, argsTy, args,
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

  if (groupsPerBlock > 1) {
    // The body comes from the folded copy, whose parameters are its own.
    for (auto [param, copy] :
         llvm::zip(kernelEntry.getArguments(), folded.getBody().getArguments()))
      mapping.map(copy, mapping.lookup(param));
    bsgp::emitCoarsenedGroupKernel(folded, b, mapping, size, entry,
                                   groupsPerBlock);
  } else {
    // rank = ctaid.x * ntid.x + tid.x, in 64 bits so that the bounds check
    // holds for any grid the runtime launches.
    Value ctaid = LLVM::ZExtOp::create(b, loc, i64,
                                       NVVM::BlockIdXOp::create(b, loc, i32));
    Value ntid = LLVM::ZExtOp::create(b, loc, i64,
                                      NVVM::BlockDimXOp::create(b, loc, i32));
    Value tid = LLVM::ZExtOp::create(b, loc, i64,
                                     NVVM::ThreadIdXOp::create(b, loc, i32));
    Value rank64 = LLVM::AddOp::create(
        b, loc, LLVM::MulOp::create(b, loc, ctaid, ntid), tid);
    Value rank = LLVM::TruncOp::create(b, loc, i32, rank64);
    Value size32 = LLVM::TruncOp::create(b, loc, i32, size);

    if (gridStride) {
      Value grid = LLVM::ZExtOp::create(b, loc, i64,
                                        NVVM::GridDimXOp::create(b, loc, i32));
      Value stride = LLVM::MulOp::create(b, loc, grid, ntid);
      auto loop = scf::ForOp::create(b, loc, rank64, size, stride);
      b.setInsertionPointToStart(loop.getBody());
      Value r = LLVM::TruncOp::create(b, loc, i32, loop.getInductionVar());
      bsgp::cloneKernelBody(kernel, b, mapping, r, size32, entry);
    } else {
      Value inRange =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, rank64, size);
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
  OpBuilder globals(fn);
  // redux.sync is an sm_80 instruction.
  StringRef arch(chip);
  unsigned sm = 0;
  bool known = arch.consume_front("sm_") &&
               !arch.take_while(llvm::isDigit).getAsInteger(10, sm);
  // match.any.sync is an sm_70 instruction.
  if (!known || sm < 70)
    bsgp::expandSubgroupMatches(fn);
  // Coarsened kernels have expanded theirs, once per block.
  bsgp::expandGroupLookbacks(fn);
  lowerGroupOpsForNVVM(fn, globals, known && sm >= 80);
  return success();
}

LogicalResult LowerKernelsToNVVMPass::lowerDeviceModule(ModuleOp device) {
  MLIRContext *ctx = device.getContext();
  {
    RewritePatternSet patterns(ctx);
    populateSCFToControlFlowConversionPatterns(patterns);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<scf::SCFDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(device, target, std::move(patterns))))
      return failure();
  }

  LowerToLLVMOptions options(ctx);
  options.overrideIndexBitwidth(64);
  LLVMTypeConverter converter(ctx, options);
  bsgp::addBSGPTypeConversions(converter, kGenericAddressSpace);
  RewritePatternSet patterns(ctx);
  // Math without a PTX instruction goes to libdevice (__nv_sinf, ...).
  patterns.add<NativeMathLowering<math::SqrtOp, LLVM::SqrtOp>,
               NativeMathLowering<math::AbsFOp, LLVM::FAbsOp>,
               NativeMathLowering<math::FloorOp, LLVM::FFloorOp>,
               NativeMathLowering<math::CeilOp, LLVM::FCeilOp>,
               NativeMathLowering<math::TruncOp, LLVM::FTruncOp>,
               NativeMathLowering<math::CopySignOp, LLVM::CopySignOp>>(
      converter, /*benefit=*/20);
  populateLibDeviceConversionPatterns(converter, patterns, /*benefit=*/10);
  // CUDA's atomic* functions are atomic at device (.gpu) scope.
  bsgp::populateCodeToLLVMPatterns(converter, patterns,
                                   /*atomicSyncScope=*/"device");
  LLVMConversionTarget target(*ctx);
  target.addLegalDialect<NVVM::NVVMDialect>();
  target.addLegalOp<ModuleOp>();
  if (failed(applyPartialConversion(device, target, std::move(patterns))))
    return failure();

  SmallVector<UnrealizedConversionCastOp> casts;
  device.walk([&](UnrealizedConversionCastOp c) { casts.push_back(c); });
  SmallVector<UnrealizedConversionCastOp> remaining;
  reconcileUnrealizedCasts(casts, &remaining);
  for (UnrealizedConversionCastOp c : remaining)
    return c.emitError("cannot lower this value for the CUDA target");

  WalkResult left = device.walk([](Operation *op) {
    if (isa<ModuleOp>(op) ||
        isa<LLVM::LLVMDialect, NVVM::NVVMDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitError("'") << op->getName()
                       << "' has no lowering for the CUDA target";
    return WalkResult::interrupt();
  });
  if (left.wasInterrupted())
    return failure();
  bsgp::stripBSGPAttributes(device);
  return success();
}

void LowerKernelsToNVVMPass::runOnOperation() {
  ModuleOp host = getOperation();
  SmallVector<bsgp::KernelOp> kernels;
  bsgp::getKernelsForTarget(host, "cuda", kernels);
  if (kernels.empty())
    return;

  OwningOpRef<ModuleOp> device = ModuleOp::create(host.getLoc());
  OpBuilder db = OpBuilder::atBlockEnd(device->getBody());

  // The device functions kernels call, transitively.
  SmallVector<func::FuncOp> callees;
  if (failed(bsgp::collectDeviceFunctions(host, kernels, callees)))
    return signalPassFailure();
  // Device functions are internal to the PTX module.
  for (func::FuncOp callee : callees)
    cast<func::FuncOp>(db.clone(*callee)).setPrivate();
  for (bsgp::KernelOp kernel : kernels) {
    // The ops the CUDA form of the kernel keeps decide its block size; the
    // CPU target folds the kernel for itself later.
    auto folded = cast<bsgp::KernelOp>(kernel->clone());
    bsgp::foldTargetQueries(folded, "cuda");
    bool groups = bsgp::usesGroupOps(folded);
    unsigned groupsPerBlock =
        groups ? bsgp::chooseGroupsPerBlock(folded, this->groupsPerBlock) : 1;
    unsigned blockSize = groups ? bsgp::kCUDAGroupSize : 0;
    // `spawn (n) [[block_size(N)]]`: a grid-stride kernel runs with any
    // block size; work-group operations were compiled for one.
    if (auto asked =
            kernel->getAttrOfType<IntegerAttr>(bsgp::kBlockSizeAttrName)) {
      if (groups && asked.getInt() != bsgp::kCUDAGroupSize) {
        emitError(kernel.getLoc())
            << "this superstep uses work-group operations, which run in blocks "
               "of "
            << bsgp::kCUDAGroupSize << " threads on CUDA, but its spawn asks "
            << "for [[block_size(" << asked.getInt() << ")]]";
        folded->erase();
        return signalPassFailure();
      }
      blockSize = unsigned(asked.getInt());
    }
    if (blockSize)
      kernel->setAttr(bsgp::kGroupSizeAttrName,
                      IntegerAttr::get(IntegerType::get(host.getContext(), 32),
                                       blockSize));
    if (groupsPerBlock > 1)
      kernel->setAttr(bsgp::kGroupsPerBlockAttrName,
                      IntegerAttr::get(IntegerType::get(host.getContext(), 32),
                                       groupsPerBlock));
    LogicalResult built = buildKernel(kernel, db, /*gridStride=*/!groups,
                                      folded, groupsPerBlock);
    folded->erase();
    if (failed(built))
      return signalPassFailure();
    // `spawn (n) [[min_blocks(N)]]`: `.maxntid` and `.minnctapersm` bound the
    // registers ptxas gives the kernel so that N blocks fit a
    // multiprocessor. Only where the block size is fixed: a kernel the
    // runtime sizes could be launched with more threads than `.maxntid`.
    auto minBlocks =
        kernel->getAttrOfType<IntegerAttr>(bsgp::kMinBlocksAttrName);
    // A look-back's blocks wait for the blocks before them: it asks for
    // enough blocks beside them to keep the memory busy (the fewest any of
    // the kernel's look-backs asks for).
    if (!minBlocks)
      kernel.walk([&](bsgp::GroupLookbackOp op) {
        if (!minBlocks || op.getMinBlocks() < minBlocks.getInt())
          minBlocks = op.getMinBlocksAttr();
      });
    if (minBlocks && blockSize) {
      auto fn = device->lookupSymbol<LLVM::LLVMFuncOp>(kernel.getSymName());
      fn->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                  db.getDenseI32ArrayAttr({int32_t(blockSize), 1, 1}));
      fn->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  db.getI32IntegerAttr(int32_t(minBlocks.getInt())));
    }
  }
  // Before any conversion: code for the other targets goes away.
  bsgp::foldTargetQueries(*device, "cuda");
  if (failed(bsgp::rejectChunkOps(*device, "CUDA")) ||
      failed(lowerDeviceModule(*device)))
    return signalPassFailure();

  bsgp::PTXOptions ptxOptions;
  ptxOptions.chip = chip;
  ptxOptions.cudaPath = cudaPath;
  ptxOptions.lineInfo = lineInfo;
  std::string ptx, error;
  if (failed(bsgp::compileToPTX(*device, ptxOptions, ptx, error))) {
    host.emitError("CUDA code generation failed: ") << error;
    return signalPassFailure();
  }
  host->setAttr(bsgp::BSGPDialect::PtxAttrHelper::getNameStr(),
                StringAttr::get(host.getContext(), ptx));
}
