//===- KernelABI.h - how kernels receive their parameters -------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A launch hands a kernel one packed struct of its parameters (the runtime's
/// `bsgprt_launch(module, kernel, nthreads, args)`). The struct's layout is
/// the natural C layout of the lowered parameter types; every target and the
/// host derive it from here so that they agree.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_CONVERSION_BSGPTOLLVM_KERNELABI_H
#define BSGP_CONVERSION_BSGPTOLLVM_KERNELABI_H

#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"

namespace mlir {
class Block;
class Location;
class ModuleOp;
class OpBuilder;
namespace LLVM {
class LLVMStructType;
}
} // namespace mlir

namespace bsgp {
class KernelOp;

/// The LLVM-compatible type a kernel parameter has in the packed struct:
/// pointers and streams are `!llvm.ptr`, `index` is i64, the rest unchanged.
mlir::Type getKernelParamStorageType(mlir::Type type);

/// The struct type of `kernel`'s packed parameters.
mlir::LLVM::LLVMStructType getKernelArgsStructType(KernelOp kernel);

/// Size in bytes of `kernel`'s packed parameter struct in the natural C
/// layout (what the runtime copies to devices that need the bytes).
uint64_t getKernelArgsSize(KernelOp kernel);

/// Alignment in bytes of `kernel`'s packed parameter struct: that of its
/// most aligned field (16 for a float3 or float4), at least 8. The host's
/// copy of the struct must have it, since its fields are stored and loaded
/// with their natural alignment.
uint64_t getKernelArgsAlign(KernelOp kernel);

/// Packs `args` into `kernel`'s parameter struct for a launch at `b`'s
/// insertion point and returns its address. The struct is a stack slot at
/// the start of `entry` (one per launch site, so that a launch in a loop
/// does not grow the stack) with getKernelArgsAlign's alignment; the
/// stores are at `b`.
mlir::Value packKernelArgs(mlir::OpBuilder &b, mlir::Location loc,
                           KernelOp kernel, mlir::ValueRange args,
                           mlir::Block &entry);

/// Name of the native entry point of `kernel` on the CPU target.
std::string getCPUEntryName(llvm::StringRef kernelName);

} // namespace bsgp

#endif // BSGP_CONVERSION_BSGPTOLLVM_KERNELABI_H
