// RUN: bsgp-opt %s --bsgp-carry-private-arrays -split-input-file -verify-diagnostics -mlir-print-debuginfo | FileCheck %s

// A private array used after a rank-reassigning barrier: its elements are
// loaded before the barrier, and stored into a new slot after the
// thread.oldrank assignment (save-restore loads values from before the
// barrier by old rank there). The pointer q = arr + 1 is made again from
// the new slot; the code after the barrier uses the new slot only.
// CHECK-LABEL: func.func @reassigned(
// CHECK: %[[SLOT:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !bsgp.ptr<i32>
// CHECK: %[[Q:.*]] = bsgp.ptr.offset %[[SLOT]]
// CHECK: %[[E0:.*]] = bsgp.ptr.load %[[SLOT]][%{{.*}}] : !bsgp.ptr<i32>, i32 loc(#[[A0:.*]])
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[E1:.*]] = bsgp.ptr.load %[[SLOT]][%[[C1]]] : !bsgp.ptr<i32>, i32 loc(#[[A1:.*]])
// CHECK-NEXT: bsgp.barrier rank_reassigned
// CHECK: bsgp.set_oldrank
// CHECK-NEXT: %[[N:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT: %[[NEW:.*]] = llvm.alloca %[[N]] x i32
// CHECK-NEXT: %[[PTR:.*]] = builtin.unrealized_conversion_cast %[[NEW]]
// CHECK-NEXT: %[[I0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: bsgp.ptr.store %[[E0]], %[[PTR]][%[[I0]]]
// CHECK-NEXT: %[[I1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: bsgp.ptr.store %[[E1]], %[[PTR]][%[[I1]]]
// CHECK-NEXT: %[[Q2:.*]] = bsgp.ptr.offset %[[PTR]]
// CHECK-NEXT: bsgp.ptr.load %[[PTR]]
// CHECK-NEXT: bsgp.ptr.load %[[Q2]]
// CHECK-DAG: #[[A0]] = loc("arr[0]"
// CHECK-DAG: #[[A1]] = loc("arr[1]"
func.func @reassigned(%n: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c2 = llvm.mlir.constant(2 : i64) : i64
    %slot = llvm.alloca %c2 x i32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
    %arr = builtin.unrealized_conversion_cast %slot : !llvm.ptr to !bsgp.ptr<i32> loc("arr")
    %rk = bsgp.thread_rank : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    bsgp.ptr.store %rk, %arr[%c0] : !bsgp.ptr<i32>, i32
    %q = bsgp.ptr.offset %arr[%c1] : !bsgp.ptr<i32>, i32
    bsgp.barrier rank_reassigned
    %rk1 = bsgp.thread_rank : i32
    bsgp.set_oldrank %rk1
    %a = bsgp.ptr.load %arr[%c0] : !bsgp.ptr<i32>, i32
    %b = bsgp.ptr.load %q[%c0] : !bsgp.ptr<i32>, i32
    %s = arith.addi %a, %b : i32
    bsgp.ptr.store %s, %out[%rk1] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// Two barriers: the copy made at the first is copied again at the second.
// An array not used after a barrier is left alone.
// CHECK-LABEL: func.func @twice(
// CHECK-COUNT-1: bsgp.ptr.load
// CHECK: bsgp.barrier
// CHECK: llvm.alloca
// CHECK: bsgp.ptr.store
// CHECK: bsgp.ptr.load
// CHECK-NEXT: bsgp.barrier
// CHECK: llvm.alloca
// CHECK: bsgp.ptr.store
// CHECK: bsgp.ptr.load
// CHECK-NOT: llvm.alloca
func.func @twice(%n: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %slot = llvm.alloca %c1 x i32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
    %arr = builtin.unrealized_conversion_cast %slot : !llvm.ptr to !bsgp.ptr<i32>
    %slot2 = llvm.alloca %c1 x i32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
    %tmp = builtin.unrealized_conversion_cast %slot2 : !llvm.ptr to !bsgp.ptr<i32>
    %rk = bsgp.thread_rank : i32
    %c0 = arith.constant 0 : i32
    bsgp.ptr.store %rk, %arr[%c0] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %rk, %tmp[%c0] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    bsgp.barrier
    %a = bsgp.ptr.load %arr[%c0] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %a, %out[%a] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

func.func @too_large(%n: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c = llvm.mlir.constant(300 : i64) : i64
    // expected-error @+1 {{a thread-private array of 300 elements is used after a barrier: its 300 words would each be saved in a stream of their own (at most 256); keep it within one superstep or store it to a list}}
    %slot = llvm.alloca %c x i32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
    %arr = builtin.unrealized_conversion_cast %slot : !llvm.ptr to !bsgp.ptr<i32>
    bsgp.barrier
    %c0 = arith.constant 0 : i32
    %a = bsgp.ptr.load %arr[%c0] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %a, %out[%a] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

func.func @chosen_pointer(%n: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c = llvm.mlir.constant(1 : i64) : i64
    %slot = llvm.alloca %c x i32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
    %arr = builtin.unrealized_conversion_cast %slot : !llvm.ptr to !bsgp.ptr<i32>
    %rk = bsgp.thread_rank : i32
    %c0 = arith.constant 0 : i32
    %odd = arith.cmpi ne, %rk, %c0 : i32
    // expected-error @+1 {{a pointer into a thread-private array is chosen here and used after a barrier; index the array itself after the barrier}}
    %p = arith.select %odd, %arr, %out : !bsgp.ptr<i32>
    bsgp.barrier
    %a = bsgp.ptr.load %p[%c0] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %a, %out[%a] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// An array of structs (elements of bytes: two structs of 8 bytes) goes as
// 32-bit words, through a view of the slot as words; one of 3 bytes (an
// odd size) goes byte by byte.
// CHECK-LABEL: func.func @structs(
// CHECK: %[[P:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !bsgp.ptr<!llvm.array<8 x i8>>
// CHECK: %[[C:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !bsgp.ptr<!llvm.array<3 x i8>>
// CHECK: %[[PW:.*]] = bsgp.ptr.cast %[[P]] : !bsgp.ptr<!llvm.array<8 x i8>> to !bsgp.ptr<i32>
// CHECK-COUNT-4: bsgp.ptr.load %[[PW]][%{{.*}}] : !bsgp.ptr<i32>, i32
// CHECK-NEXT: %[[CB:.*]] = bsgp.ptr.cast %[[C]] : !bsgp.ptr<!llvm.array<3 x i8>> to !bsgp.ptr<i8>
// CHECK-COUNT-3: bsgp.ptr.load %[[CB]][%{{.*}}] : !bsgp.ptr<i8>, i32
// CHECK-NEXT: bsgp.barrier
// CHECK: llvm.alloca %{{.*}} x !llvm.array<3 x i8>
// CHECK: %[[C2:.*]] = builtin.unrealized_conversion_cast
// CHECK-NEXT: %[[CB2:.*]] = bsgp.ptr.cast %[[C2]] : !bsgp.ptr<!llvm.array<3 x i8>> to !bsgp.ptr<i8>
// CHECK-COUNT-3: bsgp.ptr.store %{{.*}}, %[[CB2]][%{{.*}}] : !bsgp.ptr<i8>, i32
// CHECK: llvm.alloca %{{.*}} x !llvm.array<8 x i8>
// CHECK: %[[P2:.*]] = builtin.unrealized_conversion_cast
// CHECK-NEXT: %[[PW2:.*]] = bsgp.ptr.cast %[[P2]] : !bsgp.ptr<!llvm.array<8 x i8>> to !bsgp.ptr<i32>
// CHECK-COUNT-4: bsgp.ptr.store %{{.*}}, %[[PW2]][%{{.*}}] : !bsgp.ptr<i32>, i32
// CHECK: bsgp.ptr.offset %[[P2]]
// CHECK: bsgp.ptr.offset %[[C2]]
func.func @structs(%n: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c2 = llvm.mlir.constant(2 : i64) : i64
    %slot = llvm.alloca %c2 x !llvm.array<8 x i8> {alignment = 16 : i64} : (i64) -> !llvm.ptr
    %p = builtin.unrealized_conversion_cast %slot : !llvm.ptr to !bsgp.ptr<!llvm.array<8 x i8>>
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %cslot = llvm.alloca %c1 x !llvm.array<3 x i8> {alignment = 16 : i64} : (i64) -> !llvm.ptr
    %c = builtin.unrealized_conversion_cast %cslot : !llvm.ptr to !bsgp.ptr<!llvm.array<3 x i8>>
    %rk = bsgp.thread_rank : i32
    %i1 = arith.constant 1 : i32
    %e = bsgp.ptr.offset %p[%i1] : !bsgp.ptr<!llvm.array<8 x i8>>, i32
    %y = bsgp.ptr.cast %e : !bsgp.ptr<!llvm.array<8 x i8>> to !bsgp.ptr<i32>
    bsgp.ptr.store %rk, %y[%i1] : !bsgp.ptr<i32>, i32
    %i0 = arith.constant 0 : i32
    %f = bsgp.ptr.offset %c[%i0] : !bsgp.ptr<!llvm.array<3 x i8>>, i32
    %b = bsgp.ptr.cast %f : !bsgp.ptr<!llvm.array<3 x i8>> to !bsgp.ptr<i8>
    %ch = arith.trunci %rk : i32 to i8
    bsgp.ptr.store %ch, %b[%i1] : !bsgp.ptr<i8>, i32
    bsgp.barrier
    %e2 = bsgp.ptr.offset %p[%i1] : !bsgp.ptr<!llvm.array<8 x i8>>, i32
    %y2 = bsgp.ptr.cast %e2 : !bsgp.ptr<!llvm.array<8 x i8>> to !bsgp.ptr<i32>
    %v = bsgp.ptr.load %y2[%i1] : !bsgp.ptr<i32>, i32
    %f2 = bsgp.ptr.offset %c[%i0] : !bsgp.ptr<!llvm.array<3 x i8>>, i32
    %b2 = bsgp.ptr.cast %f2 : !bsgp.ptr<!llvm.array<3 x i8>> to !bsgp.ptr<i8>
    %w = bsgp.ptr.load %b2[%i1] : !bsgp.ptr<i8>, i32
    %wx = arith.extsi %w : i8 to i32
    %s = arith.addi %v, %wx : i32
    bsgp.ptr.store %s, %out[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A field of an array of structs, `a[0].f`: a cast of an offset of a cast
// of the element pointer. Only the last pointer is used after the barrier;
// the whole chain is made again from the copy, none of it from the old slot.
// CHECK-LABEL: func.func @field_chain(
// CHECK: %[[OLD:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !bsgp.ptr<!llvm.array<8 x i8>>
// CHECK: bsgp.barrier
// CHECK: %[[NEW:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !bsgp.ptr<!llvm.array<8 x i8>>
// CHECK-NOT: %[[OLD]]{{[^0-9_]}}
// CHECK: %[[E:.*]] = bsgp.ptr.offset %[[NEW]]
// CHECK-NEXT: %[[B:.*]] = bsgp.ptr.cast %[[E]] : !bsgp.ptr<!llvm.array<8 x i8>> to !bsgp.ptr<i8>
// CHECK-NEXT: %[[F:.*]] = bsgp.ptr.offset %[[B]]
// CHECK-NEXT: %[[P:.*]] = bsgp.ptr.cast %[[F]] : !bsgp.ptr<i8> to !bsgp.ptr<f32>
// CHECK-NOT: %[[OLD]]{{[^0-9_]}}
// CHECK: bsgp.ptr.load %[[P]]
func.func @field_chain(%n: i32, %out: !bsgp.ptr<f32>) {
  bsgp.spawn %n {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %slot = llvm.alloca %c1 x !llvm.array<8 x i8> {alignment = 16 : i64} : (i64) -> !llvm.ptr
    %arr = builtin.unrealized_conversion_cast %slot : !llvm.ptr to !bsgp.ptr<!llvm.array<8 x i8>>
    %rk = bsgp.thread_rank : i32
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i64
    %e = bsgp.ptr.offset %arr[%c0] : !bsgp.ptr<!llvm.array<8 x i8>>, i32
    %bytes = bsgp.ptr.cast %e : !bsgp.ptr<!llvm.array<8 x i8>> to !bsgp.ptr<i8>
    %fb = bsgp.ptr.offset %bytes[%c4] : !bsgp.ptr<i8>, i64
    %f = bsgp.ptr.cast %fb : !bsgp.ptr<i8> to !bsgp.ptr<f32>
    %v = arith.sitofp %rk : i32 to f32
    bsgp.ptr.store %v, %f[%c0] : !bsgp.ptr<f32>, i32
    bsgp.barrier
    %x = bsgp.ptr.load %f[%c0] : !bsgp.ptr<f32>, i32
    bsgp.ptr.store %x, %out[%rk] : !bsgp.ptr<f32>, i32
  }
  return
}
