// RUN: bsgp-opt %s -split-input-file -verify-diagnostics
//
// One case per verifier error of bsgp.target_is, bsgp.atomic_rmw,
// bsgp.atomic_cas and bsgp.atomic_load.

func.func @unknown_target() -> i1 {
  // expected-error @+1 {{'bsgp.target_is' op unknown target 'opencl'; expected cpu, cuda or spirv}}
  %c = bsgp.target_is "opencl" : i1
  return %c : i1
}

// -----

func.func @rmw_in_host(%p: !bsgp.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'bsgp.atomic_rmw' op must be in device code}}
  %0 = bsgp.atomic_rmw addi %v, %p : !bsgp.ptr<i32>
  return
}

// -----

func.func @cas_in_host(%p: !bsgp.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'bsgp.atomic_cas' op must be in device code}}
  %0 = bsgp.atomic_cas %p, %v, %v : !bsgp.ptr<i32>
  return
}

// -----

func.func @int_kind_on_float(%p: !bsgp.ptr<f32>, %v: f32) attributes {bsgp.device} {
  // expected-error @+1 {{'bsgp.atomic_rmw' op element type 'f32' is not supported by this atomic operation}}
  %0 = bsgp.atomic_rmw andi %v, %p : !bsgp.ptr<f32>
  return
}

// -----

func.func @addf_on_int(%p: !bsgp.ptr<i32>, %v: i32) attributes {bsgp.device} {
  // expected-error @+1 {{'bsgp.atomic_rmw' op element type 'i32' is not supported by this atomic operation}}
  %0 = bsgp.atomic_rmw addf %v, %p : !bsgp.ptr<i32>
  return
}

// -----

func.func @narrow(%p: !bsgp.ptr<i8>, %v: i8) attributes {bsgp.device} {
  // expected-error @+1 {{'bsgp.atomic_rmw' op element type 'i8' is not supported by this atomic operation}}
  %0 = bsgp.atomic_rmw addi %v, %p : !bsgp.ptr<i8>
  return
}

// -----

func.func @mul_kind(%p: !bsgp.ptr<i32>, %v: i32) attributes {bsgp.device} {
  // expected-error @+1 {{'bsgp.atomic_rmw' op kind 'muli' is not a BSGP atomic}}
  %0 = bsgp.atomic_rmw muli %v, %p : !bsgp.ptr<i32>
  return
}

// -----

func.func @cas_f64(%p: !bsgp.ptr<f64>, %v: f64) attributes {bsgp.device} {
  // expected-error @+1 {{'bsgp.atomic_cas' op element type 'f64' is not supported by this atomic operation}}
  %0 = bsgp.atomic_cas %p, %v, %v : !bsgp.ptr<f64>
  return
}

// -----

func.func @load_float(%p: !bsgp.ptr<f32>) -> f32 attributes {bsgp.device} {
  // expected-error @+1 {{'bsgp.atomic_load' op element type 'f32' is not supported by this atomic operation}}
  %0 = bsgp.atomic_load %p : !bsgp.ptr<f32>
  return %0 : f32
}

// -----

func.func @load_on_host(%p: !bsgp.ptr<i32>) -> i32 {
  // expected-error @+1 {{'bsgp.atomic_load' op must be in device code}}
  %0 = bsgp.atomic_load %p : !bsgp.ptr<i32>
  return %0 : i32
}

// -----

func.func @fence_on_host() {
  // expected-error @+1 {{'bsgp.fence' op must be in device code}}
  bsgp.fence
  return
}
