// RUN: bsgp-opt %s --bsgp-inline-collectives -split-input-file | FileCheck %s

// Functions using work-group operations are inlined at every call, also
// inside control flow (unlike collectives, they hold no barrier), and
// erased once no call is left: the targets lower those ops only inside
// kernels.

// CHECK-NOT:   func.func private @warp_sum
// CHECK-NOT:   func.func private @twice
// CHECK:       func.func private @plain(
// CHECK-LABEL: func.func @f(
// CHECK:         bsgp.spawn
// CHECK:           scf.if
// CHECK:             bsgp.subgroup_shuffle "xor"
// CHECK:             bsgp.subgroup_shuffle "xor"
// CHECK-NOT:         func.call @{{warp_sum|twice}}
// CHECK:           } else {
// CHECK-NEXT:        func.call @plain(
// CHECK:         return
func.func private @warp_sum(%x: i32) -> i32 attributes {bsgp.device} {
  %one = arith.constant 1 : i32
  %y = bsgp.subgroup_shuffle "xor" %x, %one : i32
  %s = arith.addi %x, %y : i32
  return %s : i32
}
func.func private @twice(%x: i32) -> i32 attributes {bsgp.device} {
  %a = func.call @warp_sum(%x) : (i32) -> i32
  %b = func.call @warp_sum(%a) : (i32) -> i32
  return %b : i32
}
func.func private @plain(%x: i32) -> i32 attributes {bsgp.device} {
  return %x : i32
}
func.func @f(%out: !bsgp.ptr<i32>, %n: i32, %c: i1) {
  bsgp.spawn %n {
    %r = bsgp.thread_rank : i32
    %v = scf.if %c -> (i32) {
      %t = func.call @twice(%r) : (i32) -> i32
      scf.yield %t : i32
    } else {
      %p = func.call @plain(%r) : (i32) -> i32
      scf.yield %p : i32
    }
    bsgp.ptr.store %v, %out[%r] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// Group ops inside a spawn belong to that spawn's kernels, not to the
// function around it: a (here recursive) host function that spawns them
// stays a call, as the library's list scan does.

// CHECK-LABEL: func.func private @host_scan(
// CHECK:         bsgp.spawn
// CHECK:           bsgp.subgroup_shuffle "up"
// CHECK:         call @host_scan(
// CHECK-LABEL: func.func @g(
// CHECK-NEXT:    call @host_scan(
func.func private @host_scan(%p: !bsgp.ptr<i32>, %n: i32) {
  %one = arith.constant 1 : i32
  bsgp.spawn %n {
    %r = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %p[%r] : !bsgp.ptr<i32>, i32
    %y = bsgp.subgroup_shuffle "up" %x, %one : i32
    bsgp.ptr.store %y, %p[%r] : !bsgp.ptr<i32>, i32
  }
  %c = arith.cmpi sgt, %n, %one : i32
  scf.if %c {
    %h = arith.shrui %n, %one : i32
    func.call @host_scan(%p, %h) : (!bsgp.ptr<i32>, i32) -> ()
  }
  return
}
func.func @g(%p: !bsgp.ptr<i32>, %n: i32) {
  func.call @host_scan(%p, %n) : (!bsgp.ptr<i32>, i32) -> ()
  return
}

// -----

// A function using thread.get is inlined the same way (its get becomes a
// load in the caller's superstep). Its argument `a + 1` is computed after
// the barrier: the get distributes over the addition, reading `a` from
// thread r and adding 1 here; the host value %n is everyone's.
// CHECK-LABEL: func.func @get_through_inline(
// CHECK-SAME: %[[N:[^:]*]]: i32
// CHECK-NOT: func.call
// CHECK: %[[A:.*]] = bsgp.thread_rank
// CHECK: bsgp.barrier
// CHECK: %[[R:.*]] = bsgp.thread_rank
// CHECK: %[[G:.*]] = bsgp.get %[[R]], %[[A]] : i32
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[G]], %{{.*}} : i32
// CHECK-NEXT: arith.addi %[[S]], %[[N]] : i32
// CHECK-NOT: @nb
func.func private @nb(%r: i32, %v: i32) -> i32 attributes {bsgp.device} {
  %g = bsgp.get %r, %v : i32
  return %g : i32
}
func.func @get_through_inline(%n: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %a = bsgp.thread_rank : i32
    bsgp.barrier
    %r = bsgp.thread_rank : i32
    %one = arith.constant 1 : i32
    %a1 = arith.addi %a, %one : i32
    %x = func.call @nb(%r, %a1) : (i32, i32) -> i32
    %y = func.call @nb(%r, %n) : (i32, i32) -> i32
    %s = arith.addi %x, %y : i32
    bsgp.ptr.store %s, %out[%r] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A function reading thread.oldrank is inlined too: the old rank is a value
// of the caller's spawn body (bsgp-resolve-oldrank).
// CHECK-NOT:   func.func private @old_times_ten
// CHECK-LABEL: func.func @reads_old(
// CHECK:         bsgp.set_oldrank
// CHECK-NEXT:    %[[OLD:.*]] = bsgp.oldrank : i32
// CHECK:         arith.muli %[[OLD]]
// CHECK-NOT:     func.call
func.func private @old_times_ten() -> i32 attributes {bsgp.device} {
  %old = bsgp.oldrank : i32
  %ten = arith.constant 10 : i32
  %r = arith.muli %old, %ten : i32
  return %r : i32
}
func.func @reads_old(%out: !bsgp.ptr<i32>, %n: i32, %o: i32) {
  bsgp.spawn %n {
    bsgp.barrier rank_reassigned
    bsgp.set_oldrank %o
    %v = func.call @old_times_ten() : () -> i32
    %r = bsgp.thread_rank : i32
    bsgp.ptr.store %v, %out[%r] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// An inline function reading thread.rank or thread.size is inlined: they
// are the calling threads' (the GPU targets know the ranks only in the
// kernel), read at the point of the call.
// CHECK-NOT:   func.func private @rank_times
// CHECK-LABEL: func.func @reads_rank(
// CHECK:         bsgp.spawn
// CHECK-NEXT:      %[[R:.*]] = bsgp.thread_rank : i32
// CHECK-NEXT:      %[[S:.*]] = bsgp.thread_size : i32
// CHECK-NEXT:      arith.muli %[[R]], %[[S]]
// CHECK-NOT:     func.call
func.func private @rank_times() -> i32 attributes {bsgp.device} {
  %r = bsgp.thread_rank : i32
  %s = bsgp.thread_size : i32
  %v = arith.muli %r, %s : i32
  return %v : i32
}
func.func @reads_rank(%out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %v = func.call @rank_times() : () -> i32
    %r = bsgp.thread_rank : i32
    bsgp.ptr.store %v, %out[%r] : !bsgp.ptr<i32>, i32
  }
  return
}
