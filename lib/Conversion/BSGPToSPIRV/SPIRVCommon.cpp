//===- SPIRVCommon.cpp - memory helpers of the SPIR-V passes --------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "SPIRVCommon.h"

#include "bsgp/Conversion/BSGPToSPIRV/BSGPToSPIRV.h"

#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace bsgp::spv {

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

Value coherentPointerPSB(OpBuilder &b, Location loc, Type type, Value addr) {
  auto holder = spirv::StructType::get(
      {type}, {0},
      {spirv::StructType::MemberDecorationInfo(0, spirv::Decoration::Coherent,
                                               b.getUnitAttr())});
  Value p = spirv::ConvertUToPtrOp::create(
      b, loc, spirv::PointerType::get(holder, kPSB), addr);
  return spirv::AccessChainOp::create(
      b, loc, p,
      ValueRange{spirv::ConstantOp::create(b, loc, b.getI32Type(),
                                           b.getI32IntegerAttr(0))});
}

Value loadCoherentPSB(OpBuilder &b, Location loc, Type type, Value addr,
                      uint64_t align) {
  return spirv::LoadOp::create(
      b, loc, coherentPointerPSB(b, loc, type, addr),
      spirv::MemoryAccessAttr::get(b.getContext(),
                                   spirv::MemoryAccess::Volatile |
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
static Value toI64(OpBuilder &b, Location loc, Value index) {
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
  // A struct in memory is its bytes (lib/MLIRGen/MLIRGenStructs.cpp): only
  // its size matters, to step over list elements.
  if (auto at = dyn_cast<LLVM::LLVMArrayType>(t)) {
    std::optional<ElementInfo> elt = getNaturalLayout(at.getElementType());
    if (!elt)
      return std::nullopt;
    return ElementInfo{elt->size * at.getNumElements(), elt->align};
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

Value psbPointer(OpBuilder &b, Location loc, Type memTy, Value addr) {
  return spirv::ConvertUToPtrOp::create(
      b, loc, spirv::PointerType::get(memTy, kPSB), addr);
}

Value loadPushConstant(OpBuilder &b, Location loc, ModuleOp device,
                       int32_t member) {
  auto pushConstants =
      device.lookupSymbol<spirv::GlobalVariableOp>(kSPIRVPushConstantsName);
  Value pc = spirv::AddressOfOp::create(b, loc, pushConstants);
  Value idx = spirv::ConstantOp::create(b, loc, b.getI32Type(),
                                        b.getI32IntegerAttr(member));
  Value p = spirv::AccessChainOp::create(b, loc, pc, ValueRange{idx});
  return spirv::LoadOp::create(b, loc, p);
}

} // namespace bsgp::spv
