// RUN: bsgp-opt %s --bsgp-lower-launches | FileCheck %s

// The last field of a kernel's descriptor is the work-group size it needs:
// 256 (the CUDA target's block size) for a kernel using work-group
// operations, 0 (any) for the others.

// CHECK:       llvm.mlir.global internal constant @__bsgp_kernel_table()
// CHECK:         %[[PLAIN:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:         llvm.insertvalue %[[PLAIN]], %{{.*}}[4]
// CHECK:         %[[GROUP:.*]] = llvm.mlir.constant(256 : i32) : i32
// CHECK:         llvm.insertvalue %[[GROUP]], %{{.*}}[4]
bsgp.kernel @plain(%p: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}
bsgp.kernel @grouped(%p: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  bsgp.group_barrier
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}
func.func @host(%n: i32, %p: !bsgp.ptr<i32>) {
  bsgp.launch @plain(%n) args(%p : !bsgp.ptr<i32>)
  bsgp.launch @grouped(%n) args(%p : !bsgp.ptr<i32>)
  return
}
