// RUN: bsgp-opt %s | bsgp-opt | FileCheck %s
// RUN: bsgp-opt %s --mlir-print-op-generic | bsgp-opt | FileCheck %s

// CHECK-LABEL: bsgp.kernel @k(
// CHECK:         bsgp.group_local 128 : {{(!bsgp.ptr)?}}<f32>
// CHECK:         bsgp.group_rank : i32
// CHECK:         bsgp.group_size : i32
// CHECK:         bsgp.group_id : i32
// CHECK:         bsgp.group_count : i32
// CHECK:         bsgp.subgroup_rank : i32
// CHECK:         bsgp.subgroup_size : i32
// CHECK:         bsgp.group_barrier
// CHECK:         bsgp.subgroup_shuffle "down" %{{.*}}, %{{.*}} : f32
// CHECK:         bsgp.subgroup_shuffle "idx" %{{.*}}, %{{.*}} : i64
// CHECK:         bsgp.subgroup_vote "all" %{{.*}} : i1
// CHECK:         bsgp.subgroup_vote "ballot" %{{.*}} : i64
// CHECK:         bsgp.subgroup_reduce "maxu" %{{.*}} : i32
// CHECK:         bsgp.subgroup_match %{{.*}} : i32
// CHECK:         bsgp.subgroup_match %{{.*}} : i64
bsgp.kernel @k(%x: f32, %y: i64, %c: i1) {
  %buf = bsgp.group_local 128 : !bsgp.ptr<f32>
  %0 = bsgp.group_rank : i32
  %1 = bsgp.group_size : i32
  %2 = bsgp.group_id : i32
  %3 = bsgp.group_count : i32
  %4 = bsgp.subgroup_rank : i32
  %5 = bsgp.subgroup_size : i32
  bsgp.group_barrier
  %6 = bsgp.subgroup_shuffle "down" %x, %0 : f32
  %7 = bsgp.subgroup_shuffle "idx" %y, %4 : i64
  %8 = bsgp.subgroup_vote "all" %c : i1
  %9 = bsgp.subgroup_vote "ballot" %c : i64
  %10 = bsgp.subgroup_reduce "maxu" %0 : i32
  %11 = bsgp.subgroup_match %0 : i32
  %12 = bsgp.subgroup_match %y : i64
  bsgp.return
}

// The look-back of the single-pass collectives, and bsgp-single-pass's
// question, round-trip.
// CHECK-LABEL: bsgp.kernel @lookback(
// CHECK:         bsgp.group_lookback %{{.*}}, %{{.*}} min_blocks 6 : !bsgp.ptr<i64>
// CHECK:         bsgp.single_pass : i1
bsgp.kernel @lookback(%v: i32, %st: !bsgp.ptr<i64>) {
  %0 = bsgp.group_lookback %v, %st min_blocks 6 : !bsgp.ptr<i64>
  %1 = bsgp.single_pass : i1
  bsgp.return
}
