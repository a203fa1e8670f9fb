// RUN: bsgp-opt %s --bsgp-split-supersteps --bsgp-rematerialize | FileCheck %s

// Listing 3: rk1 = thread.rank after the rank-reassigning barrier is used in
// superstep 3; no reassignment lies between 2 and 3, so superstep 3 reads
// thread.rank itself and rk1 is not saved (§4.2 step 2). f = rk0 / 3 is
// recomputed from the old rank after the set_oldrank of superstep 2 (the
// paper saves it); v, read from memory, stays.
// CHECK-LABEL: func.func @findFaces(
// CHECK: %[[S1:.*]] = bsgp.superstep 1 {{.*}}-> i32
// CHECK: bsgp.superstep 2 rank_reassigned {{.*}}{
// CHECK: %[[OLD:.*]] = bsgp.ptr.load
// CHECK-NEXT: bsgp.set_oldrank %[[OLD]]
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[F:.*]] = arith.divsi %[[OLD]], %[[C3]]
// CHECK: bsgp.ptr.store %[[F]],
// CHECK: bsgp.superstep 3 {{.*}}{
// CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank : i32
// CHECK: bsgp.ptr.store %[[RK]], %{{.*}}[%[[S1]]]
func.func @findFaces(%pf: !bsgp.ptr<i32>, %hd: !bsgp.ptr<i32>, %ib: !bsgp.ptr<i32>, %sorted: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk0 = bsgp.thread_rank : i32
    %c3 = arith.constant 3 : i32
    %f = arith.divsi %rk0, %c3 : i32
    %v = bsgp.ptr.load %ib[%rk0] : !bsgp.ptr<i32>, i32
    bsgp.barrier rank_reassigned
    %rk = bsgp.thread_rank : i32
    %old = bsgp.ptr.load %sorted[%rk] : !bsgp.ptr<i32>, i32
    bsgp.set_oldrank %old
    %rk1 = bsgp.thread_rank : i32
    bsgp.ptr.store %f, %pf[%rk1] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    bsgp.ptr.store %rk1, %hd[%v] : !bsgp.ptr<i32>, i32
  }
  return
}

// thread.rank from before a rank-reassigning barrier is, after the
// set_oldrank, the old rank: no store and gather. A constant and
// thread.size are recomputed in every superstep using them, however far
// away; thread.get of a rank keeps it saved.
// CHECK-LABEL: func.func @kinds(
// CHECK: %[[S1:.*]] = bsgp.superstep 1 {{.*}}-> i32 {
// CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank
// CHECK: bsgp.yield %[[RK]] : i32
// CHECK: bsgp.superstep 2 {{.*}}{
// CHECK-NEXT: %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT: bsgp.get %{{.*}}, %[[S1]] :
// CHECK-NEXT: bsgp.ptr.store %[[C]]
// CHECK: bsgp.superstep 3 {{.*}}{
// CHECK-NEXT: %[[RK3:.*]] = bsgp.thread_rank
// CHECK-NEXT: %[[C2:.*]] = arith.constant 7 : i32
// CHECK-NEXT: %[[SZ:.*]] = bsgp.thread_size
// CHECK-NEXT: arith.addi %[[C2]], %[[RK3]]
// CHECK-NEXT: arith.addi %{{.*}}, %[[SZ]]
// CHECK: bsgp.superstep 4 rank_reassigned {{.*}}{
// CHECK: %[[OLD:.*]] = bsgp.ptr.load
// CHECK-NEXT: bsgp.set_oldrank %[[OLD]]
// CHECK-NEXT: bsgp.ptr.store %[[OLD]],
func.func @kinds(%p: !bsgp.ptr<i32>, %sorted: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %c = arith.constant 7 : i32
    %sz = bsgp.thread_size : i32
    bsgp.barrier
    %g = bsgp.get %c, %rk : i32
    bsgp.ptr.store %c, %p[%g] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %a = arith.addi %c, %rk : i32
    %b = arith.addi %a, %sz : i32
    bsgp.ptr.store %b, %p[%b] : !bsgp.ptr<i32>, i32
    bsgp.barrier rank_reassigned
    %r2 = bsgp.thread_rank : i32
    %old = bsgp.ptr.load %sorted[%r2] : !bsgp.ptr<i32>, i32
    bsgp.set_oldrank %old
    bsgp.ptr.store %rk, %p[%r2] : !bsgp.ptr<i32>, i32
  }
  return
}

// With set_size in the spawn (fork/kill), thread.size is not recomputed.
// CHECK-LABEL: func.func @resized(
// CHECK: %[[S1:.*]] = bsgp.superstep 1 {{.*}}-> i32 {
// CHECK-NEXT: %[[SZ:.*]] = bsgp.thread_size
// CHECK: bsgp.superstep 2
// CHECK: bsgp.ptr.store %[[S1]]
func.func @resized(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %sz = bsgp.thread_size : i32
    bsgp.require {
      %two = arith.constant 2 : i32
      bsgp.set_size %two
    }
    bsgp.barrier
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %sz, %p[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// Small side-effect-free expressions of the rank and of host values are
// recomputed too (f = rk / 3 + n, the common subexpression once), while a
// value read from memory stays saved.
// CHECK-LABEL: func.func @expressions(
// CHECK-SAME: %[[P:[^:]*]]: !bsgp.ptr<i32>, %[[N:[^:]*]]: i32
// CHECK: %[[S1:.*]] = bsgp.superstep 1 {{.*}}-> i32 {
// CHECK: %[[X:.*]] = bsgp.ptr.load
// CHECK: bsgp.yield %[[X]] : i32
// CHECK: bsgp.superstep 2 {{.*}}{
// CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3
// CHECK-NEXT: %[[Q:.*]] = arith.divsi %[[RK]], %[[C3]]
// CHECK-NEXT: %[[F:.*]] = arith.addi %[[Q]], %[[N]]
// CHECK-NEXT: %[[G:.*]] = arith.muli %[[Q]], %[[Q]]
// CHECK-NEXT: bsgp.ptr.store %[[F]], %[[P]][%[[S1]]]
// CHECK-NEXT: bsgp.ptr.store %[[G]], %[[P]][%[[S1]]]
func.func @expressions(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %c3 = arith.constant 3 : i32
    %q = arith.divsi %rk, %c3 : i32
    %f = arith.addi %q, %n : i32
    %g = arith.muli %q, %q : i32
    %x = bsgp.ptr.load %p[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    bsgp.ptr.store %f, %p[%x] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %g, %p[%x] : !bsgp.ptr<i32>, i32
  }
  return
}

// compact's shape: the flag and the count made from a loaded x are
// recomputed in the superstep that loads x anyway, so x alone stays a
// result. In superstep 3, which does not use x, the flag stays a result;
// a value read by thread.get does not count as loaded, and after a rank
// reassignment nothing is recomputed from results.
// CHECK-LABEL: func.func @from_results(
// CHECK: %[[S1:.*]]:2 = bsgp.superstep 1 {{.*}}-> (i32, i1) {
// CHECK: %[[X:.*]] = bsgp.ptr.load
// CHECK: %[[K:.*]] = arith.cmpi ne
// CHECK: bsgp.yield %[[X]], %[[K]] : i32, i1
// CHECK: bsgp.superstep 2 {{.*}}{
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[A:.*]] = arith.andi %[[S1]]#0, %[[C1]]
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[K2:.*]] = arith.cmpi ne, %[[A]], %[[C0]]
// CHECK-NEXT: %[[CNT:.*]] = arith.select %[[K2]]
// CHECK-NEXT: bsgp.ptr.store %[[CNT]], %{{.*}}[%[[S1]]#0]
// CHECK: bsgp.superstep 3 {{.*}}{
// CHECK: bsgp.get %{{.*}}, %[[S1]]#0
// CHECK: arith.select %[[S1]]#1
// CHECK: bsgp.superstep 4 rank_reassigned {{.*}}{
// CHECK: arith.select %[[S1]]#1
func.func @from_results(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %p[%rk] : !bsgp.ptr<i32>, i32
    %c1 = arith.constant 1 : i32
    %a = arith.andi %x, %c1 : i32
    %c0 = arith.constant 0 : i32
    %keep = arith.cmpi ne, %a, %c0 : i32
    %cnt = arith.select %keep, %c1, %c0 : i32
    bsgp.barrier
    bsgp.ptr.store %cnt, %p[%x] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %g = bsgp.get %c0, %x : i32
    %v = arith.select %keep, %g, %c0 : i32
    bsgp.ptr.store %v, %p[%c0] : !bsgp.ptr<i32>, i32
    bsgp.barrier rank_reassigned
    %r4 = bsgp.thread_rank : i32
    bsgp.set_oldrank %r4
    %w = arith.select %keep, %x, %c0 : i32
    bsgp.ptr.store %w, %p[%r4] : !bsgp.ptr<i32>, i32
  }
  return
}
