// RUN: bsgp-opt %s --bsgp-lower-lookback | FileCheck %s

// In the kernels of the CUDA device module, a bsgp.group_lookback becomes
// the decoupled look-back of its thread block: the block's status word is
// published with an atomic exchange, the first warp reads the words before
// it and votes on their flags, and the prefix reaches the block's threads
// through a `local` word behind a group barrier. The group ops it makes
// are left to bsgp-lower-group-ops-nvvm; kernels of the host module are
// left alone.

// CHECK-LABEL: bsgp.kernel @host_kernel
// CHECK: bsgp.group_lookback
bsgp.kernel @host_kernel(%v: i32, %st: !bsgp.ptr<i64>) {
  %p = bsgp.group_lookback %v, %st min_blocks 8 : !bsgp.ptr<i64>
  bsgp.return
}

// CHECK-LABEL: module @bsgp_cuda attributes {bsgp.target = "cuda"}
module @bsgp_cuda attributes {bsgp.target = "cuda"} {
  // CHECK-LABEL: llvm.func @k(
  // CHECK-NOT: bsgp.group_lookback
  // The status word of the block is numbered as on one device: %ctaid.x
  // plus the blocks of the slices before, first / 256.
  // CHECK: nvvm.read.ptx.sreg.ctaid.x
  // CHECK: llvm.udiv %{{.*}}, %{{.*}} : i64
  // CHECK: arith.addi
  // CHECK: bsgp.group_local 1
  // CHECK: bsgp.group_rank
  // CHECK: bsgp.atomic_rmw assign
  // CHECK: bsgp.subgroup_vote
  // CHECK: bsgp.group_barrier
  // CHECK: bsgp.ptr.store
  // CHECK: llvm.return
  llvm.func @k(%args: !llvm.ptr, %size: i64, %first: i64, %end: i64) attributes {bsgp.device, nvvm.kernel} {
    %v = llvm.mlir.constant(1 : i32) : i32
    %st = builtin.unrealized_conversion_cast %args : !llvm.ptr to !bsgp.ptr<i64>
    %out = builtin.unrealized_conversion_cast %args : !llvm.ptr to !bsgp.ptr<i32>
    %p = bsgp.group_lookback %v, %st min_blocks 8 : !bsgp.ptr<i64>
    %c0 = llvm.mlir.constant(0 : i32) : i32
    bsgp.ptr.store %p, %out[%c0] : !bsgp.ptr<i32>, i32
    llvm.return
  }
}
