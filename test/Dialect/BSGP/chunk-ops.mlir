// RUN: bsgp-opt %s | bsgp-opt | FileCheck %s
// RUN: bsgp-opt %s --mlir-print-op-generic | bsgp-opt | FileCheck %s

// The accumulations over a CPU chunk, in every place the verifier accepts:
// a kernel's entry block, a spawn body, a collective function, and under a
// branch on a target query.

// CHECK-LABEL: bsgp.kernel @k(
// CHECK:         bsgp.chunk_reduce "add" %{{.*}}, %{{.*}} : !bsgp.ptr<i32>
// CHECK:         %{{.*}} = bsgp.chunk_scan "minu" %{{.*}}, %{{.*}} : !bsgp.ptr<i32>
// CHECK:         bsgp.chunk_reduce "maxf" %{{.*}}, %{{.*}} : !bsgp.ptr<f64>
// CHECK:         %{{.*}} = bsgp.chunk_scan "xor" %{{.*}}, %{{.*}} : !bsgp.ptr<i64>
bsgp.kernel @k(%x: i32, %p: !bsgp.ptr<i32>, %d: f64, %q: !bsgp.ptr<f64>,
               %y: i64, %r: !bsgp.ptr<i64>) {
  bsgp.chunk_reduce "add" %x, %p : !bsgp.ptr<i32>
  %0 = bsgp.chunk_scan "minu" %x, %p : !bsgp.ptr<i32>
  bsgp.chunk_reduce "maxf" %d, %q : !bsgp.ptr<f64>
  %1 = bsgp.chunk_scan "xor" %y, %r : !bsgp.ptr<i64>
  bsgp.return
}

// CHECK-LABEL: func.func @spawn(
// CHECK:         bsgp.spawn
// CHECK:           bsgp.chunk_reduce "mul" %{{.*}}, %{{.*}} : !bsgp.ptr<f32>
// CHECK:           scf.if
// CHECK:             bsgp.chunk_scan "mins"
func.func @spawn(%n: i32, %f: f32, %p: !bsgp.ptr<f32>, %q: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    bsgp.chunk_reduce "mul" %f, %p : !bsgp.ptr<f32>
    %cpu = bsgp.target_is "cpu" : i1
    scf.if %cpu {
      %r = bsgp.thread_rank : i32
      %0 = bsgp.chunk_scan "mins" %r, %q : !bsgp.ptr<i32>
    }
  }
  return
}

// CHECK-LABEL: func.func @collective(
// CHECK:         bsgp.chunk_scan "maxs"
func.func @collective(%x: i32, %p: !bsgp.ptr<i32>) -> i32
    attributes {bsgp.collective} {
  %0 = bsgp.chunk_scan "maxs" %x, %p : !bsgp.ptr<i32>
  return %0 : i32
}
