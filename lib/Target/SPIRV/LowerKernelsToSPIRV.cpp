//===- LowerKernelsToSPIRV.cpp - kernels to SPIR-V for Vulkan -------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// Every bsgp.kernel becomes a GLCompute entry point of one SPIR-V module.
// The kernel reads its packed argument struct and thread count from a push
// constant block {uint64 args_address; uint64 size}; the struct lives in a
// PhysicalStorageBuffer at args_address, laid out as on every other target
// (KernelABI.h). BSGP pointers and streams are 64-bit device addresses:
// they are integers in SPIR-V and become PhysicalStorageBuffer pointers only
// at a load or store, which keeps pointer arithmetic, comparison and saving
// a pointer to two stream words plain integer code.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Target/Passes.h"
#include "bsgp/Target/KernelBody.h"
#include "bsgp/Target/SPIRV/SPIRV.h"
#include "Atomics.h"
#include "GroupOps.h"
#include "LocalArrays.h"
#include "Recursion.h"
#include "SignedCompares.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"
#include "bsgp/Transforms/TargetQueries.h"

#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Conversion/ControlFlowToSPIRV/ControlFlowToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/IndexToSPIRV/IndexToSPIRV.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/UBToSPIRV/UBToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "mlir/Transforms/CFGToSCF.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace bsgp {
#define GEN_PASS_DEF_LOWERKERNELSTOSPIRV
#include "bsgp/Target/Passes.h.inc"
} // namespace bsgp

using namespace mlir;

namespace {

constexpr spirv::StorageClass kPSB = spirv::StorageClass::PhysicalStorageBuffer;

/// The SPIR-V 1.6 (Vulkan 1.3) environment kernels are compiled for. It
/// lists what kernels may use; spirv-update-vce trims the module's
/// requirements to what they do use.
spirv::TargetEnvAttr getVulkanTargetEnv(MLIRContext *ctx) {
  using C = spirv::Capability;
  C caps[] = {C::Shader,
              C::Int8,
              C::Int16,
              C::Int64,
              C::Float16,
              C::Float64,
              C::StorageBuffer8BitAccess,
              C::StorageBuffer16BitAccess,
              C::PhysicalStorageBufferAddresses,
              C::Int64Atomics,
              C::GroupNonUniform,
              C::GroupNonUniformVote,
              C::GroupNonUniformBallot,
              C::GroupNonUniformShuffle,
              C::GroupNonUniformArithmetic};
  auto vce = spirv::VerCapExtAttr::get(spirv::Version::V_1_6, caps,
                                       ArrayRef<spirv::Extension>{}, ctx);
  return spirv::TargetEnvAttr::get(vce, spirv::getDefaultResourceLimits(ctx),
                                   spirv::ClientAPI::Vulkan);
}

/// What a kernel parameter or a pointee is stored as: pointers and streams
/// are 64-bit addresses, `index` is i64, `i1` is a byte (as in the C layout).
Type getMemoryType(Type t) {
  MLIRContext *ctx = t.getContext();
  if (isa<bsgp::PtrType, bsgp::StreamType>(t) || t.isIndex())
    return IntegerType::get(ctx, 64);
  if (t.isInteger(1))
    return IntegerType::get(ctx, 8);
  return t;
}

/// Loads a `type` (already a SPIR-V memory type) from device address `addr`.
Value loadPSB(OpBuilder &b, Location loc, Type type, Value addr,
              uint64_t align) {
  Value p = spirv::ConvertUToPtrOp::create(
      b, loc, spirv::PointerType::get(type, kPSB), addr);
  return spirv::LoadOp::create(
      b, loc, p,
      spirv::MemoryAccessAttr::get(b.getContext(),
                                   spirv::MemoryAccess::Aligned),
      b.getI32IntegerAttr(align));
}

void storePSB(OpBuilder &b, Location loc, Value value, Value addr,
              uint64_t align) {
  Value p = spirv::ConvertUToPtrOp::create(
      b, loc, spirv::PointerType::get(value.getType(), kPSB), addr);
  auto store = spirv::StoreOp::create(b, loc, p, value);
  store.setMemoryAccessAttr(spirv::MemoryAccessAttr::get(
      b.getContext(), spirv::MemoryAccess::Aligned));
  store.setAlignmentAttr(b.getI32IntegerAttr(align));
}

/// Brings an element index to i64 as C does: sign-extended.
Value toI64(OpBuilder &b, Location loc, Value index) {
  Type i64 = b.getI64Type();
  if (index.getType().isIndex())
    return arith::IndexCastOp::create(b, loc, i64, index);
  unsigned width = index.getType().getIntOrFloatBitWidth();
  if (width < 64)
    return arith::ExtSIOp::create(b, loc, i64, index);
  if (width > 64)
    return arith::TruncIOp::create(b, loc, i64, index);
  return index;
}

/// `base + index * scale` in bytes.
Value addressOf(OpBuilder &b, Location loc, Value base, Value index,
                uint64_t scale) {
  Value scaled = arith::MulIOp::create(
      b, loc, toI64(b, loc, index),
      arith::ConstantIntOp::create(b, loc, b.getI64Type(), scale));
  return arith::AddIOp::create(b, loc, base, scaled);
}

/// Size and alignment of a value in memory.
struct ElementInfo {
  uint64_t size;
  uint64_t align;
};

/// The natural C layout of a BSGP value in memory, as LLVM lays it out on
/// the 64-bit hosts and GPUs the other targets use (the packed argument
/// struct is built by the host with LLVM's layout): scalars and pointers are
/// aligned to their size, vectors to their size rounded up to a power of
/// two. MLIR's default data layout differs (i64 aligned to 4), so it is not
/// used here.
std::optional<ElementInfo> getNaturalLayout(Type t) {
  if (isa<bsgp::PtrType, bsgp::StreamType>(t) || t.isIndex())
    return ElementInfo{8, 8};
  if (isa<IntegerType, FloatType>(t)) {
    uint64_t bytes =
        llvm::PowerOf2Ceil(llvm::divideCeil(t.getIntOrFloatBitWidth(), 8));
    return ElementInfo{bytes, bytes};
  }
  if (auto vt = dyn_cast<VectorType>(t)) {
    if (vt.getRank() != 1 || vt.isScalable())
      return std::nullopt;
    std::optional<ElementInfo> elt = getNaturalLayout(vt.getElementType());
    if (!elt)
      return std::nullopt;
    uint64_t bytes = elt->size * vt.getNumElements();
    uint64_t align = llvm::PowerOf2Ceil(bytes);
    return ElementInfo{llvm::alignTo(bytes, align), align};
  }
  return std::nullopt;
}

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
    Value v = loadPSB(rewriter, loc, memTy, addr, info->align);
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
    rewriter.replaceOp(op, arith::ConstantIntOp::create(
                               rewriter, op.getLoc(), rewriter.getI64Type(), 0));
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
    Value bytes =
        arith::SubIOp::create(rewriter, loc, adaptor.getLhs(), adaptor.getRhs());
    rewriter.replaceOpWithNewOp<arith::DivSIOp>(
        op, bytes,
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(),
                                     info->size));
    return success();
  }
};

/// Splits `v` (of BSGP type `t`, SPIR-V-convertible) into 32-bit words, low
/// word first, as bsgp.save defines them.
LogicalResult splitWords(OpBuilder &b, Location loc, Value v, Type t,
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
    words.push_back(it.getWidth() == 32 ? v
                                        : arith::ExtUIOp::create(b, loc, i32, v));
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
FailureOr<Value> joinWords(OpBuilder &b, Location loc, Type t,
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
      return Value(
          arith::TruncIOp::create(b, loc, b.getIntegerType(width), w));
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

/// A pointer to `memTy` in the physical storage buffer at address `addr`.
Value psbPointer(OpBuilder &b, Location loc, Type memTy, Value addr) {
  return spirv::ConvertUToPtrOp::create(
      b, loc, spirv::PointerType::get(memTy, kPSB), addr);
}

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
    Value old = bsgp::emitSPIRVAtomicRMW(rewriter, op.getLoc(), op.getKind(),
                                         t, p, adaptor.getValue(),
                                         spirv::Scope::Device);
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
    rewriter.replaceOp(op, bsgp::emitSPIRVAtomicCAS(
                               rewriter, op.getLoc(), t, p,
                               adaptor.getExpected(), adaptor.getDesired(),
                               spirv::Scope::Device));
    return success();
  }
};

/// Vulkan lets OpFDiv be off by 2.5 ULP (NVIDIA's driver multiplies by an
/// approximate reciprocal), but BSGP gives IEEE results on every target. A
/// float quotient is therefore computed in double precision and rounded
/// once: the exact quotient of two floats is either a float midpoint, which
/// a double holds exactly, or at least 2^-48 (relative) away from one, far
/// more than a double division's error, so the rounding to float is the
/// IEEE one.
void divideFloatsInDouble(Operation *root) {
  SmallVector<arith::DivFOp> divs;
  root->walk([&](arith::DivFOp div) {
    if (getElementTypeOrSelf(div.getType()).isF32())
      divs.push_back(div);
  });
  for (arith::DivFOp div : divs) {
    OpBuilder b(div);
    Location loc = div.getLoc();
    Type f64 = b.getF64Type();
    Type wide = f64;
    if (auto vec = dyn_cast<VectorType>(div.getType()))
      wide = VectorType::get(vec.getShape(), f64);
    Value lhs = arith::ExtFOp::create(b, loc, wide, div.getLhs());
    Value rhs = arith::ExtFOp::create(b, loc, wide, div.getRhs());
    Value q = arith::DivFOp::create(b, loc, lhs, rhs);
    Value narrow = arith::TruncFOp::create(b, loc, div.getType(), q);
    div.replaceAllUsesWith(narrow);
    div.erase();
  }
}

/// MLIR's SPIR-V dialect has no OpAtomicLoad: each `bsgp.atomic_load`
/// becomes an atomic or of 0, which reads the same value (and is predicated
/// and lowered as the other atomics are).
void rewriteAtomicLoads(Operation *root) {
  SmallVector<bsgp::AtomicLoadOp> loads;
  root->walk([&](bsgp::AtomicLoadOp op) { loads.push_back(op); });
  for (bsgp::AtomicLoadOp op : loads) {
    OpBuilder b(op);
    Value zero = arith::ConstantIntOp::create(b, op.getLoc(), op.getType(), 0);
    Value v = bsgp::AtomicRMWOp::create(b, op.getLoc(), op.getType(),
                                        arith::AtomicRMWKind::ori, zero,
                                        op.getPtr());
    op.replaceAllUsesWith(v);
    op.erase();
  }
}

/// SPIR-V has no float atomic add without an extension: each
/// `bsgp.atomic_rmw addf` becomes a compare-exchange loop on the bits,
///   old = *p; while ((seen = cas(p, old, old + v)) != old) old = seen;
/// whose result, the value the successful exchange replaced, is the old
/// value the op returns.
void expandFloatAtomicAdds(Operation *root) {
  SmallVector<bsgp::AtomicRMWOp> adds;
  root->walk([&](bsgp::AtomicRMWOp op) {
    if (op.getKind() == arith::AtomicRMWKind::addf)
      adds.push_back(op);
  });
  for (bsgp::AtomicRMWOp op : adds) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Type t = op.getType();
    Type intTy = b.getIntegerType(t.getIntOrFloatBitWidth());
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    Value init = bsgp::PtrLoadOp::create(b, loc, t, op.getPtr(), zero);
    auto loop = scf::WhileOp::create(b, loc, TypeRange{t}, ValueRange{init});
    Block *before = b.createBlock(&loop.getBefore(), {}, {t}, {loc});
    Value old = before->getArgument(0);
    Value sum = arith::AddFOp::create(b, loc, old, op.getValue());
    Value seen = bsgp::AtomicCASOp::create(b, loc, t, op.getPtr(), old, sum);
    // Bits, not float equality: a NaN or -0.0 in memory must still end it.
    Value differ = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::BitcastOp::create(b, loc, intTy, seen),
        arith::BitcastOp::create(b, loc, intTy, old));
    scf::ConditionOp::create(b, loc, differ, ValueRange{seen});
    Block *after = b.createBlock(&loop.getAfter(), {}, {t}, {loc});
    scf::YieldOp::create(b, loc, after->getArgument(0));
    op.getResult().replaceAllUsesWith(loop.getResult(0));
    op.erase();
  }
}

/// True if a SPIR-V atomic of `module` acts on a 64-bit integer.
bool usesInt64Atomics(spirv::ModuleOp module) {
  WalkResult found = module.walk([](Operation *op) {
    if (!op->getName().getStringRef().starts_with("spirv.Atomic") ||
        op->getNumResults() != 1)
      return WalkResult::advance();
    return op->getResult(0).getType().isInteger(64) ? WalkResult::interrupt()
                                                    : WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// True if a variable of `module` is a subgroup built-in.
bool usesSubgroupBuiltins(spirv::ModuleOp module) {
  for (auto var : module.getOps<spirv::GlobalVariableOp>()) {
    std::optional<StringRef> builtin = var.getBuiltIn();
    if (builtin && builtin->starts_with("Subgroup"))
      return true;
  }
  return false;
}

/// The global variables `entry` and the functions it calls use, in the
/// module's order: an entry point's interface.
SmallVector<Attribute> getInterface(spirv::ModuleOp module,
                                    spirv::FuncOp entry) {
  llvm::SetVector<StringAttr> used;
  llvm::SetVector<Operation *> fns;
  fns.insert(entry);
  for (size_t i = 0; i < fns.size(); ++i)
    fns[i]->walk([&](Operation *op) {
      if (auto addr = dyn_cast<spirv::AddressOfOp>(op))
        used.insert(addr.getVariableAttr().getAttr());
      if (auto call = dyn_cast<spirv::FunctionCallOp>(op))
        if (Operation *callee = module.lookupSymbol(call.getCalleeAttr()))
          fns.insert(callee);
    });
  SmallVector<Attribute> iface;
  for (auto var : module.getOps<spirv::GlobalVariableOp>())
    if (used.contains(var.getSymNameAttr()))
      iface.push_back(SymbolRefAttr::get(var.getSymNameAttr()));
  return iface;
}

struct LowerKernelsToSPIRVPass
    : public bsgp::impl::LowerKernelsToSPIRVBase<LowerKernelsToSPIRVPass> {
  using LowerKernelsToSPIRVBase::LowerKernelsToSPIRVBase;
  void runOnOperation() override;

private:
  LogicalResult buildKernel(bsgp::KernelOp kernel, OpBuilder &db);
  LogicalResult structurize(spirv::ModuleOp device);
  LogicalResult convert(spirv::ModuleOp device);
  LogicalResult validateAndOptimize(ModuleOp host,
                                    std::vector<uint32_t> &words);

  Value loadPushConstant(OpBuilder &b, Location loc, int32_t member);

  std::optional<bsgp::SPIRVBuiltins> builtins;
  spirv::GlobalVariableOp pushConstants;
};

} // namespace

Value LowerKernelsToSPIRVPass::loadPushConstant(OpBuilder &b, Location loc,
                                                int32_t member) {
  Value pc = spirv::AddressOfOp::create(b, loc, pushConstants);
  Value idx = spirv::ConstantOp::create(b, loc, b.getI32Type(),
                                        b.getI32IntegerAttr(member));
  Value p = spirv::AccessChainOp::create(b, loc, pc, ValueRange{idx});
  return spirv::LoadOp::create(b, loc, p);
}

/// Kernels without work-group operations guard their body with the bounds
/// check and return at once past the thread count. Kernels with them run
/// every invocation to the end (predicateMissingRanks), and number the
/// invocations of a workgroup so that subgroups are consecutive ranks
/// (emitGroupRank).
LogicalResult LowerKernelsToSPIRVPass::buildKernel(bsgp::KernelOp kernel,
                                                   OpBuilder &db) {
  if (kernel.getBody().empty())
    return kernel.emitOpError("has no body to compile for SPIR-V");
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  Type i32 = db.getI32Type(), i64 = db.getI64Type();

  // The body with the target queries folded, so that group operations in
  // branches for other targets do not count.
  OwningOpRef<bsgp::KernelOp> folded(cast<bsgp::KernelOp>(kernel->clone()));
  bsgp::foldTargetQueries(*folded, "spirv");
  bool grouped = bsgp::usesGroupOps(*folded);

  auto fn = func::FuncOp::create(db, loc, kernel.getSymName(),
                                 FunctionType::get(ctx, {}, {}));
  OpBuilder b(ctx);
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);

  // Push constants: {uint64 args_address; uint64 size}.
  Value args = loadPushConstant(b, loc, 0), size = loadPushConstant(b, loc, 1);

  // The packed struct has the natural C layout of the parameters' storage
  // types (KernelABI.h).
  IRMapping mapping;
  Block &kernelEntry = folded->getBody().front();
  uint64_t offset = 0;
  for (BlockArgument param : kernelEntry.getArguments()) {
    std::optional<ElementInfo> info = getNaturalLayout(param.getType());
    if (!info)
      return kernel.emitOpError("parameter of type ")
             << param.getType() << " is not supported by the SPIR-V target";
    uint64_t align = info->align;
    offset = llvm::alignTo(offset, align);
    Type memTy = getMemoryType(param.getType());
    Value addr = arith::AddIOp::create(
        b, loc, args, arith::ConstantIntOp::create(b, loc, i64, offset));
    Value v = loadPSB(b, loc, memTy, addr, align);
    if (param.getType().isInteger(1))
      v = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v,
                                arith::ConstantIntOp::create(b, loc, memTy, 0));
    else if (v.getType() != param.getType())
      v = UnrealizedConversionCastOp::create(b, loc, param.getType(), v)
              .getResult(0);
    mapping.map(param, v);
    offset += info->size;
  }

  // rank = GlobalInvocationId.x + GlobalInvocationId.y * (NumWorkgroups.x *
  // 256), in 64 bits: a launch of more than 65535 workgroups is dispatched
  // as a 2D grid. With group operations, the same with the workgroup's
  // invocations numbered by subgroup.
  Value rank64, groupStart;
  if (grouped) {
    Value group = arith::ExtUIOp::create(b, loc, i64,
                                         bsgp::emitGroupId(b, loc, *builtins));
    Value local = arith::ExtUIOp::create(
        b, loc, i64, bsgp::emitGroupRank(b, loc, *builtins));
    groupStart = arith::MulIOp::create(
        b, loc, group,
        arith::ConstantIntOp::create(b, loc, i64, bsgp::kSPIRVWorkgroupSize));
    rank64 = arith::AddIOp::create(b, loc, groupStart, local);
  } else {
    Value gid = builtins->load(b, loc, spirv::BuiltIn::GlobalInvocationId);
    Value groups = builtins->load(b, loc, spirv::BuiltIn::NumWorkgroups);
    auto component = [&](Value v, int32_t i) -> Value {
      return arith::ExtUIOp::create(
          b, loc, i64, spirv::CompositeExtractOp::create(b, loc, v, {i}));
    };
    Value rowWidth = arith::MulIOp::create(
        b, loc, component(groups, 0),
        arith::ConstantIntOp::create(b, loc, i64, bsgp::kSPIRVWorkgroupSize));
    rank64 = arith::AddIOp::create(
        b, loc, component(gid, 0),
        arith::MulIOp::create(b, loc, component(gid, 1), rowWidth));
  }
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rank64, size);
  Value rank = arith::TruncIOp::create(b, loc, i32, rank64);
  Value size32 = arith::TruncIOp::create(b, loc, i32, size);

  // Without group operations, ranks past the thread count return at once;
  // with them, whole workgroups past it do (a 2D launch has some), which
  // keeps every invocation of a workgroup that runs the body alive.
  Value guardCond = inRange;
  if (grouped)
    guardCond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                      groupStart, size);
  auto guard = scf::IfOp::create(b, loc, TypeRange{}, guardCond,
                                 /*addThenBlock=*/true,
                                 /*addElseBlock=*/false);
  Block *body = &guard.getThenRegion().front();
  b.setInsertionPointToStart(body);
  auto region = scf::ExecuteRegionOp::create(b, loc, TypeRange{});
  b.cloneRegionBefore(folded->getBody(), region.getRegion(),
                      region.getRegion().end(), mapping);
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);

  SmallVector<Operation *> toReplace;
  region.getRegion().walk([&](Operation *op) {
    if (isa<bsgp::ThreadRankOp, bsgp::ThreadSizeOp, bsgp::ReturnOp>(op))
      toReplace.push_back(op);
  });
  for (Operation *op : toReplace) {
    OpBuilder rb(op);
    if (isa<bsgp::ReturnOp>(op)) {
      scf::YieldOp::create(rb, op->getLoc());
      op->erase();
      continue;
    }
    op->getResult(0).replaceAllUsesWith(isa<bsgp::ThreadRankOp>(op) ? rank
                                                                    : size32);
    op->erase();
  }

  // A single-block body needs no region of its own; inlining it keeps the
  // kernel structured, so that it skips the CFG round trip below.
  if (region.getRegion().hasOneBlock()) {
    Block &inner = region.getRegion().front();
    Operation *yield = inner.getTerminator();
    yield->erase();
    body->getOperations().splice(Block::iterator(region),
                                 inner.getOperations());
    region.erase();
  }
  rewriteAtomicLoads(fn);
  if (grouped) {
    // SPIR-V's core has no match: ballots, which missing ranks then vote
    // false in.
    bsgp::expandSubgroupMatches(fn);
    return bsgp::predicateMissingRanks(*body, body->begin(), inRange,
                                       {rank64, rank});
  }
  return success();
}

/// SPIR-V shaders need structured control flow. Functions with branches
/// (early returns, or regions that scf cannot hold) go through the CFG and
/// come back as scf.if / scf.while.
LogicalResult LowerKernelsToSPIRVPass::structurize(spirv::ModuleOp device) {
  MLIRContext *ctx = device.getContext();
  for (func::FuncOp fn : device.getOps<func::FuncOp>()) {
    bool unstructured = !fn.getBody().hasOneBlock();
    fn.walk([&](Operation *op) {
      if (isa<scf::ExecuteRegionOp>(op) ||
          (op->getNumRegions() && !op->getRegion(0).empty() &&
           !op->getRegion(0).hasOneBlock()))
        unstructured = true;
    });
    if (!unstructured)
      continue;
    RewritePatternSet patterns(ctx);
    populateSCFToControlFlowConversionPatterns(patterns);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<scf::SCFDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(fn, target, std::move(patterns))))
      return failure();
    ControlFlowToSCFTransformation transformation;
    DominanceInfo dominance(fn);
    if (failed(transformCFGToSCF(fn.getBody(), transformation, dominance)))
      return fn.emitError("control flow that SPIR-V cannot express");
  }
  return success();
}

LogicalResult LowerKernelsToSPIRVPass::convert(spirv::ModuleOp device) {
  MLIRContext *ctx = device.getContext();
  spirv::TargetEnvAttr env = spirv::lookupTargetEnvOrDefault(device);
  SPIRVConversionOptions options;
  options.use64bitIndex = true;
  SPIRVTypeConverter converter(env, options);
  converter.addConversion([ctx](bsgp::PtrType) -> Type {
    return IntegerType::get(ctx, 64);
  });
  converter.addConversion([ctx](bsgp::StreamType) -> Type {
    return IntegerType::get(ctx, 64);
  });
  auto materialize = [](OpBuilder &b, Type t, ValueRange in,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, t, in).getResult(0);
  };
  converter.addSourceMaterialization(materialize);
  converter.addTargetMaterialization(materialize);

  RewritePatternSet patterns(ctx);
  ScfToSPIRVContext scfContext;
  arith::populateArithToSPIRVPatterns(converter, patterns);
  cf::populateControlFlowToSPIRVPatterns(converter, patterns);
  populateFuncToSPIRVPatterns(converter, patterns);
  populateBuiltinFuncToSPIRVPatterns(converter, patterns);
  populateMathToSPIRVPatterns(converter, patterns);
  populateSCFToSPIRVPatterns(converter, scfContext, patterns);
  index::populateIndexToSPIRVPatterns(converter, patterns);
  ub::populateUBToSPIRVConversionPatterns(converter, patterns);
  // BSGP's vectors (float3(...), v.xy, v + s) are vector ops of 2 to 4 lanes.
  populateVectorToSPIRVPatterns(converter, patterns);
  patterns.add<PtrLoadToSPIRV, PtrStoreToSPIRV, PtrOffsetToSPIRV,
               PtrNullToSPIRV, PtrCastToSPIRV, PtrCmpToSPIRV, PtrDiffToSPIRV,
               SaveToSPIRV, LoadToSPIRV>(converter, ctx);
  patterns.add<AtomicRMWToSPIRV, AtomicCASToSPIRV>(converter, ctx);

  std::unique_ptr<ConversionTarget> target = SPIRVConversionTarget::get(env);
  target->addLegalOp<UnrealizedConversionCastOp>();
  if (failed(applyPartialConversion(device, *target, std::move(patterns))))
    return failure();

  SmallVector<UnrealizedConversionCastOp> casts;
  device.walk([&](UnrealizedConversionCastOp c) { casts.push_back(c); });
  SmallVector<UnrealizedConversionCastOp> remaining;
  reconcileUnrealizedCasts(casts, &remaining);
  for (UnrealizedConversionCastOp c : remaining)
    return c.emitError("cannot lower this value for the SPIR-V target");

  WalkResult left = device.walk([&](Operation *op) {
    if (op == device.getOperation() ||
        isa<spirv::SPIRVDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitError("'") << op->getName()
                       << "' has no lowering for the SPIR-V target";
    return WalkResult::interrupt();
  });
  return failure(left.wasInterrupted());
}

/// Runs SPIRV-Tools' validator (and optimizer) on the serialized module.
/// Invalid SPIR-V is a bug of this pass, not of the program; the error
/// points at the kernel or function the validator names, when it names one.
LogicalResult
LowerKernelsToSPIRVPass::validateAndOptimize(ModuleOp host,
                                             std::vector<uint32_t> &words) {
  bsgp::SPIRVToolsError error;
  if (succeeded(bsgp::validateAndOptimizeSPIRV(words, optLevel, error)))
    return success();
  Location loc = host.getLoc();
  if (!error.function.empty())
    if (Operation *sym = host.lookupSymbol(error.function))
      loc = sym->getLoc();
  InFlightDiagnostic diag = emitError(loc)
                            << "internal compiler error: the SPIR-V module ";
  if (error.optimizerFailed)
    diag << "cannot be optimized by SPIRV-Tools";
  else if (error.optimized)
    diag << "after SPIRV-Tools' optimizer fails Vulkan 1.3 validation";
  else
    diag << "fails Vulkan 1.3 validation";
  if (!error.function.empty())
    diag << " in function '" << error.function << "'";
  diag << ": " << error.message;
  return failure();
}

void LowerKernelsToSPIRVPass::runOnOperation() {
  ModuleOp host = getOperation();
  MLIRContext *ctx = host.getContext();
  SmallVector<bsgp::KernelOp> kernels;
  bsgp::getKernelsForTarget(host, "spirv", kernels);
  if (kernels.empty())
    return;
  Location loc = host.getLoc();

  OpBuilder mb(ctx);
  OwningOpRef<spirv::ModuleOp> device = spirv::ModuleOp::create(
      mb, loc, spirv::AddressingModel::PhysicalStorageBuffer64,
      spirv::MemoryModel::GLSL450);
  device.get()->setAttr(spirv::getTargetEnvAttrName(),
                        getVulkanTargetEnv(ctx));
  OpBuilder db = OpBuilder::atBlockEnd(device->getBody());

  Type i64 = db.getI64Type();
  builtins.emplace(*device);
  builtins->get(spirv::BuiltIn::GlobalInvocationId);
  builtins->get(spirv::BuiltIn::NumWorkgroups);
  auto pcStruct = spirv::StructType::get(
      {i64, i64}, {0, 8}, {},
      {spirv::StructType::StructDecorationInfo(spirv::Decoration::Block,
                                               UnitAttr::get(ctx))});
  pushConstants = spirv::GlobalVariableOp::create(
      db, loc,
      spirv::PointerType::get(pcStruct, spirv::StorageClass::PushConstant),
      "bsgp_push_constants");

  // The device functions kernels call, transitively.
  SmallVector<func::FuncOp> callees;
  if (failed(bsgp::collectDeviceFunctions(host, kernels, callees)) ||
      failed(bsgp::rejectSPIRVRecursion(callees)))
    return signalPassFailure();
  // SPIR-V functions have no visibility: the module holds nothing else.
  for (func::FuncOp callee : callees)
    cast<func::FuncOp>(db.clone(*callee)).setPublic();
  for (bsgp::KernelOp kernel : kernels)
    if (failed(buildKernel(kernel, db)))
      return signalPassFailure();
  // Before any check or conversion: code for the other targets goes away.
  bsgp::foldTargetQueries(*device, "spirv");
  // Chunk accumulations under `if (target.cpu)` are gone by now.
  if (failed(bsgp::rejectChunkOps(*device, "SPIR-V")) ||
      failed(bsgp::rejectGroupLookbacks(*device, "SPIR-V")))
    return signalPassFailure();
  for (func::FuncOp fn : device->getOps<func::FuncOp>())
    if (failed(bsgp::lowerGroupOpsToSPIRV(
            fn, *builtins, [&](OpBuilder &b, Location l) {
              return loadPushConstant(b, l, 1);
            })))
      return signalPassFailure();
  rewriteAtomicLoads(*device);
  expandFloatAtomicAdds(*device);
  divideFloatsInDouble(*device);
  // Local arrays while pointers still have their element types and before
  // the CFG round trip, which would hide where a pointer comes from.
  for (func::FuncOp fn : device->getOps<func::FuncOp>())
    if (failed(bsgp::lowerLocalArraysToSPIRV(fn)))
      return signalPassFailure();
  if (failed(structurize(*device)))
    return signalPassFailure();
  bsgp::rewriteSignedRemainders(*device);
  bsgp::rewriteSigned64Compares(*device);
  if (failed(convert(*device)))
    return signalPassFailure();
  // Vulkan drivers may fuse or reassociate float arithmetic unless told not
  // to; BSGP promises the IEEE results of the cpu and cuda targets (no FMA
  // contraction), so every float operation carries NoContraction.
  device.get()->walk([](Operation *op) {
    if (isa<spirv::FAddOp, spirv::FSubOp, spirv::FMulOp, spirv::FDivOp,
            spirv::FRemOp, spirv::FModOp, spirv::FNegateOp>(op))
      op->setAttr("no_contraction", UnitAttr::get(op->getContext()));
  });

  // Entry points: one per kernel, 256 threads per workgroup (the runtime
  // dispatches ceil(size / 256) workgroups). Their interface lists every
  // global variable their call tree uses (SPIR-V 1.4 and later).
  db.setInsertionPointToEnd(device->getBody());
  for (bsgp::KernelOp kernel : kernels) {
    auto fn = device->lookupSymbol<spirv::FuncOp>(kernel.getSymName());
    if (!fn) {
      kernel.emitOpError("was not lowered to a SPIR-V function");
      return signalPassFailure();
    }
    spirv::EntryPointOp::create(db, loc, spirv::ExecutionModel::GLCompute, fn,
                                getInterface(*device, fn));
    spirv::ExecutionModeOp::create(
        db, loc, fn, spirv::ExecutionMode::LocalSize,
        ArrayRef<int32_t>{bsgp::kSPIRVWorkgroupSize, 1, 1});
  }
  device.get()->walk([](Operation *op) {
    SmallVector<StringAttr> names;
    for (NamedAttribute a : op->getDiscardableAttrs())
      if (a.getName().getValue().starts_with("bsgp."))
        names.push_back(a.getName());
    for (StringAttr n : names)
      op->removeDiscardableAttr(n);
  });

  // The minimal capabilities for what the kernels use.
  PassManager pm(ctx, spirv::ModuleOp::getOperationName());
  pm.addPass(spirv::createSPIRVUpdateVCEPass());
  if (failed(pm.run(*device))) {
    host.emitError("SPIR-V code generation failed");
    return signalPassFailure();
  }
  // The module is SPIR-V 1.6 (Vulkan 1.3) whatever the minimum version of
  // its instructions: entry points list the push constants among their
  // interface variables (1.4), and physical storage buffers are core (1.5).
  spirv::VerCapExtAttr vce = device->getVceTriple().value();
  SmallVector<spirv::Capability> caps;
  for (spirv::Capability c : vce.getCapabilities())
    caps.push_back(c);
  // spirv-update-vce does not derive Int64Atomics from the atomics' type,
  // nor GroupNonUniform from the subgroup built-ins.
  if (usesInt64Atomics(*device))
    caps.push_back(spirv::Capability::Int64Atomics);
  if (usesSubgroupBuiltins(*device) &&
      !llvm::is_contained(caps, spirv::Capability::GroupNonUniform))
    caps.push_back(spirv::Capability::GroupNonUniform);
  SmallVector<spirv::Extension> exts;
  for (spirv::Extension e : vce.getExtensions())
    if (e != spirv::Extension::SPV_EXT_physical_storage_buffer &&
        e != spirv::Extension::SPV_KHR_physical_storage_buffer)
      exts.push_back(e);
  device->setVceTripleAttr(
      spirv::VerCapExtAttr::get(spirv::Version::V_1_6, caps, exts, ctx));

  SmallVector<uint32_t> serialized;
  if (failed(spirv::serialize(*device, serialized))) {
    host.emitError("SPIR-V serialization failed");
    return signalPassFailure();
  }
  std::vector<uint32_t> words(serialized.begin(), serialized.end());
  if (failed(validateAndOptimize(host, words)))
    return signalPassFailure();
  host->setAttr(bsgp::kSPIRVAttrName,
                StringAttr::get(ctx, StringRef(reinterpret_cast<const char *>(
                                                   words.data()),
                                               words.size() * 4)));
}
