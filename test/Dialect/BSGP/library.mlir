// RUN: bsgp-opt %s -split-input-file -verify-diagnostics | FileCheck %s
//
// `bsgp.library` (BSGPAttrs.td): the contract between the compiler and the
// collective library. It round-trips, marks only functions, and a
// sort_ranks function has the signature the passes rely on.

// CHECK-LABEL: func.func private @helper
// CHECK-SAME: attributes {bsgp.library = #bsgp.library<function>}
func.func private @helper(!bsgp.ptr<i32>)
    attributes {bsgp.library = #bsgp.library<function>}

// CHECK-LABEL: func.func private @sort
// CHECK-SAME: attributes {bsgp.library = #bsgp.library<sort_ranks>}
func.func private @sort(!bsgp.ptr<f32>, !bsgp.ptr<f32>, !bsgp.ptr<i32>,
                        !bsgp.ptr<f32>, !bsgp.ptr<i32>, i64) -> i1
    attributes {bsgp.library = #bsgp.library<sort_ranks>}

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

// expected-error @+2 {{expected ::bsgp::LibraryKind to be one of: function, sort_ranks}}
// expected-error @+1 {{failed to parse BSGP_LibraryAttr parameter 'value'}}
func.func private @unknown() attributes {bsgp.library = #bsgp.library<sort>}
