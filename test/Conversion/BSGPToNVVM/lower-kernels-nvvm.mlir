// RUN: bsgp-opt %s --bsgp-lower-kernels-nvvm | FileCheck %s

// The CUDA device module on its own, as bsgp-opt builds it: a module with no
// arith or scf op must still lower (the pass loads the dialects its
// target-query folding and its rank loop create). Each kernel whose CUDA
// form keeps a work-group operation records the block size it was compiled
// for; here only @cuda_groups keeps its group barrier. The device module
// holds one NVVM kernel per bsgp.kernel, taking the argument struct byval
// and the thread count; the body keeps its bsgp ops, with the target
// queries folded for CUDA.

// CHECK-NOT: bsgp.ptx
// CHECK-LABEL: bsgp.kernel @cuda_groups(
// CHECK-SAME: bsgp.group_size = 256 : i32
// CHECK-NOT: bsgp.lookback
// CHECK: bsgp.return
bsgp.kernel @cuda_groups(%p: !bsgp.ptr<i32>) {
  %q = bsgp.target_is "cuda" : i1
  %r = bsgp.thread_rank : i32
  scf.if %q {
    bsgp.group_barrier
  }
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}

// CHECK-LABEL: bsgp.kernel @cpu_groups(
// CHECK-NOT: bsgp.group_size
// CHECK: bsgp.return
bsgp.kernel @cpu_groups(%p: !bsgp.ptr<i32>) {
  %q = bsgp.target_is "cpu" : i1
  %r = bsgp.thread_rank : i32
  scf.if %q {
    bsgp.group_barrier
  }
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}

// A kernel whose CUDA form keeps a look-back is marked bsgp.lookback (the
// descriptor's BSGPRT_KERNEL_LOOKBACK: on several GPUs its slices run one
// device after another); a look-back of the CPU form only is not.
// CHECK-LABEL: bsgp.kernel @cuda_lookback(
// CHECK-SAME: bsgp.lookback
bsgp.kernel @cuda_lookback(%v: i32, %st: !bsgp.ptr<i64>, %p: !bsgp.ptr<i32>) {
  %q = bsgp.target_is "cuda" : i1
  %r = bsgp.thread_rank : i32
  %x = scf.if %q -> i32 {
    %l = bsgp.group_lookback %v, %st min_blocks 8 : !bsgp.ptr<i64>
    scf.yield %l : i32
  } else {
    scf.yield %v : i32
  }
  bsgp.ptr.store %x, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}

// CHECK-LABEL: bsgp.kernel @cpu_lookback(
// CHECK-NOT: bsgp.lookback
// CHECK: bsgp.return
bsgp.kernel @cpu_lookback(%v: i32, %st: !bsgp.ptr<i64>, %p: !bsgp.ptr<i32>) {
  %q = bsgp.target_is "cpu" : i1
  %r = bsgp.thread_rank : i32
  %x = scf.if %q -> i32 {
    %l = bsgp.group_lookback %v, %st min_blocks 8 : !bsgp.ptr<i64>
    scf.yield %l : i32
  } else {
    scf.yield %v : i32
  }
  bsgp.ptr.store %x, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}

// CHECK-LABEL: module @bsgp_cuda attributes {bsgp.target = "cuda"}
// A kernel with work-group operations runs one rank per thread, guarded.
// CHECK-LABEL: llvm.func @cuda_groups(%arg0: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(ptr)>, llvm.noalias}, %arg1: i64, %arg2: i64, %arg3: i64)
// CHECK-SAME: attributes {bsgp.device, nvvm.kernel}
// CHECK: %[[ARG:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !bsgp.ptr<i32>
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: nvvm.read.ptx.sreg.ntid.x
// CHECK: nvvm.read.ptx.sreg.tid.x
// The rank is first (%arg2) plus the thread's index, checked against end
// (%arg3): the slice [first, end) of a launch of %arg1 ranks.
// CHECK: %[[LOCAL:.*]] = llvm.add %{{.*}}, %{{.*}} : i64
// CHECK: %[[R64:.*]] = llvm.add %arg2, %[[LOCAL]] : i64
// CHECK: %[[RANK:.*]] = llvm.trunc %[[R64]] : i64 to i32
// CHECK: %[[IN:.*]] = llvm.icmp "ult" %[[R64]], %arg3 : i64
// CHECK: scf.if %[[IN]] {
// CHECK-NEXT: bsgp.group_barrier
// CHECK-NEXT: bsgp.ptr.store %[[RANK]], %[[ARG]][%[[RANK]]]
// CHECK: llvm.return
// A kernel without them loops over the ranks with a grid stride, and its
// CPU-only barrier is gone.
// CHECK-LABEL: llvm.func @cpu_groups(
// CHECK: nvvm.read.ptx.sreg.nctaid.x
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %arg3 step %{{.*}} : i64 {
// CHECK-NOT: bsgp.group_barrier
// CHECK: bsgp.ptr.store
// CHECK: llvm.return
