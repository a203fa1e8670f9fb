// RUN: bsgp-opt %s --bsgp-pipeline | FileCheck %s

// Listing 9: thread.get(rk - 1, v) replaces the owner list of Listing 1.
// v crosses the rank-reassigning barrier of thread.sortby, so superstep 2
// moves it to a stream indexed by the new ranks, and superstep 3 reads that
// stream both at its own rank (v) and at rank - 1 (the get). No owner list
// is allocated: one dtempnew (sortby's) is freed at the end. f is
// computed from the old rank (no stream).
// CHECK-LABEL: bsgp.kernel @findFaces_spawn0_ss2(
// CHECK-SAME: %[[SORTED:[^:]*]]: !bsgp.ptr<i32>, %[[T0:[^:]*]]: !bsgp.stream, %{{[^:]*}}: !bsgp.ptr<i32>, %[[T1:[^:]*]]: !bsgp.stream)
// CHECK: %[[OLD:.*]] = bsgp.ptr.load %[[SORTED]]
// CHECK: %[[V:.*]] = bsgp.load{{ ?}}(%[[T0]]){{ ?}}[%[[OLD]]]
// CHECK: bsgp.save %[[V]] to{{ ?}}(%[[T1]])
// CHECK-LABEL: bsgp.kernel @findFaces_spawn0_ss3(
// CHECK-SAME: %[[S:[^:]*]]: !bsgp.stream, %{{[^:]*}}: !bsgp.ptr<i32>)
// CHECK: %[[RK:.*]] = bsgp.thread_rank
// CHECK-NEXT: %[[OWN:.*]] = bsgp.load{{ ?}}(%[[S]]){{ ?}}[%[[RK]]]
// CHECK: %[[PREV:.*]] = arith.subi %[[RK]],
// CHECK-NEXT: %[[G:.*]] = bsgp.load{{ ?}}(%[[S]]){{ ?}}[%[[PREV]]]
// CHECK-NEXT: arith.cmpi ne, %[[G]], %[[OWN]]
// CHECK-NOT: bsgp.get
// CHECK-LABEL: func.func @findFaces(
// CHECK: %[[LIST:.*]] = bsgp.dtempnew
// CHECK-COUNT-3: bsgp.launch
// CHECK: bsgp.dtempfree %[[LIST]] :
// CHECK-NEXT: return
func.func private @local_sort(!bsgp.ptr<i32>, i32) attributes {bsgp.device}
func.func private @global_merge(!bsgp.ptr<i32>)

func.func private @sortby(%key: i32) attributes {bsgp.collective} {
  %sorted = bsgp.require -> !bsgp.ptr<i32> {
    %ts = bsgp.thread_size : i32
    %p = bsgp.dtempnew %ts : !bsgp.ptr<i32>
    bsgp.yield %p : !bsgp.ptr<i32>
  }
  func.call @local_sort(%sorted, %key) : (!bsgp.ptr<i32>, i32) -> ()
  bsgp.barrier rank_reassigned
  bsgp.require {
    func.call @global_merge(%sorted) : (!bsgp.ptr<i32>) -> ()
  }
  %rk = bsgp.thread_rank : i32
  %old = bsgp.ptr.load %sorted[%rk] : !bsgp.ptr<i32>, i32
  bsgp.set_oldrank %old
  return
}


func.func @findFaces(%pf: !bsgp.ptr<i32>, %hd: !bsgp.ptr<i32>, %ib: !bsgp.ptr<i32>, %n: i32) {
  %c3 = arith.constant 3 : i32
  %n3 = arith.muli %n, %c3 : i32
  bsgp.spawn %n3 {
    %rk0 = bsgp.thread_rank : i32
    %f = arith.divsi %rk0, %c3 : i32
    %v = bsgp.ptr.load %ib[%rk0] : !bsgp.ptr<i32>, i32
    func.call @sortby(%v) : (i32) -> ()
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %f, %pf[%rk] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %c0 = arith.constant 0 : i32
    %is0 = arith.cmpi eq, %rk, %c0 : i32
    %cond = scf.if %is0 -> i1 {
      %t = arith.constant true
      scf.yield %t : i1
    } else {
      %c1 = arith.constant 1 : i32
      %prev = arith.subi %rk, %c1 : i32
      %g = bsgp.get %prev, %v : i32
      %ne = arith.cmpi ne, %g, %v : i32
      scf.yield %ne : i1
    }
    scf.if %cond {
      bsgp.ptr.store %rk, %hd[%v] : !bsgp.ptr<i32>, i32
    }
  }
  return
}
