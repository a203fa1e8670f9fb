// RUN: bsgp-opt %s --split-input-file --verify-diagnostics --convert-scf-to-cf --bsgp-convert-to-llvm --reconcile-unrealized-casts | FileCheck %s

// Pointer ops: element indices are sign-extended to i64 and scaled by the
// GEP's element type; a cast is free with opaque pointers.
// CHECK-LABEL: llvm.func @pointers(
// CHECK-SAME:    %[[P:.*]]: !llvm.ptr, %[[Q:.*]]: !llvm.ptr, %[[I:.*]]: i32)
// CHECK:         %[[I64:.*]] = llvm.sext %[[I]] : i32 to i64
// CHECK:         %[[A:.*]] = llvm.getelementptr %[[P]][%[[I64]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK:         %[[V:.*]] = llvm.load %[[A]] : !llvm.ptr -> f64
// CHECK:         %[[OFF:.*]] = llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK:         %[[B:.*]] = llvm.getelementptr %[[Q]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK:         llvm.store %[[I]], %[[B]] : i32, !llvm.ptr
// CHECK:         %[[EQ:.*]] = llvm.icmp "ult" %[[OFF]], %[[P]] : !llvm.ptr
// CHECK:         %[[L:.*]] = llvm.ptrtoint %[[OFF]] : !llvm.ptr to i64
// CHECK:         %[[R:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr to i64
// CHECK:         %[[BYTES:.*]] = llvm.sub %[[L]], %[[R]]
// CHECK:         %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64)
// CHECK:         llvm.sdiv %[[BYTES]], %[[EIGHT]]
// CHECK:         llvm.mlir.zero : !llvm.ptr
func.func @pointers(%p: !bsgp.ptr<f64>, %q: !bsgp.ptr<i32>, %i: i32) -> (f64, i1, i64, !bsgp.ptr<i8>) {
  %v = bsgp.ptr.load %p[%i] : !bsgp.ptr<f64>, i32
  %off = bsgp.ptr.offset %p[%i] : !bsgp.ptr<f64>, i32
  bsgp.ptr.store %i, %q[%i] : !bsgp.ptr<i32>, i32
  %lt = bsgp.ptr.cmp ult, %off, %p : !bsgp.ptr<f64>
  %d = bsgp.ptr.diff %off, %p : !bsgp.ptr<f64>
  %null = bsgp.ptr.null : !bsgp.ptr<i8>
  %c = bsgp.ptr.cast %null : !bsgp.ptr<i8> to !bsgp.ptr<i8>
  return %v, %lt, %d, %c : f64, i1, i64, !bsgp.ptr<i8>
}

// -----

// Lists and streams come from the runtime, with the op's location as the
// text the runtime names in its errors. dnew and dtempnew pass the count
// (sign-extended) and the element size, for the runtime to check their
// product; a stream of a negative thread count (which the launch reports)
// is empty.
// CHECK-DAG:   llvm.mlir.global internal constant @[[WHERE:__bsgp_str_[0-9a-f]+]]("lists.bsgp:7:9\00")
// CHECK-LABEL: llvm.func @lists(
// CHECK-SAME:    %[[N:.*]]: i32)
// CHECK:         %[[CNT:.*]] = llvm.sext %[[N]] : i32 to i64
// CHECK:         %[[SZ:.*]] = llvm.mlir.constant(16 : i64)
// CHECK:         %[[LOC:.*]] = llvm.mlir.addressof @[[WHERE]]
// CHECK:         %[[L:.*]] = llvm.call @bsgprt_dnew_elements(%[[CNT]], %[[SZ]], %[[LOC]])
// CHECK:         %[[T:.*]] = llvm.call @bsgprt_temp_alloc_elements(
// CHECK:         %[[W:.*]] = llvm.sext %[[N]] : i32 to i64
// CHECK:         %[[ZERO:.*]] = llvm.mlir.constant(0 : i64)
// CHECK:         %[[NEG:.*]] = llvm.icmp "slt" %[[W]], %[[ZERO]]
// CHECK:         %[[WS:.*]] = llvm.select %[[NEG]], %[[ZERO]], %[[W]]
// CHECK:         %[[FOUR:.*]] = llvm.mlir.constant(4 : i64)
// CHECK:         %[[SB:.*]] = llvm.mul %[[WS]], %[[FOUR]]
// CHECK:         %[[S:.*]] = llvm.call @bsgprt_temp_alloc(%[[SB]],
// CHECK:         llvm.call @bsgprt_temp_free(%[[S]])
// CHECK:         llvm.call @bsgprt_temp_free(%[[T]])
// CHECK:         llvm.call @bsgprt_dfree_at(%[[L]], %{{.*}})
// CHECK-DAG:   llvm.func @bsgprt_dnew_elements(i64, i64, !llvm.ptr) -> !llvm.ptr
// CHECK-DAG:   llvm.func @bsgprt_temp_alloc_elements(i64, i64, !llvm.ptr) -> !llvm.ptr
// CHECK-DAG:   llvm.func @bsgprt_temp_alloc(i64, !llvm.ptr) -> !llvm.ptr
// CHECK-DAG:   llvm.func @bsgprt_temp_free(!llvm.ptr)
// CHECK-DAG:   llvm.func @bsgprt_dfree_at(!llvm.ptr, !llvm.ptr)
func.func @lists(%n: i32) {
  %l = bsgp.dnew %n : !bsgp.ptr<vector<4xf32>> loc("lists.bsgp":7:9)
  %t = bsgp.dtempnew %n : !bsgp.ptr<i8>
  %s = bsgp.stream_alloc %n : !bsgp.stream
  bsgp.stream_free %s
  bsgp.dtempfree %t : !bsgp.ptr<i8>
  bsgp.dfree %l : !bsgp.ptr<vector<4xf32>>
  return
}

// -----

// bsgp-split-saved-words has left one word per save and load: a store or
// load of an i32 at word `i` of its stream. Pointers cross as addresses.
// CHECK-LABEL: llvm.func @words(
// CHECK-SAME:    %[[V:.*]]: i32, %[[P:.*]]: !llvm.ptr, %[[S:.*]]: !llvm.ptr, %[[I:.*]]: i32, %[[B:.*]]: i64)
// CHECK:         %[[I64:.*]] = llvm.sext %[[I]] : i32 to i64
// CHECK:         %[[A:.*]] = llvm.getelementptr %[[S]][%[[I64]]] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK:         llvm.store %[[V]], %[[A]] : i32, !llvm.ptr
// CHECK:         %[[W:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK:         %[[ADDR:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr to i64
// CHECK:         %[[Q:.*]] = llvm.inttoptr %[[B]] : i64 to !llvm.ptr
// CHECK:         llvm.return
func.func @words(%v: i32, %p: !bsgp.ptr<f32>, %s: !bsgp.stream, %i: i32, %b: i64) -> (i32, i64, !bsgp.ptr<f32>) attributes {bsgp.device} {
  bsgp.save %v to (%s)[%i] : i32
  %w = bsgp.load (%s)[%i] : i32
  %a = bsgp.ptr.to_int %p : !bsgp.ptr<f32>
  %q = bsgp.ptr.from_int %b : !bsgp.ptr<f32>
  return %w, %a, %q : i32, i64, !bsgp.ptr<f32>
}

// -----

// A value of several words reaching this pass means the pipeline skipped
// bsgp-split-saved-words.
func.func @unsplit(%v: i64, %s0: !bsgp.stream, %s1: !bsgp.stream, %i: i32) attributes {bsgp.device} {
  // expected-error @+2 {{'bsgp.save' op is not split into words (bsgp-split-saved-words)}}
  // expected-error @+1 {{'bsgp.save' has no lowering to LLVM}}
  bsgp.save %v to (%s0, %s1)[%i] : i64
  return
}

// -----

// A spawn that reaches this pass means the pipeline skipped a stage: say
// where instead of failing the conversion blindly.
func.func @stray(%n: i32) {
  // expected-error @+1 {{'bsgp.spawn' must be lowered before LLVM conversion}}
  bsgp.spawn %n {
    bsgp.yield
  }
  return
}
