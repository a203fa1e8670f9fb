// RUN: bsgp-opt %s --bsgp-serialize-ptx | FileCheck %s
// RUN: bsgp-opt %s --bsgp-serialize-ptx="chip=sm_80" | FileCheck %s --check-prefix=SM80

// The CUDA device module (as bsgp-convert-to-nvvm leaves it) is translated
// to LLVM IR, linked with libdevice for its __nv_sinf, and compiled by
// LLVM's NVPTX back end for the chip. The PTX goes to the host module's
// bsgp.ptx attribute; the device module goes away and the kernel stays for
// bsgp-lower-launches.

// CHECK: module attributes {bsgp.ptx = "{{.*}}.target sm_90{{.*}}.entry k(
// CHECK-NOT: __nv_sinf
// CHECK-NOT: module @bsgp_cuda
// CHECK: bsgp.kernel @k(
// SM80: .target sm_80

module {
  bsgp.kernel @k(%arg0: !bsgp.ptr<f32>) {
    %0 = bsgp.thread_rank : i32
    %1 = bsgp.ptr.load %arg0[%0] : !bsgp.ptr<f32>, i32
    bsgp.return
  }
  module @bsgp_cuda attributes {bsgp.target = "cuda"} {
    llvm.func @__nv_sinf(f32) -> f32
    llvm.func @k(%arg0: !llvm.ptr, %arg1: i64) attributes {nvvm.kernel} {
      %0 = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
      %1 = nvvm.read.ptx.sreg.tid.x : i32
      %2 = llvm.zext %1 : i32 to i64
      %3 = llvm.icmp "ult" %2, %arg1 : i64
      llvm.cond_br %3, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %4 = llvm.sext %1 : i32 to i64
      %5 = llvm.getelementptr %0[%4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %6 = llvm.load %5 : !llvm.ptr -> f32
      %7 = llvm.intr.sqrt(%6) : (f32) -> f32
      %8 = llvm.call @__nv_sinf(%7) : (f32) -> f32
      %9 = llvm.sext %1 : i32 to i64
      %10 = llvm.getelementptr %0[%9] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %8, %10 : f32, !llvm.ptr
      %11 = llvm.mlir.constant(1 : i32) : i32
      %12 = llvm.atomicrmw add %0, %11 syncscope("device") monotonic : !llvm.ptr, i32
      llvm.br ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      llvm.return
    }
  }
}

