// RUN: bsgp-opt %s --split-input-file --bsgp-split-supersteps --bsgp-rematerialize-loads | FileCheck %s
// RUN: bsgp-opt %s --split-input-file --bsgp-split-supersteps --bsgp-rematerialize-loads --bsgp-find-saved-values=print-table -o /dev/null | FileCheck %s --check-prefix=TABLE

// The table names the two copies of a versioned spawn; the loaded value
// (unnamed here) is saved only in the one that saves.
// TABLE: spawn 0 in @scan_shape: 2 supersteps (versioned: the copy that reads again)
// TABLE-NEXT: value
// TABLE-NEXT: spawn 1 in @scan_shape: 2 supersteps (versioned: the copy that saves)
// TABLE-NEXT: value
// TABLE-NEXT: %0{{ +}}1{{ +}}2{{ +}}yes
// TABLE: spawn 0 in @fresh_only: 2 supersteps{{$}}

// The scan's shape: x = in[rank] used after the barrier, out[rank] written
// in the superstep that reads again. The host tests that out and in are n
// elements apart or equal, then runs the copy that loads in[rank] again;
// the original, which keeps x as a superstep result, runs otherwise.
// CHECK-LABEL: func.func @scan_shape(
// CHECK-SAME: %[[IN:[^:]*]]: !bsgp.ptr<i32>, %[[OUT:[^:]*]]: !bsgp.ptr<i32>, %[[N:[^:]*]]: i32
// CHECK: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[D:.*]] = bsgp.ptr.diff %[[OUT]], %[[IN]]
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %[[N64]]
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[D]], %[[N64]]
// CHECK: %[[LE:.*]] = arith.cmpi sle, %[[D]], %[[NEG]]
// CHECK: %[[APART:.*]] = arith.ori %[[GE]], %[[LE]]
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[D]], %{{.*}}
// CHECK: %[[OK:.*]] = arith.ori %[[APART]], %[[SAME]]
// CHECK: scf.if %[[OK]] {
// CHECK: bsgp.spawn
// CHECK: bsgp.superstep 1 {{.*}}{
// CHECK: bsgp.superstep 2 {{.*}}{
// CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank : i32
// CHECK-NEXT: %[[X:.*]] = bsgp.ptr.load %[[IN]][%[[RK]]]
// CHECK-NEXT: arith.addi %[[X]], %[[X]]
// CHECK: } {bsgp.load_version = "reads again"}
// CHECK: } else {
// CHECK: bsgp.spawn
// CHECK: %[[S1:.*]] = bsgp.superstep 1 {{.*}}-> i32 {
// CHECK: bsgp.superstep 2 {{.*}}{
// CHECK-NEXT: arith.addi %[[S1]], %[[S1]]
// CHECK: } {bsgp.load_version = "saves"}
func.func @scan_shape(%in: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %y = arith.addi %x, %x : i32
    %rk2 = bsgp.thread_rank : i32
    bsgp.ptr.store %y, %out[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// Stores only to memory the spawn allocated (a require's dtempnew, through
// a require result and an offset) and to a work group's local array: no
// host pointer can reach in[rank], so there is no test and no copy. The
// widened rank index is copied too.
// CHECK-LABEL: func.func @fresh_only(
// CHECK-NOT: scf.if
// CHECK: bsgp.superstep 1 {{.*}}{
// CHECK: bsgp.superstep 2 {{.*}}{
// CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank : i32
// CHECK-NEXT: %[[W:.*]] = arith.extsi %[[RK]] : i32 to i64
// CHECK-NEXT: %[[X:.*]] = bsgp.ptr.load %{{.*}}[%[[W]]] : !bsgp.ptr<f32>, i64
// CHECK: bsgp.ptr.store %[[X]]
func.func @fresh_only(%in: !bsgp.ptr<f32>, %n: i32) {
  bsgp.spawn %n {
    %t = bsgp.require -> !bsgp.ptr<f32> {
      %l = bsgp.dtempnew %n : !bsgp.ptr<f32>
      bsgp.yield %l : !bsgp.ptr<f32>
    }
    %rk = bsgp.thread_rank : i32
    %w = arith.extsi %rk : i32 to i64
    %x = bsgp.ptr.load %in[%w] : !bsgp.ptr<f32>, i64
    %loc = bsgp.group_local 256 : !bsgp.ptr<f32>
    %g = bsgp.group_rank : i32
    bsgp.ptr.store %x, %loc[%g] : !bsgp.ptr<f32>, i32
    bsgp.group_barrier
    bsgp.barrier
    %c1 = arith.constant 1 : i32
    %t1 = bsgp.ptr.offset %t[%c1] : !bsgp.ptr<f32>, i32
    %rk2 = bsgp.thread_rank : i32
    bsgp.ptr.store %x, %t1[%rk2] : !bsgp.ptr<f32>, i32
  }
  return
}

// -----

// A store before the superstep that reads again (here in the first one,
// after the load) must not reach in at all: no `eq` case. Float and int
// lists of one width are compared after a cast.
// CHECK-LABEL: func.func @store_before(
// CHECK-SAME: %[[IN:[^:]*]]: !bsgp.ptr<i32>, %[[F:[^:]*]]: !bsgp.ptr<f32>
// CHECK: %[[C:.*]] = bsgp.ptr.cast %[[F]] : !bsgp.ptr<f32> to !bsgp.ptr<i32>
// CHECK: %[[D:.*]] = bsgp.ptr.diff %[[C]], %[[IN]]
// CHECK-NOT: cmpi eq
// CHECK: scf.if
func.func @store_before(%in: !bsgp.ptr<i32>, %f: !bsgp.ptr<f32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    %c = arith.constant 1.0 : f32
    bsgp.ptr.store %c, %f[%rk] : !bsgp.ptr<f32>, i32
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    %t = bsgp.require -> !bsgp.ptr<i32> {
      %l = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %l : !bsgp.ptr<i32>
    }
    bsgp.ptr.store %x, %t[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// Stores at another index than the rank, and atomics, on host pointers:
// the runtime must find the stored list in another allocation than the
// loaded one, whatever the offsets.
// CHECK-LABEL: func.func @other_allocation(
// CHECK-SAME: %[[IN:[^:]*]]: !bsgp.ptr<i32>, %[[OUT:[^:]*]]: !bsgp.ptr<i32>, %[[C:[^:]*]]: !bsgp.ptr<i64>
// CHECK: %[[P1:.*]] = builtin.unrealized_conversion_cast %[[IN]] : !bsgp.ptr<i32> to !llvm.ptr
// CHECK: %[[Q1:.*]] = builtin.unrealized_conversion_cast %[[OUT]] : !bsgp.ptr<i32> to !llvm.ptr
// CHECK: %[[D1:.*]] = llvm.call @bsgprt_distinct_allocations(%[[P1]], %[[Q1]]) : (!llvm.ptr, !llvm.ptr) -> i32
// CHECK: arith.cmpi ne, %[[D1]]
// CHECK: %[[Q2:.*]] = builtin.unrealized_conversion_cast %[[C]] : !bsgp.ptr<i64> to !llvm.ptr
// CHECK: llvm.call @bsgprt_distinct_allocations(%{{.*}}, %[[Q2]])
// CHECK: scf.if
// CHECK: bsgp.superstep 2 {{.*}}{
// CHECK-NEXT: bsgp.thread_rank
// CHECK-NEXT: bsgp.ptr.load %[[IN]]
// CHECK: } else {
// CHECK: llvm.func @bsgprt_distinct_allocations(!llvm.ptr, !llvm.ptr) -> i32
func.func @other_allocation(%in: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %cnt: !bsgp.ptr<i64>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %c1 = arith.constant 1 : i32
    %rk1 = bsgp.thread_rank : i32
    %next = arith.addi %rk1, %c1 : i32
    bsgp.ptr.store %x, %out[%next] : !bsgp.ptr<i32>, i32
    %one = arith.constant 1 : i64
    %old = bsgp.atomic_rmw addi %one, %cnt : !bsgp.ptr<i64>
  }
  return
}

// -----

// Values kept saved: a store to the loaded list at another index, a load
// through a pointer the spawn allocated, a value read after a rank
// reassignment, and one read by thread.get. Nothing is versioned.
// CHECK-LABEL: func.func @kept(
// CHECK-NOT: scf.if
// CHECK: bsgp.superstep 1 {{.*}}-> (i32, i32, i32, i32) {
// CHECK: bsgp.superstep 2
// CHECK-NOT: bsgp.ptr.load %arg0
// CHECK: // -----
func.func @kept(%in: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %l = bsgp.require -> !bsgp.ptr<i32> {
      %a = bsgp.dnew %n : !bsgp.ptr<i32>
      bsgp.yield %a : !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %a = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    %c = bsgp.ptr.load %l[%rk] : !bsgp.ptr<i32>, i32
    %d = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    %e = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %c1 = arith.constant 1 : i32
    %rk1 = bsgp.thread_rank : i32
    %next = arith.addi %rk1, %c1 : i32
    bsgp.ptr.store %a, %in[%next] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %c, %l[%rk1] : !bsgp.ptr<i32>, i32
    bsgp.barrier rank_reassigned
    %rk3 = bsgp.thread_rank : i32
    bsgp.set_oldrank %rk3
    %g = bsgp.get %rk3, %e : i32
    %s = arith.addi %d, %g : i32
    %t = bsgp.require -> !bsgp.ptr<i32> {
      %m = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %m : !bsgp.ptr<i32>
    }
    bsgp.ptr.store %s, %t[%rk3] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----
func.func @kept(%in: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %l = bsgp.require -> !bsgp.ptr<i32> {
      %a = bsgp.dnew %n : !bsgp.ptr<i32>
      bsgp.yield %a : !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %a = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    %b = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    %c = bsgp.ptr.load %l[%rk] : !bsgp.ptr<i32>, i32
    %d = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    %e = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %c1 = arith.constant 1 : i32
    %rk1 = bsgp.thread_rank : i32
    %next = arith.addi %rk1, %c1 : i32
    bsgp.ptr.store %a, %out[%next] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %old = bsgp.atomic_rmw addi %b, %out : !bsgp.ptr<i32>
    bsgp.ptr.store %c, %l[%rk1] : !bsgp.ptr<i32>, i32
    bsgp.barrier rank_reassigned
    %rk3 = bsgp.thread_rank : i32
    bsgp.set_oldrank %rk3
    %g = bsgp.get %rk3, %e : i32
    %s = arith.addi %d, %g : i32
    %t = bsgp.require -> !bsgp.ptr<i32> {
      %m = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %m : !bsgp.ptr<i32>
    }
    bsgp.ptr.store %s, %t[%rk3] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A spawn's results leave through the branches. A host call that is not
// the library's or the runtime's, between the supersteps, could write
// anywhere.
// CHECK-LABEL: func.func @results(
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (!bsgp.ptr<i32>) {
// CHECK: %[[A:.*]] = bsgp.spawn
// CHECK: scf.yield %[[A]] : !bsgp.ptr<i32>
// CHECK: } else {
// CHECK: %[[B:.*]] = bsgp.spawn
// CHECK: scf.yield %[[B]] : !bsgp.ptr<i32>
// CHECK: return %[[R]]
// CHECK-LABEL: func.func @foreign_call(
// CHECK-NOT: scf.if
func.func @results(%in: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %n: i32) -> !bsgp.ptr<i32> {
  %r = bsgp.spawn %n -> !bsgp.ptr<i32> {
    %l = bsgp.require -> !bsgp.ptr<i32> {
      %a = bsgp.dnew %n : !bsgp.ptr<i32>
      bsgp.yield %a : !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    bsgp.ptr.store %x, %out[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.yield %l : !bsgp.ptr<i32>
  }
  return %r : !bsgp.ptr<i32>
}

func.func private @touch(!bsgp.ptr<i32>)

func.func @foreign_call(%in: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    bsgp.require {
      func.call @touch(%out) : (!bsgp.ptr<i32>) -> ()
    }
    %rk2 = bsgp.thread_rank : i32
    %t = bsgp.require -> !bsgp.ptr<i32> {
      %m = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %m : !bsgp.ptr<i32>
    }
    bsgp.ptr.store %x, %t[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A list the spawn allocated (as thread.sortby's sorted keys, read by
// thread.rebind): no host pointer can reach it, so it is read again with
// no test. A store to that list at another index, a library call given it,
// or a dfree of the loaded host list keeps the value saved.
// CHECK-LABEL: func.func @fresh_list(
// CHECK-NOT: scf.if
// CHECK: %[[L:.*]] = bsgp.require -> !bsgp.ptr<i32>
// CHECK: bsgp.superstep 2 {{.*}}{
// CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank : i32
// CHECK-NEXT: bsgp.ptr.load %[[L]][%[[RK]]]
// CHECK-LABEL: func.func @fresh_store_elsewhere(
// CHECK: bsgp.superstep 1 {{.*}}-> i32
// CHECK-LABEL: func.func @fresh_to_library(
// CHECK: bsgp.superstep 1 {{.*}}-> i32
// CHECK-LABEL: func.func @freed(
// CHECK-NOT: scf.if
// CHECK: bsgp.superstep 1 {{.*}}-> i32
func.func @fresh_list(%out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %l = bsgp.require -> !bsgp.ptr<i32> {
      %a = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %a : !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %l[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    bsgp.ptr.store %x, %out[%rk2] : !bsgp.ptr<i32>, i32
    %c1 = arith.constant 1 : i32
    %next = arith.addi %rk2, %c1 : i32
    bsgp.ptr.store %x, %out[%next] : !bsgp.ptr<i32>, i32
  }
  return
}

func.func @fresh_store_elsewhere(%n: i32) {
  bsgp.spawn %n {
    %l = bsgp.require -> !bsgp.ptr<i32> {
      %a = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %a : !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %l[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %c1 = arith.constant 1 : i32
    %rk2 = bsgp.thread_rank : i32
    %next = arith.addi %rk2, %c1 : i32
    bsgp.ptr.store %x, %l[%next] : !bsgp.ptr<i32>, i32
  }
  return
}

func.func private @__bsgp_fill(!bsgp.ptr<i32>)
    attributes {bsgp.library = #bsgp.library<function>}

func.func @fresh_to_library(%out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %l = bsgp.require -> !bsgp.ptr<i32> {
      %a = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %a : !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %l[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    bsgp.require {
      func.call @__bsgp_fill(%l) : (!bsgp.ptr<i32>) -> ()
    }
    %rk2 = bsgp.thread_rank : i32
    bsgp.ptr.store %x, %out[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

func.func @freed(%in: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    bsgp.require {
      bsgp.dfree %in : !bsgp.ptr<i32>
    }
    %t = bsgp.require -> !bsgp.ptr<i32> {
      %m = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %m : !bsgp.ptr<i32>
    }
    %rk2 = bsgp.thread_rank : i32
    bsgp.ptr.store %x, %t[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// Listing 1's shape: x, loaded before the barrier, is also stored at the
// rank into a list the spawn allocated, which the superstep after the
// barrier reads (its neighbour's element): x is read again from there, one
// list instead of two, with no test. Where that superstep reads only `in`,
// x is read again from `in`, as before.
// CHECK-LABEL: func.func @stored_copy(
// CHECK-SAME: %[[IN:[^:]*]]: !bsgp.ptr<i32>
// CHECK-NOT: scf.if
// CHECK: %[[COPY:.*]] = bsgp.require -> !bsgp.ptr<i32>
// CHECK: bsgp.superstep 1 {{.*}}{
// CHECK: bsgp.ptr.store %{{.*}}, %[[COPY]][
// CHECK: bsgp.superstep 2 {{.*}}{
// CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank : i32
// CHECK-NEXT: %[[X:.*]] = bsgp.ptr.load %[[COPY]][%[[RK]]]
// CHECK: arith.cmpi ne, %{{.*}}, %[[X]]
// CHECK-LABEL: func.func @stored_copy_unread(
// CHECK-SAME: %[[IN2:[^:]*]]: !bsgp.ptr<i32>
// CHECK: bsgp.superstep 2 {{.*}}{
// CHECK-NEXT: %[[RK2:.*]] = bsgp.thread_rank : i32
// CHECK-NEXT: bsgp.ptr.load %[[IN2]][%[[RK2]]]
func.func @stored_copy(%in: !bsgp.ptr<i32>, %out: !bsgp.ptr<i1>, %n: i32) {
  %c1 = arith.constant 1 : i32
  bsgp.spawn %n {
    %copy = bsgp.require -> !bsgp.ptr<i32> {
      %l = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %l : !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %x, %copy[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    %prev = arith.subi %rk2, %c1 : i32
    %y = bsgp.ptr.load %copy[%prev] : !bsgp.ptr<i32>, i32
    %d = arith.cmpi ne, %y, %x : i32
    bsgp.ptr.store %d, %out[%rk2] : !bsgp.ptr<i1>, i32
  }
  return
}

func.func @stored_copy_unread(%in: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %copy = bsgp.require -> !bsgp.ptr<i32> {
      %l = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %l : !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %x = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %x, %copy[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %rk2 = bsgp.thread_rank : i32
    %y = arith.addi %x, %x : i32
    bsgp.ptr.store %y, %copy[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}
