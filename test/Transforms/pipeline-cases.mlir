// RUN: bsgp-opt %s --bsgp-pipeline | FileCheck %s

// The hard cases through the whole pipeline: a spawn in a host loop, a
// value defined under scf.if and saved, a loop inside a superstep,
// thread.put and thread.get, a collective (a thread.kill) with set_size and
// barrier(RANK_REASSIGNED) whose empty middle superstep disappears, and a
// second spawn in the same function.

// x (from the scf.if) is saved by superstep 1.
// CHECK-LABEL: bsgp.kernel @cases_spawn0_ss1(
// CHECK-SAME: %{{[^:]*}}: !bsgp.ptr<f32>, %[[XS:[^:]*]]: !bsgp.stream)
// CHECK: %[[X:.*]] = scf.if
// CHECK: bsgp.save %[[X]] to{{ ?}}(%[[XS]])
// The loop stays in its kernel; its bound is a host value parameter. The
// put saves at rank + rank, if valid.
// CHECK-LABEL: bsgp.kernel @cases_spawn0_ss2(
// CHECK-SAME: %[[XS2:[^:]*]]: !bsgp.stream, %[[ITERS:[^:]*]]: index, %[[PS:[^:]*]]: !bsgp.stream)
// CHECK: %[[RK:.*]] = bsgp.thread_rank
// CHECK-NEXT: %[[XL:.*]] = bsgp.load{{ ?}}(%[[XS2]]){{ ?}}[%[[RK]]]
// CHECK-NEXT: %[[ACC:.*]] = scf.for %{{.*}} = %{{.*}} to %[[ITERS]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[RK]], %[[RK]]
// CHECK: scf.if
// CHECK-NEXT: bsgp.save %[[ACC]] to{{ ?}}(%[[PS]]){{ ?}}[%[[NEXT]]]
// thread.get(rank, x) reads the own slot, so sum may take x's stream.
// CHECK-LABEL: bsgp.kernel @cases_spawn0_ss3(
// CHECK-SAME: %[[PS3:[^:]*]]: !bsgp.stream, %[[XS3:[^:]*]]: !bsgp.stream
// CHECK-DAG: bsgp.load{{ ?}}(%[[PS3]])
// CHECK-DAG: bsgp.load{{ ?}}(%[[XS3]])
// CHECK: bsgp.save %{{.*}} to{{ ?}}(%[[XS3]])
// After the kill, sum is loaded at thread.oldrank.
// CHECK-LABEL: bsgp.kernel @cases_spawn0_ss4(
// CHECK-SAME: %[[KEEP:[^:]*]]: !bsgp.ptr<i32>, %[[SS:[^:]*]]: !bsgp.stream
// CHECK-NEXT: %[[R:.*]] = bsgp.thread_rank
// CHECK-NEXT: %[[OLD:.*]] = bsgp.ptr.load %[[KEEP]][%[[R]]]
// CHECK-NEXT: bsgp.load{{ ?}}(%[[SS]]){{ ?}}[%[[OLD]]]
// CHECK-NOT: bsgp.kernel @cases_spawn0_ss5
// CHECK-LABEL: bsgp.kernel @cases_spawn1_ss1(
// CHECK-LABEL: func.func @cases(
// CHECK-SAME: %[[P:[^:]*]]: !bsgp.ptr<f32>, %[[Q:[^:]*]]: !bsgp.ptr<i32>, %[[N:[^:]*]]: i32, %[[HITERS:[^:]*]]: index)
// CHECK: scf.for
// CHECK-NEXT: %[[S0:.*]] = bsgp.stream_alloc %[[N]]
// CHECK-NEXT: bsgp.launch @cases_spawn0_ss1(%[[N]]) args(%[[P]], %[[S0]] :
// CHECK-NEXT: %[[S1:.*]] = bsgp.stream_alloc %[[N]]
// CHECK-NEXT: bsgp.launch @cases_spawn0_ss2(%[[N]]) args(%[[S0]], %[[HITERS]], %[[S1]] :
// CHECK-NEXT: %[[KEEPH:.*]] = bsgp.dtempnew %[[N]]
// CHECK-NEXT: bsgp.launch @cases_spawn0_ss3(%[[N]]) args(%[[S1]], %[[S0]], %[[P]], %[[KEEPH]] :
// CHECK-NEXT: bsgp.stream_free %[[S1]]
// CHECK-NEXT: %[[ALIVE:.*]] = bsgp.ptr.load %[[KEEPH]]
// CHECK-NEXT: bsgp.launch @cases_spawn0_ss4(%[[ALIVE]]) args(%[[KEEPH]], %[[S0]], %[[P]] :
// CHECK-NEXT: bsgp.stream_free %[[S0]]
// CHECK-NEXT: bsgp.dtempfree %[[KEEPH]]
// CHECK-NEXT: }
// CHECK-NEXT: bsgp.launch @cases_spawn1_ss1(%[[N]]) args(%[[Q]] :
// CHECK-NEXT: return
// Appendix A style thread.kill: count survivors, resize, reassign ranks.
func.func private @kill(%dead: i1) attributes {bsgp.collective} {
  %keep = bsgp.require -> !bsgp.ptr<i32> {
    %ts = bsgp.thread_size : i32
    %k = bsgp.dtempnew %ts : !bsgp.ptr<i32>
    bsgp.yield %k : !bsgp.ptr<i32>
  }
  %rk = bsgp.thread_rank : i32
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %flag = arith.select %dead, %zero, %one : i32
  bsgp.ptr.store %flag, %keep[%rk] : !bsgp.ptr<i32>, i32
  bsgp.barrier
  bsgp.require {
    %c0 = arith.constant 0 : i32
    %alive = bsgp.ptr.load %keep[%c0] : !bsgp.ptr<i32>, i32
    bsgp.set_size %alive
  }
  bsgp.barrier rank_reassigned
  %r = bsgp.thread_rank : i32
  %old = bsgp.ptr.load %keep[%r] : !bsgp.ptr<i32>, i32
  bsgp.set_oldrank %old
  return
}

func.func @cases(%p: !bsgp.ptr<f32>, %q: !bsgp.ptr<i32>, %n: i32, %iters: index) {
  %lb = arith.constant 0 : index
  %st = arith.constant 1 : index
  scf.for %i = %lb to %iters step %st {
    bsgp.spawn %n {
      %rk = bsgp.thread_rank : i32
      %zero = arith.constant 0 : i32
      %odd = arith.cmpi sgt, %rk, %zero : i32
      %x = scf.if %odd -> f32 {
        %l = bsgp.ptr.load %p[%rk] : !bsgp.ptr<f32>, i32
        scf.yield %l : f32
      } else {
        %z = arith.constant 1.0 : f32
        scf.yield %z : f32
      }
      bsgp.barrier
      %rk2 = bsgp.thread_rank : i32
      %acc = scf.for %j = %lb to %iters step %st iter_args(%a = %x) -> f32 {
        %s = arith.addf %a, %x : f32
        scf.yield %s : f32
      }
      %next = arith.addi %rk2, %rk2 : i32
      %pv = bsgp.put %next, %acc : f32
      bsgp.barrier
      %rk3 = bsgp.thread_rank : i32
      %g = bsgp.get %rk3, %x : f32
      %sum = arith.addf %g, %pv : f32
      bsgp.ptr.store %sum, %p[%rk3] : !bsgp.ptr<f32>, i32
      %dead = arith.cmpf olt, %sum, %g : f32
      func.call @kill(%dead) : (i1) -> ()
      %rk4 = bsgp.thread_rank : i32
      bsgp.ptr.store %sum, %p[%rk4] : !bsgp.ptr<f32>, i32
    }
  }
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %rk, %q[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}
