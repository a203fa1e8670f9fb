// RUN: bsgp-opt %s --bsgp-coarsen-groups | FileCheck %s
// RUN: bsgp-opt %s --bsgp-coarsen-groups="groups-per-block=2" | FileCheck %s --check-prefix=TWO

// A kernel with work-group operations whose top level loads from device
// memory runs several work groups per CUDA block (the option, at most);
// the choice is the kernel's bsgp.groups_per_block.

// CHECK-LABEL: bsgp.kernel @load_then_reduce(
// CHECK-SAME: bsgp.groups_per_block = 8 : i32
// TWO-LABEL: bsgp.kernel @load_then_reduce(
// TWO-SAME: bsgp.groups_per_block = 2 : i32
bsgp.kernel @load_then_reduce(%p: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  %v = bsgp.ptr.load %p[%r] : !bsgp.ptr<i32>, i32
  %s = bsgp.subgroup_reduce "add" %v : i32
  bsgp.ptr.store %s, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}

// Eight or four copies of a 16 KiB `local` array would not fit 48 KiB of
// static shared memory: two work groups, not eight.
// CHECK-LABEL: bsgp.kernel @big_local(
// CHECK-SAME: bsgp.groups_per_block = 2 : i32
bsgp.kernel @big_local(%p: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  %v = bsgp.ptr.load %p[%r] : !bsgp.ptr<i32>, i32
  %a = bsgp.group_local 4096 : !bsgp.ptr<i32>
  %g = bsgp.group_rank : i32
  bsgp.ptr.store %v, %a[%g] : !bsgp.ptr<i32>, i32
  bsgp.group_barrier
  bsgp.return
}

// Nothing loaded at the top level: nothing to overlap, one group a block.
// CHECK-LABEL: bsgp.kernel @no_load(
// CHECK-NOT: bsgp.groups_per_block
// CHECK-SAME: {
bsgp.kernel @no_load(%p: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  bsgp.group_barrier
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}

// No work-group operation in the CUDA form (the barrier is for the CPU):
// the kernel runs as a grid-stride loop, not in work groups.
// CHECK-LABEL: bsgp.kernel @cpu_groups(
// CHECK-NOT: bsgp.groups_per_block
// CHECK-SAME: {
bsgp.kernel @cpu_groups(%p: !bsgp.ptr<i32>) {
  %q = bsgp.target_is "cpu" : i1
  %r = bsgp.thread_rank : i32
  %v = bsgp.ptr.load %p[%r] : !bsgp.ptr<i32>, i32
  scf.if %q {
    bsgp.group_barrier
  }
  bsgp.ptr.store %v, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}

// Lowered, a block runs its groups_per_block work groups only when the
// grid has fewer blocks than the slice has work groups: the runtime
// launches a block per work group where the coarsened grid would leave
// multiprocessors idle (ABI version 7), and then no block is full.
// RUN: bsgp-opt %s --bsgp-coarsen-groups="groups-per-block=2" --bsgp-lower-kernels-nvvm | FileCheck %s --check-prefix=LOWER
// LOWER-LABEL: llvm.func @load_then_reduce(
// LOWER-SAME: %{{[^:]*}}: !llvm.ptr {{{.*}}}, %{{[^:]*}}: i64, %[[FIRST:[^:]*]]: i64, %[[END:[^:]*]]: i64)
// LOWER: %[[BLOCK:.*]] = nvvm.read.ptx.sreg.ctaid.x
// LOWER: %[[BLOCK64:.*]] = llvm.zext %[[BLOCK]]
// LOWER: %[[RANKS:.*]] = llvm.sub %[[END]], %[[FIRST]] : i64
// LOWER: %[[ROUND:.*]] = llvm.add %[[RANKS]], %{{.*}} : i64
// LOWER: %[[GROUPS:.*]] = llvm.udiv %[[ROUND]], %{{.*}} : i64
// LOWER: %[[GRID:.*]] = nvvm.read.ptx.sreg.nctaid.x
// LOWER: %[[GRID64:.*]] = llvm.zext %[[GRID]]
// LOWER: %[[ONE:.*]] = llvm.icmp "uge" %[[GRID64]], %[[GROUPS]] : i64
// LOWER: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64)
// LOWER: %[[PER:.*]] = llvm.mlir.constant(512 : i64)
// LOWER: %[[COARSE:.*]] = llvm.udiv %[[RANKS]], %[[PER]] : i64
// LOWER: %[[FULL:.*]] = llvm.select %[[ONE]], %[[ZERO]], %[[COARSE]] : i1, i64
// LOWER: llvm.icmp "ult" %[[BLOCK64]], %[[FULL]] : i64
