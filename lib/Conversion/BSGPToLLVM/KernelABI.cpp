//===- KernelABI.cpp - how kernels receive their parameters ---------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Conversion/BSGPToLLVM/KernelABI.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;

Type bsgp::getKernelParamStorageType(Type type) {
  if (isa<PtrType, StreamType>(type))
    return LLVM::LLVMPointerType::get(type.getContext());
  if (type.isIndex())
    return IntegerType::get(type.getContext(), 64);
  return type;
}

LLVM::LLVMStructType bsgp::getKernelArgsStructType(KernelOp kernel) {
  SmallVector<Type> fields;
  for (Type t : kernel.getArgumentTypes())
    fields.push_back(getKernelParamStorageType(t));
  return LLVM::LLVMStructType::getLiteral(kernel.getContext(), fields);
}

namespace {
/// Size and alignment of a parameter's storage type in the natural C layout
/// LLVM gives the struct on the 64-bit hosts and GPUs: scalars and pointers
/// aligned to their size, vectors to their size rounded up to a power of
/// two (the layout the SPIR-V target reads the struct with).
struct NaturalLayout {
  uint64_t size;
  uint64_t align;
};

NaturalLayout getNaturalLayout(Type t) {
  if (isa<LLVM::LLVMPointerType>(t))
    return {8, 8};
  if (auto vt = dyn_cast<VectorType>(t)) {
    NaturalLayout elt = getNaturalLayout(vt.getElementType());
    uint64_t bytes = elt.size * vt.getNumElements();
    uint64_t align = llvm::PowerOf2Ceil(bytes);
    return {llvm::alignTo(bytes, align), align};
  }
  uint64_t bytes =
      llvm::PowerOf2Ceil(llvm::divideCeil(t.getIntOrFloatBitWidth(), 8));
  return {bytes, bytes};
}
} // namespace

uint64_t bsgp::getKernelArgsSize(KernelOp kernel) {
  // Not DataLayout::closest: MLIR's default layout aligns i64 to 4 bytes,
  // so a struct {i32, i64, i32, ptr} came out 8 bytes short of the one the
  // host fills, and the vulkan backend, which copies args_size bytes to the
  // device, dropped the last parameter.
  uint64_t offset = 0, align = 1;
  for (Type t : getKernelArgsStructType(kernel).getBody()) {
    NaturalLayout l = getNaturalLayout(t);
    offset = llvm::alignTo(offset, l.align) + l.size;
    align = std::max(align, l.align);
  }
  return llvm::alignTo(offset, align);
}

uint64_t bsgp::getKernelArgsAlign(KernelOp kernel) {
  uint64_t align = 8;
  for (Type t : getKernelArgsStructType(kernel).getBody())
    align = std::max(align, getNaturalLayout(t).align);
  return align;
}

Value bsgp::packKernelArgs(OpBuilder &b, Location loc, KernelOp kernel,
                           ValueRange args, Block &entry) {
  // The slot has the struct's alignment: a vector field (a host float3 the
  // threads read) is stored with its own, 16, which a slot aligned to 8
  // breaks on the CPU (movaps faults).
  LLVM::LLVMStructType argsTy = getKernelArgsStructType(kernel);
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  OpBuilder eb = OpBuilder::atBlockBegin(&entry);
  Value one = LLVM::ConstantOp::create(eb, loc, eb.getI64Type(), 1);
  Value slot =
      LLVM::AllocaOp::create(eb, loc, ptr, argsTy, one,
                             static_cast<unsigned>(getKernelArgsAlign(kernel)));
  for (auto [i, arg] : llvm::enumerate(args)) {
    Type storage = argsTy.getBody()[i];
    Value v = arg;
    if (v.getType() != storage)
      v = UnrealizedConversionCastOp::create(b, loc, storage, v).getResult(0);
    Value addr =
        LLVM::GEPOp::create(b, loc, ptr, argsTy, slot,
                            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    LLVM::StoreOp::create(b, loc, v, addr);
  }
  return slot;
}

std::string bsgp::getCPUEntryName(StringRef kernelName) {
  return (kernelName + "__cpu").str();
}
