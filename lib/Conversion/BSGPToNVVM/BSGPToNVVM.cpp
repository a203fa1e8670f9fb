//===- BSGPToNVVM.cpp - the CUDA device module to LLVM and NVVM -----------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The last conversion of the CUDA device module: whatever bsgp, func,
// arith, math, scf and cf ops the kernels and device functions still hold
// become LLVM and NVVM ops, which bsgp-serialize-ptx translates to LLVM IR.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Conversion/BSGPToNVVM/BSGPToNVVM.h"
#include "bsgp/Conversion/Common/KernelBody.h"
#include "bsgp/Conversion/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPCONVERTTONVVMPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

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

/// `__threadfence()` as CUDA's own: `membar.gl` (the `llvm.nvvm.membar.gl`
/// intrinsic, `fence.sc.gpu` on sm_70 and later). LLVM's `fence` would
/// print the same instruction, but it also keeps LLVM from merging the
/// branches around it that a block of several work groups repeats
/// (CoarsenGroups): the reduce of bench_collectives then took 38 registers
/// instead of 32 and ran at a lower occupancy.
struct FenceToNVVM : public ConvertOpToLLVMPattern<bsgp::FenceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(bsgp::FenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::MembarOp>(op, NVVM::MemScopeKind::GPU);
    return success();
  }
};

struct ConvertToNVVMPass
    : public bsgp::impl::BSGPConvertToNVVMPassBase<ConvertToNVVMPass> {
  void runOnOperation() override;
};

} // namespace

SmallVector<ModuleOp> bsgp::getCUDADeviceModules(ModuleOp host) {
  SmallVector<ModuleOp> modules;
  for (ModuleOp m : host.getOps<ModuleOp>()) {
    auto target =
        m->getAttrOfType<StringAttr>(BSGPDialect::getTargetAttrName());
    if (target && target.getValue() == "cuda")
      modules.push_back(m);
  }
  return modules;
}

void bsgp::populateBSGPToNVVMPatterns(LLVMTypeConverter &converter,
                                      RewritePatternSet &patterns) {
  // Math without a PTX instruction goes to libdevice (__nv_sinf, ...).
  patterns.add<NativeMathLowering<math::SqrtOp, LLVM::SqrtOp>,
               NativeMathLowering<math::AbsFOp, LLVM::FAbsOp>,
               NativeMathLowering<math::FloorOp, LLVM::FFloorOp>,
               NativeMathLowering<math::CeilOp, LLVM::FCeilOp>,
               NativeMathLowering<math::TruncOp, LLVM::FTruncOp>,
               NativeMathLowering<math::CopySignOp, LLVM::CopySignOp>>(
      converter, /*benefit=*/20);
  populateLibDeviceConversionPatterns(converter, patterns, /*benefit=*/10);
  patterns.add<FenceToNVVM>(converter, /*benefit=*/20);
  // CUDA's atomic* functions are atomic at device (.gpu) scope.
  populateCodeToLLVMPatterns(converter, patterns,
                             /*atomicSyncScope=*/"device");
}

/// Replaces each `trunc(bitcast f64 to i64)` to i32 by PTX's integer
/// `cvt.u32.u64` in inline assembly. LLVM folds such a trunc into its
/// store, `st.global.b32 [p], %rd` with %rd the double's register, and the
/// H100's driver (580) stores trunc(double) there instead of the low word:
/// a double saved across a barrier came back with its integer part in the
/// low mantissa bits (bsgp-smith seed 10315). The asm keeps the word a
/// 32-bit integer register of its own.
static void isolateDoubleLowWords(ModuleOp device) {
  SmallVector<LLVM::TruncOp> truncs;
  device.walk([&](LLVM::TruncOp t) {
    auto cast = t.getArg().getDefiningOp<LLVM::BitcastOp>();
    if (cast && cast.getArg().getType().isF64() && t.getType().isInteger(32))
      truncs.push_back(t);
  });
  for (LLVM::TruncOp t : truncs) {
    OpBuilder b(t);
    auto asmOp = LLVM::InlineAsmOp::create(
        b, t.getLoc(), t.getType(), ValueRange{t.getArg()},
        "cvt.u32.u64 $0, $1;", "=r,l", /*has_side_effects=*/false,
        /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
        /*asm_dialect=*/LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr());
    t.replaceAllUsesWith(asmOp.getResult(0));
    t.erase();
  }
}

/// Lowers `device` to the LLVM and NVVM dialects; reports what is left.
static LogicalResult convertDeviceModule(ModuleOp device) {
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
  bsgp::addBSGPTypeConversions(converter, bsgp::kNVVMGenericAddressSpace);
  RewritePatternSet patterns(ctx);
  bsgp::populateBSGPToNVVMPatterns(converter, patterns);
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
  isolateDoubleLowWords(device);
  // The module keeps its mark; what is below it loses the bsgp attributes.
  Attribute mark = device->getAttr(bsgp::BSGPDialect::getTargetAttrName());
  bsgp::stripBSGPAttributes(device);
  device->setAttr(bsgp::BSGPDialect::getTargetAttrName(), mark);
  return success();
}

void ConvertToNVVMPass::runOnOperation() {
  for (ModuleOp device : bsgp::getCUDADeviceModules(getOperation()))
    if (failed(convertDeviceModule(device)))
      return signalPassFailure();
}
