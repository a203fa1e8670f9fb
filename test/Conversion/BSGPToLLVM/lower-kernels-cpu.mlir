// RUN: bsgp-opt %s --bsgp-lower-kernels-cpu | FileCheck %s

// Each kernel gets a native entry point with the runtime's
// bsgprt_cpu_kernel_fn signature (args, begin, end, size). Parameters are
// unpacked once, before the rank loop; rank is the loop's induction variable
// and size the last parameter.

// CHECK-LABEL: llvm.func internal @saxpy__cpu(
// CHECK-SAME:    %[[ARGS:.*]]: !llvm.ptr, %[[BEGIN:.*]]: i64, %[[END:.*]]: i64, %[[SIZE:.*]]: i64)
// CHECK-SAME:    attributes {bsgp.device, bsgp.srcloc = "saxpy.bsgp:3:3-5:4"}
// CHECK:         %[[P0:.*]] = llvm.getelementptr %[[ARGS]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(f32, ptr, ptr)>
// CHECK:         %[[A:.*]] = llvm.load %[[P0]] : !llvm.ptr -> f32
// CHECK:         llvm.getelementptr %[[ARGS]][0, 1]
// CHECK:         %[[XRAW:.*]] = llvm.load
// CHECK:         %[[X:.*]] = builtin.unrealized_conversion_cast %[[XRAW]] : !llvm.ptr to !bsgp.ptr<f32>
// CHECK:         llvm.getelementptr %[[ARGS]][0, 2]
// CHECK:         %[[Y:.*]] = builtin.unrealized_conversion_cast
// CHECK:         %[[N:.*]] = arith.trunci %[[SIZE]] : i64 to i32
// CHECK:         %[[B:.*]] = arith.trunci %[[BEGIN]] : i64 to i32
// CHECK:         %[[E:.*]] = arith.trunci %[[END]] : i64 to i32
// CHECK:         scf.for %[[R:.*]] = %[[B]] to %[[E]] step %{{.*}} : i32 {
// CHECK-NEXT:      scf.execute_region {
// CHECK-NEXT:        arith.constant 1 : i32
// CHECK-NEXT:        %[[XV:.*]] = bsgp.ptr.load %[[X]][%[[R]]]
// CHECK-NEXT:        %[[M:.*]] = arith.mulf %[[A]], %[[XV]]
// CHECK-NEXT:        %[[LAST:.*]] = arith.subi %[[N]], %{{.*}}
// CHECK-NEXT:        %[[IDX:.*]] = arith.subi %[[LAST]], %[[R]]
// CHECK-NEXT:        bsgp.ptr.store %[[M]], %[[Y]][%[[IDX]]]
// CHECK-NEXT:        scf.yield
// CHECK:         llvm.return
// The kernel itself stays for the launch lowering and other targets.
// CHECK:       bsgp.kernel @saxpy(
bsgp.kernel @saxpy(%a: f32, %x: !bsgp.ptr<f32>, %y: !bsgp.ptr<f32>)
    attributes {bsgp.srcloc = "saxpy.bsgp:3:3-5:4"} {
  %r = bsgp.thread_rank : i32
  %n = bsgp.thread_size : i32
  %one = arith.constant 1 : i32
  %xv = bsgp.ptr.load %x[%r] : !bsgp.ptr<f32>, i32
  %m = arith.mulf %a, %xv : f32
  %last = arith.subi %n, %one : i32
  %idx = arith.subi %last, %r : i32
  bsgp.ptr.store %m, %y[%idx] : !bsgp.ptr<f32>, i32
  bsgp.return
}

// A kernel with control flow keeps its blocks inside the execute_region; an
// early return ends only the current rank's iteration.
// CHECK-LABEL: llvm.func internal @early__cpu(
// CHECK:         scf.for %[[R2:.*]] = {{.*}} : i32 {
// CHECK-NEXT:      scf.execute_region {
// CHECK:             cf.cond_br %{{.*}}, ^[[RET:.*]], ^[[BODY:.*]]
// CHECK:           ^[[RET]]:
// CHECK-NEXT:        scf.yield
// CHECK:           ^[[BODY]]:
// CHECK:             bsgp.ptr.store
// CHECK-NEXT:        scf.yield
// CHECK-NOT:     bsgp.thread_rank
// CHECK:         llvm.return
bsgp.kernel @early(%p: !bsgp.ptr<i32>, %limit: i32) {
  %r = bsgp.thread_rank : i32
  %c = arith.cmpi sge, %r, %limit : i32
  cf.cond_br %c, ^ret, ^body
^ret:
  bsgp.return
^body:
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}
