// RUN: bsgp-opt %s | FileCheck %s
// RUN: bsgp-opt %s | bsgp-opt | FileCheck %s
// RUN: bsgp-opt %s --bsgp-convert-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// The count of dnew and dtempnew is i32 or i64 (the frontend emits i64, so
// that lists of 2^31 elements or more can be allocated). Its type follows
// the pointer's when it is i64; an i32 count prints as before. Lowered, the
// count is sign-extended to i64 and passed to the runtime with the element
// size, which checks both (docs/runtime.md).

// CHECK-LABEL: func.func @counts
// LLVM-LABEL: llvm.func @counts
func.func @counts(%a: i32, %b: i64) {
  // CHECK: bsgp.dnew %{{.*}} : !bsgp.ptr<f32>{{$}}
  // LLVM: %[[A:.*]] = llvm.sext %{{.*}} : i32 to i64
  // LLVM: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
  // LLVM: llvm.call @bsgprt_dnew_elements(%[[A]], %[[FOUR]], %{{.*}}) : (i64, i64, !llvm.ptr) -> !llvm.ptr
  %p = bsgp.dnew %a : !bsgp.ptr<f32>
  // CHECK: bsgp.dnew %{{.*}} : !bsgp.ptr<vector<3xf32>>, i64
  // LLVM: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i64) : i64
  // LLVM: llvm.call @bsgprt_dnew_elements(%{{.*}}, %[[SIXTEEN]], %{{.*}}) : (i64, i64, !llvm.ptr) -> !llvm.ptr
  %q = bsgp.dnew %b : !bsgp.ptr<vector<3xf32>>, i64
  // CHECK: bsgp.dtempnew %{{.*}} : !bsgp.ptr<i64>, i64
  // LLVM: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
  // LLVM: llvm.call @bsgprt_temp_alloc_elements(%{{.*}}, %[[EIGHT]], %{{.*}}) : (i64, i64, !llvm.ptr) -> !llvm.ptr
  %t = bsgp.dtempnew %b : !bsgp.ptr<i64>, i64
  return
}
