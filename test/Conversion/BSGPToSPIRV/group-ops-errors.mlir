// RUN: bsgp-opt %s --bsgp-lower-kernels-spirv -split-input-file -verify-diagnostics

// The invocations past the thread count run a kernel with group barriers to
// its end (GroupOps.h); a barrier under control flow with early exits, which
// the predication cannot follow, is an error at that control flow. (BSGP
// source has no early exits from spawns; MLIR input can.)
bsgp.kernel @early(%p: !bsgp.ptr<i32>, %c: i1) {
  %r = bsgp.thread_rank : i32
  // expected-error @+1 {{a work-group barrier or subgroup operation in control flow with early returns or breaks is not supported by the SPIR-V target}}
  scf.execute_region {
    cf.cond_br %c, ^done, ^wait
  ^wait:
    bsgp.group_barrier
    cf.br ^done
  ^done:
    scf.yield
  }
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}

// -----

// Loops and branches of scf are followed; other ops with regions are not.
bsgp.kernel @parallel(%p: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{a work-group barrier or subgroup operation inside 'scf.parallel' is not supported by the SPIR-V target}}
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    bsgp.group_barrier
    scf.reduce
  }
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}
