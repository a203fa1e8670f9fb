// RUN: bsgp-opt %s --bsgp-lower-kernels-nvvm | FileCheck %s

// The NVVM lowering on its own, as bsgp-opt runs it: a module with no arith
// or cf op must still lower (the pass loads the dialects its target-query
// folding and its branches create). Each kernel whose CUDA form keeps a
// work-group operation records the block size it was compiled for; here
// only @cuda_groups keeps its group barrier.

// CHECK: module attributes {bsgp.ptx = "{{.*}}.entry cuda_groups({{.*}}bar.sync{{.*}}.entry cpu_groups(
// CHECK-LABEL: bsgp.kernel @cuda_groups(
// CHECK-SAME: bsgp.group_size = 256 : i32
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
