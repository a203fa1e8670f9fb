//===- SPIRVCommon.h - memory helpers of the SPIR-V passes ------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// BSGP pointers and streams are 64-bit device addresses on the SPIR-V
/// target: integers, which become PhysicalStorageBuffer pointers only at a
/// load or store. What the passes of BSGPToSPIRV share to make those
/// accesses and to read the push constants.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_CONVERSION_BSGPTOSPIRV_SPIRVCOMMON_H
#define BSGP_LIB_CONVERSION_BSGPTOSPIRV_SPIRVCOMMON_H

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace bsgp::spv {

constexpr mlir::spirv::StorageClass kPSB =
    mlir::spirv::StorageClass::PhysicalStorageBuffer;

/// What a kernel parameter or a pointee is stored as: pointers and streams
/// are 64-bit addresses, `index` is i64, `i1` is a byte (as in the C layout).
mlir::Type getMemoryType(mlir::Type t);

/// Loads a `type` (already a SPIR-V memory type) from device address `addr`.
mlir::Value loadPSB(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
                    mlir::Value addr, uint64_t align);

/// A pointer to the `type` at device address `addr` that is the member of a
/// one-member struct decorated Coherent, as GLSL compiles a `coherent`
/// buffer reference: under the GLSL450 memory model only loads through
/// such a pointer see other workgroups' writes in the same dispatch, which
/// NVIDIA's driver otherwise serves from a multiprocessor's cache.
mlir::Value coherentPointerPSB(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Type type, mlir::Value addr);

/// loadPSB through coherentPointerPSB, and Volatile, so that a loop polling
/// the word reads it each time.
mlir::Value loadCoherentPSB(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Type type, mlir::Value addr, uint64_t align);

/// Stores `value` at device address `addr`.
void storePSB(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
              mlir::Value addr, uint64_t align);

/// `base + index * scale` in bytes; the index is sign-extended as in C.
mlir::Value addressOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                      mlir::Value index, uint64_t scale);

/// A pointer to `memTy` in the physical storage buffer at address `addr`.
mlir::Value psbPointer(mlir::OpBuilder &b, mlir::Location loc, mlir::Type memTy,
                       mlir::Value addr);

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
std::optional<ElementInfo> getNaturalLayout(mlir::Type t);

/// Loads member `member` of the push constants of `device`
/// ({uint64 args_address; uint64 size}).
mlir::Value loadPushConstant(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::ModuleOp device, int32_t member);

/// MLIR's SPIR-V dialect has no OpAtomicLoad: each `bsgp.atomic_load`
/// below `root` becomes a `coherent` bsgp.ptr.load, a Coherent, Volatile
/// load (loadCoherentPSB). An atomic or of 0 reads the same value, but as a
/// read-modify-write, which serializes the work groups polling one word.
void rewriteAtomicLoads(mlir::Operation *root);

/// Unrolls the short counted loops below `root` (UnrollLoops.cpp), as
/// LLVM does for the other targets, so that private arrays indexed by
/// their counters are indexed by constants.
void unrollShortLoops(mlir::Operation *root);

} // namespace bsgp::spv

#endif // BSGP_LIB_CONVERSION_BSGPTOSPIRV_SPIRVCOMMON_H
