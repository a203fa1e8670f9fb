// RUN: bsgp-opt %s --bsgp-resolve-oldrank --split-input-file -verify-diagnostics | FileCheck %s

// A read before any rank reassignment is the thread's rank; after one, the
// operand of the nearest set_oldrank before it, also inside control flow
// and after a later plain barrier; a second reassignment replaces it.
// CHECK-LABEL: func.func @reads(
// CHECK-SAME: %[[P:[^:]*]]: !bsgp.ptr<i32>, %[[OLD1:[^:]*]]: i32, %[[OLD2:[^:]*]]: i32, %[[C:[^:]*]]: i1
// CHECK: bsgp.spawn
// CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank : i32
// CHECK-NEXT: bsgp.ptr.store %[[RK]], %[[P]][%[[RK]]]
// CHECK: bsgp.set_oldrank %[[OLD1]]
// CHECK: scf.if %[[C]] {
// CHECK-NEXT: bsgp.ptr.store %[[OLD1]]
// CHECK: bsgp.barrier
// CHECK-NEXT: bsgp.ptr.store %[[OLD1]]
// CHECK: bsgp.set_oldrank %[[OLD2]]
// CHECK-NEXT: bsgp.ptr.store %[[OLD2]]
// CHECK-NOT: bsgp.oldrank
func.func @reads(%p: !bsgp.ptr<i32>, %old1: i32, %old2: i32, %c: i1, %n: i32) {
  bsgp.spawn %n {
    %r0 = bsgp.oldrank : i32
    bsgp.ptr.store %r0, %p[%r0] : !bsgp.ptr<i32>, i32
    bsgp.barrier rank_reassigned
    bsgp.set_oldrank %old1
    scf.if %c {
      %r1 = bsgp.oldrank : i32
      bsgp.ptr.store %r1, %p[%old2] : !bsgp.ptr<i32>, i32
    }
    bsgp.barrier
    %r2 = bsgp.oldrank : i32
    bsgp.ptr.store %r2, %p[%old2] : !bsgp.ptr<i32>, i32
    bsgp.barrier rank_reassigned
    bsgp.set_oldrank %old2
    %r3 = bsgp.oldrank : i32
    bsgp.ptr.store %r3, %p[%old2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A device function's read has no spawn body to take the old rank from
// (bsgp-inline-collectives inlines the functions that read it first).
func.func @device(%p: !bsgp.ptr<i32>) attributes {bsgp.device} {
  // expected-error @below {{thread.oldrank can only be read in a spawn body}}
  %r = bsgp.oldrank : i32
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  return
}
