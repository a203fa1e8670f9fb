// RUN: bsgp-opt %s --bsgp-split-supersteps -mlir-print-debuginfo | FileCheck %s

// A superstep (and the launch bsgp-outline-kernels makes of it) takes the
// location of its first op that has one: a constant the folder made has
// none, and a launch without a line broke -g where a uniform loop became a
// CPU grid loop (LLVM wants a line on every call it may inline).

// CHECK-DAG: #[[L1:loc[0-9]*]] = loc("s.bsgp":3:5)
// CHECK-DAG: #[[L2:loc[0-9]*]] = loc("s.bsgp":5:5)
// CHECK-LABEL: func.func @f(
// CHECK: bsgp.superstep 1
// CHECK: } loc(#[[L1]])
// CHECK: bsgp.superstep 2
// CHECK: arith.constant 2 : i32 loc(#[[UNKNOWN:loc[0-9]*]])
// CHECK: } loc(#[[L2]])
// CHECK: #[[UNKNOWN]] = loc(unknown)
func.func @f(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32 loc("s.bsgp":3:5)
    bsgp.ptr.store %rk, %p[%rk] : !bsgp.ptr<i32>, i32 loc("s.bsgp":3:5)
    bsgp.barrier loc("s.bsgp":4:5)
    %c2 = arith.constant 2 : i32 loc(unknown)
    %r2 = bsgp.thread_rank : i32 loc("s.bsgp":5:5)
    %m = arith.muli %r2, %c2 : i32 loc("s.bsgp":5:5)
    bsgp.ptr.store %m, %p[%r2] : !bsgp.ptr<i32>, i32 loc("s.bsgp":6:5)
  } loc("s.bsgp":2:3)
  return
}
