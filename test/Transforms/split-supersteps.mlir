// RUN: bsgp-opt %s --bsgp-split-supersteps | FileCheck %s

// Listing 3 after inlining thread.sortby: three supersteps. The requires go
// in front of their superstep; f and v (used after the barriers) and rk1
// (used in superstep 3) are superstep results, rk0 is not.
func.func private @local_sort(!bsgp.ptr<i32>, i32) attributes {bsgp.device}
func.func private @global_merge(!bsgp.ptr<i32>)

// The source range of superstep 1 runs from its first statement to the
// barrier that ends it.
// CHECK-DAG: #[[L1:loc[0-9]*]] = loc("l3.bsgp":4:9)
// CHECK-DAG: #[[L2:loc[0-9]*]] = loc("l3.bsgp":12:9)
// CHECK-LABEL: func.func @findFaces(
// CHECK-SAME: %[[PF:[^:]*]]: !bsgp.ptr<i32>, %[[HD:[^:]*]]: !bsgp.ptr<i32>, %[[IB:[^:]*]]: !bsgp.ptr<i32>, %[[N:[^:]*]]: i32
// CHECK: bsgp.spawn
// CHECK-NEXT: %[[SORTED:.*]] = bsgp.require -> !bsgp.ptr<i32> {
// CHECK: bsgp.dtempnew
// CHECK: %[[S1:.*]]:2 = bsgp.superstep 1 source(#[[L1]], #[[L2]]) -> (i32, i32) {
// CHECK-NEXT: %[[RK0:.*]] = bsgp.thread_rank
// CHECK: %[[F:.*]] = arith.divsi %[[RK0]]
// CHECK: %[[V:.*]] = bsgp.ptr.load %[[IB]][%[[RK0]]]
// CHECK: func.call @local_sort(%[[SORTED]], %[[V]])
// CHECK-NEXT: bsgp.yield %[[F]], %[[V]] : i32, i32
// CHECK: bsgp.require {
// CHECK-NEXT: func.call @global_merge(%[[SORTED]])
// CHECK: %[[OWNER:.*]] = bsgp.require -> !bsgp.ptr<i32> {
// CHECK-NEXT: bsgp.dtempnew %[[N]]
// CHECK: %[[S2:.*]] = bsgp.superstep 2 rank_reassigned source({{.*}}) -> i32 {
// CHECK: bsgp.set_oldrank
// CHECK-NEXT: %[[RK1:.*]] = bsgp.thread_rank
// CHECK-NEXT: bsgp.ptr.store %[[S1]]#0, %[[PF]][%[[RK1]]]
// CHECK-NEXT: bsgp.ptr.store %[[S1]]#1, %[[OWNER]][%[[RK1]]]
// CHECK-NEXT: bsgp.yield %[[RK1]] : i32
// CHECK: bsgp.superstep 3 source({{.*}}) {
// CHECK: arith.cmpi eq, %[[S2]],
// CHECK: bsgp.ptr.load %[[OWNER]]
// CHECK: bsgp.ptr.store %[[S2]], %[[HD]][%[[S1]]#1]
// CHECK-NOT: bsgp.barrier
// CHECK: return
func.func @findFaces(%pf: !bsgp.ptr<i32>, %hd: !bsgp.ptr<i32>, %ib: !bsgp.ptr<i32>, %n: i32) {
  %c3 = arith.constant 3 : i32
  %n3 = arith.muli %n, %c3 : i32
  bsgp.spawn %n3 {
    %rk0 = bsgp.thread_rank : i32 loc("rk0"("l3.bsgp":4:9))
    %c3d = arith.constant 3 : i32
    %f = arith.divsi %rk0, %c3d : i32 loc("f"("l3.bsgp":5:9))
    %v = bsgp.ptr.load %ib[%rk0] : !bsgp.ptr<i32>, i32 loc("v"("l3.bsgp":5:23))
    %sorted = bsgp.require -> !bsgp.ptr<i32> {
      %ts = bsgp.thread_size : i32
      %p = bsgp.dtempnew %ts : !bsgp.ptr<i32>
      bsgp.yield %p : !bsgp.ptr<i32>
    }
    func.call @local_sort(%sorted, %v) : (!bsgp.ptr<i32>, i32) -> ()
    bsgp.barrier rank_reassigned loc("l3.bsgp":12:9)
    bsgp.require {
      func.call @global_merge(%sorted) : (!bsgp.ptr<i32>) -> ()
    }
    %rk = bsgp.thread_rank : i32 loc("l3.bsgp":17:27)
    %old = bsgp.ptr.load %sorted[%rk] : !bsgp.ptr<i32>, i32
    bsgp.set_oldrank %old
    %owner = bsgp.require -> !bsgp.ptr<i32> {
      %o = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %o : !bsgp.ptr<i32>
    }
    %rk1 = bsgp.thread_rank : i32 loc("rk1"("l3.bsgp":22:9))
    bsgp.ptr.store %f, %pf[%rk1] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %v, %owner[%rk1] : !bsgp.ptr<i32>, i32
    bsgp.barrier loc("l3.bsgp":25:9)
    %c0 = arith.constant 0 : i32 loc("l3.bsgp":27:9)
    %is0 = arith.cmpi eq, %rk1, %c0 : i32
    %cond = scf.if %is0 -> i1 {
      %t = arith.constant true
      scf.yield %t : i1
    } else {
      %c1 = arith.constant 1 : i32
      %prev = arith.subi %rk1, %c1 : i32
      %o = bsgp.ptr.load %owner[%prev] : !bsgp.ptr<i32>, i32
      %ne = arith.cmpi ne, %o, %v : i32
      scf.yield %ne : i1
    }
    scf.if %cond {
      bsgp.ptr.store %rk1, %hd[%v] : !bsgp.ptr<i32>, i32
    } loc("l3.bsgp":28:13)
  }
  return
}

// Listing 5: four supersteps; v0 and v1 leave superstep 1, v2 superstep 2,
// v3 superstep 3 (Table 2). v1 is used three supersteps later, directly.
// CHECK-LABEL: func.func @listing5(
// CHECK: %[[A:.*]]:2 = bsgp.superstep 1 {{.*}}-> (i32, i32)
// CHECK: %[[B:.*]] = bsgp.superstep 2 {{.*}}-> i32
// CHECK-NEXT: arith.addi %[[A]]#0, %[[A]]#0
// CHECK: %[[C:.*]] = bsgp.superstep 3 {{.*}}-> i32
// CHECK-NEXT: arith.addi %[[A]]#1, %[[B]]
// CHECK: bsgp.superstep 4 {{.*}}{
// CHECK-NEXT: arith.addi %[[C]], %[[A]]#1
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

// A value defined under scf.if leaves its superstep as the scf.if result; a
// loop stays inside its superstep; a constant used by a require is cloned
// into it; two barriers in a row and a trailing barrier make no empty
// superstep.
// CHECK-LABEL: func.func @control_flow(
// CHECK: %[[R:.*]] = bsgp.require -> !bsgp.ptr<f32> {
// CHECK-NEXT: %[[K:.*]] = arith.constant 16 : i32
// CHECK-NEXT: bsgp.dnew %[[K]]
// CHECK: %[[S1:.*]] = bsgp.superstep 1 {{.*}}-> f32 {
// CHECK: %[[IF:.*]] = scf.if
// CHECK: scf.for
// CHECK: bsgp.yield %[[IF]] : f32
// CHECK: bsgp.superstep 2 source({{.*}}) {{.*}}{
// CHECK-NEXT: bsgp.thread_rank
// CHECK-NEXT: bsgp.ptr.store %[[S1]], %[[R]]
// CHECK-NOT: bsgp.superstep
// CHECK: return
func.func @control_flow(%p: !bsgp.ptr<f32>, %n: i32) {
  bsgp.spawn %n {
    %k = arith.constant 16 : i32
    %rk = bsgp.thread_rank : i32
    %zero = arith.constant 0 : i32
    %pos = arith.cmpi sgt, %rk, %zero : i32
    %x = scf.if %pos -> f32 {
      %l = bsgp.ptr.load %p[%rk] : !bsgp.ptr<f32>, i32
      scf.yield %l : f32
    } else {
      %z = arith.constant 0.0 : f32
      scf.yield %z : f32
    }
    %lb = arith.constant 0 : index
    %ub = arith.constant 4 : index
    %st = arith.constant 1 : index
    scf.for %i = %lb to %ub step %st {
      bsgp.ptr.store %x, %p[%i] : !bsgp.ptr<f32>, index
    }
    %out = bsgp.require -> !bsgp.ptr<f32> {
      %q = bsgp.dnew %k : !bsgp.ptr<f32>
      bsgp.yield %q : !bsgp.ptr<f32>
    }
    bsgp.barrier
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    bsgp.ptr.store %x, %out[%rk2] : !bsgp.ptr<f32>, i32
    bsgp.barrier
  }
  return
}

// A spawn inside a host loop is split in place; a spawn without barriers
// is one superstep.
// CHECK-LABEL: func.func @host_loop(
// CHECK: scf.for
// CHECK-NEXT: bsgp.spawn
// CHECK-NEXT: bsgp.superstep 1 {{.*}}{
// CHECK: bsgp.superstep 2 source({{.*}}) {{.*}}{
// CHECK: bsgp.spawn
// CHECK-NEXT: bsgp.superstep 1 {{.*}}{
// CHECK-NOT: bsgp.superstep 2
func.func @host_loop(%p: !bsgp.ptr<i32>, %n: i32) {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %st = arith.constant 1 : index
  scf.for %i = %lb to %ub step %st {
    bsgp.spawn %n {
      %rk = bsgp.thread_rank : i32
      bsgp.ptr.store %rk, %p[%rk] : !bsgp.ptr<i32>, i32
      bsgp.barrier
      %rk2 = bsgp.thread_rank : i32
      bsgp.ptr.store %rk2, %p[%i] : !bsgp.ptr<i32>, index
    }
  }
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %rk, %p[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// A target query is a constant of each target: a require may use one that
// CSE merged with the device code's (the collective library's reduce asks
// `target.cuda` on both sides). The require gets its own copy.
// CHECK-LABEL: func.func @shared_query(
// CHECK: bsgp.require -> i32 {
// CHECK-NEXT: bsgp.target_is "cuda"
// CHECK: bsgp.superstep 1
func.func @shared_query(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %q = bsgp.target_is "cuda" : i1
    %rk = bsgp.thread_rank : i32
    %m = bsgp.require -> i32 {
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %v = arith.select %q, %one, %two : i32
      bsgp.yield %v : i32
    }
    %w = arith.select %q, %rk, %m : i32
    bsgp.ptr.store %w, %p[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// Two reduces share one target query after CSE. Each superstep gets its own
// copy, so that the branch of the second one is still a target branch (the
// chunk_reduce under it must sit in straight-line code) and the query is
// not a saved value.
// CHECK-LABEL: func.func @query_per_superstep(
// CHECK: bsgp.superstep 1 source({{.*}}) {
// CHECK-NEXT: %[[Q1:.*]] = bsgp.target_is "cpu"
// CHECK: scf.if %[[Q1]] {
// CHECK-NEXT: bsgp.chunk_reduce "add"
// CHECK: bsgp.superstep 2 source({{.*}}) {
// CHECK-NEXT: %[[Q2:.*]] = bsgp.target_is "cpu"
// CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank
// CHECK-NEXT: scf.if %[[Q2]] {
// CHECK-NEXT: bsgp.chunk_reduce "maxs" %[[RK]]
func.func @query_per_superstep(%l: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %q = bsgp.target_is "cpu" : i1
    %rk = bsgp.thread_rank : i32
    scf.if %q {
      bsgp.chunk_reduce "add" %rk, %l : !bsgp.ptr<i32>
    }
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    scf.if %q {
      bsgp.chunk_reduce "maxs" %rk2, %l : !bsgp.ptr<i32>
    }
  }
  return
}

// A require comparing with the null pointer that CSE merged with the device
// code's (the collective library's reduce on CUDA): bsgp.ptr.null has no
// operands and is pure, a constant, and the require gets its own copy.
// CHECK-LABEL: func.func @require_null(
// CHECK: bsgp.superstep 1
// CHECK: bsgp.require -> i1 {
// CHECK-NEXT: %[[NULL:.*]] = bsgp.ptr.null : !bsgp.ptr<i32>
// CHECK-NEXT: bsgp.ptr.cmp eq, %{{.*}}, %[[NULL]]
func.func @require_null(%n: i32, %p: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %null = bsgp.ptr.null : !bsgp.ptr<i32>
    %rk = bsgp.thread_rank : i32
    %ne = bsgp.ptr.cmp ne, %p, %null : !bsgp.ptr<i32>
    scf.if %ne {
      bsgp.ptr.store %rk, %p[%rk] : !bsgp.ptr<i32>, i32
    }
    bsgp.barrier
    %isNull = bsgp.require -> i1 {
      %eq = bsgp.ptr.cmp eq, %p, %null : !bsgp.ptr<i32>
      bsgp.yield %eq : i1
    }
    scf.if %isNull {
      bsgp.ptr.store %rk, %p[%rk] : !bsgp.ptr<i32>, i32
    }
  }
  return
}

// A value the require computes from host values, which CSE merged with the
// device code's equal op (`thread.size * 0 - max(p.i, n)` once folded, a
// segment's end value next to the thread's own copy): the require gets its
// own copies of the pure ops, operands first; the device code keeps its op.
// CHECK-LABEL: func.func @require_pure_chain(
// CHECK: bsgp.superstep 1
// CHECK: %[[DEV:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: bsgp.ptr.store %[[DEV]]
// CHECK: bsgp.require -> i32 {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[MAX:.*]] = arith.maxsi %arg1, %arg0 : i32
// CHECK-NEXT: %[[NEG:.*]] = arith.subi %[[ZERO]], %[[MAX]] : i32
// CHECK-NEXT: bsgp.yield %[[NEG]] : i32
func.func @require_pure_chain(%n: i32, %i: i32, %p: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %max = arith.maxsi %i, %n : i32
    %k = arith.subi %c0, %max : i32
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %k, %p[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %m = bsgp.require -> i32 {
      bsgp.yield %k : i32
    }
    bsgp.ptr.store %m, %p[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}
