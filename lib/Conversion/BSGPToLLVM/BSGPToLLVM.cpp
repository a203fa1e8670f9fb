//===- BSGPToLLVM.cpp - bsgp host and CPU code to LLVM --------------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Pointers are opaque LLVM pointers in a target-chosen address space, so the
// element type of !bsgp.ptr<T> lives on only in the GEPs, loads and stores
// made here. Temporary streams are arrays of 32-bit words;
// bsgp-split-saved-words has made every bsgp.save and bsgp.load one of a single
// word.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Conversion/BSGPToLLVM/BSGPToLLVM.h"
#include "bsgp/Conversion/BSGPToLLVM/RuntimeAPI.h"
#include "bsgp/Conversion/Common/KernelBody.h"
#include "bsgp/Conversion/Passes.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringSet.h"

namespace bsgp {
#define GEN_PASS_DEF_BSGPCONVERTTOLLVMPASS
#include "bsgp/Conversion/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

namespace {

/// Brings an element index to i64 as C does: sign-extended.
Value toI64Index(OpBuilder &b, Location loc, Value index) {
  Type i64 = b.getI64Type();
  auto intTy = dyn_cast<IntegerType>(index.getType());
  if (!intTy || intTy.getWidth() == 64)
    return index;
  if (intTy.getWidth() < 64)
    return LLVM::SExtOp::create(b, loc, i64, index);
  return LLVM::TruncOp::create(b, loc, i64, index);
}

/// Address of word `index` of a stream.
Value streamWordAddress(OpBuilder &b, Location loc, Value stream, Value index) {
  return LLVM::GEPOp::create(b, loc, stream.getType(), b.getI32Type(), stream,
                             ValueRange{toI64Index(b, loc, index)});
}

template <typename Op> struct BSGPPattern : public ConvertOpToLLVMPattern<Op> {
  using ConvertOpToLLVMPattern<Op>::ConvertOpToLLVMPattern;

  /// Size in bytes of the LLVM form of `type`.
  uint64_t storeSize(Operation *op, Type type) const {
    return DataLayout::closest(op).getTypeSize(type).getFixedValue();
  }
  Type elementType(Type ptrType) const {
    return this->getTypeConverter()->convertType(
        cast<bsgp::PtrType>(ptrType).getElementType());
  }
};

struct PtrLoadLowering : BSGPPattern<bsgp::PtrLoadOp> {
  using BSGPPattern::BSGPPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elt = elementType(op.getPtr().getType());
    if (!elt)
      return failure();
    Location loc = op.getLoc();
    Value addr = LLVM::GEPOp::create(
        rewriter, loc, adaptor.getPtr().getType(), elt, adaptor.getPtr(),
        ValueRange{toI64Index(rewriter, loc, adaptor.getIndex())});
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, elt, addr);
    return success();
  }
};

struct PtrStoreLowering : BSGPPattern<bsgp::PtrStoreOp> {
  using BSGPPattern::BSGPPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elt = elementType(op.getPtr().getType());
    if (!elt)
      return failure();
    Location loc = op.getLoc();
    Value addr = LLVM::GEPOp::create(
        rewriter, loc, adaptor.getPtr().getType(), elt, adaptor.getPtr(),
        ValueRange{toI64Index(rewriter, loc, adaptor.getIndex())});
    rewriter.replaceOpWithNewOp<LLVM::StoreOp>(op, adaptor.getValue(), addr);
    return success();
  }
};

struct PtrOffsetLowering : BSGPPattern<bsgp::PtrOffsetOp> {
  using BSGPPattern::BSGPPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrOffsetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elt = elementType(op.getPtr().getType());
    if (!elt)
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
        op, adaptor.getPtr().getType(), elt, adaptor.getPtr(),
        ValueRange{toI64Index(rewriter, op.getLoc(), adaptor.getIndex())});
    return success();
  }
};

struct PtrNullLowering : BSGPPattern<bsgp::PtrNullOp> {
  using BSGPPattern::BSGPPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrNullOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ZeroOp>(
        op, getTypeConverter()->convertType(op.getType()));
    return success();
  }
};

struct PtrCastLowering : BSGPPattern<bsgp::PtrCastOp> {
  using BSGPPattern::BSGPPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getPtr());
    return success();
  }
};

struct PtrToIntLowering : BSGPPattern<bsgp::PtrToIntOp> {
  using BSGPPattern::BSGPPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrToIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::PtrToIntOp>(op, rewriter.getI64Type(),
                                                  adaptor.getPtr());
    return success();
  }
};

struct PtrFromIntLowering : BSGPPattern<bsgp::PtrFromIntOp> {
  using BSGPPattern::BSGPPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrFromIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::IntToPtrOp>(
        op, getTypeConverter()->convertType(op.getType()), adaptor.getValue());
    return success();
  }
};

struct PtrCmpLowering : BSGPPattern<bsgp::PtrCmpOp> {
  using BSGPPattern::BSGPPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrCmpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto pred = static_cast<LLVM::ICmpPredicate>(op.getPredicate());
    rewriter.replaceOpWithNewOp<LLVM::ICmpOp>(op, pred, adaptor.getLhs(),
                                              adaptor.getRhs());
    return success();
  }
};

struct PtrDiffLowering : BSGPPattern<bsgp::PtrDiffOp> {
  using BSGPPattern::BSGPPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrDiffOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elt = elementType(op.getLhs().getType());
    if (!elt)
      return failure();
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    Value l = LLVM::PtrToIntOp::create(rewriter, loc, i64, adaptor.getLhs());
    Value r = LLVM::PtrToIntOp::create(rewriter, loc, i64, adaptor.getRhs());
    Value bytes = LLVM::SubOp::create(rewriter, loc, l, r);
    Value size = LLVM::ConstantOp::create(
        rewriter, loc, i64, std::max<uint64_t>(1, storeSize(op, elt)));
    rewriter.replaceOpWithNewOp<LLVM::SDivOp>(op, bytes, size);
    return success();
  }
};

/// dnew and dtempnew: `count` elements from the runtime. The runtime
/// multiplies by the element size, so that a negative count, a byte count
/// past 64 bits and a failed allocation are errors naming the op's source
/// location rather than a wrapped-around size.
template <typename Op, bsgp::RuntimeFn Fn>
struct AllocLowering : BSGPPattern<Op> {
  using BSGPPattern<Op>::BSGPPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elt = this->elementType(op.getPtr().getType());
    if (!elt)
      return failure();
    Location loc = op.getLoc();
    auto module = op->template getParentOfType<ModuleOp>();
    Type i64 = rewriter.getI64Type();
    Value count = adaptor.getCount();
    if (!count.getType().isInteger(64))
      count = LLVM::SExtOp::create(rewriter, loc, i64, count);
    Value size = LLVM::ConstantOp::create(
        rewriter, loc, i64, std::max<uint64_t>(1, this->storeSize(op, elt)));
    Value where = bsgp::getSourceString(rewriter, module, loc,
                                        bsgp::formatSourceLocation(loc));
    auto fn = bsgp::getOrInsertRuntimeFn(module, Fn);
    rewriter.replaceOpWithNewOp<LLVM::CallOp>(op, fn,
                                              ValueRange{count, size, where});
    return success();
  }
};

struct StreamAllocLowering : BSGPPattern<bsgp::StreamAllocOp> {
  using BSGPPattern::BSGPPattern;
  LogicalResult
  matchAndRewrite(bsgp::StreamAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    Type i64 = rewriter.getI64Type();
    // The size follows the spawn's int thread count: a negative one (which
    // the launch then reports) gets an empty stream, not a wrapped-around
    // size of gigabytes.
    Value words = LLVM::SExtOp::create(rewriter, loc, i64, adaptor.getSize());
    Value zero = LLVM::ConstantOp::create(rewriter, loc, i64, 0);
    Value negative = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::slt, words, zero);
    words = LLVM::SelectOp::create(rewriter, loc, negative, zero, words);
    Value four = LLVM::ConstantOp::create(rewriter, loc, i64, 4);
    Value bytes = LLVM::MulOp::create(rewriter, loc, words, four);
    Value where = bsgp::getSourceString(rewriter, module, loc,
                                        bsgp::formatSourceLocation(loc));
    auto fn = bsgp::getOrInsertRuntimeFn(module, bsgp::RuntimeFn::TempAlloc);
    rewriter.replaceOpWithNewOp<LLVM::CallOp>(op, fn, ValueRange{bytes, where});
    return success();
  }
};

/// Frees each pointer operand with the runtime function `Fn`.
template <typename Op, bsgp::RuntimeFn Fn>
struct FreeLowering : BSGPPattern<Op> {
  using BSGPPattern<Op>::BSGPPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto module = op->template getParentOfType<ModuleOp>();
    auto fn = bsgp::getOrInsertRuntimeFn(module, Fn);
    for (Value p : adaptor.getOperands())
      LLVM::CallOp::create(rewriter, op.getLoc(), fn, ValueRange{p});
    rewriter.eraseOp(op);
    return success();
  }
};

/// `bsgp.dfree` as bsgprt_dfree_at with the op's source location, which a
/// runtime error on a bad free names.
struct DFreeLowering : BSGPPattern<bsgp::DFreeOp> {
  using BSGPPattern::BSGPPattern;
  LogicalResult
  matchAndRewrite(bsgp::DFreeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto module = op->getParentOfType<ModuleOp>();
    Location loc = op.getLoc();
    Value where = bsgp::getSourceString(rewriter, module, loc,
                                        bsgp::formatSourceLocation(loc));
    auto fn = bsgp::getOrInsertRuntimeFn(module, bsgp::RuntimeFn::DFree);
    rewriter.replaceOpWithNewOp<LLVM::CallOp>(
        op, fn, ValueRange{adaptor.getPtr(), where});
    return success();
  }
};

struct SaveLowering : BSGPPattern<bsgp::SaveOp> {
  using BSGPPattern::BSGPPattern;
  LogicalResult
  matchAndRewrite(bsgp::SaveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.isWord())
      return op.emitOpError("is not split into words (bsgp-split-saved-words)");
    rewriter.replaceOpWithNewOp<LLVM::StoreOp>(
        op, adaptor.getValue(),
        streamWordAddress(rewriter, op.getLoc(), adaptor.getStreams()[0],
                          adaptor.getIndex()));
    return success();
  }
};

struct LoadLowering : BSGPPattern<bsgp::LoadOp> {
  using BSGPPattern::BSGPPattern;
  LogicalResult
  matchAndRewrite(bsgp::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.isWord())
      return op.emitOpError("is not split into words (bsgp-split-saved-words)");
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(
        op, rewriter.getI32Type(),
        streamWordAddress(rewriter, op.getLoc(), adaptor.getStreams()[0],
                          adaptor.getIndex()));
    return success();
  }
};

struct ConvertToLLVMPass
    : public bsgp::impl::BSGPConvertToLLVMPassBase<ConvertToLLVMPass> {
  void runOnOperation() override;
};

} // namespace

void bsgp::addBSGPTypeConversions(LLVMTypeConverter &converter,
                                  unsigned addressSpace) {
  converter.addConversion([&converter, addressSpace](PtrType) -> Type {
    return LLVM::LLVMPointerType::get(&converter.getContext(), addressSpace);
  });
  converter.addConversion([&converter, addressSpace](StreamType) -> Type {
    return LLVM::LLVMPointerType::get(&converter.getContext(), addressSpace);
  });
}

/// `bsgp.atomic_rmw` as `llvm.atomicrmw` and `bsgp.atomic_cas` as
/// `llvm.cmpxchg`: relaxed (monotonic) ordering, as CUDA's atomic*, in the
/// target's device scope. CPU ranks run on OpenMP threads, so these are real
/// atomics there too.
template <typename Op> struct AtomicPattern : BSGPPattern<Op> {
  AtomicPattern(LLVMTypeConverter &converter, StringRef syncScope)
      : BSGPPattern<Op>(converter), syncScope(syncScope.str()) {}
  std::string syncScope;
};

struct AtomicRMWLowering : AtomicPattern<bsgp::AtomicRMWOp> {
  using AtomicPattern::AtomicPattern;
  LogicalResult
  matchAndRewrite(bsgp::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    using K = arith::AtomicRMWKind;
    using B = LLVM::AtomicBinOp;
    std::optional<B> bin;
    switch (op.getKind()) {
    case K::addi:
      bin = B::add;
      break;
    case K::addf:
      bin = B::fadd;
      break;
    case K::assign:
      bin = B::xchg;
      break;
    case K::mins:
      bin = B::min;
      break;
    case K::minu:
      bin = B::umin;
      break;
    case K::maxs:
      bin = B::max;
      break;
    case K::maxu:
      bin = B::umax;
      break;
    case K::andi:
      bin = B::_and;
      break;
    case K::ori:
      bin = B::_or;
      break;
    case K::xori:
      bin = B::_xor;
      break;
    default:
      break;
    }
    if (!bin)
      return rewriter.notifyMatchFailure(op, "not a BSGP atomic kind");
    rewriter.replaceOpWithNewOp<LLVM::AtomicRMWOp>(
        op, *bin, adaptor.getPtr(), adaptor.getValue(),
        LLVM::AtomicOrdering::monotonic, syncScope);
    return success();
  }
};

struct AtomicLoadLowering : AtomicPattern<bsgp::AtomicLoadOp> {
  using AtomicPattern::AtomicPattern;
  LogicalResult
  matchAndRewrite(bsgp::AtomicLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type t = this->getTypeConverter()->convertType(op.getType());
    unsigned bytes = t.getIntOrFloatBitWidth() / 8;
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(
        op, t, adaptor.getPtr(), bytes, /*isVolatile=*/false,
        /*isNonTemporal=*/false, /*isInvariant=*/false,
        /*isInvariantGroup=*/false, LLVM::AtomicOrdering::monotonic, syncScope);
    return success();
  }
};

struct AtomicCASLowering : AtomicPattern<bsgp::AtomicCASOp> {
  using AtomicPattern::AtomicPattern;
  LogicalResult
  matchAndRewrite(bsgp::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value expected = adaptor.getExpected(), desired = adaptor.getDesired();
    Type t = expected.getType();
    // cmpxchg takes integers: floats are compared bit for bit.
    Type bits = t;
    if (auto ft = dyn_cast<FloatType>(t)) {
      bits = rewriter.getIntegerType(ft.getWidth());
      expected = LLVM::BitcastOp::create(rewriter, loc, bits, expected);
      desired = LLVM::BitcastOp::create(rewriter, loc, bits, desired);
    }
    Value pair = LLVM::AtomicCmpXchgOp::create(
        rewriter, loc, adaptor.getPtr(), expected, desired,
        LLVM::AtomicOrdering::monotonic, LLVM::AtomicOrdering::monotonic,
        syncScope);
    Value old = LLVM::ExtractValueOp::create(rewriter, loc, pair, 0);
    if (bits != t)
      old = LLVM::BitcastOp::create(rewriter, loc, t, old);
    rewriter.replaceOp(op, old);
    return success();
  }
};

/// `__threadfence()` is a sequentially consistent fence at the atomics'
/// scope: NVPTX's `fence.sc.gpu`, which is CUDA's own `__threadfence()`.
struct FenceLowering : AtomicPattern<bsgp::FenceOp> {
  using AtomicPattern::AtomicPattern;
  LogicalResult
  matchAndRewrite(bsgp::FenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::FenceOp>(
        op, LLVM::AtomicOrdering::seq_cst, syncScope);
    return success();
  }
};

void bsgp::populateBSGPToLLVMPatterns(LLVMTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      StringRef atomicSyncScope) {
  patterns.add<
      PtrLoadLowering, PtrStoreLowering, PtrOffsetLowering, PtrNullLowering,
      PtrCastLowering, PtrToIntLowering, PtrFromIntLowering, PtrCmpLowering,
      PtrDiffLowering, SaveLowering, LoadLowering, StreamAllocLowering,
      AllocLowering<bsgp::DNewOp, RuntimeFn::DNewElements>,
      AllocLowering<bsgp::DTempNewOp, RuntimeFn::TempAllocElements>,
      DFreeLowering, FreeLowering<bsgp::DTempFreeOp, RuntimeFn::TempFree>,
      FreeLowering<bsgp::StreamFreeOp, RuntimeFn::TempFree>>(converter);
  patterns.add<AtomicRMWLowering, AtomicLoadLowering, AtomicCASLowering,
               FenceLowering>(converter, atomicSyncScope);
  populateListPrimitivesToLLVMPatterns(converter, patterns);
}

void bsgp::populateCodeToLLVMPatterns(LLVMTypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      StringRef atomicSyncScope) {
  bsgp::populateBSGPToLLVMPatterns(converter, patterns, atomicSyncScope);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  populateMathToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
  populateFuncToLLVMConversionPatterns(converter, patterns);
  index::populateIndexToLLVMConversionPatterns(converter, patterns);
  ub::populateUBToLLVMConversionPatterns(converter, patterns);
  populateVectorToLLVMConversionPatterns(converter, patterns);
}

void ConvertToLLVMPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();

  // Thread intrinsics outside a kernel mean an earlier pass left device code
  // in host code; say where instead of failing the conversion blindly.
  WalkResult stray = module.walk([](Operation *op) {
    if (isa<bsgp::ThreadRankOp, bsgp::ThreadSizeOp, bsgp::SpawnOp,
            bsgp::BarrierOp, bsgp::KernelOp, bsgp::LaunchOp>(op)) {
      op->emitError("'") << op->getName()
                         << "' must be lowered before LLVM conversion";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (stray.wasInterrupted())
    return signalPassFailure();

  // Private functions (inline functions, functions of imported files) must
  // not clash with the same function compiled into another object.
  llvm::StringSet<> privateFuncs;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPrivate() && !fn.isExternal())
      privateFuncs.insert(fn.getSymName());

  LowerToLLVMOptions options(ctx, DataLayout(module));
  LLVMTypeConverter converter(ctx, options);
  bsgp::addBSGPTypeConversions(converter);

  RewritePatternSet patterns(ctx);
  bsgp::populateCodeToLLVMPatterns(converter, patterns);
  populateMathToLibmConversionPatterns(patterns, /*benefit=*/{0});

  LLVMConversionTarget target(*ctx);
  target.addLegalOp<ModuleOp>();
  if (failed(applyPartialConversion(module, target, std::move(patterns))))
    return signalPassFailure();

  // Partial conversion leaves what it does not know; anything left that is
  // not LLVM is a bug upstream of this pass.
  WalkResult left = module.walk([](Operation *op) {
    if (isa<ModuleOp, UnrealizedConversionCastOp>(op) ||
        isa<LLVM::LLVMDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitError("'") << op->getName() << "' has no lowering to LLVM";
    return WalkResult::interrupt();
  });
  if (left.wasInterrupted())
    return signalPassFailure();

  for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
    if (privateFuncs.contains(fn.getSymName()))
      fn.setLinkage(LLVM::Linkage::Internal);

  bsgp::stripBSGPAttributes(module);
}
