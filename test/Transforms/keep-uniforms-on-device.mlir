// RUN: bsgp-opt %s -split-input-file --bsgp-keep-uniforms-on-device | FileCheck %s

// A reduce's total that only the next kernel uses: the launch passes the
// list holding it, the kernel loads it at its entry, and the host does not
// read it back. An allocation by the runtime in between (declared to touch
// no memory the program sees) and a launch not given the list keep the
// value.
// CHECK-LABEL: bsgp.kernel @use_total(
// CHECK-SAME: %[[P:[^:]*]]: !bsgp.ptr<f32>, %[[OUT:[^:]*]]: !bsgp.ptr<f32>)
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[T:.*]] = bsgp.ptr.load %[[P]][%[[ZERO]]] : !bsgp.ptr<f32>, i32
// CHECK: %[[R:.*]] = bsgp.thread_rank
// CHECK: bsgp.ptr.store %[[T]], %[[OUT]][%[[R]]]
// CHECK-LABEL: func.func @host(
// CHECK-SAME: %[[LIST:[^:]*]]: !bsgp.ptr<f32>
// CHECK-NOT: call @read_back
// CHECK: llvm.call @bsgprt_temp_alloc_elements
// CHECK: bsgp.launch @other
// CHECK-NOT: call @read_back
// CHECK: bsgp.launch @use_total(%{{.*}}) args(%[[LIST]], %{{.*}} : !bsgp.ptr<f32>, !bsgp.ptr<f32>)
func.func private @read_back(!bsgp.ptr<f32>) -> f32
    attributes {bsgp.library = #bsgp.library<read_back>}
llvm.func @bsgprt_temp_alloc_elements(i64, i64, !llvm.ptr) -> !llvm.ptr

bsgp.kernel @use_total(%total: f32, %out: !bsgp.ptr<f32>) {
  %r = bsgp.thread_rank : i32
  bsgp.ptr.store %total, %out[%r] : !bsgp.ptr<f32>, i32
  bsgp.return
}
bsgp.kernel @other(%out: !bsgp.ptr<f32>) {
  bsgp.return
}

func.func @host(%list: !bsgp.ptr<f32>, %out: !bsgp.ptr<f32>, %n: i32) {
  %t = func.call @read_back(%list) : (!bsgp.ptr<f32>) -> f32
  %c4 = arith.constant 4 : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %mem = llvm.call @bsgprt_temp_alloc_elements(%c4, %c4, %null) {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = readwrite, errnoMem = none, targetMem0 = none, targetMem1 = none>} : (i64, i64, !llvm.ptr) -> !llvm.ptr
  bsgp.launch @other(%n) args(%out : !bsgp.ptr<f32>)
  bsgp.launch @use_total(%n) args(%t, %out : f32, !bsgp.ptr<f32>)
  return
}

// -----

// The host uses the value itself (a loop condition, say): it reads it back,
// and the kernel keeps its parameter.
// CHECK-LABEL: bsgp.kernel @use_total(
// CHECK-SAME: %{{[^:]*}}: f32
// CHECK-LABEL: func.func @host_uses(
// CHECK: %[[T:.*]] = call @read_back(
// CHECK: arith.cmpf
// CHECK: bsgp.launch @use_total(%{{.*}}) args(%[[T]] : f32)
func.func private @read_back(!bsgp.ptr<f32>) -> f32
    attributes {bsgp.library = #bsgp.library<read_back>}

bsgp.kernel @use_total(%total: f32) {
  bsgp.return
}

func.func @host_uses(%list: !bsgp.ptr<f32>, %n: i32) -> i1 {
  %t = func.call @read_back(%list) : (!bsgp.ptr<f32>) -> f32
  %zero = arith.constant 0.0 : f32
  %small = arith.cmpf olt, %t, %zero : f32
  bsgp.launch @use_total(%n) args(%t : f32)
  return %small : i1
}

// -----

// Host code that may write the list between the read-back and the launch
// (a call the compiler knows nothing of, a launch given the list): the
// value read back is the one the kernel must see.
// CHECK-LABEL: func.func @written_between(
// CHECK: call @read_back(
// CHECK: bsgp.launch @use_total(%{{.*}}) args(%{{.*}} : f32)
// CHECK-LABEL: func.func @launched_with_list(
// CHECK: call @read_back(
// CHECK: bsgp.launch @use_total(%{{.*}}) args(%{{.*}} : f32)
func.func private @read_back(!bsgp.ptr<f32>) -> f32
    attributes {bsgp.library = #bsgp.library<read_back>}
func.func private @unknown(!bsgp.ptr<f32>)

bsgp.kernel @use_total(%total: f32) {
  bsgp.return
}
bsgp.kernel @writes(%list: !bsgp.ptr<f32>) {
  bsgp.return
}

func.func @written_between(%list: !bsgp.ptr<f32>, %n: i32) {
  %t = func.call @read_back(%list) : (!bsgp.ptr<f32>) -> f32
  func.call @unknown(%list) : (!bsgp.ptr<f32>) -> ()
  bsgp.launch @use_total(%n) args(%t : f32)
  return
}

func.func @launched_with_list(%list: !bsgp.ptr<f32>, %n: i32) {
  %t = func.call @read_back(%list) : (!bsgp.ptr<f32>) -> f32
  bsgp.launch @writes(%n) args(%list : !bsgp.ptr<f32>)
  bsgp.launch @use_total(%n) args(%t : f32)
  return
}

// -----

// A kernel launched from two places keeps its parameter (the other launch
// passes a value), and so does a launch in another block than the
// read-back.
// CHECK-LABEL: func.func @two_launches(
// CHECK: call @read_back(
// CHECK-LABEL: func.func @nested_launch(
// CHECK: call @read_back(
// CHECK: scf.if
// CHECK: bsgp.launch @nested(%{{.*}}) args(%{{.*}} : f32)
func.func private @read_back(!bsgp.ptr<f32>) -> f32
    attributes {bsgp.library = #bsgp.library<read_back>}

bsgp.kernel @shared(%total: f32) {
  bsgp.return
}
bsgp.kernel @nested(%total: f32) {
  bsgp.return
}

func.func @two_launches(%list: !bsgp.ptr<f32>, %n: i32, %x: f32) {
  %t = func.call @read_back(%list) : (!bsgp.ptr<f32>) -> f32
  bsgp.launch @shared(%n) args(%t : f32)
  bsgp.launch @shared(%n) args(%x : f32)
  return
}

func.func @nested_launch(%list: !bsgp.ptr<f32>, %n: i32, %c: i1) {
  %t = func.call @read_back(%list) : (!bsgp.ptr<f32>) -> f32
  scf.if %c {
    bsgp.launch @nested(%n) args(%t : f32)
  }
  return
}
