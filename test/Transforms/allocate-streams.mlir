// RUN: bsgp-opt %s --bsgp-split-supersteps --bsgp-rematerialize --bsgp-find-saved-values --bsgp-save-restore --bsgp-allocate-streams | FileCheck %s

// Listing 5 (Fig. 4): at most two words are live at once, so two streams:
// S0 holds v0, v2, v3 in turn and S1 holds v1. Both are allocated before
// superstep 1 and freed after superstep 4.
// CHECK-LABEL: func.func @listing5(
// CHECK: bsgp.spawn
// CHECK-NEXT: %[[S0:.*]] = bsgp.require -> !bsgp.stream {
// CHECK-NEXT: %[[N:.*]] = bsgp.thread_size
// CHECK-NEXT: bsgp.stream_alloc %[[N]]
// CHECK: %[[S1:.*]] = bsgp.require -> !bsgp.stream {
// CHECK-NOT: bsgp.require
// CHECK: bsgp.superstep 1
// CHECK: %[[V0:.*]] = bsgp.ptr.load
// CHECK: %[[V1:.*]] = bsgp.ptr.load
// CHECK: bsgp.save %[[V0]] to{{ ?}}(%[[S0]])
// CHECK-NEXT: bsgp.save %[[V1]] to{{ ?}}(%[[S1]])
// CHECK-NOT: bsgp.require
// CHECK: bsgp.superstep 2
// CHECK: bsgp.load{{ ?}}(%[[S0]])
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[S0]])
// CHECK-NOT: bsgp.require
// CHECK: bsgp.superstep 3
// CHECK-DAG: bsgp.load{{ ?}}(%[[S1]])
// CHECK-DAG: bsgp.load{{ ?}}(%[[S0]])
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[S0]])
// CHECK-NOT: bsgp.require
// CHECK: bsgp.superstep 4
// CHECK-DAG: bsgp.load{{ ?}}(%[[S1]])
// CHECK-DAG: bsgp.load{{ ?}}(%[[S0]])
// CHECK: bsgp.require {
// CHECK-NEXT: bsgp.stream_free %[[S0]]
// CHECK: bsgp.require {
// CHECK-NEXT: bsgp.stream_free %[[S1]]
func.func @listing5(%a: !bsgp.ptr<i32>) {
  %one = arith.constant 1 : i32
  bsgp.spawn %one {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %v0 = bsgp.ptr.load %a[%c0] : !bsgp.ptr<i32>, i32 loc("v0")
    %v1 = bsgp.ptr.load %a[%c1] : !bsgp.ptr<i32>, i32 loc("v1")
    bsgp.barrier
    %v2 = arith.addi %v0, %v0 : i32 loc("v2")
    bsgp.barrier
    %v3 = arith.addi %v1, %v2 : i32 loc("v3")
    bsgp.barrier
    %v4 = arith.addi %v3, %v1 : i32 loc("v4")
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %v4, %a[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// Listing 3 -> Listing 4: f and v are loaded at thread.oldrank in superstep
// 2, so their streams t0, t1 cannot take the copy of v saved there; that
// copy gets t2. t0 and t1 are freed after superstep 2, t2 after superstep 3.
// (f is read from a list here: Listing 3's f = rk0 / 3 would be recomputed
// from the old rank.)
// CHECK-LABEL: func.func @findFaces(
// CHECK: %[[T0:.*]] = bsgp.require -> !bsgp.stream
// CHECK: %[[T1:.*]] = bsgp.require -> !bsgp.stream
// CHECK: bsgp.superstep 1
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[T0]])
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[T1]])
// CHECK: %[[T2:.*]] = bsgp.require -> !bsgp.stream
// CHECK: bsgp.superstep 2 rank_reassigned
// CHECK: bsgp.load{{ ?}}(%[[T0]])
// CHECK: bsgp.load{{ ?}}(%[[T1]])
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[T2]])
// CHECK: bsgp.stream_free %[[T0]]
// CHECK: bsgp.stream_free %[[T1]]
// CHECK: bsgp.superstep 3
// CHECK: bsgp.load{{ ?}}(%[[T2]])
// CHECK: bsgp.stream_free %[[T2]]
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

// v is read with thread.get at rank - 1 in superstep 2, so w, saved by
// superstep 2, may not reuse v's stream: two streams instead of one.
// CHECK-LABEL: func.func @get_whole(
// CHECK: %[[A:.*]] = bsgp.require -> !bsgp.stream
// CHECK: bsgp.superstep 1
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[A]])
// CHECK: %[[B:.*]] = bsgp.require -> !bsgp.stream
// CHECK: bsgp.superstep 2
// CHECK: bsgp.load{{ ?}}(%[[A]])
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[B]])
// CHECK: bsgp.stream_free %[[A]]
// CHECK: bsgp.superstep 3
// CHECK: bsgp.load{{ ?}}(%[[B]])
// CHECK: bsgp.stream_free %[[B]]
func.func @get_whole(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %p[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    %c1 = arith.constant 1 : i32
    %prev = arith.subi %rk2, %c1 : i32
    %g = bsgp.get %prev, %v : i32
    %w = arith.addi %g, %c1 : i32
    bsgp.barrier
    %rk3 = bsgp.thread_rank : i32
    bsgp.ptr.store %w, %p[%rk3] : !bsgp.ptr<i32>, i32
  }
  return
}

// Word granularity (docs/stream-allocation.md): a vector<4xf32> a (1 to 3),
// an i32 b (1 to 2) and a vector<2xf32> c (2 to 3) have at most 6 live
// words; c's second word takes b's stream.
// CHECK-LABEL: func.func @words(
// CHECK-COUNT-5: bsgp.require -> !bsgp.stream
// CHECK: bsgp.superstep 1
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[A0:.*]], %[[A1:.*]], %[[A2:.*]], %[[A3:.*]]){{ ?}}[%{{.*}}] : vector<4xf32>
// CHECK-NEXT: bsgp.save %{{.*}} to{{ ?}}(%[[B:.*]]){{ ?}}[%{{.*}}] : i32
// CHECK: %[[C:.*]] = bsgp.require -> !bsgp.stream
// CHECK-NOT: bsgp.require
// CHECK: bsgp.superstep 2
// CHECK: bsgp.load{{ ?}}(%[[B]])
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[C]], %[[B]]){{ ?}}[%{{.*}}] : vector<2xf32>
// CHECK: bsgp.superstep 3
// CHECK-COUNT-6: bsgp.stream_free
// CHECK-NOT: bsgp.stream_free
func.func @words(%p4: !bsgp.ptr<vector<4xf32>>, %p2: !bsgp.ptr<vector<2xf32>>, %p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %a = bsgp.ptr.load %p4[%rk] : !bsgp.ptr<vector<4xf32>>, i32 loc("a")
    %b = bsgp.ptr.load %p[%rk] : !bsgp.ptr<i32>, i32 loc("b")
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    %c = bsgp.ptr.load %p2[%b] : !bsgp.ptr<vector<2xf32>>, i32 loc("c")
    bsgp.barrier
    %rk3 = bsgp.thread_rank : i32
    bsgp.ptr.store %a, %p4[%rk3] : !bsgp.ptr<vector<4xf32>>, i32
    bsgp.ptr.store %c, %p2[%rk3] : !bsgp.ptr<vector<2xf32>>, i32
  }
  return
}

// thread.put writes other threads' slots in superstep 2, so u, whose last
// use is superstep 2, may not share its stream with the put value x.
// CHECK-LABEL: func.func @put_whole(
// CHECK: %[[U:.*]] = bsgp.require -> !bsgp.stream
// CHECK: bsgp.superstep 1
// CHECK: %[[X:.*]] = bsgp.require -> !bsgp.stream
// CHECK: bsgp.superstep 2
// CHECK: bsgp.load{{ ?}}(%[[U]])
// CHECK: scf.if
// CHECK-NEXT: bsgp.save %{{.*}} to{{ ?}}(%[[X]])
// CHECK: bsgp.stream_free %[[U]]
// CHECK: bsgp.superstep 3
// CHECK: bsgp.load{{ ?}}(%[[X]])
func.func @put_whole(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %u = bsgp.ptr.load %p[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    %c1 = arith.constant 1 : i32
    %next = arith.addi %rk2, %c1 : i32
    %x = bsgp.put %next, %u : i32
    bsgp.barrier
    %rk3 = bsgp.thread_rank : i32
    bsgp.ptr.store %x, %p[%rk3] : !bsgp.ptr<i32>, i32
  }
  return
}

// set_size between two barriers (as thread.fork and thread.kill do)
// changes thread.size between supersteps 2 and 3: c (1 to 2) and d (3 to 4) never live together, but d may not reuse
// c's stream, which holds only the old thread count of words. d's stream is
// allocated after the resize.
// CHECK-LABEL: func.func @resized(
// CHECK: %[[C:.*]] = bsgp.require -> !bsgp.stream
// CHECK: bsgp.superstep 1
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[C]])
// CHECK: bsgp.superstep 2
// CHECK: bsgp.load{{ ?}}(%[[C]])
// CHECK: bsgp.stream_free %[[C]]
// CHECK: bsgp.set_size
// CHECK: %[[D:.*]] = bsgp.require -> !bsgp.stream
// CHECK-NEXT: bsgp.thread_size
// CHECK-NEXT: bsgp.stream_alloc
// CHECK: bsgp.superstep 3 rank_reassigned
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[D]])
// CHECK: bsgp.superstep 4
// CHECK: bsgp.load{{ ?}}(%[[D]])
// CHECK: bsgp.stream_free %[[D]]
func.func @resized(%p: !bsgp.ptr<i32>, %n: i32, %m: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %c = bsgp.ptr.load %p[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    bsgp.ptr.store %c, %p[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    bsgp.require {
      bsgp.set_size %m
    }
    bsgp.barrier rank_reassigned
    %rk3 = bsgp.thread_rank : i32
    bsgp.set_oldrank %rk3
    %d = bsgp.ptr.load %p[%rk3] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %rk4 = bsgp.thread_rank : i32
    bsgp.ptr.store %d, %p[%rk4] : !bsgp.ptr<i32>, i32
  }
  return
}
