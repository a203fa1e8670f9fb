//===- BSGPToSPIRV.cpp - bsgp memory and atomic ops to SPIR-V -------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// BSGP pointers and streams are 64-bit device addresses: they are integers
// in SPIR-V and become PhysicalStorageBuffer pointers only at a load or
// store, which keeps pointer arithmetic, comparison and saving a pointer to
// two stream words plain integer code.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Conversion/BSGPToSPIRV/BSGPToSPIRV.h"
#include "Atomics.h"
#include "SPIRVCommon.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace bsgp::spv;

namespace {

template <typename Op>
struct BSGPToSPIRVPattern : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;

  /// The layout of what `ptr` points to; reports `op` when it has none.
  static FailureOr<ElementInfo> getElementInfo(Operation *op,
                                               bsgp::PtrType ptr) {
    std::optional<ElementInfo> info = getNaturalLayout(ptr.getElementType());
    if (!info)
      return op->emitOpError("element type ")
             << ptr.getElementType() << " has no SPIR-V memory layout";
    return *info;
  }
};

struct PtrLoadToSPIRV : BSGPToSPIRVPattern<bsgp::PtrLoadOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = op.getType();
    Type memTy = getTypeConverter()->convertType(getMemoryType(elem));
    if (!memTy)
      return rewriter.notifyMatchFailure(op, "element has no SPIR-V type");
    FailureOr<ElementInfo> info = getElementInfo(op, op.getPtr().getType());
    if (failed(info))
      return failure();
    Value addr = addressOf(rewriter, loc, adaptor.getPtr(), adaptor.getIndex(),
                           info->size);
    Value v = op.getCoherent()
                  ? loadCoherentPSB(rewriter, loc, memTy, addr, info->align)
                  : loadPSB(rewriter, loc, memTy, addr, info->align);
    if (elem.isInteger(1))
      v = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ne, v,
          arith::ConstantIntOp::create(rewriter, loc, memTy, 0));
    rewriter.replaceOp(op, v);
    return success();
  }
};

struct PtrStoreToSPIRV : BSGPToSPIRVPattern<bsgp::PtrStoreOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value v = adaptor.getValue();
    if (op.getValue().getType().isInteger(1)) {
      Type memTy = getTypeConverter()->convertType(rewriter.getI8Type());
      v = arith::ExtUIOp::create(rewriter, loc, memTy, v);
    }
    FailureOr<ElementInfo> info = getElementInfo(op, op.getPtr().getType());
    if (failed(info))
      return failure();
    Value addr = addressOf(rewriter, loc, adaptor.getPtr(), adaptor.getIndex(),
                           info->size);
    storePSB(rewriter, loc, v, addr, info->align);
    rewriter.eraseOp(op);
    return success();
  }
};

struct PtrOffsetToSPIRV : BSGPToSPIRVPattern<bsgp::PtrOffsetOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrOffsetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ElementInfo> info = getElementInfo(op, op.getPtr().getType());
    if (failed(info))
      return failure();
    rewriter.replaceOp(op, addressOf(rewriter, op.getLoc(), adaptor.getPtr(),
                                     adaptor.getIndex(), info->size));
    return success();
  }
};

struct PtrNullToSPIRV : BSGPToSPIRVPattern<bsgp::PtrNullOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrNullOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       arith::ConstantIntOp::create(rewriter, op.getLoc(),
                                                    rewriter.getI64Type(), 0));
    return success();
  }
};

struct PtrCastToSPIRV : BSGPToSPIRVPattern<bsgp::PtrCastOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getPtr());
    return success();
  }
};

struct PtrCmpToSPIRV : BSGPToSPIRVPattern<bsgp::PtrCmpOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrCmpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(
        op, op.getPredicate(), adaptor.getLhs(), adaptor.getRhs());
    return success();
  }
};

struct PtrDiffToSPIRV : BSGPToSPIRVPattern<bsgp::PtrDiffOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrDiffOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<ElementInfo> info = getElementInfo(op, op.getLhs().getType());
    if (failed(info))
      return failure();
    Value bytes = arith::SubIOp::create(rewriter, loc, adaptor.getLhs(),
                                        adaptor.getRhs());
    rewriter.replaceOpWithNewOp<arith::DivSIOp>(
        op, bytes,
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(),
                                     info->size));
    return success();
  }
};

struct SaveToSPIRV : BSGPToSPIRVPattern<bsgp::SaveOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::SaveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.isWord())
      return op.emitOpError("is not split into words (bsgp-split-saved-words)");
    Location loc = op.getLoc();
    storePSB(rewriter, loc, adaptor.getValue(),
             addressOf(rewriter, loc, adaptor.getStreams()[0],
                       adaptor.getIndex(), 4),
             4);
    rewriter.eraseOp(op);
    return success();
  }
};

struct LoadToSPIRV : BSGPToSPIRVPattern<bsgp::LoadOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.isWord())
      return op.emitOpError("is not split into words (bsgp-split-saved-words)");
    Location loc = op.getLoc();
    rewriter.replaceOp(op,
                       loadPSB(rewriter, loc, rewriter.getI32Type(),
                               addressOf(rewriter, loc, adaptor.getStreams()[0],
                                         adaptor.getIndex(), 4),
                               4));
    return success();
  }
};

/// A pointer is its 64-bit address already (see the file comment).
struct PtrToIntToSPIRV : BSGPToSPIRVPattern<bsgp::PtrToIntOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrToIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getPtr());
    return success();
  }
};

struct PtrFromIntToSPIRV : BSGPToSPIRVPattern<bsgp::PtrFromIntOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::PtrFromIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getValue());
    return success();
  }
};

/// `bsgp.atomic_rmw` as the SPIR-V atomic of its kind, relaxed, at device
/// scope. Float exchange goes through the integer bits; float add must
/// have been expanded into a compare-exchange loop (expandFloatAtomicAdds).
struct AtomicRMWToSPIRV : BSGPToSPIRVPattern<bsgp::AtomicRMWOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type t = op.getType();
    Value p = psbPointer(rewriter, op.getLoc(), bsgp::getSPIRVAtomicIntType(t),
                         adaptor.getPtr());
    Value old =
        bsgp::emitSPIRVAtomicRMW(rewriter, op.getLoc(), op.getKind(), t, p,
                                 adaptor.getValue(), spirv::Scope::Device);
    if (!old)
      return rewriter.notifyMatchFailure(op, "no SPIR-V atomic for this kind");
    rewriter.replaceOp(op, old);
    return success();
  }
};

/// `bsgp.atomic_cas` as OpAtomicCompareExchange (relaxed, device scope);
/// floats are compared bit for bit.
struct AtomicCASToSPIRV : BSGPToSPIRVPattern<bsgp::AtomicCASOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type t = op.getType();
    Value p = psbPointer(rewriter, op.getLoc(), bsgp::getSPIRVAtomicIntType(t),
                         adaptor.getPtr());
    rewriter.replaceOp(op, bsgp::emitSPIRVAtomicCAS(rewriter, op.getLoc(), t, p,
                                                    adaptor.getExpected(),
                                                    adaptor.getDesired(),
                                                    spirv::Scope::Device));
    return success();
  }
};

/// `__threadfence()` as OpMemoryBarrier at device scope, acquire-release of
/// device memory (storage buffers) and workgroup memory.
struct FenceToSPIRV : BSGPToSPIRVPattern<bsgp::FenceOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::FenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<spirv::MemoryBarrierOp>(
        op, spirv::Scope::Device,
        spirv::MemorySemantics::AcquireRelease |
            spirv::MemorySemantics::UniformMemory |
            spirv::MemorySemantics::WorkgroupMemory);
    return success();
  }
};

/// `math.trunc`: MLIR's SPIR-V dialect has no GLSL.std.450 Trunc, and
/// MathToSPIRV no lowering of it for shaders. Rounding toward zero is
/// Ceil below zero and Floor elsewhere: -0.0 and NaN take Floor, which
/// keeps them, and Ceil keeps the sign of a negative input that rounds to
/// zero (trunc(-0.5) is -0.0), as C's trunc does.
struct TruncToSPIRV : OpConversionPattern<math::TruncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::TruncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "type has no SPIR-V form");
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    Value zero = spirv::ConstantOp::getZero(type, loc, rewriter);
    Value negative = spirv::FOrdLessThanOp::create(rewriter, loc, x, zero);
    Value up = spirv::GLCeilOp::create(rewriter, loc, type, x);
    Value down = spirv::GLFloorOp::create(rewriter, loc, type, x);
    rewriter.replaceOpWithNewOp<spirv::SelectOp>(op, negative, up, down);
    return success();
  }
};

} // namespace

SmallVector<ModuleOp> bsgp::getSPIRVDeviceModules(ModuleOp host) {
  SmallVector<ModuleOp> modules;
  for (ModuleOp m : host.getOps<ModuleOp>()) {
    auto target =
        m->getAttrOfType<StringAttr>(BSGPDialect::getTargetAttrName());
    if (target && target.getValue() == "spirv")
      modules.push_back(m);
  }
  return modules;
}

void bsgp::addBSGPToSPIRVTypeConversions(SPIRVTypeConverter &converter) {
  converter.addConversion([](bsgp::PtrType t) -> Type {
    return IntegerType::get(t.getContext(), 64);
  });
  converter.addConversion([](bsgp::StreamType t) -> Type {
    return IntegerType::get(t.getContext(), 64);
  });
  auto materialize = [](OpBuilder &b, Type t, ValueRange in,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, t, in).getResult(0);
  };
  converter.addSourceMaterialization(materialize);
  converter.addTargetMaterialization(materialize);
}

void bsgp::populateBSGPToSPIRVPatterns(SPIRVTypeConverter &converter,
                                       RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns
      .add<PtrLoadToSPIRV, PtrStoreToSPIRV, PtrOffsetToSPIRV, PtrNullToSPIRV,
           PtrCastToSPIRV, PtrToIntToSPIRV, PtrFromIntToSPIRV, PtrCmpToSPIRV,
           PtrDiffToSPIRV, SaveToSPIRV, LoadToSPIRV>(converter, ctx);
  patterns.add<AtomicRMWToSPIRV, AtomicCASToSPIRV, FenceToSPIRV>(converter,
                                                                 ctx);
  patterns.add<TruncToSPIRV>(converter, ctx);
}
