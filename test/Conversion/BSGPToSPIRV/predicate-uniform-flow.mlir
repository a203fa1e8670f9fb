// RUN: bsgp-opt %s --bsgp-lower-kernels-spirv | FileCheck %s

// In a kernel with a subgroup operation, the invocations past the thread
// count run the loop that holds it, so they must leave it when the others
// do. Its counter is advanced in a uniform branch (the one a break skips)
// next to a call, which only ranks in range make: the branch is predicated
// inside, so that the missing ranks advance the counter too (predicated as
// a whole, it gave them 0, and on NVIDIA's driver they looped forever).
// The call's result, a per-thread value, is 0 for them.

// CHECK-LABEL: func.func @f_spawn0_ss1()
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i64
// CHECK: scf.while (%[[IT:.*]] = %c0_i32, %[[ACC:.*]] = %{{.*}}, %[[BROKE:.*]] = %false)
// CHECK: } do {
// CHECK: bsgp.subgroup_vote "any"
// CHECK: %[[SKIP:.*]] = arith.select %{{.*}}, %true, %{{.*}} : i1
// CHECK: scf.if %[[SKIP]] -> (i32, i32) {
// CHECK: } else {
// CHECK: %[[MIX:.*]] = scf.if %[[IN]] -> (i32) {
// CHECK-NEXT: func.call @mix
// CHECK: } else {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: scf.yield %[[ZERO]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %{{.*}}, %c1_i32 overflow<nsw> : i32
// CHECK-NEXT: scf.yield %[[MIX]], %[[NEXT]] : i32, i32

// From:
//   int mix(int a, int b) { return a * 31 + b; }
//   spawn (n) {
//     int acc = thread.rank;
//     for (int it = 0; it < k; ++it) {
//       bool m = subgroup.any(acc > 3);
//       if (it == 1)
//         break;
//       acc = mix(acc, m ? 1 : 2);
//     }
//     out[thread.rank] = acc;
//   }
module {
  func.func @mix(%arg0: i32, %arg1: i32) -> i32 attributes {bsgp.device} {
    %c31_i32 = arith.constant 31 : i32
    %0 = arith.muli %arg0, %c31_i32 overflow<nsw> : i32
    %1 = arith.addi %0, %arg1 overflow<nsw> : i32
    return %1 : i32
  }
  bsgp.kernel @f_spawn0_ss1(%arg0: i32, %arg1: !bsgp.ptr<i32>) {
    %false = arith.constant false
    %c3_i32 = arith.constant 3 : i32
    %c1_i32 = arith.constant 1 : i32
    %true = arith.constant true
    %c2_i32 = arith.constant 2 : i32
    %c0_i32 = arith.constant 0 : i32
    %0 = bsgp.thread_rank : i32
    %1:3 = scf.while (%arg2 = %c0_i32, %arg3 = %0, %arg4 = %false) : (i32, i32, i1) -> (i32, i32, i1) {
      %3 = scf.if %arg4 -> (i1) {
        scf.yield %false : i1
      } else {
        %4 = arith.cmpi slt, %arg2, %arg0 : i32
        scf.yield %4 : i1
      }
      scf.condition(%3) %arg2, %arg3, %arg4 : i32, i32, i1
    } do {
    ^bb0(%arg2: i32, %arg3: i32, %arg4: i1):
      %3 = arith.cmpi sgt, %arg3, %c3_i32 : i32
      %4 = bsgp.subgroup_vote "any" %3 : i1
      %5 = arith.cmpi eq, %arg2, %c1_i32 : i32
      %6 = arith.select %5, %true, %arg4 : i1
      %7:2 = scf.if %6 -> (i32, i32) {
        scf.yield %arg3, %arg2 : i32, i32
      } else {
        %8 = arith.select %4, %c1_i32, %c2_i32 : i32
        %9 = func.call @mix(%arg3, %8) : (i32, i32) -> i32
        %10 = arith.addi %arg2, %c1_i32 overflow<nsw> : i32
        scf.yield %9, %10 : i32, i32
      }
      scf.yield %7#1, %7#0, %6 : i32, i32, i1
    }
    %2 = bsgp.thread_rank : i32
    bsgp.ptr.store %1#1, %arg1[%2] : !bsgp.ptr<i32>, i32
    bsgp.return
  }
  func.func @f(%arg0: !bsgp.ptr<i32>, %arg1: i32, %arg2: i32) {
    %c0_i32 = arith.constant 0 : i32
    %0 = arith.cmpi ne, %arg2, %c0_i32 : i32
    scf.if %0 {
      bsgp.launch @f_spawn0_ss1(%arg2) args(%arg1, %arg0 : i32, !bsgp.ptr<i32>)
    }
    return
  }
}

