// RUN: bsgp-opt %s --bsgp-lower-kernels-cpu --bsgp-split-rank-loop-rows | FileCheck %s

// A rank loop that divides the rank by a parameter runs as rows of %w
// ranks where %w >= 16 and the chunk starts at a rank >= 0: one division
// for the chunk's first rank, then per row the quotient is carried. Each
// row's loop counts the column (the remainder), from the chunk's first
// column in its first row and from 0 in the others, and the rank is the
// row's first rank plus the column. Otherwise the original loop runs, with
// its divisions.

// CHECK-LABEL: llvm.func internal @grid__cpu(
// CHECK:         %[[W:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK:         arith.trunci %{{.*}} : i64 to i32
// CHECK:         %[[B:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK:         %[[E:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[MIN:.*]] = arith.constant 16 : i32
// CHECK:         %[[LONG:.*]] = arith.cmpi sge, %[[W]], %[[MIN]] : i32
// CHECK:         %[[NAT:.*]] = arith.cmpi sge, %[[B]], %[[ZERO]] : i32
// CHECK:         %[[COND:.*]] = arith.andi %[[LONG]], %[[NAT]] : i1
// CHECK:         scf.if %[[COND]] {
// CHECK-NEXT:      %[[Q0:.*]] = arith.divsi %[[B]], %[[W]] : i32
// CHECK-NEXT:      %[[R0:.*]] = arith.remsi %[[B]], %[[W]] : i32
// CHECK-NEXT:      %[[LEFT0:.*]] = arith.subi %[[W]], %[[R0]] : i32
// CHECK-NEXT:      %[[REST0:.*]] = arith.subi %[[E]], %[[B]] : i32
// CHECK-NEXT:      %[[LEN0:.*]] = arith.minsi %[[LEFT0]], %[[REST0]] : i32
// CHECK-NEXT:      %[[END0:.*]] = arith.addi %[[B]], %[[LEN0]] : i32
// CHECK-NEXT:      %[[START0:.*]] = arith.subi %[[B]], %[[R0]] : i32
// CHECK-NEXT:      %[[X1:.*]] = arith.addi %[[R0]], %[[LEN0]] : i32
// CHECK-NEXT:      scf.for %[[X:.*]] = %[[R0]] to %[[X1]] step %{{.*}} : i32 {
// CHECK-NEXT:        %[[RANK0:.*]] = arith.addi %[[START0]], %[[X]] overflow<nsw> : i32
// CHECK-NEXT:        scf.execute_region {
// CHECK-NEXT:          %[[S0:.*]] = arith.addi %[[X]], %[[X]] : i32
// CHECK-NEXT:          %[[T0:.*]] = arith.addi %[[S0]], %[[Q0]] : i32
// CHECK-NEXT:          arith.addi %[[T0]], %[[Q0]] : i32
// CHECK-NEXT:          arith.divsi %[[RANK0]], %{{.*}} : i32
// CHECK-NEXT:          arith.addi
// CHECK-NEXT:          bsgp.ptr.store %{{.*}}, %{{.*}}[%[[RANK0]]]
// CHECK-NEXT:          scf.yield
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[Q1:.*]] = arith.addi %[[Q0]], %[[ONE]] : i32
// CHECK-NEXT:      scf.while (%[[RK:.*]] = %[[END0]], %[[Q:.*]] = %[[Q1]]) : (i32, i32) -> (i32, i32) {
// CHECK-NEXT:        %[[MORE:.*]] = arith.cmpi slt, %[[RK]], %[[E]] : i32
// CHECK-NEXT:        scf.condition(%[[MORE]]) %[[RK]], %[[Q]]
// CHECK-NEXT:      } do {
// CHECK-NEXT:      ^bb0(%[[RK2:.*]]: i32, %[[Q2:.*]]: i32):
// CHECK-NEXT:        %[[REST:.*]] = arith.subi %[[E]], %[[RK2]] : i32
// CHECK-NEXT:        %[[LEN:.*]] = arith.minsi %[[W]], %[[REST]] : i32
// CHECK-NEXT:        %[[ROWEND:.*]] = arith.addi %[[RK2]], %[[LEN]] : i32
// CHECK-NEXT:        scf.for %[[I:.*]] = %[[ZERO]] to %[[LEN]] step %{{.*}} : i32 {
// CHECK-NEXT:          %[[RANK:.*]] = arith.addi %[[RK2]], %[[I]] overflow<nsw> : i32
// CHECK-NEXT:          scf.execute_region {
// CHECK-NEXT:            %[[S:.*]] = arith.addi %[[I]], %[[I]] : i32
// CHECK-NEXT:            %[[T:.*]] = arith.addi %[[S]], %[[Q2]] : i32
// CHECK-NEXT:            %[[U:.*]] = arith.addi %[[T]], %[[Q2]] : i32
// The division by the other parameter stays.
// CHECK-NEXT:            %[[V:.*]] = arith.divsi %[[RANK]], %{{.*}} : i32
// CHECK-NEXT:            %[[W2:.*]] = arith.addi %[[U]], %[[V]] : i32
// CHECK-NEXT:            bsgp.ptr.store %[[W2]], %{{.*}}[%[[RANK]]]
// CHECK-NEXT:            scf.yield
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[QN:.*]] = arith.addi %[[Q2]], %[[ONE]] : i32
// CHECK-NEXT:        scf.yield %[[ROWEND]], %[[QN]] : i32, i32
// CHECK-NEXT:      }
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[B]] to %[[E]] step %{{.*}} : i32 {
// CHECK-NEXT:        scf.execute_region {
// CHECK-NEXT:          arith.remsi %[[J]], %[[W]] : i32
// CHECK-NEXT:          arith.remui %[[J]], %[[W]] : i32
// CHECK-NEXT:          arith.addi
// CHECK-NEXT:          arith.divsi %[[J]], %[[W]] : i32
// CHECK:               arith.divui %[[J]], %[[W]] : i32
// CHECK:         llvm.return
bsgp.kernel @grid(%w: i32, %h: i32, %p: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  %x = arith.remsi %r, %w : i32
  %xu = arith.remui %r, %w : i32
  %s = arith.addi %x, %xu : i32
  %y = arith.divsi %r, %w : i32
  %t = arith.addi %s, %y : i32
  %yu = arith.divui %r, %w : i32
  %u = arith.addi %t, %yu : i32
  %v = arith.divsi %r, %h : i32
  %o = arith.addi %u, %v : i32
  bsgp.ptr.store %o, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}

// A chunk accumulation's value is carried through the first row, the
// rows after it and the rank loops of each row; the original loop carries
// it on the other path.
// CHECK-LABEL: llvm.func internal @acc__cpu(
// CHECK:         %[[IF:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK:           %[[Q0:.*]] = arith.divsi
// CHECK:           %[[FIRST:.*]] = scf.for %{{.*}} iter_args(%[[ACC0:.*]] = %{{.*}}) -> (i32) : i32 {
// CHECK:               arith.addi %[[ACC0]], %[[Q0]] : i32
// CHECK:           %[[ROWS:.*]]:3 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[A0:.*]] = %[[FIRST]]) : (i32, i32, i32) -> (i32, i32, i32) {
// CHECK:           ^bb0(%[[RK:.*]]: i32, %[[Q:.*]]: i32, %[[A:.*]]: i32):
// CHECK:             %[[ROW:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[A]]) -> (i32) : i32 {
// CHECK:               %[[SUM:.*]] = arith.addi %[[ACC]], %[[Q]] : i32
// CHECK:             scf.yield %{{.*}}, %{{.*}}, %[[ROW]] : i32, i32, i32
// CHECK:           scf.yield %[[ROWS]]#2 : i32
// CHECK:         } else {
// CHECK:           %[[ORIG:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i32) : i32 {
// CHECK:             arith.divsi
// CHECK:           scf.yield %[[ORIG]] : i32
// CHECK:         bsgp.ptr.store %[[IF]], %{{.*}}[%{{.*}}] : !bsgp.ptr<i32>, i64
bsgp.kernel @acc(%w: i32, %part: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  %y = arith.divsi %r, %w : i32
  bsgp.chunk_reduce "add" %y, %part : !bsgp.ptr<i32>
  bsgp.return
}
