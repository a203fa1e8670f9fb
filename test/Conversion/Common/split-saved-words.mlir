// RUN: bsgp-opt %s --bsgp-split-saved-words | FileCheck %s
// RUN: bsgp-opt %s --bsgp-split-saved-words --canonicalize | FileCheck %s --check-prefix=FOLD

// Every save and load of a value other than one i32 becomes one i32 save or
// load per stream: narrow values widened, 64-bit values low word first,
// pointers as their address, vectors element by element. A word stays as it
// is.

// CHECK-LABEL: func.func @word(
// CHECK-SAME:    %[[V:.*]]: i32, %[[S:.*]]: !bsgp.stream, %[[I:.*]]: i32)
// CHECK-NEXT:    bsgp.save %[[V]] to (%[[S]])[%[[I]]] : i32
// CHECK-NEXT:    %[[L:.*]] = bsgp.load (%[[S]])[%[[I]]] : i32
// CHECK-NEXT:    return %[[L]]
func.func @word(%v: i32, %s: !bsgp.stream, %i: i32) -> i32 attributes {bsgp.device} {
  bsgp.save %v to (%s)[%i] : i32
  %w = bsgp.load (%s)[%i] : i32
  return %w : i32
}

// CHECK-LABEL: func.func @save_i64(
// CHECK-SAME:    %[[V:.*]]: i64, %[[S0:.*]]: !bsgp.stream, %[[S1:.*]]: !bsgp.stream, %[[I:.*]]: i32)
// CHECK:         %[[C32:.*]] = arith.constant 32 : i64
// CHECK:         %[[HI64:.*]] = arith.shrui %[[V]], %[[C32]] : i64
// CHECK:         %[[LO:.*]] = arith.trunci %[[V]] : i64 to i32
// CHECK:         %[[HI:.*]] = arith.trunci %[[HI64]] : i64 to i32
// CHECK:         bsgp.save %[[LO]] to (%[[S0]])[%[[I]]] : i32
// CHECK:         bsgp.save %[[HI]] to (%[[S1]])[%[[I]]] : i32
// CHECK-NOT:     bsgp.save
func.func @save_i64(%v: i64, %s0: !bsgp.stream, %s1: !bsgp.stream, %i: i32) attributes {bsgp.device} {
  bsgp.save %v to (%s0, %s1)[%i] : i64
  return
}

// Loading joins the words back, (hi << 32) | lo, and reinterprets the bits.
// CHECK-LABEL: func.func @load_f64(
// CHECK-SAME:    %[[S0:.*]]: !bsgp.stream, %[[S1:.*]]: !bsgp.stream, %[[I:.*]]: i32)
// CHECK:         %[[W0:.*]] = bsgp.load (%[[S0]])[%[[I]]] : i32
// CHECK:         %[[W1:.*]] = bsgp.load (%[[S1]])[%[[I]]] : i32
// CHECK:         %[[LO:.*]] = arith.extui %[[W0]] : i32 to i64
// CHECK:         %[[HI:.*]] = arith.extui %[[W1]] : i32 to i64
// CHECK:         %[[SH:.*]] = arith.shli %[[HI]], %{{.*}} : i64
// CHECK:         %[[OR:.*]] = arith.ori %[[LO]], %[[SH]] : i64
// CHECK:         %[[F:.*]] = arith.bitcast %[[OR]] : i64 to f64
// CHECK:         return %[[F]]
func.func @load_f64(%s0: !bsgp.stream, %s1: !bsgp.stream, %i: i32) -> f64 attributes {bsgp.device} {
  %v = bsgp.load (%s0, %s1)[%i] : f64
  return %v : f64
}

// CHECK-LABEL: func.func @narrow_and_ptr(
// CHECK:         %[[B:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK:         bsgp.save %[[B]] to
// CHECK:         %[[A:.*]] = bsgp.ptr.to_int %{{.*}} : !bsgp.ptr<i32>
// CHECK:         arith.trunci %[[A]] : i64 to i32
// CHECK-COUNT-2: bsgp.save %{{.*}} : i32
// CHECK:         %[[W:.*]] = bsgp.load (%{{.*}})[%{{.*}}] : i32
// CHECK:         %[[B2:.*]] = arith.trunci %[[W]] : i32 to i1
// CHECK-COUNT-2: bsgp.load
// CHECK:         %[[P:.*]] = bsgp.ptr.from_int %{{.*}} : !bsgp.ptr<i32>
// CHECK:         return %[[B2]], %[[P]]
func.func @narrow_and_ptr(%b: i1, %p: !bsgp.ptr<i32>, %s0: !bsgp.stream, %s1: !bsgp.stream, %s2: !bsgp.stream, %i: i32) -> (i1, !bsgp.ptr<i32>) attributes {bsgp.device} {
  bsgp.save %b to (%s0)[%i] : i1
  bsgp.save %p to (%s1, %s2)[%i] : !bsgp.ptr<i32>
  %b2 = bsgp.load (%s0)[%i] : i1
  %p2 = bsgp.load (%s1, %s2)[%i] : !bsgp.ptr<i32>
  return %b2, %p2 : i1, !bsgp.ptr<i32>
}

// A float4 is four words, element 0 first; a vector of doubles two words
// per element.
// CHECK-LABEL: func.func @vectors(
// CHECK-SAME:    %[[V:.*]]: vector<4xf32>, %[[S0:.*]]: !bsgp.stream, %[[S1:.*]]: !bsgp.stream, %[[S2:.*]]: !bsgp.stream, %[[S3:.*]]: !bsgp.stream, %[[I:.*]]: i32)
// CHECK:         %[[E0:.*]] = vector.extract %[[V]][0] : f32 from vector<4xf32>
// CHECK:         %[[B0:.*]] = arith.bitcast %[[E0]] : f32 to i32
// CHECK:         %[[E3:.*]] = vector.extract %[[V]][3] : f32 from vector<4xf32>
// CHECK:         %[[B3:.*]] = arith.bitcast %[[E3]] : f32 to i32
// CHECK:         bsgp.save %[[B0]] to (%[[S0]])[%[[I]]] : i32
// CHECK-COUNT-2: bsgp.save
// CHECK:         bsgp.save %[[B3]] to (%[[S3]])[%[[I]]] : i32
// CHECK-COUNT-4: bsgp.load
// CHECK-COUNT-4: arith.bitcast %{{.*}} : i32 to f32
// CHECK:         %[[W:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-COUNT-4: bsgp.load
// CHECK:         vector.from_elements %{{.*}}, %{{.*}} : vector<2xf64>
// CHECK:         return %[[W]]
func.func @vectors(%v: vector<4xf32>, %s0: !bsgp.stream, %s1: !bsgp.stream, %s2: !bsgp.stream, %s3: !bsgp.stream, %i: i32) -> (vector<4xf32>, vector<2xf64>) attributes {bsgp.device} {
  bsgp.save %v to (%s0, %s1, %s2, %s3)[%i] : vector<4xf32>
  %w = bsgp.load (%s0, %s1, %s2, %s3)[%i] : vector<4xf32>
  %d = bsgp.load (%s0, %s1, %s2, %s3)[%i] : vector<2xf64>
  return %w, %d : vector<4xf32>, vector<2xf64>
}

// The address round trip folds: from_int(to_int(p)) is p.
// FOLD-LABEL: func.func @round_trip(
// FOLD-SAME:    %[[P:.*]]: !bsgp.ptr<f32>
// FOLD-NOT:     bsgp.ptr.to_int
// FOLD-NOT:     bsgp.ptr.from_int
// FOLD:         return %[[P]]
func.func @round_trip(%p: !bsgp.ptr<f32>) -> !bsgp.ptr<f32> attributes {bsgp.device} {
  %a = bsgp.ptr.to_int %p : !bsgp.ptr<f32>
  %q = bsgp.ptr.from_int %a : !bsgp.ptr<f32>
  return %q : !bsgp.ptr<f32>
}
