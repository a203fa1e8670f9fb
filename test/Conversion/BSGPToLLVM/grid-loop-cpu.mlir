// RUN: bsgp-opt %s --bsgp-lower-kernels-cpu | FileCheck %s

// A grid-loop kernel (bsgp-fuse-uniform-loops) on the CPU: every thread of
// the team runs the loop once (no rank loop); each grid launch packs the
// launched kernel's arguments, calls its CPU entry on the thread's share
// [n * me / team, n * (me + 1) / team) of the ranks, and waits at the team
// barrier.
bsgp.kernel @step(%x: !bsgp.ptr<f32>, %k: i32) {
  %r = bsgp.thread_rank : i32
  %v = bsgp.ptr.load %x[%r] : !bsgp.ptr<f32>, i32
  %w = arith.addf %v, %v : f32
  bsgp.ptr.store %w, %x[%r] : !bsgp.ptr<f32>, i32
  bsgp.return
}

// The launched kernel keeps its rank loop.
// CHECK-LABEL: llvm.func internal @step__cpu(
// CHECK: scf.for

// CHECK-LABEL: llvm.func internal @loop__cpu(
// CHECK-SAME: %[[ARGS:.*]]: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-DAG: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i32)>
// CHECK-DAG: %[[ME:.*]] = llvm.call @bsgprt_cpu_team_rank() : () -> i64
// CHECK-DAG: %[[TEAM:.*]] = llvm.call @bsgprt_cpu_team_size() : () -> i64
// CHECK: %[[NEXT:.*]] = arith.addi %[[ME]], %{{.*}} : i64
// CHECK-NOT: scf.for
// CHECK: scf.while
// CHECK: llvm.store %{{.*}}, %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr
// CHECK: %[[CLAMPED:.*]] = arith.maxsi %{{.*}}, %{{.*}} : i32
// CHECK: %[[N:.*]] = arith.extui %[[CLAMPED]] : i32 to i64
// CHECK: %[[LO:.*]] = arith.muli %[[N]], %[[ME]] : i64
// CHECK: %[[BEGIN:.*]] = arith.divui %[[LO]], %[[TEAM]] : i64
// CHECK: %[[HI:.*]] = arith.muli %[[N]], %[[NEXT]] : i64
// CHECK: %[[END:.*]] = arith.divui %[[HI]], %[[TEAM]] : i64
// CHECK: llvm.call @step__cpu(%[[SLOT]], %[[BEGIN]], %[[END]], %[[N]])
// CHECK-NEXT: llvm.call @bsgprt_cpu_team_barrier() : () -> ()
// CHECK-NOT: bsgp.grid_launch
// CHECK: llvm.return
bsgp.kernel @loop(%x: !bsgp.ptr<f32>, %n: i32, %iters: i32) attributes {bsgp.grid_loop} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %iters : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%i: i32):
    bsgp.grid_launch @step(%n) args(%x, %i : !bsgp.ptr<f32>, i32)
    %next = arith.addi %i, %c1 overflow<nsw> : i32
    scf.yield %next : i32
  }
  bsgp.return
}
