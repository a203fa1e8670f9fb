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

// Only the old ranks stored (sort_idx): the ids alone are forwarded, the
// sort's spare key list stays its own `keys + n`, and only the ranks are
// copied when the sort answers that the pairs are in its own lists. The
// test is the ranks' list against the sort's input.
// CHECK-LABEL: func.func @one(
// CHECK-SAME: %[[KEY:[^:]*]]: !bsgp.ptr<i32>, %[[OLD:[^:]*]]: !bsgp.ptr<i32>
// CHECK: llvm.call @bsgprt_distinct_allocations
// CHECK-NOT: llvm.call @bsgprt_distinct_allocations
// CHECK: scf.if
// CHECK: bsgp.spawn
// CHECK: %[[SPAREK:.*]] = bsgp.ptr.offset %[[L0:[0-9a-z_#]+]][
// CHECK: %[[OK:.*]] = func.call @__bsgp_list_sort_ranks_i32(%[[KEY]], %[[L0]], %[[L1:[^,]*]], %[[SPAREK]], %[[OLD]],
// CHECK: %[[OWN:.*]] = arith.xori %[[OK]]
// CHECK: scf.if %[[OWN]] {
// CHECK-NEXT: arith.constant 4
// CHECK-NEXT: arith.muli
// CHECK-NEXT: builtin.unrealized_conversion_cast %[[OLD]]
// CHECK-NEXT: builtin.unrealized_conversion_cast %[[L1]]
// CHECK-NEXT: llvm.call @bsgprt_memcpy_dtod
// CHECK-NOT: llvm.call @bsgprt_memcpy_dtod
// CHECK: bsgp.superstep 2
// CHECK-NOT: bsgp.ptr.store
// CHECK: } {bsgp.result_version = "sorts into the lists"}
// CHECK: } else {
// CHECK: bsgp.superstep 2
// CHECK: bsgp.ptr.store
// CHECK: } {bsgp.result_version = "copies the sorted lists"}
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

// -----

// The sorted keys read but not stored as they are: the keys stay in the
// sort's lists, the old ranks are forwarded, and the list the step writes
// after the sort must lie apart from them too (it could be the ranks'
// list, whose store the sort now makes before it).
// CHECK-LABEL: func.func @keys_used(
// CHECK-SAME: %[[KEY:[^:]*]]: !bsgp.ptr<i32>, %[[OUT:[^:]*]]: !bsgp.ptr<i32>, %[[OLD:[^:]*]]: !bsgp.ptr<i32>
// CHECK-COUNT-2: llvm.call @bsgprt_distinct_allocations
// CHECK-NOT: llvm.call @bsgprt_distinct_allocations
// CHECK: bsgp.spawn
// CHECK: %[[SPAREK:.*]] = bsgp.ptr.offset %[[L0:[0-9a-z_#]+]][
// CHECK: func.call @__bsgp_list_sort_ranks_i32(%[[KEY]], %[[L0]], %{{[^,]*}}, %[[SPAREK]], %[[OLD]],
// CHECK: bsgp.superstep 2
// CHECK: %[[V:.*]] = bsgp.ptr.load %{{[0-9]+}}#0[
// CHECK: %[[X:.*]] = arith.addi %[[V]]
// CHECK: bsgp.ptr.store %[[X]], %[[OUT]]
// CHECK-NOT: bsgp.ptr.store
// CHECK: } {bsgp.result_version = "sorts into the lists"}
func.func private @__bsgp_list_sort_ranks_i32(!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
    attributes {bsgp.library = #bsgp.library<sort_ranks>}

func.func @keys_used(%key: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %old: !bsgp.ptr<i32>, %n: i32) {
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
    %x = arith.addi %v, %rk2 : i32
    bsgp.ptr.store %x, %out[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %o, %old[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// The keys sorted from the spawn's own list (not forwarded) and only the
// ranks stored: nothing to test, the spawn itself forwards.
// CHECK-LABEL: func.func @own_input(
// CHECK-SAME: %[[OLD:[^:]*]]: !bsgp.ptr<i32>
// CHECK-NOT: bsgprt_distinct_allocations
// CHECK-NOT: scf.if
// CHECK: bsgp.spawn
// CHECK: func.call @__bsgp_list_sort_ranks_i32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %[[OLD]],
// CHECK: llvm.call @bsgprt_memcpy_dtod
// CHECK: bsgp.superstep 2
// CHECK-NOT: bsgp.ptr.store
// CHECK-NOT: result_version
func.func private @__bsgp_list_sort_ranks_i32(!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
    attributes {bsgp.library = #bsgp.library<sort_ranks>}

func.func @own_input(%old: !bsgp.ptr<i32>, %n: i32) {
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
      %ok = func.call @__bsgp_list_sort_ranks_i32(%l#0, %l#0, %l#1, %sparek, %sparei, %n64) : (!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
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

// -----

// The step reads another host list, or writes one through a pointer made
// elsewhere in the spawn that no test can compare, or the ranks go to the
// list the sort reads (`key[r] = sort_idx(key[r])`): nothing changes.
// CHECK-LABEL: func.func @reads_host(
// CHECK-NOT: bsgprt_distinct_allocations
// CHECK: bsgp.ptr.store
// CHECK: bsgp.ptr.store
// CHECK-LABEL: func.func @derived_host(
// CHECK-NOT: bsgprt_distinct_allocations
// CHECK: bsgp.ptr.store
// CHECK: bsgp.ptr.store
// CHECK-LABEL: func.func @in_place(
// CHECK-NOT: bsgprt_distinct_allocations
// CHECK: bsgp.ptr.store
func.func private @__bsgp_list_sort_ranks_i32(!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
    attributes {bsgp.library = #bsgp.library<sort_ranks>}

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

func.func @derived_host(%key: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %old: !bsgp.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i64
  bsgp.spawn %n {
    %l:3 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>) {
      %size = bsgp.thread_size : i32
      %k = bsgp.dtempnew %size : !bsgp.ptr<i32>
      %i = bsgp.dtempnew %size : !bsgp.ptr<i32>
      %c1 = arith.constant 1 : i32
      %shifted = bsgp.ptr.offset %out[%c1] : !bsgp.ptr<i32>, i32
      bsgp.yield %k, %i, %shifted : !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>
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
    bsgp.ptr.store %rk2, %l#2[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %o, %old[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

func.func @in_place(%key: !bsgp.ptr<i32>, %n: i32) {
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
    bsgp.ptr.store %o, %key[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}
