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

/// Splits `v` (of BSGP type `t`, SPIR-V-convertible) into 32-bit words, low
/// word first, as bsgp.save defines them.
static LogicalResult splitWords(OpBuilder &b, Location loc, Value v, Type t,
                                SmallVectorImpl<Value> &words) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  if (auto vt = dyn_cast<VectorType>(t)) {
    if (vt.getRank() != 1 || vt.isScalable())
      return failure();
    for (int32_t i = 0, e = vt.getNumElements(); i < e; ++i) {
      Value elt = spirv::CompositeExtractOp::create(b, loc, v, {i});
      if (failed(splitWords(b, loc, elt, vt.getElementType(), words)))
        return failure();
    }
    return success();
  }
  if (isa<bsgp::PtrType, bsgp::StreamType>(t) || t.isIndex())
    t = i64;
  if (auto ft = dyn_cast<FloatType>(t)) {
    t = b.getIntegerType(ft.getWidth());
    v = arith::BitcastOp::create(b, loc, t, v);
  }
  auto it = dyn_cast<IntegerType>(t);
  if (!it)
    return failure();
  if (it.getWidth() <= 32) {
    words.push_back(
        it.getWidth() == 32 ? v : arith::ExtUIOp::create(b, loc, i32, v));
    return success();
  }
  if (it.getWidth() != 64)
    return failure();
  Value hi = arith::ShRUIOp::create(
      b, loc, v, arith::ConstantIntOp::create(b, loc, i64, 32));
  words.push_back(arith::TruncIOp::create(b, loc, i32, v));
  words.push_back(arith::TruncIOp::create(b, loc, i32, hi));
  return success();
}

/// The inverse of splitWords: a value of BSGP type `t` (in its SPIR-V form)
/// from `words`, consumed from the front.
static FailureOr<Value> joinWords(OpBuilder &b, Location loc, Type t,
                                  const TypeConverter &converter,
                                  ArrayRef<Value> &words) {
  Type i64 = b.getI64Type();
  if (auto vt = dyn_cast<VectorType>(t)) {
    if (vt.getRank() != 1 || vt.isScalable())
      return failure();
    SmallVector<Value> elts;
    for (int64_t i = 0, e = vt.getNumElements(); i < e; ++i) {
      FailureOr<Value> elt =
          joinWords(b, loc, vt.getElementType(), converter, words);
      if (failed(elt))
        return failure();
      elts.push_back(*elt);
    }
    Type spvTy = converter.convertType(vt);
    if (!spvTy)
      return failure();
    return Value(spirv::CompositeConstructOp::create(b, loc, spvTy, elts));
  }
  auto takeInt = [&](unsigned width) -> FailureOr<Value> {
    if (width <= 32) {
      if (words.empty())
        return failure();
      Value w = words.front();
      words = words.drop_front();
      if (width == 32)
        return w;
      return Value(arith::TruncIOp::create(b, loc, b.getIntegerType(width), w));
    }
    if (width != 64 || words.size() < 2)
      return failure();
    Value lo = arith::ExtUIOp::create(b, loc, i64, words[0]);
    Value hi = arith::ExtUIOp::create(b, loc, i64, words[1]);
    words = words.drop_front(2);
    hi = arith::ShLIOp::create(b, loc, hi,
                               arith::ConstantIntOp::create(b, loc, i64, 32));
    return Value(arith::OrIOp::create(b, loc, lo, hi));
  };
  if (isa<bsgp::PtrType, bsgp::StreamType>(t) || t.isIndex())
    return takeInt(64);
  if (auto ft = dyn_cast<FloatType>(t)) {
    FailureOr<Value> bits = takeInt(ft.getWidth());
    if (failed(bits))
      return failure();
    return Value(arith::BitcastOp::create(b, loc, t, *bits));
  }
  if (auto it = dyn_cast<IntegerType>(t))
    return takeInt(it.getWidth());
  return failure();
}

struct SaveToSPIRV : BSGPToSPIRVPattern<bsgp::SaveOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::SaveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> words;
    if (failed(splitWords(rewriter, loc, adaptor.getValue(),
                          op.getValue().getType(), words)))
      return op.emitOpError("value has no word layout on the SPIR-V target");
    if (words.size() != adaptor.getStreams().size())
      return op.emitOpError("value has ")
             << words.size() << " words but " << adaptor.getStreams().size()
             << " streams";
    for (auto [w, s] : llvm::zip(words, adaptor.getStreams()))
      storePSB(rewriter, loc, w,
               addressOf(rewriter, loc, s, adaptor.getIndex(), 4), 4);
    rewriter.eraseOp(op);
    return success();
  }
};

struct LoadToSPIRV : BSGPToSPIRVPattern<bsgp::LoadOp> {
  using BSGPToSPIRVPattern::BSGPToSPIRVPattern;
  LogicalResult
  matchAndRewrite(bsgp::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> words;
    for (Value s : adaptor.getStreams())
      words.push_back(
          loadPSB(rewriter, loc, rewriter.getI32Type(),
                  addressOf(rewriter, loc, s, adaptor.getIndex(), 4), 4));
    ArrayRef<Value> rest = words;
    FailureOr<Value> v =
        joinWords(rewriter, loc, op.getType(), *getTypeConverter(), rest);
    if (failed(v) || !rest.empty())
      return op.emitOpError("result type does not match its ")
             << words.size() << " stream words on the SPIR-V target";
    rewriter.replaceOp(op, *v);
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
  patterns.add<PtrLoadToSPIRV, PtrStoreToSPIRV, PtrOffsetToSPIRV,
               PtrNullToSPIRV, PtrCastToSPIRV, PtrCmpToSPIRV, PtrDiffToSPIRV,
               SaveToSPIRV, LoadToSPIRV>(converter, ctx);
  patterns.add<AtomicRMWToSPIRV, AtomicCASToSPIRV, FenceToSPIRV>(converter,
                                                                 ctx);
  patterns.add<TruncToSPIRV>(converter, ctx);
}
