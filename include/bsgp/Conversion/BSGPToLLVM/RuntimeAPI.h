//===- RuntimeAPI.h - calls from generated code into libbsgprt --*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Generated host code reaches the runtime only through the C ABI of
/// runtime/include/bsgp/runtime.h. The declarations it needs are made here,
/// in one place, so that their LLVM signatures match that header.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_CONVERSION_BSGPTOLLVM_RUNTIMEAPI_H
#define BSGP_CONVERSION_BSGPTOLLVM_RUNTIMEAPI_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"

namespace mlir {
class OpBuilder;
class ModuleOp;
namespace LLVM {
class LLVMFuncOp;
}
} // namespace mlir

namespace bsgp {

enum class RuntimeFn {
  Launch,         ///< void bsgprt_launch(const module*, u32, u64, const void*)
  DNew,           ///< void *bsgprt_dnew(u64 bytes, const char *srcloc)
  DFree,          ///< void bsgprt_dfree_at(void *, const char *srcloc)
  TempAlloc,      ///< void *bsgprt_temp_alloc(u64 bytes, const char *srcloc)
  TempFree,       ///< void bsgprt_temp_free(void *)
  RegisterModule, ///< void bsgprt_register_module(const module*)
  CPUChunkIndex,  ///< u64 bsgprt_cpu_chunk_index(void), in CPU kernels
  /// void *bsgprt_dnew_elements(i64 count, u64 elt_bytes, const char *srcloc):
  /// dnew, with the count and the byte count checked by the runtime.
  DNewElements,
  /// void *bsgprt_temp_alloc_elements(i64 count, u64 elt_bytes, const char *):
  /// dtempnew, checked the same way.
  TempAllocElements,
  /// void bsgprt_callsite_push(const char *srcloc) and
  /// void bsgprt_callsite_pop(void): around a call of the program into the
  /// collective library, so that the profile and the trace attribute the
  /// library's kernels to the program's line.
  CallSitePush,
  CallSitePop,
  /// void bsgprt_launch_cooperative(const module*, u32, u64, const void*):
  /// a grid-loop kernel, all its blocks resident.
  LaunchCooperative,
  /// int bsgprt_can_launch_cooperative(const module*, u32, u64): whether
  /// the backend in use can.
  CanLaunchCooperative,
  /// u64 bsgprt_cpu_team_rank(void), u64 bsgprt_cpu_team_size(void) and
  /// void bsgprt_cpu_team_barrier(void): in a grid-loop kernel on the CPU,
  /// the calling thread's place in the team that runs it, and the team's
  /// barrier between the loop's supersteps.
  CPUTeamRank,
  CPUTeamSize,
  CPUTeamBarrier,
  /// void bsgprt_list_reduce(i32 op, i32 type, const void *in, u64 n,
  /// void *result), void bsgprt_list_scan_exclusive(i32 op, i32 type,
  /// const void *in, void *out, u64 n, void *total) and
  /// void bsgprt_list_sort_pairs(i32 type, void *keys, u32 *values, u64 n):
  /// the runtime's list primitives (bsgp.list_reduce and the like), with
  /// the operator and the element type as bsgprt_list_op and
  /// bsgprt_list_type.
  ListReduce,
  ListScanExclusive,
  ListSortPairs,
};

/// Declares `fn` in `module` if needed and returns the declaration.
mlir::LLVM::LLVMFuncOp getOrInsertRuntimeFn(mlir::ModuleOp module,
                                            RuntimeFn fn);

/// The address of a NUL-terminated constant string, interned per module, so
/// that every op at one location shares a single global.
mlir::Value getSourceString(mlir::OpBuilder &b, mlir::ModuleOp module,
                            mlir::Location loc, llvm::StringRef text);

/// "file:line:col" for `loc` (looking through fused and call-site
/// locations), or "<unknown>" when it carries no file position.
std::string formatSourceLocation(mlir::Location loc);

} // namespace bsgp

#endif // BSGP_CONVERSION_BSGPTOLLVM_RUNTIMEAPI_H
