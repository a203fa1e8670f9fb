// RUN: bsgp-opt %s --bsgp-legalize-for-spirv | FileCheck %s

// In the SPIR-V device module: an atomic load becomes a coherent load
// (the SPIR-V dialect has no OpAtomicLoad; it is lowered to a Coherent,
// Volatile OpLoad), a float atomic add a
// compare-exchange loop on the bits (where the subgroup's active lanes all
// add to one address, one loop of the first lane adding their sum, each
// lane getting the old value plus the values of the lanes before it), and
// an f32 division one in double precision, rounded once (Vulkan's OpFDiv
// may be off by 2.5 ULP). Host code is left alone.

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
    // CHECK: %[[OLD:.*]] = bsgp.ptr.load %arg0[%[[ZERO]]] {coherent} : !bsgp.ptr<i32>, i32
    %old = bsgp.atomic_load %p : !bsgp.ptr<i32>
    bsgp.ptr.store %old, %p[%old] : !bsgp.ptr<i32>, i32
    // CHECK: %[[NULL:.*]] = bsgp.ptr.null : !bsgp.ptr<f32>
    // CHECK: %[[ADDR:.*]] = bsgp.ptr.diff %arg1, %[[NULL]]
    // CHECK: %[[ONE:.*]] = spirv.GroupNonUniformAllEqual <Subgroup> %[[ADDR]] : i64, i1
    // CHECK: %[[SEEN:.*]] = scf.if %[[ONE]] -> (f32) {
    // CHECK: %[[TOTAL:.*]] = spirv.GroupNonUniformFAdd <Subgroup> <Reduce> %arg2 : f32 -> f32
    // CHECK: %[[EARLIER:.*]] = spirv.GroupNonUniformFAdd <Subgroup> <ExclusiveScan> %arg2 : f32 -> f32
    // CHECK: %[[LEADER:.*]] = spirv.GroupNonUniformElect <Subgroup> : i1
    // CHECK: %[[LEAD:.*]] = scf.if %[[LEADER]] -> (f32) {
    // CHECK: %[[INIT:.*]] = bsgp.ptr.load %arg1[%{{.*}}] : !bsgp.ptr<f32>, i32
    // CHECK: %[[LOOP:.*]] = scf.while (%[[CUR:.*]] = %[[INIT]]) : (f32) -> f32 {
    // CHECK: %[[SUM:.*]] = arith.addf %[[CUR]], %[[TOTAL]] : f32
    // CHECK: %[[GOT:.*]] = bsgp.atomic_cas %arg1, %[[CUR]], %[[SUM]] : !bsgp.ptr<f32>
    // CHECK: %[[DIFFER:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : i32
    // CHECK: scf.condition(%[[DIFFER]]) %[[GOT]] : f32
    // CHECK: scf.yield %[[LOOP]] : f32
    // CHECK: } else {
    // CHECK: %[[BALLOT:.*]] = spirv.GroupNonUniformBallot <Subgroup> %{{.*}} : vector<4xi32>
    // CHECK: %[[FIRST:.*]] = spirv.GroupNonUniformBallotFindLSB <Subgroup> %[[BALLOT]]
    // CHECK: %[[OLD0:.*]] = spirv.GroupNonUniformShuffle <Subgroup> %[[LEAD]], %[[FIRST]] : f32, i32
    // CHECK: %[[MINE:.*]] = arith.addf %[[OLD0]], %[[EARLIER]] : f32
    // CHECK: scf.yield %[[MINE]] : f32
    // CHECK: } else {
    // A lane's own loop, where the addresses differ.
    // CHECK: scf.while
    // CHECK: arith.addf %{{.*}}, %arg2 : f32
    // CHECK: bsgp.atomic_cas %arg1
    // CHECK: }
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
