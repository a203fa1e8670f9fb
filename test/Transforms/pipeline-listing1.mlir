// RUN: bsgp-opt %s --bsgp-pipeline | FileCheck %s

// Listing 1 (thread.sortby as a collective with barrier(RANK_REASSIGNED))
// through the whole pipeline gives Listing 4 but for f: three kernels, t0
// for v loaded at the old rank, t1 for the moved v, two dtempnew lists
// freed at the end. f = rk0 / 3, which Listing 4 saves in a stream of its
// own and gathers at the old rank, is computed from the old rank in
// superstep 2. The kernel source ranges point into the spawn, also for
// code inlined from thread.sortby (its call site).
// CHECK-LABEL: bsgp.kernel @findFaces_spawn0_ss1(
// CHECK-SAME: bsgp.srcloc = "listing1.bsgp:3:9-6:9"
// CHECK: func.call @local_sort
// CHECK: bsgp.save
// CHECK-NOT: bsgp.save
// CHECK-LABEL: bsgp.kernel @findFaces_spawn0_ss2(
// CHECK-SAME: %[[SORTED:[^:]*]]: !bsgp.ptr<i32>, %[[T0:[^:]*]]: !bsgp.stream, %[[PF:[^:]*]]: !bsgp.ptr<i32>, %{{[^:]*}}: !bsgp.ptr<i32>, %[[T1:[^:]*]]: !bsgp.stream)
// CHECK-SAME: bsgp.srcloc = "listing1.bsgp:6:9-12:9"
// CHECK: %[[RK:.*]] = bsgp.thread_rank
// CHECK-NEXT: %[[OLD:.*]] = bsgp.ptr.load %[[SORTED]][%[[RK]]]
// CHECK-NEXT: %[[V:.*]] = bsgp.load{{ ?}}(%[[T0]]){{ ?}}[%[[OLD]]]
// CHECK-NEXT: %[[F:.*]] = arith.divsi %[[OLD]],
// CHECK-NEXT: bsgp.ptr.store %[[F]], %[[PF]][%[[RK]]]
// CHECK: bsgp.save %[[V]] to{{ ?}}(%[[T1]])
// CHECK-LABEL: bsgp.kernel @findFaces_spawn0_ss3(
// CHECK-SAME: bsgp.srcloc = "listing1.bsgp:13:9-14:13"
// CHECK-LABEL: func.func @findFaces(
// CHECK: %[[SIZE:.*]] = arith.muli
// CHECK-NEXT: %[[LIST:.*]] = bsgp.dtempnew %[[SIZE]]
// CHECK-NEXT: %[[S0:.*]] = bsgp.stream_alloc %[[SIZE]]
// CHECK-NEXT: bsgp.launch @findFaces_spawn0_ss1(%[[SIZE]])
// CHECK-NEXT: call @global_merge(%[[LIST]])
// CHECK-NEXT: %[[OWNER:.*]] = bsgp.dtempnew
// CHECK-NEXT: %[[S1:.*]] = bsgp.stream_alloc %[[SIZE]]
// CHECK-NEXT: bsgp.launch @findFaces_spawn0_ss2(%[[SIZE]]) args(%[[LIST]], %[[S0]], %{{.*}}, %[[OWNER]], %[[S1]] :
// CHECK-NEXT: bsgp.stream_free %[[S0]]
// CHECK-NEXT: bsgp.launch @findFaces_spawn0_ss3(%[[SIZE]]) args(%[[S1]], %[[OWNER]],
// CHECK-NEXT: bsgp.stream_free %[[S1]]
// CHECK-NEXT: bsgp.dtempfree %[[LIST]], %[[OWNER]]
// CHECK-NEXT: return
// CHECK-NOT: @sortby
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
    %rk0 = bsgp.thread_rank : i32 loc("rk0"("listing1.bsgp":3:9))
    %c3d = arith.constant 3 : i32
    %f = arith.divsi %rk0, %c3d : i32 loc("f"("listing1.bsgp":4:9))
    %v = bsgp.ptr.load %ib[%rk0] : !bsgp.ptr<i32>, i32 loc("v"("listing1.bsgp":5:9))
    func.call @sortby(%v) : (i32) -> () loc("listing1.bsgp":6:9)
    %owner = bsgp.require -> !bsgp.ptr<i32> {
      %o = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %o : !bsgp.ptr<i32>
    } loc("listing1.bsgp":7:9)
    %rk1 = bsgp.thread_rank : i32 loc("rk1"("listing1.bsgp":9:9))
    bsgp.ptr.store %f, %pf[%rk1] : !bsgp.ptr<i32>, i32 loc("listing1.bsgp":10:9)
    bsgp.ptr.store %v, %owner[%rk1] : !bsgp.ptr<i32>, i32 loc("listing1.bsgp":11:9)
    bsgp.barrier loc("listing1.bsgp":12:9)
    %c0 = arith.constant 0 : i32
    %is0 = arith.cmpi eq, %rk1, %c0 : i32 loc("listing1.bsgp":13:9)
    %cond = scf.if %is0 -> i1 {
      %t = arith.constant true
      scf.yield %t : i1
    } else {
      %c1 = arith.constant 1 : i32
      %prev = arith.subi %rk1, %c1 : i32
      %o = bsgp.ptr.load %owner[%prev] : !bsgp.ptr<i32>, i32
      %ne = arith.cmpi ne, %o, %v : i32
      scf.yield %ne : i1
    }
    scf.if %cond {
      bsgp.ptr.store %rk1, %hd[%v] : !bsgp.ptr<i32>, i32
    } loc("listing1.bsgp":14:13)
  }
  return
}
