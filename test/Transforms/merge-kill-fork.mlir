// RUN: bsgp-opt %s --bsgp-merge-kill-fork --split-input-file | FileCheck %s

// The tessellator's form: a kill, a level computed by a function of
// arithmetic and a loop, and a fork of level^2 children. The kill goes; the
// code between runs only in the threads it kept, which yield the level and
// the count (zeros in the others); the fork's count is 0 for the killed.
func.func private @kill(i1) attributes {bsgp.collective, bsgp.library = #bsgp.library<thread_kill>}
func.func private @fork(i32) -> i32 attributes {bsgp.collective, bsgp.library = #bsgp.library<thread_fork>}
func.func @level(%d: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%l = %d) : (i32) -> i32 {
    %more = arith.cmpi sgt, %l, %c1 : i32
    scf.condition(%more) %l : i32
  } do {
  ^bb0(%l: i32):
    %h = arith.shrsi %l, %c1 : i32
    scf.yield %h : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @tess(
// CHECK-SAME: %[[IN:[^:]*]]: !bsgp.ptr<i32>, %[[OUT:[^:]*]]: !bsgp.ptr<i32>
// CHECK: bsgp.spawn
// CHECK: %[[F:.*]] = arith.cmpi slt
// CHECK-NOT: call @kill
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[ALIVE:.*]] = arith.xori %[[F]], %[[TRUE]] : i1
// CHECK: %[[R:.*]]:2 = scf.if %[[ALIVE]] -> (i32, i32) {
// CHECK:   %[[L:.*]] = func.call @level(
// CHECK:   %[[N:.*]] = arith.muli %[[L]], %[[L]]
// CHECK:   scf.yield %[[L]], %[[N]] : i32, i32
// CHECK: } else {
// CHECK:   %[[Z0:.*]] = arith.constant 0 : i32
// CHECK:   %[[Z1:.*]] = arith.constant 0 : i32
// CHECK:   scf.yield %[[Z0]], %[[Z1]] : i32, i32
// CHECK: }
// CHECK: %[[NONE:.*]] = arith.constant 0 : i32
// CHECK: %[[COUNT:.*]] = arith.select %[[F]], %[[NONE]], %[[R]]#1 : i32
// CHECK: %[[C:.*]] = func.call @fork(%[[COUNT]])
// CHECK: arith.addi %[[C]], %[[R]]#0
// CHECK-NOT: call @kill
func.func @tess(%in: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %r = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %in[%r] : !bsgp.ptr<i32>, i32
    %culled = arith.cmpi slt, %v, %c0 : i32
    func.call @kill(%culled) : (i1) -> ()
    %l = func.call @level(%v) : (i32) -> i32
    %k = arith.muli %l, %l : i32
    %child = func.call @fork(%k) : (i32) -> i32
    %s = arith.addi %child, %l : i32
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %s, %out[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A count computed before the kill: nothing to move, the fork's count is
// 0 for the killed threads.
func.func private @kill(i1) attributes {bsgp.collective, bsgp.library = #bsgp.library<thread_kill>}
func.func private @fork(i32) -> i32 attributes {bsgp.collective, bsgp.library = #bsgp.library<thread_fork>}
// CHECK-LABEL: func.func @count_before(
// CHECK-NOT: call @kill
// CHECK-NOT: scf.if
// CHECK: arith.cmpi eq
// CHECK-NEXT: %[[NONE:.*]] = arith.constant 0 : i32
// CHECK: %[[COUNT:.*]] = arith.select %{{.*}}, %[[NONE]], %{{.*}} : i32
// CHECK: call @fork(%[[COUNT]])
func.func @count_before(%in: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %r = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %in[%r] : !bsgp.ptr<i32>, i32
    %culled = arith.cmpi eq, %v, %c0 : i32
    func.call @kill(%culled) : (i1) -> ()
    %child = func.call @fork(%v) : (i32) -> i32
  }
  return
}

// -----

// Between the calls, a load (another thread may have stored what it reads
// before the kill's barrier), thread.rank (the survivors' new rank), a
// call of a function that stores: the kill stays.
func.func private @kill(i1) attributes {bsgp.collective, bsgp.library = #bsgp.library<thread_kill>}
func.func private @fork(i32) -> i32 attributes {bsgp.collective, bsgp.library = #bsgp.library<thread_fork>}
func.func @poke(%p: !bsgp.ptr<i32>, %v: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  bsgp.ptr.store %v, %p[%c0] : !bsgp.ptr<i32>, i32
  return %v : i32
}
// CHECK-LABEL: func.func @load_between(
// CHECK: call @kill
// CHECK-NOT: arith.select
// CHECK: call @fork
func.func @load_between(%in: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %r = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %in[%r] : !bsgp.ptr<i32>, i32
    %culled = arith.cmpi eq, %v, %c0 : i32
    func.call @kill(%culled) : (i1) -> ()
    %w = bsgp.ptr.load %in[%c0] : !bsgp.ptr<i32>, i32
    %child = func.call @fork(%w) : (i32) -> i32
  }
  return
}
// CHECK-LABEL: func.func @rank_between(
// CHECK: call @kill
// CHECK: call @fork
func.func @rank_between(%n: i32) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %r = bsgp.thread_rank : i32
    %culled = arith.cmpi eq, %r, %c0 : i32
    func.call @kill(%culled) : (i1) -> ()
    %r2 = bsgp.thread_rank : i32
    %child = func.call @fork(%r2) : (i32) -> i32
  }
  return
}
// CHECK-LABEL: func.func @store_in_callee(
// CHECK: call @kill
// CHECK: call @fork
func.func @store_in_callee(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %r = bsgp.thread_rank : i32
    %culled = arith.cmpi eq, %r, %c0 : i32
    func.call @kill(%culled) : (i1) -> ()
    %v = func.call @poke(%p, %r) : (!bsgp.ptr<i32>, i32) -> i32
    %child = func.call @fork(%v) : (i32) -> i32
  }
  return
}

// -----

// A spawn that reads ranks of an earlier superstep (here thread.get after
// the fork, which reads the parents at their ranks): the kill stays.
func.func private @kill(i1) attributes {bsgp.collective, bsgp.library = #bsgp.library<thread_kill>}
func.func private @fork(i32) -> i32 attributes {bsgp.collective, bsgp.library = #bsgp.library<thread_fork>}
// CHECK-LABEL: func.func @get_after(
// CHECK: call @kill
// CHECK: call @fork
// CHECK: bsgp.get
func.func @get_after(%in: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %r = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %in[%r] : !bsgp.ptr<i32>, i32
    %culled = arith.cmpi eq, %v, %c0 : i32
    func.call @kill(%culled) : (i1) -> ()
    %child = func.call @fork(%v) : (i32) -> i32
    %g = bsgp.get %c0, %v : i32
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %g, %out[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A get before the kill reads ranks both forms agree on: merged. The same
// get in a loop around the kill and the fork runs after the fork in the
// next round: the kill stays.
func.func private @kill(i1) attributes {bsgp.collective, bsgp.library = #bsgp.library<thread_kill>}
func.func private @fork(i32) -> i32 attributes {bsgp.collective, bsgp.library = #bsgp.library<thread_fork>}
// CHECK-LABEL: func.func @get_before(
// CHECK: bsgp.get
// CHECK-NOT: call @kill
// CHECK: arith.select
// CHECK: call @fork
func.func @get_before(%in: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %r = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %in[%r] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %g = bsgp.get %c0, %v : i32
    %culled = arith.cmpi eq, %g, %c0 : i32
    func.call @kill(%culled) : (i1) -> ()
    %child = func.call @fork(%v) : (i32) -> i32
  }
  return
}
// CHECK-LABEL: func.func @get_in_loop(
// CHECK: call @kill
// CHECK: call @fork
func.func @get_in_loop(%in: !bsgp.ptr<i32>, %n: i32, %iters: i32) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %in[%r] : !bsgp.ptr<i32>, i32
    %last = scf.while (%i = %c0) : (i32) -> i32 {
      %more = arith.cmpi slt, %i, %iters : i32
      scf.condition(%more) %i : i32
    } do {
    ^bb0(%i: i32):
      bsgp.barrier
      %g = bsgp.get %c0, %v : i32
      %culled = arith.cmpi eq, %g, %i : i32
      func.call @kill(%culled) : (i1) -> ()
      %child = func.call @fork(%c1) : (i32) -> i32
      %next = arith.addi %i, %c1 : i32
      scf.yield %next : i32
    }
  }
  return
}
