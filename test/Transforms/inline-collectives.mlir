// RUN: bsgp-opt %s --bsgp-inline-collectives | FileCheck %s

func.func private @local_sort(!bsgp.ptr<i32>, i32) attributes {bsgp.device}
func.func private @global_merge(!bsgp.ptr<i32>)

// sort_idx of Listing 7: a collective with a require, a barrier and a
// result.
func.func private @sort_idx(%x: i32) -> i32 attributes {bsgp.collective} {
  %ids = bsgp.require -> !bsgp.ptr<i32> {
    %ts = bsgp.thread_size : i32
    %p = bsgp.dtempnew %ts : !bsgp.ptr<i32>
    bsgp.yield %p : !bsgp.ptr<i32>
  }
  func.call @local_sort(%ids, %x) : (!bsgp.ptr<i32>, i32) -> ()
  bsgp.barrier
  bsgp.require {
    func.call @global_merge(%ids) : (!bsgp.ptr<i32>) -> ()
  }
  %rk = bsgp.thread_rank : i32
  %idx = bsgp.ptr.load %ids[%rk] : !bsgp.ptr<i32>, i32
  return %idx : i32
}

// A collective calling a collective: both barriers end up in the spawn.
func.func private @sort_twice(%x: i32) -> i32 attributes {bsgp.collective} {
  %a = func.call @sort_idx(%x) : (i32) -> i32
  %b = func.call @sort_idx(%a) : (i32) -> i32
  return %b : i32
}

func.func private @sync() attributes {bsgp.collective} {
  bsgp.barrier
  return
}

// The inlined collectives are gone; plain device functions stay.
// CHECK-NOT: func.func private @sort_idx
// CHECK-NOT: func.func private @sort_twice
// CHECK-NOT: func.func private @sync
// CHECK: func.func private @local_sort

// CHECK-LABEL: func.func @sorter(
// CHECK-SAME: %[[OUT:[^:]*]]: !bsgp.ptr<i32>
// CHECK: bsgp.spawn
// CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank
// CHECK-NEXT: %[[IDS:.*]] = bsgp.require
// CHECK: func.call @local_sort(%[[IDS]], %[[RK]])
// CHECK-NEXT: bsgp.barrier
// CHECK-NEXT: bsgp.require
// CHECK-NEXT: func.call @global_merge(%[[IDS]])
// CHECK: %[[IDX:.*]] = bsgp.ptr.load %[[IDS]]
// CHECK-NEXT: bsgp.ptr.store %[[IDX]], %[[OUT]]
// CHECK-NOT: func.call @sort_idx
// CHECK: return
func.func @sorter(%out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %i = func.call @sort_idx(%rk) : (i32) -> i32
    bsgp.ptr.store %i, %out[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// CHECK-LABEL: func.func @nested(
// CHECK: bsgp.spawn
// CHECK-NOT: func.call @s
// CHECK: func.call @local_sort
// CHECK-NEXT: bsgp.barrier
// CHECK-NOT: func.call @s
// CHECK: func.call @local_sort
// CHECK-NEXT: bsgp.barrier
// CHECK-NOT: func.call @s
// CHECK: bsgp.ptr.load
// CHECK-NEXT: bsgp.barrier
// CHECK-NEXT: bsgp.ptr.store
// CHECK: return
func.func @nested(%out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %a = func.call @sort_twice(%rk) : (i32) -> i32
    func.call @sync() : () -> ()
    bsgp.ptr.store %a, %out[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}
