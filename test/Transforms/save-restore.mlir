// RUN: bsgp-opt %s --bsgp-split-supersteps --bsgp-rematerialize --bsgp-find-saved-values --bsgp-save-restore | FileCheck %s

// Listing 3 -> Listing 4: f and v are saved at the end of superstep 1 at
// thread.rank; superstep 2 follows barrier(RANK_REASSIGNED), so both are
// loaded right after thread.oldrank is computed, at the old rank, and v,
// still needed by superstep 3, is saved again at the new rank (t2). (f is
// read from a list here: Listing 3's f = rk0 / 3 would be recomputed from
// the old rank, rematerialize.mlir.)
// CHECK-LABEL: func.func @findFaces(
// CHECK-SAME: %[[PF:[^:]*]]: !bsgp.ptr<i32>, %[[HD:[^:]*]]: !bsgp.ptr<i32>, %[[IB:[^:]*]]: !bsgp.ptr<i32>, %[[SORTED:[^:]*]]: !bsgp.ptr<i32>, %[[FS:[^:]*]]: !bsgp.ptr<i32>
// CHECK: %[[T0:.*]] = bsgp.require -> !bsgp.stream {
// CHECK-NEXT: %[[SZ:.*]] = bsgp.thread_size
// CHECK-NEXT: bsgp.stream_alloc %[[SZ]]
// CHECK: %[[T1:.*]] = bsgp.require -> !bsgp.stream
// CHECK: %[[T2:.*]] = bsgp.require -> !bsgp.stream
// CHECK: bsgp.superstep 1 {{.*}}{
// CHECK: %[[F:.*]] = bsgp.ptr.load %[[FS]]
// CHECK: %[[V:.*]] = bsgp.ptr.load %[[IB]]
// CHECK: %[[RK:.*]] = bsgp.thread_rank
// CHECK-NEXT: bsgp.save %[[F]] to{{ ?}}(%[[T0]]){{ ?}}[%[[RK]]] : i32
// CHECK-NEXT: bsgp.save %[[V]] to{{ ?}}(%[[T1]]){{ ?}}[%[[RK]]] : i32
// CHECK-NEXT: }
// CHECK: bsgp.superstep 2 rank_reassigned {{.*}}{
// CHECK-NEXT: %[[R:.*]] = bsgp.thread_rank
// CHECK-NEXT: %[[OLD:.*]] = bsgp.ptr.load %[[SORTED]][%[[R]]]
// CHECK-NEXT: %[[F2:.*]] = bsgp.load{{ ?}}(%[[T0]]){{ ?}}[%[[OLD]]] : i32
// CHECK-NEXT: %[[V2:.*]] = bsgp.load{{ ?}}(%[[T1]]){{ ?}}[%[[OLD]]] : i32
// CHECK-NEXT: %[[RK1:.*]] = bsgp.thread_rank
// CHECK-NEXT: bsgp.ptr.store %[[F2]], %[[PF]][%[[RK1]]]
// CHECK-NEXT: %[[NEW:.*]] = bsgp.thread_rank
// CHECK-NEXT: bsgp.save %[[V2]] to{{ ?}}(%[[T2]]){{ ?}}[%[[NEW]]] : i32
// CHECK-NEXT: }
// CHECK: bsgp.superstep 3 {{.*}}{
// CHECK-NEXT: %[[R3:.*]] = bsgp.thread_rank
// CHECK-NEXT: %[[V3:.*]] = bsgp.load{{ ?}}(%[[T2]]){{ ?}}[%[[R3]]] : i32
// CHECK: bsgp.ptr.store %{{.*}}, %[[HD]][%[[V3]]]
// CHECK-NOT: bsgp.set_oldrank
// CHECK: return
func.func @findFaces(%pf: !bsgp.ptr<i32>, %hd: !bsgp.ptr<i32>, %ib: !bsgp.ptr<i32>, %sorted: !bsgp.ptr<i32>, %fs: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk0 = bsgp.thread_rank : i32
    %f = bsgp.ptr.load %fs[%rk0] : !bsgp.ptr<i32>, i32
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

// thread.get(r, v) loads v's streams at r; thread.put(r, p, v) saves v at
// rank r, if r is a valid rank, instead of the thread's own value of p.
// CHECK-LABEL: func.func @get_put(
// CHECK: %[[SV:.*]] = bsgp.require -> !bsgp.stream
// CHECK: %[[SX:.*]] = bsgp.require -> !bsgp.stream
// CHECK: bsgp.superstep 1 {{.*}}{
// CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank
// CHECK-NEXT: %[[V:.*]] = bsgp.ptr.load
// CHECK: %[[NEXT:.*]] = arith.addi %[[RK]],
// CHECK-NEXT: %[[RK2:.*]] = bsgp.thread_rank
// CHECK-NEXT: bsgp.save %[[V]] to{{ ?}}(%[[SV]]){{ ?}}[%[[RK2]]] : i32
// CHECK-NEXT: %[[SIZE:.*]] = bsgp.thread_size
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi sge, %[[NEXT]], %[[ZERO]]
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[NEXT]], %[[SIZE]]
// CHECK-NEXT: %[[OK:.*]] = arith.andi %[[GE]], %[[LT]]
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK-NEXT: bsgp.save %[[V]] to{{ ?}}(%[[SX]]){{ ?}}[%[[NEXT]]] : i32
// CHECK: bsgp.superstep 2 {{.*}}{
// CHECK-NEXT: %[[R:.*]] = bsgp.thread_rank
// CHECK-NEXT: %[[X:.*]] = bsgp.load{{ ?}}(%[[SX]]){{ ?}}[%[[R]]] : i32
// CHECK: %[[PREV:.*]] = arith.subi
// CHECK-NEXT: %[[G:.*]] = bsgp.load{{ ?}}(%[[SV]]){{ ?}}[%[[PREV]]] : i32
// CHECK-NEXT: arith.addi %[[G]], %[[X]]
// CHECK-NOT: bsgp.get
// CHECK-NOT: bsgp.put
// CHECK: return
func.func @get_put(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %p[%rk] : !bsgp.ptr<i32>, i32
    %c1 = arith.constant 1 : i32
    %next = arith.addi %rk, %c1 : i32
    %x = bsgp.put %next, %v : i32
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    %prev = arith.subi %rk2, %c1 : i32
    %g = bsgp.get %prev, %v : i32
    %s = arith.addi %g, %x : i32
    bsgp.ptr.store %s, %p[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

// A require block's result (a reduce's total is one) is the same in every
// thread: thread.get of it is the value itself and nothing is saved for it.
// It was rejected as "not saved by an earlier superstep".
// CHECK-LABEL: func.func @get_require_result(
// CHECK: %[[T:.*]] = bsgp.require -> i32
// CHECK-NOT: bsgp.get
// CHECK: bsgp.superstep 2
// CHECK: bsgp.ptr.store %[[T]], %{{.*}}[%{{.*}}] : !bsgp.ptr<i32>, i32
// CHECK: return
func.func @get_require_result(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %rk, %p[%rk] : !bsgp.ptr<i32>, i32
    %t = bsgp.require -> i32 {
      bsgp.yield %n : i32
    }
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    %c1 = arith.constant 1 : i32
    %next = arith.addi %rk2, %c1 : i32
    %g = bsgp.get %next, %t : i32
    bsgp.ptr.store %g, %p[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

// Rank reassignment twice in a row: a two-word value is shuffled in each
// reassigning superstep (loaded at the old rank, saved at the new one) and
// finally loaded at the rank in superstep 4.
// CHECK-LABEL: func.func @reassign_twice(
// CHECK: %[[A:.*]]:2 = bsgp.require -> (!bsgp.stream, !bsgp.stream)
// CHECK: %[[B:.*]]:2 = bsgp.require -> (!bsgp.stream, !bsgp.stream)
// CHECK: %[[C:.*]]:2 = bsgp.require -> (!bsgp.stream, !bsgp.stream)
// CHECK: bsgp.superstep 1
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[A]]#0, %[[A]]#1){{ ?}}[%{{.*}}] : vector<2xf32>
// CHECK: bsgp.superstep 2 rank_reassigned
// CHECK: %[[O1:.*]] = bsgp.ptr.load
// CHECK-NEXT: %[[L1:.*]] = bsgp.load{{ ?}}(%[[A]]#0, %[[A]]#1){{ ?}}[%[[O1]]]
// CHECK-NEXT: %[[N1:.*]] = bsgp.thread_rank
// CHECK-NEXT: bsgp.save %[[L1]] to{{ ?}}(%[[B]]#0, %[[B]]#1){{ ?}}[%[[N1]]]
// CHECK: bsgp.superstep 3 rank_reassigned
// CHECK: %[[O2:.*]] = bsgp.ptr.load
// CHECK-NEXT: %[[L2:.*]] = bsgp.load{{ ?}}(%[[B]]#0, %[[B]]#1){{ ?}}[%[[O2]]]
// CHECK-NEXT: %[[N2:.*]] = bsgp.thread_rank
// CHECK-NEXT: bsgp.save %[[L2]] to{{ ?}}(%[[C]]#0, %[[C]]#1){{ ?}}[%[[N2]]]
// CHECK: bsgp.superstep 4
// CHECK-NEXT: %[[R4:.*]] = bsgp.thread_rank
// CHECK-NEXT: bsgp.load{{ ?}}(%[[C]]#0, %[[C]]#1){{ ?}}[%[[R4]]] : vector<2xf32>
func.func @reassign_twice(%p: !bsgp.ptr<vector<2xf32>>, %s1: !bsgp.ptr<i32>, %s2: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %p[%rk] : !bsgp.ptr<vector<2xf32>>, i32
    bsgp.barrier rank_reassigned
    %r1 = bsgp.thread_rank : i32
    %o1 = bsgp.ptr.load %s1[%r1] : !bsgp.ptr<i32>, i32
    bsgp.set_oldrank %o1
    bsgp.barrier rank_reassigned
    %r2 = bsgp.thread_rank : i32
    %o2 = bsgp.ptr.load %s2[%r2] : !bsgp.ptr<i32>, i32
    bsgp.set_oldrank %o2
    bsgp.barrier
    %r3 = bsgp.thread_rank : i32
    bsgp.ptr.store %v, %p[%r3] : !bsgp.ptr<vector<2xf32>>, i32
  }
  return
}

// A value used three supersteps later (and in between) has one save and a
// load in each using superstep, all from the same stream.
// CHECK-LABEL: func.func @far_use(
// CHECK: %[[S:.*]] = bsgp.require -> !bsgp.stream
// CHECK-NOT: bsgp.require
// CHECK: bsgp.superstep 1
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[S]])
// CHECK: bsgp.superstep 2
// CHECK: bsgp.load{{ ?}}(%[[S]])
// CHECK: bsgp.superstep 3
// CHECK-NOT: bsgp.load
// CHECK: bsgp.superstep 4
// CHECK: bsgp.load{{ ?}}(%[[S]])
func.func @far_use(%p: !bsgp.ptr<i64>, %q: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %p[%rk] : !bsgp.ptr<i64>, i32
    %w = arith.trunci %v : i64 to i32
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    bsgp.ptr.store %w, %q[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %rk3 = bsgp.thread_rank : i32
    bsgp.ptr.store %rk3, %q[%rk3] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %rk4 = bsgp.thread_rank : i32
    bsgp.ptr.store %w, %q[%rk4] : !bsgp.ptr<i32>, i32
  }
  return
}

// A put whose new value nothing reads after the barrier assigns nothing
// observable: it is dropped, and nothing is saved.
// CHECK-LABEL: func.func @dead_put(
// CHECK-NOT: bsgp.put
// CHECK-NOT: bsgp.save
// CHECK: return
func.func @dead_put(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %x = bsgp.put %rk, %rk : i32
    bsgp.ptr.store %rk, %p[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    bsgp.ptr.store %rk2, %p[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}
