// RUN: bsgp-opt %s -split-input-file -verify-diagnostics | FileCheck %s
//
// `bsgp.library` (BSGPAttrs.td): the contract between the compiler and the
// collective library. It round-trips, marks only functions, and sort_ranks
// and read_back functions have the signatures the passes rely on.

// CHECK-LABEL: func.func private @helper
// CHECK-SAME: attributes {bsgp.library = #bsgp.library<function>}
func.func private @helper(!bsgp.ptr<i32>)
    attributes {bsgp.library = #bsgp.library<function>}

// CHECK-LABEL: func.func private @sort
// CHECK-SAME: attributes {bsgp.library = #bsgp.library<sort_ranks>}
func.func private @sort(!bsgp.ptr<f32>, !bsgp.ptr<f32>, !bsgp.ptr<i32>,
                        !bsgp.ptr<f32>, !bsgp.ptr<i32>, i64) -> i1
    attributes {bsgp.library = #bsgp.library<sort_ranks>}

// CHECK-LABEL: func.func private @read_back
// CHECK-SAME: attributes {bsgp.library = #bsgp.library<read_back>}
func.func private @read_back(!bsgp.ptr<f32>) -> f32
    attributes {bsgp.library = #bsgp.library<read_back>}

// -----

// expected-error @+1 {{a #bsgp.library<read_back> function must take (!bsgp.ptr<T> p) and return T}}
func.func private @read_back_other_type(!bsgp.ptr<f32>) -> i32
    attributes {bsgp.library = #bsgp.library<read_back>}

// -----

// expected-error @+1 {{a #bsgp.library<read_back> function must take (!bsgp.ptr<T> p) and return T}}
func.func private @read_back_two(!bsgp.ptr<f32>, i64) -> f32
    attributes {bsgp.library = #bsgp.library<read_back>}

// -----

// expected-error @+1 {{a #bsgp.library<sort_ranks> function must take}}
func.func private @sort_without_spares(!bsgp.ptr<i32>, !bsgp.ptr<i32>,
                                       !bsgp.ptr<i32>, i64) -> i1
    attributes {bsgp.library = #bsgp.library<sort_ranks>}

// -----

// The keys and the spare keys must be lists of one type.
// expected-error @+1 {{a #bsgp.library<sort_ranks> function must take}}
func.func private @sort_mixed(!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>,
                              !bsgp.ptr<f32>, !bsgp.ptr<i32>, i64) -> i1
    attributes {bsgp.library = #bsgp.library<sort_ranks>}

// -----

// expected-error @+1 {{'bsgp.library' must be a #bsgp.library of a function}}
func.func private @string_library() attributes {bsgp.library = "sort_ranks"}

// -----

func.func @not_a_function(%p: !bsgp.ptr<i32>, %n: i32) {
  // expected-error @+1 {{'bsgp.library' must be a #bsgp.library of a function}}
  bsgp.spawn %n {
  } {bsgp.library = #bsgp.library<function>}
  return
}

// -----

// expected-error @+2 {{expected ::bsgp::LibraryKind to be one of: function, sort_ranks, read_back}}
// expected-error @+1 {{failed to parse BSGP_LibraryAttr parameter 'value'}}
func.func private @unknown() attributes {bsgp.library = #bsgp.library<sort>}
