// RUN: bsgp-opt %s --split-input-file --bsgp-single-pass | FileCheck %s
// RUN: bsgp-opt %s --split-input-file --bsgp-single-pass --bsgp-split-supersteps --bsgp-find-saved-values=print-table -o /dev/null | FileCheck %s --check-prefix=TABLE

// The versioned spawn's copies, named in the superstep table.
// TABLE: spawn 0 in @scan_shape: 1 supersteps (versioned: the copy that runs in one pass)
// TABLE: spawn 1 in @scan_shape: 2 supersteps (versioned: the copy that keeps the barrier)
// TABLE: spawn 0 in @in_place: 1 supersteps (versioned: the copy that runs in one pass)
// TABLE: spawn 1 in @in_place: 2 supersteps (versioned: the copy that keeps the barrier)
// TABLE: spawn 0 in @write_before: 2 supersteps{{$}}

// The library's scan as a statement: x = in[rank] read before the question,
// the group's prefix looked back at in the single-pass form, out[rank]
// written after it. Whether out's ranks meet in's other ranks is known
// only at run time: the host tests that out and in are n elements apart
// (or the same list), and runs the copy without the barrier if so and if
// the runtime says the single-pass forms pay (not on several GPUs).
// CHECK-LABEL: func.func @scan_shape(
// CHECK-SAME: %[[IN:[^:]*]]: !bsgp.ptr<i32>, %[[OUT:[^:]*]]: !bsgp.ptr<i32>, %[[N:[^:]*]]: i32
// CHECK: %[[FORMS:.*]] = llvm.call @bsgprt_single_pass_forms() : () -> i32
// CHECK: %[[PAYS:.*]] = arith.cmpi ne, %[[FORMS]], %{{.*}} : i32
// CHECK: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[D:.*]] = bsgp.ptr.diff %[[OUT]], %[[IN]]
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[D]], %[[N64]]
// CHECK: %[[LE:.*]] = arith.cmpi sle, %[[D]], %{{.*}}
// CHECK: %[[APART:.*]] = arith.ori %[[GE]], %[[LE]]
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[D]], %{{.*}}
// CHECK: %[[OK:.*]] = arith.ori %[[APART]], %[[SAME]]
// CHECK: %[[BOTH:.*]] = arith.andi %[[PAYS]], %[[OK]]
// CHECK: scf.if %[[BOTH]] {
// CHECK: bsgp.spawn
// CHECK-NOT: bsgp.barrier
// CHECK: bsgp.group_lookback
// CHECK-NOT: bsgp.barrier
// CHECK: } {bsgp.pass_version = "runs in one pass"}
// CHECK: } else {
// CHECK: bsgp.spawn
// CHECK-NOT: bsgp.group_lookback
// CHECK: bsgp.barrier
// CHECK: } {bsgp.pass_version = "keeps the barrier"}
// CHECK-NOT: bsgp.single_pass
func.func @scan_shape(%in: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    %q = bsgp.single_pass : i1
    %y = scf.if %q -> (i32) {
      %st = bsgp.require -> !bsgp.ptr<i64> {
        %c4 = arith.constant 4 : i32
        %s = bsgp.dtempnew %c4 : !bsgp.ptr<i64>
        bsgp.yield %s : !bsgp.ptr<i64>
      }
      %p = bsgp.group_lookback %x, %st min_blocks 8 : !bsgp.ptr<i64>
      scf.yield %p : i32
    } else {
      bsgp.barrier
      scf.yield %x : i32
    }
    %rk2 = bsgp.thread_rank : i32
    bsgp.ptr.store %y, %out[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// The in-place scan: each rank writes only the element it read. Nothing
// to test on the lists: the only test is the runtime's.
// CHECK-LABEL: func.func @in_place(
// CHECK: %[[FORMS:.*]] = llvm.call @bsgprt_single_pass_forms() : () -> i32
// CHECK: %[[PAYS:.*]] = arith.cmpi ne, %[[FORMS]], %{{.*}} : i32
// CHECK-NEXT: scf.if %[[PAYS]] {
// CHECK: bsgp.spawn
// CHECK-NOT: bsgp.barrier
// CHECK: bsgp.group_lookback
// CHECK-NOT: bsgp.barrier
// CHECK: } {bsgp.pass_version = "runs in one pass"}
// CHECK: } else {
// CHECK: bsgp.spawn
// CHECK-NOT: bsgp.group_lookback
// CHECK: bsgp.barrier
// CHECK: } {bsgp.pass_version = "keeps the barrier"}
// CHECK: return
func.func @in_place(%p: !bsgp.ptr<i32>, %st: !bsgp.ptr<i64>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %p[%rk] : !bsgp.ptr<i32>, i32
    %q = bsgp.single_pass : i1
    %y = scf.if %q -> (i32) {
      %l = bsgp.group_local 1 : !bsgp.ptr<i64>
      %pre = bsgp.group_lookback %x, %l min_blocks 8 : !bsgp.ptr<i64>
      scf.yield %pre : i32
    } else {
      bsgp.barrier
      scf.yield %x : i32
    }
    bsgp.ptr.store %y, %p[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A store before the question: after it, another rank could read that
// element before the storing rank ran. The barrier stays.
// CHECK-LABEL: func.func @write_before(
// CHECK-NOT: scf.if
// CHECK: bsgp.spawn
// CHECK-NOT: bsgp.group_lookback
// CHECK: bsgp.barrier
// CHECK-NOT: bsgp.pass_version
func.func @write_before(%a: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %c1 = arith.constant 1 : i32
    bsgp.ptr.store %c1, %a[%rk] : !bsgp.ptr<i32>, i32
    %q = bsgp.single_pass : i1
    %y = scf.if %q -> (i32) {
      %l = bsgp.group_local 1 : !bsgp.ptr<i64>
      %pre = bsgp.group_lookback %c1, %l min_blocks 8 : !bsgp.ptr<i64>
      scf.yield %pre : i32
    } else {
      bsgp.barrier
      scf.yield %c1 : i32
    }
    %z = bsgp.ptr.load %a[%y] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %z, %a[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// Compact's shape: the kept values scattered to `list` at positions the
// look-back gives. Element ranges cannot rule that out; the host asks the
// runtime whether `list` and `in` are two allocations.
// CHECK-LABEL: func.func @scatter_after(
// CHECK-SAME: %[[IN:[^:]*]]: !bsgp.ptr<i32>, %[[LIST:[^:]*]]: !bsgp.ptr<i32>
// CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %[[IN]]
// CHECK: %[[B:.*]] = builtin.unrealized_conversion_cast %[[LIST]]
// CHECK: %[[D:.*]] = llvm.call @bsgprt_distinct_allocations(%[[A]], %[[B]])
// CHECK: %[[OK:.*]] = arith.cmpi ne, %[[D]]
// CHECK: %[[BOTH:.*]] = arith.andi %{{.*}}, %[[OK]]
// CHECK: scf.if %[[BOTH]] {
// CHECK: bsgp.pass_version = "runs in one pass"
// CHECK: bsgp.pass_version = "keeps the barrier"
func.func @scatter_after(%in: !bsgp.ptr<i32>, %list: !bsgp.ptr<i32>,
                         %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    %q = bsgp.single_pass : i1
    scf.if %q {
      %l = bsgp.group_local 1 : !bsgp.ptr<i64>
      %at = bsgp.group_lookback %x, %l min_blocks 6 : !bsgp.ptr<i64>
      bsgp.ptr.store %x, %list[%at] : !bsgp.ptr<i32>, i32
    } else {
      bsgp.barrier
      bsgp.ptr.store %x, %list[%rk] : !bsgp.ptr<i32>, i32
    }
  }
  return
}

// -----

// Reads from a list the spawn allocated, which no host pointer reaches:
// no test of the lists needed, only the runtime's.
// CHECK-LABEL: func.func @fresh_read(
// CHECK: %[[FORMS:.*]] = llvm.call @bsgprt_single_pass_forms()
// CHECK: %[[PAYS:.*]] = arith.cmpi ne, %[[FORMS]]
// CHECK-NEXT: scf.if %[[PAYS]] {
// CHECK: bsgp.spawn
// CHECK-NOT: bsgp.barrier
// CHECK: } {bsgp.pass_version = "runs in one pass"}
// CHECK: return
func.func @fresh_read(%out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %t = bsgp.require -> !bsgp.ptr<i32> {
      %s = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %s : !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %t[%rk] : !bsgp.ptr<i32>, i32
    %q = bsgp.single_pass : i1
    %y = scf.if %q -> (i32) {
      %l = bsgp.group_local 1 : !bsgp.ptr<i64>
      %pre = bsgp.group_lookback %x, %l min_blocks 8 : !bsgp.ptr<i64>
      scf.yield %pre : i32
    } else {
      bsgp.barrier
      scf.yield %x : i32
    }
    bsgp.ptr.store %y, %out[%y] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A require after the question would run before the single kernel, not
// between the two halves: the barrier stays.
// CHECK-LABEL: func.func @require_after(
// CHECK-NOT: bsgp.group_lookback
// CHECK: bsgp.barrier
func.func @require_after(%in: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %q = bsgp.single_pass : i1
    %y = scf.if %q -> (i32) {
      %l = bsgp.group_local 1 : !bsgp.ptr<i64>
      %pre = bsgp.group_lookback %rk, %l min_blocks 8 : !bsgp.ptr<i64>
      scf.yield %pre : i32
    } else {
      bsgp.barrier
      scf.yield %rk : i32
    }
    %t = bsgp.require -> !bsgp.ptr<i32> {
      %s = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %s : !bsgp.ptr<i32>
    }
    bsgp.ptr.store %y, %t[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A store before the question is right in one pass where nothing after it
// reads or writes what another rank stored: here `a` at each rank, against
// `out` read and written at each rank after it, which the host tests to be
// apart (or the same list, each rank then touching its own element).
// CHECK-LABEL: func.func @write_before_apart(
// CHECK-SAME: %[[A:[^:]*]]: !bsgp.ptr<i32>, %[[OUT:[^:]*]]: !bsgp.ptr<i32>
// CHECK: %[[FORMS:.*]] = llvm.call @bsgprt_single_pass_forms()
// CHECK: %[[D:.*]] = bsgp.ptr.diff %[[OUT]], %[[A]]
// CHECK-NOT: bsgp.ptr.diff
// CHECK: scf.if %{{.*}} {
// CHECK: bsgp.group_lookback
// CHECK: } {bsgp.pass_version = "runs in one pass"}
// CHECK: } {bsgp.pass_version = "keeps the barrier"}
func.func @write_before_apart(%a: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>,
                              %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %c1 = arith.constant 1 : i32
    bsgp.ptr.store %c1, %a[%rk] : !bsgp.ptr<i32>, i32
    %q = bsgp.single_pass : i1
    %y = scf.if %q -> (i32) {
      %l = bsgp.group_local 1 : !bsgp.ptr<i64>
      %pre = bsgp.group_lookback %c1, %l min_blocks 8 : !bsgp.ptr<i64>
      scf.yield %pre : i32
    } else {
      bsgp.barrier
      scf.yield %c1 : i32
    }
    %z = bsgp.ptr.load %out[%rk] : !bsgp.ptr<i32>, i32
    %s = arith.addi %y, %z : i32
    bsgp.ptr.store %s, %out[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A store before the question and one after it to the same list, not
// both at the rank: a later group's store could come first, and the
// earlier one would then be the one left. The barrier stays.
// CHECK-LABEL: func.func @write_write(
// CHECK-NOT: bsgp.pass_version
// CHECK: bsgp.barrier
// CHECK-NOT: bsgp.pass_version
func.func @write_write(%a: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %c1 = arith.constant 1 : i32
    bsgp.ptr.store %c1, %a[%rk] : !bsgp.ptr<i32>, i32
    %q = bsgp.single_pass : i1
    %y = scf.if %q -> (i32) {
      %l = bsgp.group_local 1 : !bsgp.ptr<i64>
      %pre = bsgp.group_lookback %c1, %l min_blocks 8 : !bsgp.ptr<i64>
      scf.yield %pre : i32
    } else {
      bsgp.barrier
      scf.yield %c1 : i32
    }
    bsgp.ptr.store %rk, %a[%y] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// thread.fork's shape: the single-pass form ends with its own barrier, so
// the question's superstep ends there; what comes after the branch (here a
// read of an element another rank stored before the question) is in the
// next superstep, which the barrier orders. Only the runtime's test.
// CHECK-LABEL: func.func @form_with_barrier(
// CHECK: %[[FORMS:.*]] = llvm.call @bsgprt_single_pass_forms()
// CHECK: %[[PAYS:.*]] = arith.cmpi ne, %[[FORMS]]
// CHECK-NEXT: scf.if %[[PAYS]] {
// CHECK: bsgp.group_lookback
// CHECK: } {bsgp.pass_version = "runs in one pass"}
// CHECK: } {bsgp.pass_version = "keeps the barrier"}
func.func @form_with_barrier(%a: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    bsgp.ptr.store %c1, %a[%rk] : !bsgp.ptr<i32>, i32
    %q = bsgp.single_pass : i1
    scf.if %q {
      %l = bsgp.group_local 1 : !bsgp.ptr<i64>
      %pre = bsgp.group_lookback %c1, %l min_blocks 8 : !bsgp.ptr<i64>
      bsgp.barrier
    } else {
      bsgp.barrier
      bsgp.barrier
    }
    %z = bsgp.ptr.load %a[%c0] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %z, %a[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A call before the question of a function that reaches no memory (nor do
// the functions it calls) adds no access: only the runtime's test. A call
// of one that stores keeps the barrier.
// CHECK-LABEL: func.func @pure_call(
// CHECK: %[[FORMS:.*]] = llvm.call @bsgprt_single_pass_forms()
// CHECK: %[[PAYS:.*]] = arith.cmpi ne, %[[FORMS]]
// CHECK-NEXT: scf.if %[[PAYS]] {
// CHECK: } {bsgp.pass_version = "runs in one pass"}
// CHECK-LABEL: func.func @storing_call(
// CHECK-NOT: bsgp.pass_version
// CHECK: bsgp.barrier
// CHECK-NOT: bsgp.pass_version
func.func @twice(%x: i32) -> i32 attributes {bsgp.device} {
  %y = func.call @plus(%x, %x) : (i32, i32) -> i32
  return %y : i32
}
func.func @plus(%x: i32, %y: i32) -> i32 attributes {bsgp.device} {
  %s = arith.addi %x, %y : i32
  return %s : i32
}
func.func @keep(%p: !bsgp.ptr<i32>, %x: i32) -> i32 attributes {bsgp.device} {
  %c0 = arith.constant 0 : i32
  bsgp.ptr.store %x, %p[%c0] : !bsgp.ptr<i32>, i32
  return %x : i32
}
func.func @pure_call(%n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %x = func.call @twice(%rk) : (i32) -> i32
    %q = bsgp.single_pass : i1
    scf.if %q {
      %l = bsgp.group_local 1 : !bsgp.ptr<i64>
      %pre = bsgp.group_lookback %x, %l min_blocks 8 : !bsgp.ptr<i64>
    } else {
      bsgp.barrier
    }
  }
  return
}
func.func @storing_call(%a: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %x = func.call @keep(%a, %rk) : (!bsgp.ptr<i32>, i32) -> i32
    %q = bsgp.single_pass : i1
    scf.if %q {
      %l = bsgp.group_local 1 : !bsgp.ptr<i64>
      %pre = bsgp.group_lookback %x, %l min_blocks 8 : !bsgp.ptr<i64>
    } else {
      bsgp.barrier
    }
  }
  return
}
