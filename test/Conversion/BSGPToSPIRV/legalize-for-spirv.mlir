// RUN: bsgp-opt %s --bsgp-legalize-for-spirv | FileCheck %s

// In the SPIR-V device module: an atomic load becomes an atomic or of 0
// (the SPIR-V dialect has no OpAtomicLoad), a float atomic add a
// compare-exchange loop on the bits, and an f32 division one in double
// precision, rounded once (Vulkan's OpFDiv may be off by 2.5 ULP). Host
// code is left alone.

// CHECK-LABEL: func.func @host(
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
func.func @host(%a: f32, %b: f32) -> f32 {
  %q = arith.divf %a, %b : f32
  return %q : f32
}

module @bsgp_spirv attributes {bsgp.target = "spirv"} {
  // CHECK-LABEL: func.func @k(
  func.func @k(%p: !bsgp.ptr<i32>, %f: !bsgp.ptr<f32>, %a: f32, %b: f32, %v: vector<2xf32>) attributes {bsgp.device} {
    // CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
    // CHECK: %[[OLD:.*]] = bsgp.atomic_rmw ori %[[ZERO]], %arg0 : !bsgp.ptr<i32>
    %old = bsgp.atomic_load %p : !bsgp.ptr<i32>
    bsgp.ptr.store %old, %p[%old] : !bsgp.ptr<i32>, i32
    // CHECK: %[[INIT:.*]] = bsgp.ptr.load %arg1[%{{.*}}] : !bsgp.ptr<f32>, i32
    // CHECK: %[[SEEN:.*]] = scf.while (%[[CUR:.*]] = %[[INIT]]) : (f32) -> f32 {
    // CHECK: %[[SUM:.*]] = arith.addf %[[CUR]], %arg2 : f32
    // CHECK: %[[GOT:.*]] = bsgp.atomic_cas %arg1, %[[CUR]], %[[SUM]] : !bsgp.ptr<f32>
    // CHECK: %[[DIFFER:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : i32
    // CHECK: scf.condition(%[[DIFFER]]) %[[GOT]] : f32
    %added = bsgp.atomic_rmw addf %a, %f : !bsgp.ptr<f32>
    // CHECK: %[[WA:.*]] = arith.extf %arg2 : f32 to f64
    // CHECK: %[[WB:.*]] = arith.extf %arg3 : f32 to f64
    // CHECK: %[[WQ:.*]] = arith.divf %[[WA]], %[[WB]] : f64
    // CHECK: %[[Q:.*]] = arith.truncf %[[WQ]] : f64 to f32
    %q = arith.divf %a, %b : f32
    // CHECK: arith.divf %{{.*}}, %{{.*}} : vector<2xf64>
    %vq = arith.divf %v, %v : vector<2xf32>
    // CHECK: arith.addf %[[SEEN]], %[[Q]] : f32
    %s = arith.addf %added, %q : f32
    %c0 = arith.constant 0 : i32
    bsgp.ptr.store %s, %f[%c0] : !bsgp.ptr<f32>, i32
    return
  }
}
