//===- BSGPToLLVM.h - bsgp ops to the LLVM dialect --------------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_CONVERSION_BSGPTOLLVM_BSGPTOLLVM_H
#define BSGP_CONVERSION_BSGPTOLLVM_BSGPTOLLVM_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace bsgp {

/// Adds the patterns that lower bsgp pointer, stream and allocation ops to
/// the LLVM dialect. Targets whose device pointers live in another address
/// space configure `converter` accordingly before calling this. Atomics
/// get `atomicSyncScope` as their LLVM syncscope ("" is the whole system;
/// NVPTX takes "device" for CUDA's device scope).
void populateBSGPToLLVMPatterns(mlir::LLVMTypeConverter &converter,
                                mlir::RewritePatternSet &patterns,
                                llvm::StringRef atomicSyncScope = "");

/// Adds the patterns that lower the runtime's list primitives
/// (bsgp.list_reduce, bsgp.list_scan_exclusive, bsgp.list_sort_pairs; host
/// code) to calls of libbsgprt (ListPrimitives.cpp).
void populateListPrimitivesToLLVMPatterns(mlir::LLVMTypeConverter &converter,
                                          mlir::RewritePatternSet &patterns);

/// Adds populateBSGPToLLVMPatterns and the upstream patterns for everything
/// kernels and host code contain (arith, math as LLVM intrinsics, cf, func,
/// index, ub, vector). Targets add their own (libm, libdevice) around them.
void populateCodeToLLVMPatterns(mlir::LLVMTypeConverter &converter,
                                mlir::RewritePatternSet &patterns,
                                llvm::StringRef atomicSyncScope = "");

/// Registers the !bsgp.ptr and !bsgp.stream conversions on `converter`:
/// both become `!llvm.ptr<addressSpace>`.
void addBSGPTypeConversions(mlir::LLVMTypeConverter &converter,
                            unsigned addressSpace = 0);

} // namespace bsgp

#endif // BSGP_CONVERSION_BSGPTOLLVM_BSGPTOLLVM_H
