// RUN: bsgp-opt %s --bsgp-lower-local-arrays-spirv | FileCheck %s

// In the SPIR-V device module, a private array (MLIRGen's llvm.alloca cast
// to a !bsgp.ptr) becomes a Function variable and a `local` array a
// Workgroup variable of the module; the accesses through them index the
// variable with an access chain, since SPIR-V's variables have no address
// to compute with. The array's pointer is its byte offset (null at its
// start), so pointer arithmetic stays integer code.

module {
  // CHECK-LABEL: module @bsgp_spirv
  module @bsgp_spirv attributes {bsgp.target = "spirv"} {
    // CHECK: spirv.GlobalVariable @bsgp_local_k_0 : !spirv.ptr<!spirv.array<64 x i32>, Workgroup>
    // CHECK-LABEL: func.func @k(
    func.func @k(%p: !bsgp.ptr<i32>, %i: i32) attributes {bsgp.device} {
      // CHECK: %[[SHARED:.*]] = spirv.mlir.addressof @bsgp_local_k_0 : !spirv.ptr<!spirv.array<64 x i32>, Workgroup>
      // CHECK: %[[PRIV:.*]] = spirv.Variable : !spirv.ptr<!spirv.array<4 x i32>, Function>
      // CHECK-NOT: llvm.alloca
      %c4 = arith.constant 4 : i64
      %slot = llvm.alloca %c4 x i32 : (i64) -> !llvm.ptr
      %arr = builtin.unrealized_conversion_cast %slot : !llvm.ptr to !bsgp.ptr<i32>
      // CHECK: %[[E:.*]] = spirv.AccessChain %[[PRIV]][%{{.*}}] : !spirv.ptr<!spirv.array<4 x i32>, Function>
      // CHECK: spirv.Store "Function" %[[E]], %arg1 : i32
      bsgp.ptr.store %i, %arr[%i] : !bsgp.ptr<i32>, i32
      // CHECK: %[[E2:.*]] = spirv.AccessChain %[[PRIV]][%{{.*}}]
      // CHECK: %[[V:.*]] = spirv.Load "Function" %[[E2]] : i32
      %v = bsgp.ptr.load %arr[%i] : !bsgp.ptr<i32>, i32
      // CHECK: %[[E3:.*]] = spirv.AccessChain %[[SHARED]][%{{.*}}]
      // CHECK: spirv.Store "Workgroup" %[[E3]], %[[V]] : i32
      %l = bsgp.group_local 64 : !bsgp.ptr<i32>
      bsgp.ptr.store %v, %l[%i] : !bsgp.ptr<i32>, i32
      // Device memory stays as it is for bsgp-convert-to-spirv.
      // CHECK: bsgp.ptr.store %[[V]], %arg0[%arg1]
      bsgp.ptr.store %v, %p[%i] : !bsgp.ptr<i32>, i32
      return
    }
  }
}
