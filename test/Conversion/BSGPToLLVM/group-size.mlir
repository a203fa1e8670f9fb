// RUN: bsgp-opt %s --bsgp-lower-launches | FileCheck %s

// The last field of a kernel's descriptor is the work-group size it needs:
// the bsgp.group_size that bsgp-lower-kernels-nvvm gave a kernel whose CUDA
// form uses work-group operations (256, the CUDA target's block size), 0
// (any) for the others. The attribute decides, not the ops left in the
// host module: the CPU target's folding may have removed them.

// CHECK:       llvm.mlir.global internal constant @__bsgp_kernel_table()
// CHECK:         %[[PLAIN:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:         llvm.insertvalue %[[PLAIN]], %{{.*}}[4]
// CHECK:         %[[GROUP:.*]] = llvm.mlir.constant(256 : i32) : i32
// CHECK:         llvm.insertvalue %[[GROUP]], %{{.*}}[4]
// CHECK:         %[[FOLDED:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK:         llvm.insertvalue %[[FOLDED]], %{{.*}}[4]
bsgp.kernel @plain(%p: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}
// Its group ops were under `if (target.cuda)`, folded away for the CPU.
bsgp.kernel @grouped(%p: !bsgp.ptr<i32>) attributes {bsgp.group_size = 256 : i32} {
  %r = bsgp.thread_rank : i32
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}
// An object without CUDA code: no launch on CUDA to size.
bsgp.kernel @folded(%p: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  bsgp.group_barrier
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}
func.func @host(%n: i32, %p: !bsgp.ptr<i32>) {
  bsgp.launch @plain(%n) args(%p : !bsgp.ptr<i32>)
  bsgp.launch @grouped(%n) args(%p : !bsgp.ptr<i32>)
  bsgp.launch @folded(%n) args(%p : !bsgp.ptr<i32>)
  return
}
