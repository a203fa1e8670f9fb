// RUN: bsgp-opt %s | bsgp-opt | FileCheck %s
// RUN: bsgp-opt %s --mlir-print-op-generic | bsgp-opt | FileCheck %s
// RUN: bsgp-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD

// The runtime's list primitives, in host code: a host function and a
// require block.

// CHECK-LABEL: func.func @host(
// CHECK:         %{{.*}} = bsgp.list_reduce "minu" %{{.*}}, %{{.*}} : !bsgp.ptr<i32>
// CHECK:         %{{.*}} = bsgp.list_scan_exclusive "add" %{{.*}}, %{{.*}}, %{{.*}} : !bsgp.ptr<f64>
// CHECK:         bsgp.list_sort_pairs unsigned %{{.*}}, %{{.*}}, %{{.*}} : !bsgp.ptr<i64>, !bsgp.ptr<i32>
// CHECK:         bsgp.list_sort_pairs %{{.*}}, %{{.*}}, %{{.*}} : !bsgp.ptr<f32>, !bsgp.ptr<i32>
func.func @host(%p: !bsgp.ptr<i32>, %d: !bsgp.ptr<f64>, %k: !bsgp.ptr<i64>,
                %f: !bsgp.ptr<f32>, %n: i64) -> (i32, f64) {
  %0 = bsgp.list_reduce "minu" %p, %n : !bsgp.ptr<i32>
  %1 = bsgp.list_scan_exclusive "add" %d, %d, %n : !bsgp.ptr<f64>
  bsgp.list_sort_pairs unsigned %k, %p, %n : !bsgp.ptr<i64>, !bsgp.ptr<i32>
  bsgp.list_sort_pairs %f, %p, %n : !bsgp.ptr<f32>, !bsgp.ptr<i32>
  return %0, %1 : i32, f64
}

// CHECK-LABEL: func.func @in_require(
// CHECK:         bsgp.require
// CHECK:           bsgp.list_reduce "xor" %{{.*}}, %{{.*}} : !bsgp.ptr<i64>
func.func @in_require(%m: i32, %p: !bsgp.ptr<i64>, %n: i64) {
  bsgp.spawn %m {
    %0 = bsgp.require -> i64 {
      %1 = bsgp.list_reduce "xor" %p, %n : !bsgp.ptr<i64>
      bsgp.yield %1 : i64
    }
  }
  return
}

// A reduce of no element is the operator's identity; of n elements it
// stays a call.
// FOLD-LABEL: func.func @identities(
// FOLD-DAG:     %[[ADD:.*]] = arith.constant 0 : i32
// FOLD-DAG:     %[[MUL:.*]] = arith.constant 1 : i32
// FOLD-DAG:     %[[AND:.*]] = arith.constant -1 : i32
// FOLD-DAG:     %[[MINS:.*]] = arith.constant 2147483647 : i32
// FOLD-DAG:     %[[MAXS:.*]] = arith.constant -9223372036854775808 : i64
// FOLD-DAG:     %[[MINF:.*]] = arith.constant 0x7F800000 : f32
// FOLD-DAG:     %[[MAXF:.*]] = arith.constant 0xFFF0000000000000 : f64
// FOLD-DAG:     %[[ADDF:.*]] = arith.constant 0.000000e+00 : f64
// FOLD:         %[[N:.*]] = bsgp.list_reduce "add" %{{.*}}, %{{.*}} : !bsgp.ptr<i32>
// FOLD:         return %[[ADD]], %[[MUL]], %[[AND]], %[[AND]], %[[MINS]], %[[MAXS]], %[[MINF]], %[[MAXF]], %[[ADDF]], %[[N]]
func.func @identities(%p: !bsgp.ptr<i32>, %q: !bsgp.ptr<i64>,
                      %f: !bsgp.ptr<f32>, %d: !bsgp.ptr<f64>, %n: i64)
    -> (i32, i32, i32, i32, i32, i64, f32, f64, f64, i32) {
  %zero = arith.constant 0 : i64
  %0 = bsgp.list_reduce "add" %p, %zero : !bsgp.ptr<i32>
  %1 = bsgp.list_reduce "mul" %p, %zero : !bsgp.ptr<i32>
  %2 = bsgp.list_reduce "and" %p, %zero : !bsgp.ptr<i32>
  %3 = bsgp.list_reduce "minu" %p, %zero : !bsgp.ptr<i32>
  %4 = bsgp.list_reduce "mins" %p, %zero : !bsgp.ptr<i32>
  %5 = bsgp.list_reduce "maxs" %q, %zero : !bsgp.ptr<i64>
  %6 = bsgp.list_reduce "minf" %f, %zero : !bsgp.ptr<f32>
  %7 = bsgp.list_reduce "maxf" %d, %zero : !bsgp.ptr<f64>
  %8 = bsgp.list_reduce "add" %d, %zero : !bsgp.ptr<f64>
  %9 = bsgp.list_reduce "add" %p, %n : !bsgp.ptr<i32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9
      : i32, i32, i32, i32, i32, i64, f32, f64, f64, i32
}
