// RUN: bsgp-opt %s --bsgp-lower-kernels-nvvm -verify-diagnostics

// Only the CPU runs ranks in chunks; the collective library keeps these ops
// under `if (target.cpu)`, which the CUDA lowering folds away.
bsgp.kernel @k(%x: i32, %p: !bsgp.ptr<i32>) {
  %cpu = bsgp.target_is "cpu" : i1
  scf.if %cpu {
    bsgp.chunk_reduce "add" %x, %p : !bsgp.ptr<i32>
  }
  // expected-error @+1 {{'bsgp.chunk_scan' op accumulates over a chunk of ranks, which only the CPU target has; it cannot be lowered for the CUDA target (use it under `if (target.cpu)`)}}
  %0 = bsgp.chunk_scan "add" %x, %p : !bsgp.ptr<i32>
  %r = bsgp.thread_rank : i32
  bsgp.ptr.store %0, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}
