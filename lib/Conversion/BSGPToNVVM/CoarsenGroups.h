//===- CoarsenGroups.h - several work groups per CUDA block -----*- C++ -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_LIB_CONVERSION_BSGPTONVVM_COARSENGROUPS_H
#define BSGP_LIB_CONVERSION_BSGPTONVVM_COARSENGROUPS_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class Block;
class IRMapping;
class Location;
class OpBuilder;
} // namespace mlir

namespace bsgp {
class KernelOp;

/// The PTX entry of a kernel takes (args, size, first, end) (ABI version
/// 5): it runs ranks [first, end) of a launch of `size` ranks, a slice of
/// the launch when several devices share it, [0, size) on one device.
constexpr unsigned kCUDAFirstArg = 2, kCUDAEndArg = 3;

/// first / ranksPerBlock (i64) of the kernel `b` inserts into: the
/// thread blocks of the devices before this slice, which %ctaid.x adds to
/// where a block or work group is numbered as on one device (group.id, a
/// look-back's status word). The runtime starts every slice but the last
/// at a multiple of the kernel's ranks per block.
mlir::Value emitFirstBlock(mlir::OpBuilder &b, mlir::Location loc,
                           int64_t ranksPerBlock);

/// group.threads (i32) of work group `id` (i64, numbered as on one device)
/// in a launch of `size` ranks: min(size - id * kCUDAGroupSize,
/// kCUDAGroupSize), the group's existing threads, fewer in the last one.
mlir::Value emitGroupThreads(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value size, mlir::Value id);

/// How many work groups one thread block of a kernel with work-group
/// operations runs, at most `asked`: 1 where the kernel's body cannot be
/// interleaved (more than one block, a `return` inside control flow), where
/// its top level loads nothing from device memory (nothing to overlap), or
/// where two copies of its `local` arrays would not fit in 48 KiB of static
/// shared memory. `kernel` has its target queries folded for CUDA.
unsigned chooseGroupsPerBlock(KernelOp kernel, unsigned asked);

/// Emits at `b` the body of a CUDA kernel with work-group operations that
/// runs `groupsPerBlock` (> 1) work groups of kCUDAGroupSize ranks in each
/// thread block, over ranks [first, end). The grid is `(end - first) /
/// (groupsPerBlock * kCUDAGroupSize)` full blocks followed by one block per
/// remaining work group, which is what the runtime launches for a
/// descriptor whose groups_per_block is `groupsPerBlock`.
///
/// In a full block each thread runs one rank of each of its work groups,
/// and every top-level op of the body is emitted once per work group
/// before the next op: the loads of all the work groups' ranks are in
/// flight together, which one rank per thread cannot achieve. A thread
/// block still executes the same group barriers and subgroup operations in
/// the same order in all its threads, because a nested op runs for one
/// work group at a time, and ranks of different work groups are
/// independent within a superstep. The remaining work groups run one per
/// block, with the usual bounds check.
void emitCoarsenedGroupKernel(KernelOp kernel, mlir::OpBuilder &b,
                              const mlir::IRMapping &params, mlir::Value size,
                              mlir::Value first, mlir::Value end,
                              mlir::Block *entry, unsigned groupsPerBlock);

} // namespace bsgp

#endif // BSGP_LIB_CONVERSION_BSGPTONVVM_COARSENGROUPS_H
