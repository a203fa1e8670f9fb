// RUN: bsgp-opt %s --bsgp-pipeline | FileCheck %s
// RUN: bsgp-opt %s --bsgp-pipeline | FileCheck %s --check-prefix=CONTRACT
// RUN: bsgp-opt %s --bsgp-superstep-pipeline --bsgp-find-saved-values=print-table -o /dev/null | FileCheck %s --check-prefix=TABLE

// Listing 5 through the whole §4 pipeline: four kernels, and the two
// streams of Fig. 4(c): S0 = {v0, v2, v3}, S1 = {v1}.

// TABLE: spawn 0 in @test: 4 supersteps
// TABLE-NEXT: value
// TABLE-NEXT: v0{{ +}}1{{ +}}2{{ +}}yes{{ +}}1
// TABLE-NEXT: v1{{ +}}1{{ +}}3,4{{ +}}yes{{ +}}1
// TABLE-NEXT: v2{{ +}}2{{ +}}3{{ +}}yes{{ +}}1
// TABLE-NEXT: v3{{ +}}3{{ +}}4{{ +}}yes{{ +}}1
// TABLE-NEXT: v4{{ +}}4{{ +}}4{{ +}}no{{ +}}1

// v0 and v1 are saved by superstep 1 to the kernel's streams 1 and 2.
// CHECK-LABEL: bsgp.kernel @test_spawn0_ss1(
// CHECK-SAME: %[[A:[^:]*]]: !bsgp.ptr<i32>, %[[K1S0:[^:]*]]: !bsgp.stream, %[[K1S1:[^:]*]]: !bsgp.stream)
// CHECK-SAME: bsgp.srcloc = "listing5.bsgp:4:5-6:5"
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[V0:.*]] = bsgp.ptr.load %[[A]][%[[C0]]]
// CHECK: %[[V1:.*]] = bsgp.ptr.load %[[A]][%[[C1]]]
// CHECK: bsgp.save %[[V0]] to{{ ?}}(%[[K1S0]])
// CHECK: bsgp.save %[[V1]] to{{ ?}}(%[[K1S1]])
// CHECK: bsgp.return
// v2 = v0 + v0: loaded from and saved to the same stream.
// CHECK-LABEL: bsgp.kernel @test_spawn0_ss2(
// CHECK-SAME: %[[K2S:[^:]*]]: !bsgp.stream)
// CHECK: %[[L:.*]] = bsgp.load{{ ?}}(%[[K2S]])
// CHECK: %[[V2:.*]] = arith.addi %[[L]], %[[L]]
// CHECK: bsgp.save %[[V2]] to{{ ?}}(%[[K2S]])
// v3 = v1 + v2, saved over v2.
// CHECK-LABEL: bsgp.kernel @test_spawn0_ss3(
// CHECK-SAME: %[[K3A:[^:]*]]: !bsgp.stream, %[[K3B:[^:]*]]: !bsgp.stream)
// CHECK-DAG: %[[L1:.*]] = bsgp.load{{ ?}}(%[[K3A]])
// CHECK-DAG: %[[L2:.*]] = bsgp.load{{ ?}}(%[[K3B]])
// CHECK: %[[V3:.*]] = arith.addi %[[L1]], %[[L2]]
// CHECK: bsgp.save %[[V3]] to{{ ?}}(%[[K3B]])
// CHECK-LABEL: bsgp.kernel @test_spawn0_ss4(
// CHECK: bsgp.ptr.store
// CHECK-LABEL: func.func @test(
// CHECK-SAME: %[[HA:[^:]*]]: !bsgp.ptr<i32>)
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[S0:.*]] = bsgp.stream_alloc %[[ONE]]
// CHECK-NEXT: %[[S1:.*]] = bsgp.stream_alloc %[[ONE]]
// CHECK-NEXT: bsgp.launch @test_spawn0_ss1(%[[ONE]]) args(%[[HA]], %[[S0]], %[[S1]] :
// CHECK-NEXT: bsgp.launch @test_spawn0_ss2(%[[ONE]]) args(%[[S0]] :
// CHECK-NEXT: bsgp.launch @test_spawn0_ss3(%[[ONE]]) args(%[[S1]], %[[S0]] :
// CHECK-NEXT: bsgp.launch @test_spawn0_ss4(%[[ONE]]) args(%[[S1]], %[[S0]], %[[HA]] :
// CHECK-NEXT: bsgp.stream_free %[[S0]]
// CHECK-NEXT: bsgp.stream_free %[[S1]]
// CHECK-NEXT: return

// The code generators' contract: nothing of the source or superstep form
// is left.
// CONTRACT-NOT: bsgp.spawn
// CONTRACT-NOT: bsgp.superstep
// CONTRACT-NOT: bsgp.barrier
// CONTRACT-NOT: bsgp.require
// CONTRACT-NOT: bsgp.par
// CONTRACT-NOT: bsgp.yield
// CONTRACT-NOT: bsgp.get
// CONTRACT-NOT: bsgp.put
// CONTRACT-NOT: bsgp.set_oldrank
func.func @test(%a: !bsgp.ptr<i32>) {
  %one = arith.constant 1 : i32
  bsgp.spawn %one {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %v0 = bsgp.ptr.load %a[%c0] : !bsgp.ptr<i32>, i32 loc("v0"("listing5.bsgp":4:5))
    %v1 = bsgp.ptr.load %a[%c1] : !bsgp.ptr<i32>, i32 loc("v1"("listing5.bsgp":4:15))
    bsgp.barrier loc("listing5.bsgp":6:5)
    %v2 = arith.addi %v0, %v0 : i32 loc("v2"("listing5.bsgp":8:5))
    bsgp.barrier loc("listing5.bsgp":9:5)
    %v3 = arith.addi %v1, %v2 : i32 loc("v3"("listing5.bsgp":11:5))
    bsgp.barrier loc("listing5.bsgp":12:5)
    %v4 = arith.addi %v3, %v1 : i32 loc("v4"("listing5.bsgp":14:5))
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %v4, %a[%rk] : !bsgp.ptr<i32>, i32 loc("listing5.bsgp":15:5)
  }
  return
}
