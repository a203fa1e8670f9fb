// RUN: bsgp-opt %s --bsgp-convert-to-spirv | FileCheck %s

// A loop whose header block holds another loop (a do loop whose body
// starts with a for loop): the header is split before the inner loop, so
// that MLIR's serializer names the split block, not the header, as the
// predecessor in the inner loop's OpPhi (it named the header, and the
// module failed validation).

// CHECK-LABEL: spirv.func @nested
// CHECK:       spirv.mlir.loop {
// CHECK-NEXT:    spirv.Branch ^[[OUTER:bb[0-9]+]](
// CHECK-NEXT:  ^[[OUTER]](%{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT:    spirv.IAdd
// CHECK-NOT:     spirv.mlir
// CHECK:         spirv.Branch ^[[REST:bb[0-9]+]]{{$}}
// CHECK-NEXT:  ^[[REST]]:
// CHECK-NEXT:    spirv.mlir.loop {
// CHECK-NEXT:      spirv.Branch ^[[INNER:bb[0-9]+]](
// CHECK-NEXT:    ^[[INNER]](%{{.*}}: i32, %{{.*}}: i32):
// CHECK:         spirv.mlir.merge
// CHECK-NEXT:  }
// CHECK:       spirv.SLessThan
// CHECK:       spirv.BranchConditional

// A header without a nested loop or selection stays one block.
// CHECK-LABEL: spirv.func @flat
// CHECK:       spirv.mlir.loop {
// CHECK-NEXT:    spirv.Branch ^[[H:bb[0-9]+]](
// CHECK-NEXT:  ^[[H]](%{{.*}}: i32):
// CHECK-NEXT:    spirv.IAdd
// CHECK-NEXT:    spirv.SLessThan
// CHECK-NOT:     ^bb
// CHECK:         spirv.BranchConditional

module {
  module @bsgp_spirv attributes {bsgp.target = "spirv", spirv.target_env = #spirv.target_env<#spirv.vce<v1.6, [Shader, Int64, PhysicalStorageBufferAddresses], []>, api=Vulkan, #spirv.resource_limits<>>} {
    func.func @nested(%n: i32) -> i32 attributes {bsgp.device} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %r:2 = scf.while (%k = %c0, %s = %c0) : (i32, i32) -> (i32, i32) {
        %k1 = arith.addi %k, %c1 : i32
        %in:2 = scf.while (%i = %c0, %acc = %s) : (i32, i32) -> (i32, i32) {
          %lt = arith.cmpi slt, %i, %k1 : i32
          scf.condition(%lt) %i, %acc : i32, i32
        } do {
        ^bb0(%i2: i32, %acc2: i32):
          %a = arith.addi %acc2, %i2 : i32
          %i3 = arith.addi %i2, %c1 : i32
          scf.yield %i3, %a : i32, i32
        }
        %more = arith.cmpi slt, %k1, %n : i32
        scf.condition(%more) %k1, %in#1 : i32, i32
      } do {
      ^bb0(%k2: i32, %s2: i32):
        scf.yield %k2, %s2 : i32, i32
      }
      return %r#1 : i32
    }
    func.func @flat(%n: i32) -> i32 attributes {bsgp.device} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %r = scf.while (%k = %c0) : (i32) -> i32 {
        %k1 = arith.addi %k, %c1 : i32
        %more = arith.cmpi slt, %k1, %n : i32
        scf.condition(%more) %k1 : i32
      } do {
      ^bb0(%k2: i32):
        scf.yield %k2 : i32
      }
      return %r : i32
    }
  }
}
