// RUN: bsgp-opt %s --bsgp-legalize-for-spirv | FileCheck %s

// In the SPIR-V device module, the math ops on f64 that GLSL.std.450 has
// for floats only become calls of functions of the module, one per
// function however often it is called; exp2 and atan2 of f32, which have
// no GLSL.std.450 lowering either, go through the f64 functions. f32 exp
// and f64 sqrt (both in GLSL.std.450) and host code are left alone.

// CHECK-LABEL: func.func @host(
// CHECK: math.exp %{{.*}} : f64
func.func @host(%a: f64) -> f64 {
  %e = math.exp %a : f64
  return %e : f64
}

module @bsgp_spirv attributes {bsgp.target = "spirv"} {
  // CHECK-LABEL: func.func @k(
  func.func @k(%a: f64, %b: f64, %f: f32) -> f64 attributes {bsgp.device} {
    // CHECK: %[[E1:.*]] = call @bsgp.math.exp(%arg0) : (f64) -> f64
    // CHECK: %[[E2:.*]] = call @bsgp.math.exp(%arg1) : (f64) -> f64
    // CHECK: %[[P:.*]] = call @bsgp.math.pow(%arg0, %arg1) : (f64, f64) -> f64
    // CHECK: math.sqrt %{{.*}} : f64
    // CHECK: math.exp %arg2 : f32
    // CHECK: %[[WF:.*]] = arith.extf %arg2 : f32 to f64
    // CHECK: %[[WA:.*]] = call @bsgp.math.exp2(%[[WF]]) : (f64) -> f64
    // CHECK: arith.truncf %[[WA]] : f64 to f32
    // CHECK: %[[WY:.*]] = arith.extf %arg2 : f32 to f64
    // CHECK: %[[WX:.*]] = arith.extf %{{.*}} : f32 to f64
    // CHECK: %[[WT:.*]] = call @bsgp.math.atan2(%[[WY]], %[[WX]]) : (f64, f64) -> f64
    // CHECK: arith.truncf %[[WT]] : f64 to f32
    // CHECK: call @bsgp.math.sin(%arg0) : (f64) -> f64
    // CHECK-NOT: math.
    // CHECK: return
    %e1 = math.exp %a : f64
    %e2 = math.exp %b : f64
    %p = math.powf %a, %b : f64
    %r = math.sqrt %p : f64
    %ef = math.exp %f : f32
    %x2 = math.exp2 %f : f32
    %t = math.atan2 %f, %ef : f32
    %s = math.sin %a : f64
    %s1 = arith.addf %e1, %e2 : f64
    %s2 = arith.addf %s1, %r : f64
    %s3 = arith.addf %s2, %s : f64
    %ff = arith.addf %x2, %t : f32
    %fd = arith.extf %ff : f32 to f64
    %s4 = arith.addf %s3, %fd : f64
    return %s4 : f64
  }
  // Each function once, private to the module; sin calls the digits of
  // 2/pi only on the path of large arguments.
  // CHECK: func.func private @bsgp.math.exp(%{{.*}}: f64) -> f64
  // CHECK: func.func private @bsgp.math.pow(%{{.*}}: f64, %{{.*}}: f64) -> f64
  // CHECK: func.func private @bsgp.math.exp2(%{{.*}}: f64) -> f64
  // CHECK: func.func private @bsgp.math.atan2(%{{.*}}: f64, %{{.*}}: f64) -> f64
  // CHECK: func.func private @bsgp.math.sin(%{{.*}}: f64) -> f64
  // CHECK: scf.if
  // CHECK: call @bsgp.math.2_over_pi_digit
  // CHECK: } else {
  // CHECK-NOT: call
  // CHECK: }
  // CHECK: func.func private @bsgp.math.2_over_pi_digit(%{{.*}}: i64) -> i64
  // CHECK-NOT: func.func
}
