// RUN: bsgp-opt %s | bsgp-opt | FileCheck %s
// RUN: bsgp-opt %s --mlir-print-op-generic | bsgp-opt | FileCheck %s
//
// Round trip of !bsgp.ptr over every kind of element C memory can hold, and
// of !bsgp.stream.

// CHECK-LABEL: func.func private @scalars
// CHECK-SAME: (!bsgp.ptr<i1>, !bsgp.ptr<i8>, !bsgp.ptr<i16>, !bsgp.ptr<i32>, !bsgp.ptr<i64>)
func.func private @scalars(!bsgp.ptr<i1>, !bsgp.ptr<i8>, !bsgp.ptr<i16>,
                           !bsgp.ptr<i32>, !bsgp.ptr<i64>)

// CHECK-LABEL: func.func private @floats
// CHECK-SAME: (!bsgp.ptr<f16>, !bsgp.ptr<f32>, !bsgp.ptr<f64>)
func.func private @floats(!bsgp.ptr<f16>, !bsgp.ptr<f32>, !bsgp.ptr<f64>)

// CHECK-LABEL: func.func private @vectors
// CHECK-SAME: (!bsgp.ptr<vector<4xf32>>, !bsgp.ptr<vector<2xi64>>)
func.func private @vectors(!bsgp.ptr<vector<4xf32>>, !bsgp.ptr<vector<2xi64>>)

// Pointers to pointers, as in `int **`.
// CHECK-LABEL: func.func private @nested
// CHECK-SAME: (!bsgp.ptr<!bsgp.ptr<i32>>, !bsgp.ptr<!bsgp.ptr<!bsgp.ptr<f32>>>)
func.func private @nested(!bsgp.ptr<!bsgp.ptr<i32>>,
                          !bsgp.ptr<!bsgp.ptr<!bsgp.ptr<f32>>>)

// A struct in memory is its bytes (MLIRGen's layout of `struct P *`).
// CHECK-LABEL: func.func private @structs
// CHECK-SAME: (!bsgp.ptr<!llvm.array<8 x i8>>, !bsgp.ptr<!llvm.array<1 x i8>>)
func.func private @structs(!bsgp.ptr<!llvm.array<8 x i8>>,
                           !bsgp.ptr<!llvm.array<1 x i8>>)

// CHECK-LABEL: func.func private @streams
// CHECK-SAME: (!bsgp.stream, !bsgp.stream) -> !bsgp.stream
func.func private @streams(!bsgp.stream, !bsgp.stream) -> !bsgp.stream

// Values of every stream width save and load with the right stream counts:
// 1 word for i1/i8/i16/i32/f16/f32, 2 for i64/f64/pointers, n*w for vectors.
// CHECK-LABEL: bsgp.kernel @widths
bsgp.kernel @widths(%s0: !bsgp.stream, %s1: !bsgp.stream, %s2: !bsgp.stream,
                    %s3: !bsgp.stream, %i: i32) {
  // CHECK: bsgp.load (%{{.*}})[%{{.*}}] : i1
  %a = bsgp.load (%s0)[%i] : i1
  // CHECK-NEXT: bsgp.load (%{{.*}})[%{{.*}}] : i8
  %b = bsgp.load (%s0)[%i] : i8
  // CHECK-NEXT: bsgp.load (%{{.*}})[%{{.*}}] : i16
  %c = bsgp.load (%s0)[%i] : i16
  // CHECK-NEXT: bsgp.load (%{{.*}})[%{{.*}}] : f16
  %d = bsgp.load (%s0)[%i] : f16
  // CHECK-NEXT: bsgp.load (%{{.*}}, %{{.*}})[%{{.*}}] : f64
  %e = bsgp.load (%s0, %s1)[%i] : f64
  // CHECK-NEXT: bsgp.load (%{{.*}}, %{{.*}})[%{{.*}}] : !bsgp.ptr<i32>
  %f = bsgp.load (%s0, %s1)[%i] : !bsgp.ptr<i32>
  // CHECK-NEXT: bsgp.load (%{{.*}}, %{{.*}}, %{{.*}})[%{{.*}}] : vector<3xf32>
  %g = bsgp.load (%s0, %s1, %s2)[%i] : vector<3xf32>
  // CHECK-NEXT: bsgp.load (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})[%{{.*}}] : vector<4xi8>
  %h = bsgp.load (%s0, %s1, %s2, %s3)[%i] : vector<4xi8>
  // CHECK-NEXT: bsgp.save %{{.*}} to (%{{.*}}, %{{.*}})[%{{.*}}] : !bsgp.ptr<i32>
  bsgp.save %f to (%s2, %s3)[%i] : !bsgp.ptr<i32>
  bsgp.return
}
