// RUN: bsgp-opt %s --bsgp-legalize-for-spirv | FileCheck %s

// In the SPIR-V device module, a 64-bit division or remainder by a value
// that is not a constant becomes a call of the module's bsgp.int.udiv64
// (NVIDIA's Vulkan driver divided one lane by another lane's divisor,
// WideDivision.h): unsigned directly, signed on the magnitudes with C's
// signs, a remainder as a - q * d. Constant divisors, 32-bit integers and
// host code keep their ops.

// CHECK-LABEL: func.func @host(
// CHECK: arith.divui %arg0, %arg1 : i64
func.func @host(%a: i64, %b: i64) -> i64 {
  %q = arith.divui %a, %b : i64
  return %q : i64
}

module @bsgp_spirv attributes {bsgp.target = "spirv"} {
  // CHECK-LABEL: func.func @k(
  // CHECK-SAME: %[[A:[^:]*]]: i64, %[[D:[^:]*]]: i64, %[[X:[^:]*]]: i32, %[[Y:[^:]*]]: i32
  func.func @k(%a: i64, %d: i64, %x: i32, %y: i32, %p: !bsgp.ptr<i64>) attributes {bsgp.device} {
    // CHECK: %[[UQ:.*]] = call @bsgp.int.udiv64(%[[A]], %[[D]]) : (i64, i64) -> i64
    %uq = arith.divui %a, %d : i64
    // CHECK: %[[Q2:.*]] = call @bsgp.int.udiv64(%[[A]], %[[D]]) : (i64, i64) -> i64
    // CHECK: %[[P2:.*]] = arith.muli %[[Q2]], %[[D]] : i64
    // CHECK: %[[UR:.*]] = arith.subi %[[A]], %[[P2]] : i64
    %ur = arith.remui %a, %d : i64
    // CHECK: %[[ANEG:.*]] = arith.cmpi slt, %[[A]], %[[Z:.*]] : i64
    // CHECK: %[[AMINUS:.*]] = arith.subi %[[Z]], %[[A]] : i64
    // CHECK: %[[AMAG:.*]] = arith.select %[[ANEG]], %[[AMINUS]], %[[A]] : i64
    // CHECK: %[[DNEG:.*]] = arith.cmpi slt, %[[D]], %[[Z]] : i64
    // CHECK: %[[DMINUS:.*]] = arith.subi %[[Z]], %[[D]] : i64
    // CHECK: %[[DMAG:.*]] = arith.select %[[DNEG]], %[[DMINUS]], %[[D]] : i64
    // CHECK: %[[MQ:.*]] = call @bsgp.int.udiv64(%[[AMAG]], %[[DMAG]]) : (i64, i64) -> i64
    // CHECK: %[[SIGN:.*]] = arith.xori %[[ANEG]], %[[DNEG]] : i1
    // CHECK: %[[NQ:.*]] = arith.subi %{{.*}}, %[[MQ]] : i64
    // CHECK: %[[SQ:.*]] = arith.select %[[SIGN]], %[[NQ]], %[[MQ]] : i64
    %sq = arith.divsi %a, %d : i64
    // The remainder takes the dividend's sign only.
    // CHECK: %[[RQ:.*]] = call @bsgp.int.udiv64(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
    // CHECK: %[[RP:.*]] = arith.muli %[[RQ]], %{{.*}} : i64
    // CHECK: %[[RM:.*]] = arith.subi %{{.*}}, %[[RP]] : i64
    // CHECK: %[[RN:.*]] = arith.subi %{{.*}}, %[[RM]] : i64
    // CHECK: %[[SR:.*]] = arith.select %{{.*}}, %[[RN]], %[[RM]] : i64
    %sr = arith.remsi %a, %d : i64
    // CHECK: %[[CQ:.*]] = arith.divui %[[A]], %{{.*}} : i64
    %c3 = arith.constant 3 : i64
    %cq = arith.divui %a, %c3 : i64
    // CHECK: %[[NARROW:.*]] = arith.divsi %[[X]], %[[Y]] : i32
    %nq = arith.divsi %x, %y : i32
    %w = arith.extsi %nq : i32 to i64
    %c0 = arith.constant 0 : i32
    %s1 = arith.addi %uq, %ur : i64
    %s2 = arith.addi %sq, %sr : i64
    %s3 = arith.addi %cq, %w : i64
    %s4 = arith.addi %s1, %s2 : i64
    %s5 = arith.addi %s4, %s3 : i64
    bsgp.ptr.store %s5, %p[%c0] : !bsgp.ptr<i64>, i32
    return
  }
  // The function, created once: one 32-bit division when both operands
  // fit, else one step a quotient bit from the divisor shifted up to the
  // dividend's top bit.
  // CHECK-LABEL: func.func private @bsgp.int.udiv64(
  // CHECK-SAME: %[[FA:[^:]*]]: i64, %[[FD:[^:]*]]: i64) -> i64
  // CHECK: %[[OR:.*]] = arith.ori %[[FA]], %[[FD]] : i64
  // CHECK: %[[HI:.*]] = arith.shrui %[[OR]], %{{.*}} : i64
  // CHECK: %[[FITS:.*]] = arith.cmpi eq, %[[HI]], %{{.*}} : i64
  // CHECK: %[[R:.*]] = scf.if %[[FITS]] -> (i64) {
  // CHECK: %[[A32:.*]] = arith.trunci %[[FA]] : i64 to i32
  // CHECK: %[[D32:.*]] = arith.trunci %[[FD]] : i64 to i32
  // CHECK: %[[Q32:.*]] = arith.divui %[[A32]], %[[D32]] : i32
  // CHECK: %[[Q64:.*]] = arith.extui %[[Q32]] : i32 to i64
  // CHECK: scf.yield %[[Q64]] : i64
  // CHECK: } else {
  // CHECK-COUNT-2: math.ctlz
  // CHECK: %[[FIRST:.*]] = arith.shli %[[FD]], %{{.*}} : i64
  // A while loop: MLIR's SPIR-V lowering of scf.for leaves the results of a
  // loop that makes no step undefined.
  // CHECK: %[[LOOP:.*]]:4 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %[[FA]], %{{.*}} = %[[FIRST]]) : (i32, i64, i64, i64) -> (i32, i64, i64, i64) {
  // CHECK: scf.condition
  // CHECK: } do {
  // CHECK: ^bb0(%[[I:.*]]: i32, %[[Q:.*]]: i64, %[[REM:.*]]: i64, %[[S:.*]]: i64):
  // CHECK: %[[GE:.*]] = arith.cmpi uge, %[[REM]], %[[S]] : i64
  // CHECK: %[[SUB:.*]] = arith.subi %[[REM]], %[[S]] : i64
  // CHECK: %[[REST:.*]] = arith.select %[[GE]], %[[SUB]], %[[REM]] : i64
  // CHECK: %[[SHQ:.*]] = arith.shli %[[Q]], %{{.*}} : i64
  // CHECK: %[[BIT:.*]] = arith.extui %[[GE]] : i1 to i64
  // CHECK: %[[NEXT:.*]] = arith.ori %[[SHQ]], %[[BIT]] : i64
  // CHECK: %[[INC:.*]] = arith.addi %[[I]], %{{.*}} : i32
  // CHECK: %[[DOWN:.*]] = arith.shrui %[[S]], %{{.*}} : i64
  // CHECK: scf.yield %[[INC]], %[[NEXT]], %[[REST]], %[[DOWN]] : i32, i64, i64, i64
  // CHECK: scf.yield %[[LOOP]]#1 : i64
  // CHECK: return %[[R]] : i64
  // CHECK-NOT: func.func private @bsgp.int.udiv64
}
