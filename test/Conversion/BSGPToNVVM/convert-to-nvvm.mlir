// RUN: bsgp-opt %s --bsgp-convert-to-nvvm | FileCheck %s

// The last conversion of the CUDA device module: the bsgp ops, arith, math
// and scf left in its kernels and device functions become LLVM and NVVM
// ops. Math with a PTX instruction stays an LLVM intrinsic (sqrt is
// sqrt.rn, not libdevice's approximation), other math calls libdevice,
// atomics are atomic at device scope, and the bsgp attributes go; the
// module keeps its mark for bsgp-serialize-ptx. The host module is not
// touched.

// CHECK-LABEL: bsgp.kernel @k(
// CHECK: bsgp.ptr.load
bsgp.kernel @k(%p: !bsgp.ptr<f32>) {
  %r = bsgp.thread_rank : i32
  %x = bsgp.ptr.load %p[%r] : !bsgp.ptr<f32>, i32
  bsgp.return
}

// CHECK-LABEL: module @bsgp_cuda attributes {bsgp.target = "cuda"}
module @bsgp_cuda attributes {bsgp.target = "cuda"} {
  // CHECK: llvm.func @__nv_sinf(f32) -> f32
  // CHECK-LABEL: llvm.func @k(
  // CHECK-SAME: attributes {nvvm.kernel}
  llvm.func @k(%args: !llvm.ptr, %size: i64) attributes {bsgp.device, nvvm.kernel} {
    %raw = llvm.load %args : !llvm.ptr -> !llvm.ptr
    %p = builtin.unrealized_conversion_cast %raw : !llvm.ptr to !bsgp.ptr<f32>
    %n = builtin.unrealized_conversion_cast %raw : !llvm.ptr to !bsgp.ptr<i32>
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %tid64 = llvm.zext %tid : i32 to i64
    %in = llvm.icmp "ult" %tid64, %size : i64
    // CHECK: llvm.cond_br
    // CHECK: %[[ADDR:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    // CHECK: %[[X:.*]] = llvm.load %[[ADDR]] : !llvm.ptr -> f32
    // CHECK: %[[ROOT:.*]] = llvm.intr.sqrt(%[[X]]) : (f32) -> f32
    // CHECK: %[[SIN:.*]] = llvm.call @__nv_sinf(%[[ROOT]]) : (f32) -> f32
    // CHECK: llvm.store %[[SIN]]
    // CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("device") monotonic : !llvm.ptr, i32
    // CHECK: llvm.return
    scf.if %in {
      %x = bsgp.ptr.load %p[%tid] : !bsgp.ptr<f32>, i32
      %root = math.sqrt %x : f32
      %s = math.sin %root : f32
      bsgp.ptr.store %s, %p[%tid] : !bsgp.ptr<f32>, i32
      %one = arith.constant 1 : i32
      %old = bsgp.atomic_rmw addi %one, %n : !bsgp.ptr<i32>
    }
    llvm.return
  }

  // The low word of a double goes through PTX's integer cvt: folded into a
  // store as `st.global.b32 [p], %rd`, the H100's driver stored the
  // double's integer part instead. The high word (a shift) stays.
  // CHECK-LABEL: llvm.func @split(
  // CHECK: %[[BITS:.*]] = llvm.bitcast %arg0 : f64 to i64
  // CHECK: %[[LO:.*]] = llvm.inline_asm "cvt.u32.u64 $0, $1;", "=r,l" %[[BITS]] : (i64) -> i32
  // CHECK: llvm.store %[[LO]]
  // CHECK: %[[HI:.*]] = llvm.trunc %{{.*}} : i64 to i32
  // CHECK: llvm.store %[[HI]]
  llvm.func @split(%x: f64, %p: !llvm.ptr) attributes {bsgp.device} {
    %bits = llvm.bitcast %x : f64 to i64
    %lo = llvm.trunc %bits : i64 to i32
    llvm.store %lo, %p : i32, !llvm.ptr
    %c32 = llvm.mlir.constant(32 : i64) : i64
    %shifted = llvm.lshr %bits, %c32 : i64
    %hi = llvm.trunc %shifted : i64 to i32
    llvm.store %hi, %p : i32, !llvm.ptr
    llvm.return
  }
}
