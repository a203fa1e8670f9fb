//===- KernelBody.h - a kernel's body inside a target's entry ---*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every target wraps a bsgp.kernel's body in its own entry point (a rank
/// loop on the CPU, a bounds-checked thread on a GPU). What happens to the
/// body itself is the same everywhere, and lives here.
///
//===----------------------------------------------------------------------===//

#ifndef BSGP_CONVERSION_COMMON_KERNELBODY_H
#define BSGP_CONVERSION_COMMON_KERNELBODY_H

#include "bsgp/Dialect/BSGP/IR/BSGPDialect.h"
#include "bsgp/Transforms/TargetQueries.h"

#include "mlir/IR/Value.h"

#include "mlir/Support/LLVM.h"

namespace mlir {
class Block;
class IRMapping;
class ModuleOp;
class OpBuilder;
class Operation;
namespace func {
class FuncOp;
}
} // namespace mlir

namespace bsgp {
class KernelOp;

/// Clones `kernel`'s body into a new scf.execute_region at `b`'s insertion
/// point, its parameters replaced as `mapping` says. In the copy,
/// bsgp.thread_rank and bsgp.thread_size become `rank` and `size`,
/// bsgp.return ends the thread's work (scf.yield), and stack slots of
/// constant size move to `entry`, the entry block of the target's function,
/// so that a slot inside a loop or a branch is not a dynamic allocation.
/// Returns the scf.execute_region.
mlir::Operation *cloneKernelBody(KernelOp kernel, mlir::OpBuilder &b,
                                 mlir::IRMapping &mapping, mlir::Value rank,
                                 mlir::Value size, mlir::Block *entry);

/// Moves the stack slots of constant size below `root` to the start of
/// `entry`, the entry block of the target's function.
void hoistConstantAllocas(mlir::Operation *root, mlir::Block *entry);

/// The device functions `kernels` call, transitively, in a stable order.
/// Reports (and fails on) a call to a function without a BSGP definition
/// and a call to a host (`extern "C"`) function from device code.
mlir::LogicalResult
collectDeviceFunctions(mlir::ModuleOp host, llvm::ArrayRef<KernelOp> kernels,
                       llvm::SmallVectorImpl<mlir::func::FuncOp> &functions);

/// The kernels of `module` that `target` compiles: all but those outlined
/// from a copy of a host function made for another target
/// (bsgp-specialize-targets), and on "spirv" the grid loops
/// (bsgp-fuse-uniform-loops).
void getKernelsForTarget(mlir::ModuleOp module, Target target,
                         llvm::SmallVectorImpl<KernelOp> &kernels);

/// Reports a bsgp.group_lookback under `root`, which only the CUDA target
/// lowers (the collective library asks for it under `target.cuda`).
mlir::LogicalResult rejectGroupLookbacks(mlir::Operation *root,
                                         llvm::StringRef target);

/// Reports the first bsgp.chunk_reduce or bsgp.chunk_scan below `root` and
/// fails: only the CPU target runs ranks in chunks. `target` names the
/// target in the message ("CUDA", "SPIR-V"). The GPU lowerings call it once
/// target queries are folded, since the collective library keeps the ops
/// under `if (target.cpu)`.
mlir::LogicalResult rejectChunkOps(mlir::Operation *root,
                                   llvm::StringRef target);

/// The identity of the combination `kind` on `type`, as an arith constant:
/// the largest value or +infinity for min, the smallest or -infinity for
/// max, all ones for and, 1 for mul, 0 otherwise. The kinds are those of
/// bsgp.chunk_reduce and bsgp.subgroup_reduce: add, mul, mins, minu, maxs,
/// maxu, minf, maxf, and, or, xor.
mlir::Value getCombineIdentity(mlir::OpBuilder &b, mlir::Location loc,
                               llvm::StringRef kind, mlir::Type type);

/// `acc ⊕ x` for the combination `kind`, in arith ops, with the operand
/// order of the collective library's combine (`acc` holds the earlier
/// ranks): float min is `x < acc ? x : acc` and float max `acc < x ? x :
/// acc`, which differ from arith's minimumf/maxnumf on NaNs and signed
/// zeros.
mlir::Value emitCombine(mlir::OpBuilder &b, mlir::Location loc,
                        llvm::StringRef kind, mlir::Value acc, mlir::Value x);

/// Replaces every `bsgp.subgroup_match` below `root` by one ballot per bit
/// of its value and one of `true` (arith ops and `bsgp.subgroup_vote`s),
/// for targets without a match instruction: a lane's peers are the lanes
/// that voted as it did on every bit. Lanes that take no part in the
/// ballots (missing ranks) are in none of the masks.
void expandSubgroupMatches(mlir::Operation *root);

/// Removes every `bsgp.*` discardable attribute below `root`: they mean
/// nothing to LLVM IR.
void stripBSGPAttributes(mlir::Operation *root);

/// Work-group size of the CUDA target for kernels that use work-group
/// operations (group.*, local arrays): such kernels are launched with
/// exactly this many threads per block (the target description's).
constexpr unsigned kCUDAGroupSize = getTargetInfo(Target::CUDA).GroupSize;

/// True if the body of `kernel` (a bsgp.kernel, or the function a target
/// made of one) uses a work-group or subgroup op or a `local` array, so
/// that the size of its work groups matters.
bool usesGroupOps(mlir::Operation *kernel);

/// Integer attribute of a bsgp.kernel: the thread-block size its CUDA code
/// was compiled for (set by bsgp-lower-kernels-nvvm where the CUDA form of
/// the kernel uses work-group operations; absent otherwise).
constexpr llvm::StringLiteral kGroupSizeAttrName =
    BSGPDialect::GroupSizeAttrHelper::getNameStr();

/// Integer attribute of a bsgp.kernel: how many work groups one CUDA thread
/// block runs (set by bsgp-coarsen-groups where that is more than one;
/// the runtime's ranks_per_thread).
constexpr llvm::StringLiteral kGroupsPerBlockAttrName =
    BSGPDialect::GroupsPerBlockAttrHelper::getNameStr();

/// Unit attribute of a bsgp.kernel whose CUDA blocks wait for the blocks
/// before them by block number (a bsgp.group_lookback; set by
/// bsgp-lower-kernels-nvvm): BSGPRT_KERNEL_LOOKBACK in the descriptor.
constexpr llvm::StringLiteral kLookbackAttrName =
    BSGPDialect::LookbackAttrHelper::getNameStr();

} // namespace bsgp

#endif // BSGP_CONVERSION_COMMON_KERNELBODY_H
