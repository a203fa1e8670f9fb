//===- GroupOps.h - work-group and subgroup ops on SPIR-V -------*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_CONVERSION_BSGPTOSPIRV_GROUPOPS_H
#define BSGP_LIB_CONVERSION_BSGPTOSPIRV_GROUPOPS_H

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/Block.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir {
class OpBuilder;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace bsgp {

/// The built-in input variables of one SPIR-V module, declared on first use.
class SPIRVBuiltins {
public:
  explicit SPIRVBuiltins(mlir::ModuleOp module) : module(module) {}

  /// The variable of `builtin` (an Input variable of vector<3xi32> for the
  /// three-component built-ins, of i32 otherwise).
  mlir::spirv::GlobalVariableOp get(mlir::spirv::BuiltIn builtin);

  /// Loads `builtin`, or its component `component` for a vector built-in.
  mlir::Value load(mlir::OpBuilder &b, mlir::Location loc,
                   mlir::spirv::BuiltIn builtin, int32_t component = -1);

private:
  mlir::ModuleOp module;
  llvm::DenseMap<unsigned, mlir::spirv::GlobalVariableOp> vars;
};

/// group.rank on SPIR-V, as i32: SubgroupId * SubgroupSize +
/// SubgroupLocalInvocationId. Vulkan does not tie LocalInvocationIndex to
/// subgroups, while BSGP's subgroups are runs of consecutive group ranks;
/// numbering the invocations this way makes them so. It is a bijection onto
/// 0..255 when the workgroup's subgroups are full (the runtime asks for full
/// subgroups where the device can promise them).
mlir::Value emitGroupRank(mlir::OpBuilder &b, mlir::Location loc,
                          SPIRVBuiltins &builtins);

/// group.id on SPIR-V, as i32: WorkgroupId.x + WorkgroupId.y *
/// NumWorkgroups.x (launches past maxComputeWorkGroupCount[0] are 2D),
/// plus first / 256 (the push constants' first rank): numbered as on one
/// device when the launch is one device's slice.
mlir::Value emitGroupId(mlir::OpBuilder &b, mlir::Location loc,
                        SPIRVBuiltins &builtins);

/// Vulkan leaves an OpControlBarrier, and a subgroup operation reading an
/// inactive lane, undefined once invocations of the workgroup have
/// returned; yet a kernel's last workgroup has invocations past the thread
/// count. So a kernel with group barriers, shuffles or votes runs every
/// invocation through its body (the ops of `block` from `begin` on), and
/// the ops of the body that touch memory run only where `inRange` holds:
/// the others ("missing ranks") get zero results. Ops holding a barrier,
/// shuffle or vote are entered instead, and votes ignore the missing ranks,
/// as exited threads are ignored on CUDA. Loads from an address that is
/// the same for the whole group (not derived from `rankValues`, lanes,
/// private arrays or per-rank loads) run everywhere, so that the missing
/// ranks follow the group's loops and branches around its barriers; only
/// control flow over per-rank loaded values could differ for them, and it
/// must be uniform across the group anyway. Workgroups with no rank in
/// range must not run the body at all (their loads of uniform addresses
/// could be out of bounds).
mlir::LogicalResult
predicateMissingRanks(mlir::Block &block, mlir::Block::iterator begin,
                      mlir::Value inRange,
                      mlir::ArrayRef<mlir::Value> rankValues);

/// Lowers the group queries, group barriers, shuffles and votes of `fn` to
/// SPIR-V. `loadSize` gives the thread count (the push constant), for
/// group.count.
mlir::LogicalResult lowerGroupOpsToSPIRV(
    mlir::func::FuncOp fn, SPIRVBuiltins &builtins,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location)>
        loadSize);

} // namespace bsgp

#endif // BSGP_LIB_CONVERSION_BSGPTOSPIRV_GROUPOPS_H
