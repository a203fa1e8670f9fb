// RUN: bsgp-opt %s --bsgp-inline-collectives --bsgp-expand-par | FileCheck %s
// RUN: bsgp-opt %s --bsgp-inline-collectives --bsgp-expand-par --bsgp-split-supersteps | FileCheck %s --check-prefix=STEPS

func.func private @local_sort(!bsgp.ptr<i32>, i32) attributes {bsgp.device}
func.func private @global_merge(!bsgp.ptr<i32>)
func.func private @functionA() -> i32 attributes {bsgp.device}
func.func private @functionB() -> i32 attributes {bsgp.device}

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

// Listing 8: both local sorts run before the one aligned barrier, both
// global merges after it: two supersteps instead of Listing 7's three.
// CHECK-LABEL: func.func @sorter(
// CHECK: bsgp.spawn
// CHECK: %[[A:.*]] = func.call @functionA
// CHECK: %[[B:.*]] = func.call @functionB
// CHECK: %[[IDSA:.*]] = bsgp.require
// CHECK: func.call @local_sort(%[[IDSA]], %[[A]])
// CHECK: %[[IDSB:.*]] = bsgp.require
// CHECK: func.call @local_sort(%[[IDSB]], %[[B]])
// CHECK-NEXT: bsgp.barrier
// CHECK-NOT: bsgp.barrier
// CHECK: func.call @global_merge(%[[IDSA]])
// CHECK: %[[IA:.*]] = bsgp.ptr.load %[[IDSA]]
// CHECK: func.call @global_merge(%[[IDSB]])
// CHECK: %[[IB:.*]] = bsgp.ptr.load %[[IDSB]]
// CHECK-NOT: bsgp.par
// CHECK: arith.addi %[[IA]], %[[IB]]
// STEPS-LABEL: func.func @sorter(
// STEPS: bsgp.superstep 1
// STEPS: bsgp.superstep 2
// STEPS-NOT: bsgp.superstep 3
// STEPS: return
func.func @sorter(%out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %a = func.call @functionA() : () -> i32
    %b = func.call @functionB() : () -> i32
    %ia, %ib = bsgp.par -> (i32, i32) {
      %i = func.call @sort_idx(%a) : (i32) -> i32
      bsgp.yield %i : i32
    }, {
      %i = func.call @sort_idx(%b) : (i32) -> i32
      bsgp.yield %i : i32
    }
    %s = arith.addi %ia, %ib : i32
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %s, %out[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// Unequal barrier counts align from the start: branch 1 has two barriers,
// branch 2 one, branch 3 none. Pieces: {a0 b0 c0} | {a1 b1} | {a2}.
// CHECK-LABEL: func.func @unequal(
// CHECK: bsgp.spawn
// CHECK-NEXT: %[[A0:.*]] = arith.constant 10
// CHECK-NEXT: %[[B0:.*]] = arith.constant 20
// CHECK-NEXT: %[[C0:.*]] = arith.constant 30
// CHECK-NEXT: bsgp.barrier rank_reassigned
// CHECK-NEXT: bsgp.thread_rank
// CHECK-NEXT: bsgp.set_oldrank
// CHECK-NEXT: %[[B1:.*]] = arith.addi %[[B0]], %[[B0]]
// CHECK-NEXT: %[[A1:.*]] = arith.addi %[[A0]], %[[A0]]
// CHECK-NEXT: bsgp.barrier{{$}}
// CHECK-NEXT: %[[A2:.*]] = arith.addi %[[A1]], %[[A1]]
// CHECK-NEXT: bsgp.thread_rank
// CHECK-NEXT: bsgp.ptr.store %[[A2]]
// CHECK-NEXT: bsgp.ptr.store %[[B1]]
// CHECK-NEXT: bsgp.ptr.store %[[C0]]
// STEPS-LABEL: func.func @unequal(
// STEPS: bsgp.superstep 1
// STEPS: bsgp.superstep 2 rank_reassigned
// STEPS: bsgp.superstep 3
// STEPS-NOT: bsgp.superstep 4
func.func @unequal(%out: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %ra, %rb, %rc = bsgp.par -> (i32, i32, i32) {
      %a0 = arith.constant 10 : i32
      bsgp.barrier
      %a1 = arith.addi %a0, %a0 : i32
      bsgp.barrier
      %a2 = arith.addi %a1, %a1 : i32
      bsgp.yield %a2 : i32
    }, {
      %b0 = arith.constant 20 : i32
      bsgp.barrier rank_reassigned
      %rk = bsgp.thread_rank : i32
      bsgp.set_oldrank %rk
      %b1 = arith.addi %b0, %b0 : i32
      bsgp.yield %b1 : i32
    }, {
      %c0 = arith.constant 30 : i32
      bsgp.yield %c0 : i32
    }
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %ra, %out[%rk] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %rb, %out[%rk] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %rc, %out[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// A par inside a par branch is expanded into the branch first.
// CHECK-LABEL: func.func @nested(
// CHECK: bsgp.spawn
// CHECK-NEXT: arith.constant 1
// CHECK-NEXT: arith.constant 2
// CHECK-NEXT: arith.constant 3
// CHECK-NEXT: bsgp.barrier
// CHECK-NEXT: arith.constant 4
// CHECK-NEXT: arith.constant 5
// CHECK-NOT: bsgp.barrier
// CHECK-NOT: bsgp.par
// CHECK: return
func.func @nested(%n: i32) {
  bsgp.spawn %n {
    bsgp.par {
      bsgp.par {
        %x = arith.constant 1 : i32
        bsgp.barrier
        %y = arith.constant 4 : i32
      }, {
        %z = arith.constant 2 : i32
      }
    }, {
      %w = arith.constant 3 : i32
      bsgp.barrier
      %v = arith.constant 5 : i32
    }
  }
  return
}
