//===- KernelABI.cpp - how kernels receive their parameters ---------------===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#include "bsgp/Target/KernelABI.h"

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Dialect/BSGP/IR/BSGPOps.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

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

uint64_t bsgp::getKernelArgsSize(KernelOp kernel) {
  DataLayout layout = DataLayout::closest(kernel);
  return layout.getTypeSize(getKernelArgsStructType(kernel)).getFixedValue();
}

std::string bsgp::getCPUEntryName(StringRef kernelName) {
  return (kernelName + "__cpu").str();
}
