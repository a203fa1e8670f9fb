// RUN: bsgp-opt %s --bsgp-lower-local-arrays-spirv | FileCheck %s

// A slot of structs (MLIRGen's llvm.alloca of an array of bytes: a struct
// variable in memory, a private array of structs) becomes a Function
// variable of 32-bit words, since a SPIR-V variable has one element type
// and the struct's fields are read and written as their own types at
// their byte offsets: a 32-bit value is one word (bitcast for a float), a
// 64-bit one two words, low first, and a byte its lane of a word, stored
// by keeping the word's other three bytes.

module {
  module @bsgp_spirv attributes {bsgp.target = "spirv"} {
    // CHECK-LABEL: func.func @k(
    func.func @k(%i: i32, %c: i8, %d: f64) -> (f32, f64) attributes {bsgp.device} {
      // Two structs of 16 bytes: 8 words.
      // CHECK: %[[VAR:.*]] = spirv.Variable : !spirv.ptr<!spirv.array<8 x i32>, Function>
      // CHECK-NOT: llvm.alloca
      %c2 = arith.constant 2 : i64
      %slot = llvm.alloca %c2 x !llvm.array<16 x i8> : (i64) -> !llvm.ptr
      %s = builtin.unrealized_conversion_cast %slot : !llvm.ptr to !bsgp.ptr<!llvm.array<16 x i8>>
      %c1 = arith.constant 1 : i64
      %s1 = bsgp.ptr.offset %s[%c1] : !bsgp.ptr<!llvm.array<16 x i8>>, i64
      %bytes = bsgp.ptr.cast %s1 : !bsgp.ptr<!llvm.array<16 x i8>> to !bsgp.ptr<i8>

      // A byte at a dynamic index: read, mask out its lane, or it in.
      // CHECK: %[[W:.*]] = spirv.AccessChain %[[VAR]][%{{.*}}] : !spirv.ptr<!spirv.array<8 x i32>, Function>
      // CHECK: %[[OLD:.*]] = spirv.Load "Function" %[[W]] : i32
      // CHECK: %[[KEEP:.*]] = arith.andi %[[OLD]], %{{.*}} : i32
      // CHECK: %[[NEW:.*]] = arith.ori %[[KEEP]], %{{.*}} : i32
      // CHECK: spirv.Store "Function" %{{.*}}, %[[NEW]] : i32
      bsgp.ptr.store %c, %bytes[%i] : !bsgp.ptr<i8>, i32

      // A double at byte 8: two words.
      // CHECK: %[[BITS:.*]] = arith.bitcast %arg2 : f64 to i64
      // CHECK: %[[LO:.*]] = arith.trunci %[[BITS]] : i64 to i32
      // CHECK: spirv.Store "Function" %{{.*}}, %[[LO]] : i32
      // CHECK: %[[HI:.*]] = arith.shrui %[[BITS]], %{{.*}} : i64
      // CHECK: %[[HI32:.*]] = arith.trunci %[[HI]] : i64 to i32
      // CHECK: spirv.Store "Function" %{{.*}}, %[[HI32]] : i32
      %c8 = arith.constant 8 : i64
      %at8 = bsgp.ptr.offset %bytes[%c8] : !bsgp.ptr<i8>, i64
      %dp = bsgp.ptr.cast %at8 : !bsgp.ptr<i8> to !bsgp.ptr<f64>
      %c0 = arith.constant 0 : i32
      bsgp.ptr.store %d, %dp[%c0] : !bsgp.ptr<f64>, i32
      // CHECK: spirv.Load "Function" %{{.*}} : i32
      // CHECK: spirv.Load "Function" %{{.*}} : i32
      // CHECK: %[[D:.*]] = arith.bitcast %{{.*}} : i64 to f64
      %dv = bsgp.ptr.load %dp[%c0] : !bsgp.ptr<f64>, i32

      // A float at byte 4: one word, bitcast.
      // CHECK: %[[FW:.*]] = spirv.Load "Function" %{{.*}} : i32
      // CHECK: %[[F:.*]] = arith.bitcast %[[FW]] : i32 to f32
      %c4 = arith.constant 4 : i64
      %at4 = bsgp.ptr.offset %bytes[%c4] : !bsgp.ptr<i8>, i64
      %fp = bsgp.ptr.cast %at4 : !bsgp.ptr<i8> to !bsgp.ptr<f32>
      %fv = bsgp.ptr.load %fp[%c0] : !bsgp.ptr<f32>, i32
      // CHECK-NOT: bsgp.ptr.load
      // CHECK-NOT: bsgp.ptr.store
      // CHECK: return %[[F]], %[[D]]
      return %fv, %dv : f32, f64
    }
  }
}
