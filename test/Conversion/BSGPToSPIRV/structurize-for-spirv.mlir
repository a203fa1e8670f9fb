// RUN: bsgp-opt %s --bsgp-structurize-for-spirv | FileCheck %s

// SPIR-V needs structured control flow: a function of the SPIR-V device
// module with branches (here an early return inside an scf.execute_region)
// goes through the CFG and comes back as scf ops. A function without
// branches is left as it is. Signed 64-bit relational compares then become
// unsigned compares of the operands with their sign bits flipped, which
// lavapipe evaluates right.

module {
  module @bsgp_spirv attributes {bsgp.target = "spirv"} {
    // CHECK-LABEL: func.func @early(
    // CHECK-NOT: cf.cond_br
    // CHECK-NOT: scf.execute_region
    // CHECK: scf.if
    // CHECK: bsgp.ptr.store
    // CHECK: return
    func.func @early(%p: !bsgp.ptr<i32>, %c: i1, %r: i32) attributes {bsgp.device} {
      scf.execute_region {
        cf.cond_br %c, ^done, ^work
      ^work:
        bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
        cf.br ^done
      ^done:
        scf.yield
      }
      return
    }

    // CHECK-LABEL: func.func @compare(
    // CHECK: %[[SIGN:.*]] = arith.constant -9223372036854775808 : i64
    // CHECK: %[[A:.*]] = arith.xori %arg0, %[[SIGN]] : i64
    // CHECK: %[[B:.*]] = arith.xori %arg1, %[[SIGN]] : i64
    // CHECK: %[[LT:.*]] = arith.cmpi ult, %[[A]], %[[B]] : i64
    // CHECK: %[[NARROW:.*]] = arith.cmpi slt, %arg2, %arg2 : i32
    // CHECK: arith.andi %[[LT]], %[[NARROW]] : i1
    func.func @compare(%a: i64, %b: i64, %x: i32) -> i1 attributes {bsgp.device} {
      %lt = arith.cmpi slt, %a, %b : i64
      %n = arith.cmpi slt, %x, %x : i32
      %both = arith.andi %lt, %n : i1
      return %both : i1
    }
  }
}
