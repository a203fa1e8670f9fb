// RUN: bsgp-opt %s --bsgp-lower-kernels-cpu | FileCheck %s

// On the CPU a work group and a subgroup are one thread: group.rank is 0,
// group.size 1, group.id the rank, group.count the thread count; a group
// barrier has nothing to wait for; a local array is a private stack slot of
// the entry block; a shuffle returns its own value, a vote its own
// condition and a match the mask of lane 0 alone.

// CHECK-LABEL: llvm.func internal @k__cpu(
// CHECK:         %[[COUNT:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK-NEXT:    %[[SLOT:.*]] = llvm.alloca %[[COUNT]] x i32 {alignment = 16 : i64}
// CHECK:         %[[N:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK:           %[[BUF:.*]] = builtin.unrealized_conversion_cast %[[SLOT]] : !llvm.ptr to !bsgp.ptr<i32>
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      bsgp.ptr.store %[[R]], %[[BUF]][%[[ZERO]]]
// CHECK-NEXT:      %[[V:.*]] = bsgp.ptr.load %[[BUF]][%[[ZERO]]]
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[V]], %[[ONE]]
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[S]], %[[N]]
// CHECK-NEXT:      arith.constant 0 : i32
// CHECK-NEXT:      %[[B:.*]] = arith.extui %{{.*}} : i1 to i64
// CHECK-NEXT:      bsgp.ptr.store %[[T]], %{{.*}}[%[[R]]]
// CHECK-NEXT:      bsgp.ptr.store %[[B]], %{{.*}}[%[[R]]]
// CHECK-NEXT:      %[[M:.*]] = arith.constant 1 : i64
// CHECK-NEXT:      bsgp.ptr.store %[[M]], %{{.*}}[%[[R]]]
// CHECK-NOT:     bsgp.group
// CHECK-NOT:     bsgp.subgroup
// CHECK:         llvm.return
bsgp.kernel @k(%out: !bsgp.ptr<i32>, %bits: !bsgp.ptr<i64>, %c: i1) {
  %buf = bsgp.group_local 64 : !bsgp.ptr<i32>
  %gr = bsgp.group_rank : i32
  %id = bsgp.group_id : i32
  bsgp.ptr.store %id, %buf[%gr] : !bsgp.ptr<i32>, i32
  bsgp.group_barrier
  %v = bsgp.ptr.load %buf[%gr] : !bsgp.ptr<i32>, i32
  %gs = bsgp.group_size : i32
  %sum = arith.addi %v, %gs : i32
  %count = bsgp.group_count : i32
  %t0 = arith.addi %sum, %count : i32
  %lane = bsgp.subgroup_rank : i32
  %t = bsgp.subgroup_shuffle "xor" %t0, %lane : i32
  %any = bsgp.subgroup_vote "any" %c : i1
  %ballot = bsgp.subgroup_vote "ballot" %any : i64
  %r = bsgp.thread_rank : i32
  bsgp.ptr.store %t, %out[%r] : !bsgp.ptr<i32>, i32
  bsgp.ptr.store %ballot, %bits[%r] : !bsgp.ptr<i64>, i32
  %m = bsgp.subgroup_match %t : i32
  bsgp.ptr.store %m, %bits[%r] : !bsgp.ptr<i64>, i32
  bsgp.return
}
