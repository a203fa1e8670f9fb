// RUN: bsgp-opt %s | FileCheck %s
// RUN: bsgp-opt %s | bsgp-opt | FileCheck %s
// RUN: bsgp-opt %s --mlir-print-op-generic | bsgp-opt | FileCheck %s

// Target queries and atomics round-trip in custom and generic form.

// CHECK-LABEL: func.func @ops
// CHECK:         %{{.*}} = bsgp.target_is "cpu" : i1
// CHECK:         %{{.*}} = bsgp.target_is "spirv" : i1
// CHECK:         bsgp.atomic_rmw addi %{{.*}}, %{{.*}} : !bsgp.ptr<i32>
// CHECK:         bsgp.atomic_rmw minu %{{.*}}, %{{.*}} : !bsgp.ptr<i64>
// CHECK:         bsgp.atomic_rmw addf %{{.*}}, %{{.*}} : !bsgp.ptr<f32>
// CHECK:         bsgp.atomic_rmw assign %{{.*}}, %{{.*}} : !bsgp.ptr<f32>
// CHECK:         bsgp.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} : !bsgp.ptr<i32>
// CHECK:         bsgp.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} : !bsgp.ptr<f32>
// CHECK:         bsgp.atomic_load %{{.*}} : !bsgp.ptr<i64>
// CHECK:         bsgp.fence
func.func @ops(%p: !bsgp.ptr<i32>, %q: !bsgp.ptr<i64>, %f: !bsgp.ptr<f32>,
               %v: i32, %w: i64, %x: f32) attributes {bsgp.device} {
  %c = bsgp.target_is "cpu" : i1
  %s = bsgp.target_is "spirv" : i1
  %0 = bsgp.atomic_rmw addi %v, %p : !bsgp.ptr<i32>
  %1 = bsgp.atomic_rmw minu %w, %q : !bsgp.ptr<i64>
  %2 = bsgp.atomic_rmw addf %x, %f : !bsgp.ptr<f32>
  %3 = bsgp.atomic_rmw assign %x, %f : !bsgp.ptr<f32>
  %4 = bsgp.atomic_cas %p, %v, %0 : !bsgp.ptr<i32>
  %5 = bsgp.atomic_cas %f, %x, %2 : !bsgp.ptr<f32>
  %6 = bsgp.atomic_load %q : !bsgp.ptr<i64>
  bsgp.fence
  return
}

// Host code may ask for the target too.
// CHECK-LABEL: func.func @host
// CHECK:         bsgp.target_is "cuda" : i1
func.func @host() -> i1 {
  %c = bsgp.target_is "cuda" : i1
  return %c : i1
}
