// RUN: bsgp-opt %s --split-input-file --bsgp-split-supersteps --bsgp-forward-sort-results | FileCheck %s

// thread.sortby's shape after bsgp-forward-sort-keys and
// bsgp-rematerialize: the superstep after the sort stores the sorted key
// and the old rank it reads at the rank into two host lists. The copy of
// the spawn that runs when the outputs and the sort's input are distinct
// allocations gives the sort the outputs as its spare lists, copies the
// pairs there when the sort answers that they are in its own lists, and
// reads the outputs in the superstep, whose stores are gone; the other
// copy is the original.
// CHECK-LABEL: func.func @both(
// CHECK-SAME: %[[KEY:[^:]*]]: !bsgp.ptr<i32>, %[[SK:[^:]*]]: !bsgp.ptr<i32>, %[[OLD:[^:]*]]: !bsgp.ptr<i32>
// CHECK: llvm.call @bsgprt_distinct_allocations
// CHECK: llvm.call @bsgprt_distinct_allocations
// CHECK: llvm.call @bsgprt_distinct_allocations
// CHECK: scf.if
// CHECK: bsgp.spawn
// CHECK: %[[OK:.*]] = func.call @__bsgp_list_sort_ranks_i32(%[[KEY]], %[[L0:[^,]*]], %[[L1:[^,]*]], %[[SK]], %[[OLD]],
// CHECK: %[[OWN:.*]] = arith.xori %[[OK]]
// CHECK: scf.if %[[OWN]] {
// CHECK: llvm.call @bsgprt_memcpy_dtod
// CHECK: llvm.call @bsgprt_memcpy_dtod
// CHECK: bsgp.superstep 2
// CHECK-NOT: bsgp.ptr.store
// CHECK: } {bsgp.result_version = "sorts into the lists"}
// CHECK: } else {
// CHECK: bsgp.superstep 2
// CHECK: bsgp.ptr.store
// CHECK: bsgp.ptr.store
// CHECK: } {bsgp.result_version = "copies the sorted lists"}
func.func private @__bsgp_list_sort_ranks_i32(!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
    attributes {bsgp.library = #bsgp.library<sort_ranks>}

func.func @both(%key: !bsgp.ptr<i32>, %sk: !bsgp.ptr<i32>, %old: !bsgp.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i64
  bsgp.spawn %n {
    %l:2 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<i32>) {
      %size = bsgp.thread_size : i32
      %k = bsgp.dtempnew %size : !bsgp.ptr<i32>
      %i = bsgp.dtempnew %size : !bsgp.ptr<i32>
      bsgp.yield %k, %i : !bsgp.ptr<i32>, !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    bsgp.barrier
    %s:2 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<i32>) {
      %size = bsgp.thread_size : i32
      %n64 = arith.extsi %size : i32 to i64
      %sparek = bsgp.ptr.offset %l#0[%size] : !bsgp.ptr<i32>, i32
      %sparei = bsgp.ptr.offset %l#1[%size] : !bsgp.ptr<i32>, i32
      %ok = func.call @__bsgp_list_sort_ranks_i32(%key, %l#0, %l#1, %sparek, %sparei, %n64) : (!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
      %at = arith.select %ok, %n64, %c0 : i64
      %sk2 = bsgp.ptr.offset %l#0[%at] : !bsgp.ptr<i32>, i64
      %si2 = bsgp.ptr.offset %l#1[%at] : !bsgp.ptr<i32>, i64
      bsgp.yield %sk2, %si2 : !bsgp.ptr<i32>, !bsgp.ptr<i32>
    }
    %rk2 = bsgp.thread_rank : i32
    %o = bsgp.ptr.load %s#1[%rk2] : !bsgp.ptr<i32>, i32
    %v = bsgp.ptr.load %s#0[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %v, %sk[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %o, %old[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// Only the old ranks stored: the sort's spare key list stays its own,
// which native backends do not allocate, so nothing changes; nor when the
// superstep reads another host list.
// CHECK-LABEL: func.func @one(
// CHECK-NOT: bsgprt_distinct_allocations
// CHECK: bsgp.ptr.store
// CHECK-LABEL: func.func @reads_host(
// CHECK-NOT: bsgprt_distinct_allocations
// CHECK: bsgp.ptr.store
// CHECK: bsgp.ptr.store
func.func private @__bsgp_list_sort_ranks_i32(!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
    attributes {bsgp.library = #bsgp.library<sort_ranks>}

func.func @one(%key: !bsgp.ptr<i32>, %old: !bsgp.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i64
  bsgp.spawn %n {
    %l:2 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<i32>) {
      %size = bsgp.thread_size : i32
      %k = bsgp.dtempnew %size : !bsgp.ptr<i32>
      %i = bsgp.dtempnew %size : !bsgp.ptr<i32>
      bsgp.yield %k, %i : !bsgp.ptr<i32>, !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    bsgp.barrier
    %s:2 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<i32>) {
      %size = bsgp.thread_size : i32
      %n64 = arith.extsi %size : i32 to i64
      %sparek = bsgp.ptr.offset %l#0[%size] : !bsgp.ptr<i32>, i32
      %sparei = bsgp.ptr.offset %l#1[%size] : !bsgp.ptr<i32>, i32
      %ok = func.call @__bsgp_list_sort_ranks_i32(%key, %l#0, %l#1, %sparek, %sparei, %n64) : (!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
      %at = arith.select %ok, %n64, %c0 : i64
      %sk2 = bsgp.ptr.offset %l#0[%at] : !bsgp.ptr<i32>, i64
      %si2 = bsgp.ptr.offset %l#1[%at] : !bsgp.ptr<i32>, i64
      bsgp.yield %sk2, %si2 : !bsgp.ptr<i32>, !bsgp.ptr<i32>
    }
    %rk2 = bsgp.thread_rank : i32
    %o = bsgp.ptr.load %s#1[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %o, %old[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

func.func @reads_host(%key: !bsgp.ptr<i32>, %sk: !bsgp.ptr<i32>, %old: !bsgp.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i64
  bsgp.spawn %n {
    %l:2 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<i32>) {
      %size = bsgp.thread_size : i32
      %k = bsgp.dtempnew %size : !bsgp.ptr<i32>
      %i = bsgp.dtempnew %size : !bsgp.ptr<i32>
      bsgp.yield %k, %i : !bsgp.ptr<i32>, !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    bsgp.barrier
    %s:2 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<i32>) {
      %size = bsgp.thread_size : i32
      %n64 = arith.extsi %size : i32 to i64
      %sparek = bsgp.ptr.offset %l#0[%size] : !bsgp.ptr<i32>, i32
      %sparei = bsgp.ptr.offset %l#1[%size] : !bsgp.ptr<i32>, i32
      %ok = func.call @__bsgp_list_sort_ranks_i32(%key, %l#0, %l#1, %sparek, %sparei, %n64) : (!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
      %at = arith.select %ok, %n64, %c0 : i64
      %sk2 = bsgp.ptr.offset %l#0[%at] : !bsgp.ptr<i32>, i64
      %si2 = bsgp.ptr.offset %l#1[%at] : !bsgp.ptr<i32>, i64
      bsgp.yield %sk2, %si2 : !bsgp.ptr<i32>, !bsgp.ptr<i32>
    }
    %rk2 = bsgp.thread_rank : i32
    %o = bsgp.ptr.load %s#1[%rk2] : !bsgp.ptr<i32>, i32
    %v = bsgp.ptr.load %s#0[%rk2] : !bsgp.ptr<i32>, i32
    %w = bsgp.ptr.load %key[%rk2] : !bsgp.ptr<i32>, i32
    %x = arith.addi %v, %w : i32
    bsgp.ptr.store %v, %sk[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %x, %old[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}
