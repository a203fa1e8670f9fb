// RUN: bsgp-opt %s --bsgp-lower-kernels-cpu -split-input-file -verify-diagnostics

// The verifier accepts a chunk op under any branch that depends on a target
// query; once target.cpu is folded, this one still depends on %c, so not
// every rank of a chunk would run it.
bsgp.kernel @still_branching(%x: i32, %p: !bsgp.ptr<i32>, %c: i1) {
  %cpu = bsgp.target_is "cpu" : i1
  %both = arith.andi %cpu, %c : i1
  scf.if %both {
    // expected-error @+1 {{'bsgp.chunk_reduce' op must be in straight-line code at the top level of the kernel to be lowered for the CPU: every rank of a chunk must run it once}}
    bsgp.chunk_reduce "add" %x, %p : !bsgp.ptr<i32>
  }
  bsgp.return
}

// -----

// The list is read or written once per chunk, outside the rank loop.
bsgp.kernel @list_per_rank(%x: i32, %p: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  %q = bsgp.ptr.offset %p[%r] : !bsgp.ptr<i32>, i32
  // expected-error @+1 {{'bsgp.chunk_scan' op must accumulate into a list that is a kernel parameter, the same for every rank of a chunk}}
  %0 = bsgp.chunk_scan "add" %x, %q : !bsgp.ptr<i32>
  bsgp.return
}
