// RUN: bsgp-opt %s -split-input-file -verify-diagnostics
//
// One case per verifier error of bsgp.list_reduce, bsgp.list_scan_exclusive
// and bsgp.list_sort_pairs.

func.func @reduce_in_spawn(%m: i32, %p: !bsgp.ptr<i32>, %n: i64) {
  bsgp.spawn %m {
    // expected-error @+1 {{'bsgp.list_reduce' op must be in host code}}
    %0 = bsgp.list_reduce "add" %p, %n : !bsgp.ptr<i32>
  }
  return
}

// -----

bsgp.kernel @scan_in_kernel(%p: !bsgp.ptr<i32>, %n: i64) {
  // expected-error @+1 {{'bsgp.list_scan_exclusive' op must be in host code}}
  %0 = bsgp.list_scan_exclusive "add" %p, %p, %n : !bsgp.ptr<i32>
  bsgp.return
}

// -----

func.func @bitwise_float(%p: !bsgp.ptr<f32>, %n: i64) -> f32 {
  // expected-error @+1 {{'bsgp.list_reduce' op kind 'xor' is not defined on 'f32'; expected add, mul, minf or maxf}}
  %0 = bsgp.list_reduce "xor" %p, %n : !bsgp.ptr<f32>
  return %0 : f32
}

// -----

func.func @float_kind_on_int(%p: !bsgp.ptr<i64>, %n: i64) -> i64 {
  // expected-error @+1 {{'bsgp.list_scan_exclusive' op kind 'minf' is not defined on 'i64'; expected add, mul, mins, minu, maxs, maxu, and, or or xor}}
  %0 = bsgp.list_scan_exclusive "minf" %p, %p, %n : !bsgp.ptr<i64>
  return %0 : i64
}

// -----

func.func @unsigned_floats(%k: !bsgp.ptr<f64>, %v: !bsgp.ptr<i32>, %n: i64) {
  // expected-error @+1 {{'bsgp.list_sort_pairs' op 'unsigned' needs integer keys}}
  bsgp.list_sort_pairs unsigned %k, %v, %n : !bsgp.ptr<f64>, !bsgp.ptr<i32>
  return
}

// -----

func.func @narrow_keys(%k: !bsgp.ptr<i16>, %v: !bsgp.ptr<i32>, %n: i64) {
  // expected-error @+1 {{'bsgp.list_sort_pairs' op keys must be i32, i64, f32 or f64, not 'i16'}}
  bsgp.list_sort_pairs %k, %v, %n : !bsgp.ptr<i16>, !bsgp.ptr<i32>
  return
}

// -----

func.func @wide_values(%k: !bsgp.ptr<i32>, %v: !bsgp.ptr<i64>, %n: i64) {
  // expected-error @+1 {{'bsgp.list_sort_pairs' op values must be a list of i32}}
  bsgp.list_sort_pairs %k, %v, %n : !bsgp.ptr<i32>, !bsgp.ptr<i64>
  return
}

// -----

func.func @result_type(%p: !bsgp.ptr<i32>, %n: i64) {
  // expected-error @+1 {{'bsgp.list_reduce' op failed to verify that result type is the list's element type}}
  %0 = "bsgp.list_reduce"(%p, %n) <{kind = "add"}> : (!bsgp.ptr<i32>, i64) -> i64
  return
}
