// RUN: bsgp-opt %s --bsgp-split-uniform-flow --split-input-file | FileCheck %s

// dtempnew lists of a spawn cut into segments live until the whole spawn
// ends: the pass marks them bsgp.freed_by_flow (so that no segment frees
// them) and frees them itself. The list of the spawn body's require is
// freed once, after the last segment, not in the loop; the list of the
// loop body's require, whose pointer stays in the body, is freed at the
// end of each round.
// CHECK-LABEL: func.func @lifetimes(
// CHECK: %[[FIRST:.*]] = bsgp.spawn %{{.*}} -> !bsgp.ptr<i32> {
// CHECK: bsgp.dtempnew %{{.*}} {bsgp.freed_by_flow}
// CHECK: scf.while
// CHECK: } do {
// CHECK-NOT: unrealized_conversion_cast %[[FIRST]]
// CHECK: %[[BODY:.*]] = bsgp.spawn %{{.*}} -> !bsgp.ptr<i32> {
// CHECK: bsgp.dtempnew %{{.*}} {bsgp.freed_by_flow}
// CHECK-NOT: unrealized_conversion_cast %[[FIRST]]
// CHECK: builtin.unrealized_conversion_cast %[[BODY]]
// CHECK-NEXT: llvm.call @bsgprt_temp_free
// CHECK-NOT: unrealized_conversion_cast %[[FIRST]]
// CHECK: scf.yield
// CHECK: bsgp.spawn
// CHECK: bsgp.ptr.load %[[FIRST]]
// CHECK: builtin.unrealized_conversion_cast %[[FIRST]]
// CHECK-NEXT: llvm.call @bsgprt_temp_free
// CHECK-NOT: bsgprt_temp
// CHECK: return
func.func @lifetimes(%n: i32, %k: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %t = bsgp.require -> !bsgp.ptr<i32> {
      %p = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %p : !bsgp.ptr<i32>
    }
    %r = bsgp.thread_rank : i32
    bsgp.ptr.store %r, %t[%r] : !bsgp.ptr<i32>, i32
    %res = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      %o = bsgp.require -> !bsgp.ptr<i32> {
        %p = bsgp.dtempnew %n : !bsgp.ptr<i32>
        bsgp.yield %p : !bsgp.ptr<i32>
      }
      %r1 = bsgp.thread_rank : i32
      bsgp.ptr.store %i2, %o[%r1] : !bsgp.ptr<i32>, i32
      bsgp.barrier
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3 : i32
    }
    %r2 = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %t[%r2] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %v, %out[%r2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A list of the loop body whose pointer leaves the body (the loop carries
// it out) cannot be freed there: it goes to the runtime's deferred frees
// when it is allocated, and the host frees those where the spawn ends. So
// does a list stored to memory.
// CHECK-LABEL: func.func @escapes(
// CHECK: %[[MARK:.*]] = llvm.call @bsgprt_temp_defer_mark() : () -> i64
// CHECK: %[[FIRST:.*]] = bsgp.spawn
// CHECK: bsgp.dtempnew %{{.*}} {bsgp.freed_by_flow}
// CHECK-NOT: bsgprt_temp_defer_free
// CHECK: scf.while
// CHECK: } do {
// CHECK: bsgp.spawn
// CHECK: %[[NEW:.*]] = bsgp.dtempnew %{{.*}} {bsgp.freed_by_flow}
// CHECK-NEXT: %[[RAW:.*]] = builtin.unrealized_conversion_cast %[[NEW]]
// CHECK-NEXT: llvm.call @bsgprt_temp_defer_free(%[[RAW]])
// CHECK: %[[SLOT:.*]] = bsgp.dtempnew %{{.*}} {bsgp.freed_by_flow}
// CHECK-NEXT: %[[RAW2:.*]] = builtin.unrealized_conversion_cast %[[SLOT]]
// CHECK-NEXT: llvm.call @bsgprt_temp_defer_free(%[[RAW2]])
// CHECK-NOT: bsgprt_temp_free(
// CHECK: scf.yield
// CHECK: bsgp.spawn
// CHECK: builtin.unrealized_conversion_cast %[[FIRST]]
// CHECK-NEXT: llvm.call @bsgprt_temp_free
// CHECK: llvm.call @bsgprt_temp_free_deferred(%[[MARK]])
// CHECK-NEXT: return
func.func @escapes(%n: i32, %k: i32, %out: !bsgp.ptr<i32>,
                   %slots: !bsgp.ptr<!bsgp.ptr<i32>>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %first = bsgp.require -> !bsgp.ptr<i32> {
      %p = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %p : !bsgp.ptr<i32>
    }
    %res:2 = scf.while (%i = %c0, %keep = %first)
        : (i32, !bsgp.ptr<i32>) -> (i32, !bsgp.ptr<i32>) {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i, %keep : i32, !bsgp.ptr<i32>
    } do {
    ^bb0(%i2: i32, %keep2: !bsgp.ptr<i32>):
      %new = bsgp.require -> !bsgp.ptr<i32> {
        %p = bsgp.dtempnew %n : !bsgp.ptr<i32>
        bsgp.yield %p : !bsgp.ptr<i32>
      }
      bsgp.require {
        %q = bsgp.dtempnew %n : !bsgp.ptr<i32>
        bsgp.ptr.store %q, %slots[%c0] : !bsgp.ptr<!bsgp.ptr<i32>>, i32
        bsgp.yield
      }
      %r = bsgp.thread_rank : i32
      bsgp.ptr.store %i2, %new[%r] : !bsgp.ptr<i32>, i32
      bsgp.barrier
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3, %new : i32, !bsgp.ptr<i32>
    }
    %r2 = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %res#1[%r2] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %v, %out[%r2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A list of a require under a branch on a target query, which stays within
// one segment: if its pointer does not leave the branch, the segment frees
// it (bsgp-outline-kernels), as in a spawn that is not cut.
// CHECK-LABEL: func.func @target_branch(
// CHECK: bsgp.dtempnew {{%[^ ]+}} : !bsgp.ptr<i32>
// CHECK-NOT: bsgprt_temp_defer
// CHECK: return
func.func @target_branch(%n: i32, %k: i32) {
  bsgp.spawn %n {
    %q = bsgp.target_is "cpu" : i1
    scf.if %q {
      %l = bsgp.require -> !bsgp.ptr<i32> {
        %p = bsgp.dtempnew %n : !bsgp.ptr<i32>
        bsgp.yield %p : !bsgp.ptr<i32>
      }
      %r = bsgp.thread_rank : i32
      bsgp.ptr.store %r, %l[%r] : !bsgp.ptr<i32>, i32
    }
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %res = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      bsgp.barrier
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3 : i32
    }
  }
  return
}
