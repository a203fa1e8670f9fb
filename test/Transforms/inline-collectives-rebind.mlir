// RUN: bsgp-opt %s --bsgp-inline-collectives | FileCheck %s

// A collective that moves each thread's key and says where it went, as
// thread.sortby does: after inlining, the caller's uses of the key that
// the rebind dominates read the list at the new rank; uses before it, and
// the stores that feed the list, keep the original value.
func.func private @move(%key: i32) attributes {bsgp.collective} {
  %keys = bsgp.require -> !bsgp.ptr<i32> {
    %ts = bsgp.thread_size : i32
    %p = bsgp.dtempnew %ts : !bsgp.ptr<i32>
    bsgp.yield %p : !bsgp.ptr<i32>
  }
  %rk = bsgp.thread_rank : i32
  bsgp.ptr.store %key, %keys[%rk] : !bsgp.ptr<i32>, i32
  bsgp.barrier
  %nr = bsgp.thread_rank : i32
  %moved = bsgp.ptr.load %keys[%nr] : !bsgp.ptr<i32>, i32
  bsgp.rebind %key, %moved : i32
  return
}

// CHECK-LABEL: func.func @caller(
// CHECK-SAME:    %[[IN:[^:]*]]: !bsgp.ptr<i32>, %[[OUT:[^:]*]]: !bsgp.ptr<i32>
// CHECK:         bsgp.spawn
// CHECK:           %[[K:.*]] = bsgp.ptr.load %[[IN]]
// CHECK:           bsgp.ptr.store %[[K]], %[[OUT]]
// CHECK:           bsgp.ptr.store %[[K]], %[[KEYS:.*]][
// CHECK:           bsgp.barrier
// CHECK:           %[[MOVED:.*]] = bsgp.ptr.load %[[KEYS]]
// CHECK-NOT:       bsgp.rebind
// CHECK:           %[[SUM:.*]] = arith.addi %[[MOVED]], %[[MOVED]]
// CHECK:           scf.if
// CHECK-NEXT:        bsgp.ptr.store %[[MOVED]], %[[OUT]]
// CHECK:           bsgp.ptr.store %[[SUM]], %[[OUT]]
func.func @caller(%in: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>, %n: i32,
                  %c: i1) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    %k = bsgp.ptr.load %in[%rk] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %k, %out[%rk] : !bsgp.ptr<i32>, i32
    func.call @move(%k) : (i32) -> ()
    %sum = arith.addi %k, %k : i32
    scf.if %c {
      bsgp.ptr.store %k, %out[%rk] : !bsgp.ptr<i32>, i32
    }
    bsgp.ptr.store %sum, %out[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}
