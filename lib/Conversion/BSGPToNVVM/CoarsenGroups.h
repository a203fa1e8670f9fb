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
class OpBuilder;
} // namespace mlir

namespace bsgp {
class KernelOp;

/// How many work groups one thread block of a kernel with work-group
/// operations runs, at most `asked`: 1 where the kernel's body cannot be
/// interleaved (more than one block, a `return` inside control flow), where
/// its top level loads nothing from device memory (nothing to overlap), or
/// where two copies of its `local` arrays would not fit in 48 KiB of static
/// shared memory. `kernel` has its target queries folded for CUDA.
unsigned chooseGroupsPerBlock(KernelOp kernel, unsigned asked);

/// Emits at `b` the body of a CUDA kernel with work-group operations that
/// runs `groupsPerBlock` (> 1) work groups of kCUDAGroupSize ranks in each
/// thread block. The grid is `size / (groupsPerBlock * kCUDAGroupSize)`
/// full blocks followed by one block per remaining work group, which is
/// what the runtime launches for a descriptor whose ranks_per_thread is
/// `groupsPerBlock`.
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
                              mlir::Block *entry, unsigned groupsPerBlock);

} // namespace bsgp

#endif // BSGP_LIB_CONVERSION_BSGPTONVVM_COARSENGROUPS_H
