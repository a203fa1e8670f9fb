// RUN: bsgp-opt %s --bsgp-lower-group-ops-nvvm | FileCheck %s
// RUN: bsgp-opt %s --bsgp-lower-group-ops-nvvm="chip=sm_60" | FileCheck %s --check-prefix=SM60

// In the kernels of the CUDA device module (as bsgp-lower-kernels-nvvm
// leaves them), a work group is the thread block and a subgroup the warp:
// group.rank is %tid.x, group.size the constant 256, the group barrier
// bar.sync 0, a `local` array a shared-memory global of the kernel, a
// 64-bit shuffle two 32-bit shfl.sync, a subgroup reduction redux.sync
// over the active lanes (a shuffle tree before sm_80) and a match
// match.any.sync (ballots before sm_70).

// CHECK-LABEL: module @bsgp_cuda
// CHECK: llvm.mlir.global internal @__bsgp_local_groups_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<64 x i32>
// CHECK-LABEL: llvm.func @groups(
// CHECK-NOT: bsgp.group
// CHECK-NOT: bsgp.subgroup
// CHECK: scf.execute_region {
// CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: llvm.mlir.constant(256 : i32) : i32
// group.id is %ctaid.x plus the slice's first work group, first / 256.
// CHECK: %[[CTAID:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK: %[[FIRSTG:.*]] = llvm.udiv %arg2, %{{.*}} : i64
// CHECK: %[[FIRSTG32:.*]] = llvm.trunc %[[FIRSTG]] : i64 to i32
// CHECK: %[[GID:.*]] = llvm.add %[[CTAID]], %[[FIRSTG32]] : i32
// CHECK: %[[LANE:.*]] = nvvm.read.ptx.sreg.laneid : i32
// CHECK: %[[SHARED:.*]] = llvm.mlir.addressof @__bsgp_local_groups_0 : !llvm.ptr<3>
// CHECK: %[[GENERIC:.*]] = llvm.addrspacecast %[[SHARED]] : !llvm.ptr<3> to !llvm.ptr
// CHECK: %[[LOCAL:.*]] = builtin.unrealized_conversion_cast %[[GENERIC]] : !llvm.ptr to !bsgp.ptr<i32>
// CHECK: bsgp.ptr.store %{{.*}}, %[[LOCAL]][%[[TID]]]
// CHECK: nvvm.barrier0
// CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[LANE]]
// CHECK: nvvm.shfl.sync  bfly %{{.*}}, %{{.*}}, %[[LANE]]
// CHECK: llvm.bitcast %{{.*}} : i64 to f64
// CHECK: %[[MASK:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"()
// CHECK: %[[SUM:.*]] = nvvm.redux.sync  add %{{.*}}, %[[MASK]] : i32 -> i32
// CHECK: nvvm.match.sync  any %{{.*}}, %[[SUM]] : i32 -> i32
// CHECK: bsgp.ptr.store %[[SUM]], %{{.*}}[%[[GID]]]

// SM60-LABEL: llvm.func @groups(
// SM60-NOT: nvvm.redux.sync
// SM60-NOT: nvvm.match.sync
// SM60: nvvm.shfl.sync  down
// SM60: llvm.call_intrinsic "llvm.cttz.i32"
// SM60: nvvm.shfl.sync  idx
// SM60: nvvm.vote.sync  ballot
// SM60: llvm.return


// The host module holds the device module.
module {
  module @bsgp_cuda attributes {bsgp.target = "cuda"} {
    llvm.func @groups(%arg0: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(ptr, ptr)>, llvm.noalias}, %arg1: i64, %arg2: i64, %arg3: i64) attributes {bsgp.device, nvvm.kernel} {
      %0 = llvm.getelementptr %arg0[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr)>
      %1 = llvm.load %0 : !llvm.ptr -> !llvm.ptr
      %2 = llvm.addrspacecast %1 : !llvm.ptr to !llvm.ptr<1>
      %3 = llvm.addrspacecast %2 : !llvm.ptr<1> to !llvm.ptr
      %4 = builtin.unrealized_conversion_cast %3 : !llvm.ptr to !bsgp.ptr<i32>
      %5 = llvm.getelementptr %arg0[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr)>
      %6 = llvm.load %5 : !llvm.ptr -> !llvm.ptr
      %7 = llvm.addrspacecast %6 : !llvm.ptr to !llvm.ptr<1>
      %8 = llvm.addrspacecast %7 : !llvm.ptr<1> to !llvm.ptr
      %9 = builtin.unrealized_conversion_cast %8 : !llvm.ptr to !bsgp.ptr<f64>
      %10 = nvvm.read.ptx.sreg.ctaid.x : i32
      %11 = llvm.zext %10 : i32 to i64
      %12 = nvvm.read.ptx.sreg.ntid.x : i32
      %13 = llvm.zext %12 : i32 to i64
      %14 = nvvm.read.ptx.sreg.tid.x : i32
      %15 = llvm.zext %14 : i32 to i64
      %16 = llvm.mul %11, %13 : i64
      %17 = llvm.add %16, %15 : i64
      %18 = llvm.trunc %17 : i64 to i32
      %19 = llvm.trunc %arg1 : i64 to i32
      %20 = llvm.icmp "ult" %17, %arg1 : i64
      scf.if %20 {
        scf.execute_region {
          %21 = bsgp.group_rank : i32
          %22 = bsgp.group_size : i32
          %23 = bsgp.group_id : i32
          %24 = bsgp.subgroup_rank : i32
          %25 = bsgp.group_local 64 : <i32>
          bsgp.ptr.store %18, %25[%21] : !bsgp.ptr<i32>, i32
          bsgp.group_barrier
          %26 = bsgp.ptr.load %9[%18] : !bsgp.ptr<f64>, i32
          %27 = bsgp.subgroup_shuffle "xor" %26, %24 : f64
          bsgp.ptr.store %27, %9[%18] : !bsgp.ptr<f64>, i32
          %28 = bsgp.subgroup_reduce "add" %18 : i32
          %29 = bsgp.subgroup_match %28 : i32
          bsgp.ptr.store %28, %4[%23] : !bsgp.ptr<i32>, i32
          scf.yield
        }
      }
      llvm.return
    }
  }
}
