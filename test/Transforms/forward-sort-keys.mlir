// RUN: bsgp-opt %s --split-input-file --bsgp-split-supersteps --bsgp-forward-sort-keys | FileCheck %s

// thread.sortby's shape, inlined: the key is key[rank], stored into the
// sort's list before the barrier, and the sort is given that list twice.
// The sort reads `key` instead, and the store goes.
// CHECK-LABEL: func.func @forwarded(
// CHECK-SAME: %[[KEY:[^:]*]]: !bsgp.ptr<i32>
// CHECK: bsgp.superstep 1
// CHECK-NEXT: bsgp.thread_rank
// CHECK-NEXT: bsgp.ptr.load %[[KEY]]
// CHECK-NEXT: bsgp.ptr.store %{{.*}}, %[[IDS:[^\[]*]][
// CHECK-NEXT: }
// CHECK: func.call @__bsgp_list_sort_ranks_i32(%[[KEY]], %[[LIST:[^,]*]], %[[IDS]], %[[LIST]],
func.func private @__bsgp_list_sort_ranks_i32(!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
    attributes {bsgp.library = #bsgp.library<sort_ranks>}

func.func @forwarded(%key: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %l:2 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<i32>) {
      %size = bsgp.thread_size : i32
      %k = bsgp.dtempnew %size : !bsgp.ptr<i32>
      %i = bsgp.dtempnew %size : !bsgp.ptr<i32>
      bsgp.yield %k, %i : !bsgp.ptr<i32>, !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %key[%rk] : !bsgp.ptr<i32>, i32
    // A store to memory the spawn allocated cannot reach `key`.
    bsgp.ptr.store %v, %l#1[%rk] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %v, %l#0[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %r = bsgp.require -> i1 {
      %size = bsgp.thread_size : i32
      %n64 = arith.extsi %size : i32 to i64
      %ok = func.call @__bsgp_list_sort_ranks_i32(%l#0, %l#0, %l#1, %l#0, %l#1, %n64) : (!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
      bsgp.yield %ok : i1
    }
    %rk2 = bsgp.thread_rank : i32
    %s = bsgp.ptr.load %l#0[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %s, %out[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A store to a host pointer before the barrier might change `key` (the
// pointers may overlap): the keys are copied as written.
// CHECK-LABEL: func.func @host_store(
// CHECK: bsgp.superstep 1
// CHECK: bsgp.ptr.store %{{.*}}, %[[OUT:[^\[]*]][
// CHECK: bsgp.ptr.store %{{.*}}, %[[LIST:[^\[]*]][
// CHECK: func.call @__bsgp_list_sort_ranks_i32(%[[LIST]], %[[LIST]],
func.func private @__bsgp_list_sort_ranks_i32(!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
    attributes {bsgp.library = #bsgp.library<sort_ranks>}

func.func @host_store(%key: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %l:2 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<i32>) {
      %size = bsgp.thread_size : i32
      %k = bsgp.dtempnew %size : !bsgp.ptr<i32>
      %i = bsgp.dtempnew %size : !bsgp.ptr<i32>
      bsgp.yield %k, %i : !bsgp.ptr<i32>, !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %key[%rk] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %rk, %out[%rk] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %v, %l#0[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %r = bsgp.require -> i1 {
      %size = bsgp.thread_size : i32
      %n64 = arith.extsi %size : i32 to i64
      %ok = func.call @__bsgp_list_sort_ranks_i32(%l#0, %l#0, %l#1, %l#0, %l#1, %n64) : (!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
      bsgp.yield %ok : i1
    }
    %rk2 = bsgp.thread_rank : i32
    %s = bsgp.ptr.load %l#0[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %s, %out[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A key computed from the load, and one loaded at another index than the
// rank, are not the list in rank order: both keep their stores.
// CHECK-LABEL: func.func @not_the_list(
// CHECK: bsgp.ptr.store
// CHECK: func.call @__bsgp_list_sort_ranks_i32(%[[A:[^,]*]], %[[A]],
// CHECK: bsgp.ptr.store
// CHECK: func.call @__bsgp_list_sort_ranks_i32(%[[B:[^,]*]], %[[B]],
func.func private @__bsgp_list_sort_ranks_i32(!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
    attributes {bsgp.library = #bsgp.library<sort_ranks>}

func.func @not_the_list(%key: !bsgp.ptr<i32>, %n: i32) {
  %c1 = arith.constant 1 : i32
  bsgp.spawn %n {
    %l:2 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<i32>) {
      %size = bsgp.thread_size : i32
      %k = bsgp.dtempnew %size : !bsgp.ptr<i32>
      %i = bsgp.dtempnew %size : !bsgp.ptr<i32>
      bsgp.yield %k, %i : !bsgp.ptr<i32>, !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %key[%rk] : !bsgp.ptr<i32>, i32
    %w = arith.addi %v, %c1 : i32
    bsgp.ptr.store %w, %l#0[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %r = bsgp.require -> i1 {
      %size = bsgp.thread_size : i32
      %n64 = arith.extsi %size : i32 to i64
      %ok = func.call @__bsgp_list_sort_ranks_i32(%l#0, %l#0, %l#1, %l#0, %l#1, %n64) : (!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
      bsgp.yield %ok : i1
    }
    %rk2 = bsgp.thread_rank : i32
    %next = arith.addi %rk2, %c1 : i32
    %u = bsgp.ptr.load %key[%next] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %u, %l#0[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %r2 = bsgp.require -> i1 {
      %size = bsgp.thread_size : i32
      %n64 = arith.extsi %size : i32 to i64
      %ok = func.call @__bsgp_list_sort_ranks_i32(%l#0, %l#0, %l#1, %l#0, %l#1, %n64) : (!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
      bsgp.yield %ok : i1
    }
    %rk3 = bsgp.thread_rank : i32
    bsgp.ptr.store %rk3, %key[%rk3] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// The pass knows the sort by its #bsgp.library<sort_ranks>, whatever its
// name.
// CHECK-LABEL: func.func @by_contract(
// CHECK-SAME: %[[KEY:[^:]*]]: !bsgp.ptr<i32>
// CHECK: func.call @any_sort(%[[KEY]],
func.func private @any_sort(!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
    attributes {bsgp.library = #bsgp.library<sort_ranks>}

func.func @by_contract(%key: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %l:2 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<i32>) {
      %size = bsgp.thread_size : i32
      %k = bsgp.dtempnew %size : !bsgp.ptr<i32>
      %i = bsgp.dtempnew %size : !bsgp.ptr<i32>
      bsgp.yield %k, %i : !bsgp.ptr<i32>, !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %key[%rk] : !bsgp.ptr<i32>, i32
    // A store to memory the spawn allocated cannot reach `key`.
    bsgp.ptr.store %v, %l#1[%rk] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %v, %l#0[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %r = bsgp.require -> i1 {
      %size = bsgp.thread_size : i32
      %n64 = arith.extsi %size : i32 to i64
      %ok = func.call @any_sort(%l#0, %l#0, %l#1, %l#0, %l#1, %n64) : (!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
      bsgp.yield %ok : i1
    }
    %rk2 = bsgp.thread_rank : i32
    %s = bsgp.ptr.load %l#0[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %s, %out[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A function with the library's name but without the contract is not the
// sort: nothing changes.
// CHECK-LABEL: func.func @by_name(
// CHECK: bsgp.superstep 1
// CHECK: bsgp.ptr.store
// CHECK: bsgp.ptr.store
// CHECK: func.call @__bsgp_list_sort_ranks_i32(%[[LIST:[^,]*]], %[[LIST]],
func.func private @__bsgp_list_sort_ranks_i32(!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1

func.func @by_name(%key: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %l:2 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<i32>) {
      %size = bsgp.thread_size : i32
      %k = bsgp.dtempnew %size : !bsgp.ptr<i32>
      %i = bsgp.dtempnew %size : !bsgp.ptr<i32>
      bsgp.yield %k, %i : !bsgp.ptr<i32>, !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %key[%rk] : !bsgp.ptr<i32>, i32
    // A store to memory the spawn allocated cannot reach `key`.
    bsgp.ptr.store %v, %l#1[%rk] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %v, %l#0[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %r = bsgp.require -> i1 {
      %size = bsgp.thread_size : i32
      %n64 = arith.extsi %size : i32 to i64
      %ok = func.call @__bsgp_list_sort_ranks_i32(%l#0, %l#0, %l#1, %l#0, %l#1, %n64) : (!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
      bsgp.yield %ok : i1
    }
    %rk2 = bsgp.thread_rank : i32
    %s = bsgp.ptr.load %l#0[%rk2] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %s, %out[%rk2] : !bsgp.ptr<i32>, i32
  }
  return
}

