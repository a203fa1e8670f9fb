// RUN: bsgp-opt %s --bsgp-narrow-single-rank | FileCheck %s

// The last superstep after a reduce: only rank 0 writes. It runs one thread
// (none when the launch has no rank 0), and that thread's rank is 0.
// CHECK-LABEL: bsgp.kernel @store_total(
// CHECK-NOT: bsgp.thread_rank
// CHECK: arith.constant 0 : i32
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK-NOT: bsgp.thread_rank
// CHECK: bsgp.ptr.store
bsgp.kernel @store_total(%total: i32, %out: !bsgp.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %r = bsgp.thread_rank : i32
  %is0 = arith.cmpi eq, %r, %c0 : i32
  scf.if %is0 {
    bsgp.ptr.store %total, %out[%c0] : !bsgp.ptr<i32>, i32
  }
  bsgp.return
}

// The guarded rank may be a parameter; reads before the guard are fine.
// CHECK-LABEL: bsgp.kernel @store_at(
// CHECK-SAME: %[[K:[^:]*]]: i32
// CHECK-NOT: bsgp.thread_rank
// CHECK: bsgp.ptr.load %{{.*}}[%[[K]]]
bsgp.kernel @store_at(%k: i32, %in: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  %v = bsgp.ptr.load %in[%r] : !bsgp.ptr<i32>, i32
  %hit = arith.cmpi eq, %k, %r : i32
  scf.if %hit {
    bsgp.ptr.store %v, %out[%r] : !bsgp.ptr<i32>, i32
  }
  bsgp.return
}

// A write outside the guard needs every thread.
// CHECK-LABEL: bsgp.kernel @every_thread_writes(
// CHECK: bsgp.thread_rank
bsgp.kernel @every_thread_writes(%out: !bsgp.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %r = bsgp.thread_rank : i32
  bsgp.ptr.store %c0, %out[%r] : !bsgp.ptr<i32>, i32
  %is0 = arith.cmpi eq, %r, %c0 : i32
  scf.if %is0 {
    bsgp.ptr.store %r, %out[%c0] : !bsgp.ptr<i32>, i32
  }
  bsgp.return
}

// A guard on a per-thread value is no single rank.
// CHECK-LABEL: bsgp.kernel @data_guard(
// CHECK: bsgp.thread_rank
bsgp.kernel @data_guard(%in: !bsgp.ptr<i32>, %out: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  %v = bsgp.ptr.load %in[%r] : !bsgp.ptr<i32>, i32
  %hit = arith.cmpi eq, %r, %v : i32
  scf.if %hit {
    bsgp.ptr.store %v, %out[%r] : !bsgp.ptr<i32>, i32
  }
  bsgp.return
}

// thread.size is the launch's thread count, which would change.
// CHECK-LABEL: bsgp.kernel @uses_size(
// CHECK: bsgp.thread_rank
bsgp.kernel @uses_size(%out: !bsgp.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %r = bsgp.thread_rank : i32
  %n = bsgp.thread_size : i32
  %is0 = arith.cmpi eq, %r, %c0 : i32
  scf.if %is0 {
    bsgp.ptr.store %n, %out[%c0] : !bsgp.ptr<i32>, i32
  }
  bsgp.return
}

// A chunk scan reads only memory, but its value for the guarded rank is the
// combination of the ranks before it in its chunk.
// CHECK-LABEL: bsgp.kernel @chunk_prefix(
// CHECK: bsgp.thread_rank
bsgp.kernel @chunk_prefix(%in: !bsgp.ptr<i32>, %p: !bsgp.ptr<i32>,
                          %out: !bsgp.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %r = bsgp.thread_rank : i32
  %x = bsgp.ptr.load %in[%r] : !bsgp.ptr<i32>, i32
  %s = bsgp.chunk_scan "add" %x, %p : !bsgp.ptr<i32>
  %is5 = arith.cmpi eq, %r, %c5 : i32
  scf.if %is5 {
    bsgp.ptr.store %s, %out[%c0] : !bsgp.ptr<i32>, i32
  }
  bsgp.return
}

// The launches: one thread when the guarded rank is below the count
// (unsigned, so a negative parameter launches none); the others unchanged.
// CHECK-LABEL: func.func @host(
// CHECK-SAME: %[[N:[^:]*]]: i32, %{{[^:]*}}: i32, %[[KK:[^:]*]]: i32
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %{{.*}}, %[[N]] : i32
// CHECK: %[[C0:.*]] = arith.select %[[IN0]], %{{.*}}, %{{.*}} : i32
// CHECK: bsgp.launch @store_total(%[[C0]])
// CHECK: %[[IN1:.*]] = arith.cmpi ult, %[[KK]], %[[N]] : i32
// CHECK: %[[C1:.*]] = arith.select %[[IN1]], %{{.*}}, %{{.*}} : i32
// CHECK: bsgp.launch @store_at(%[[C1]])
// CHECK: bsgp.launch @every_thread_writes(%[[N]])
// CHECK: bsgp.launch @data_guard(%[[N]])
// CHECK: bsgp.launch @uses_size(%[[N]])
// CHECK: bsgp.launch @chunk_prefix(%[[N]])
func.func @host(%n: i32, %t: i32, %k: i32, %p: !bsgp.ptr<i32>) {
  bsgp.launch @store_total(%n) args(%t, %p : i32, !bsgp.ptr<i32>)
  bsgp.launch @store_at(%n) args(%k, %p, %p : i32, !bsgp.ptr<i32>, !bsgp.ptr<i32>)
  bsgp.launch @every_thread_writes(%n) args(%p : !bsgp.ptr<i32>)
  bsgp.launch @data_guard(%n) args(%p, %p : !bsgp.ptr<i32>, !bsgp.ptr<i32>)
  bsgp.launch @uses_size(%n) args(%p : !bsgp.ptr<i32>)
  bsgp.launch @chunk_prefix(%n) args(%p, %p, %p : !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>)
  return
}
