// RUN: bsgp-opt %s --bsgp-lower-group-ops-spirv | FileCheck %s

// In the functions of the SPIR-V device module (as bsgp-lower-kernels-spirv
// leaves them), group queries read built-in variables, declared once in the
// module: group.rank numbers the invocations by subgroup, group.count is
// the thread count (the push constants' `size`) rounded up to whole
// workgroups. The group barrier is an OpControlBarrier, the subgroup
// reduction, vote and shuffle are GroupNonUniform instructions; the
// missing ranks (past the thread count) reduce the identity and vote
// false, and a shuffle from a lane outside the subgroup reads the lane's
// own value, as on CUDA.

// CHECK-LABEL: module @bsgp_spirv
// CHECK-COUNT-1: spirv.GlobalVariable @bsgp_subgroup_id built_in("SubgroupId")
// CHECK-NOT: spirv.GlobalVariable @bsgp_subgroup_id
// CHECK-LABEL: func.func @groups()
// CHECK-NOT: bsgp.group
// CHECK-NOT: bsgp.subgroup
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i64
// CHECK: %[[RANK:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: scf.if
// CHECK: spirv.mlir.addressof @bsgp_subgroup_id
// CHECK: %[[SIZE:.*]] = spirv.Load "PushConstant" %{{.*}} : i64
// CHECK: arith.addi %[[SIZE]], %c255_i64 : i64
// CHECK: arith.divui
// CHECK: spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|UniformMemory|WorkgroupMemory>
// CHECK: %[[V:.*]] = arith.select %[[IN]], %[[RANK]], %c0_i32 : i32
// CHECK: %[[SUM:.*]] = spirv.GroupNonUniformIAdd <Subgroup> <Reduce> %[[V]] : i32 -> i32
// CHECK: %[[VOTE:.*]] = arith.andi %true, %[[IN]] : i1
// CHECK: spirv.GroupNonUniformAny <Subgroup> %[[VOTE]] : i1
// CHECK: %[[SRC:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// CHECK: spirv.GroupNonUniformShuffle <Subgroup> %[[SUM]], %[[SRC]] : i32, i32
// CHECK: return

module {
  module @bsgp_spirv attributes {bsgp.target = "spirv", spirv.target_env = #spirv.target_env<#spirv.vce<v1.6, [Shader, Int8, Int16, Int64, Float16, Float64, StorageBuffer8BitAccess, StorageBuffer16BitAccess, PhysicalStorageBufferAddresses, Int64Atomics, GroupNonUniform, GroupNonUniformVote, GroupNonUniformBallot, GroupNonUniformShuffle, GroupNonUniformArithmetic], []>, api=Vulkan, #spirv.resource_limits<>>} {
    spirv.GlobalVariable @bsgp_global_invocation_id built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @bsgp_num_workgroups built_in("NumWorkgroups") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @bsgp_push_constants : !spirv.ptr<!spirv.struct<(i64 [0], i64 [8]), Block>, PushConstant>
    spirv.GlobalVariable @bsgp_workgroup_id built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @bsgp_subgroup_id built_in("SubgroupId") : !spirv.ptr<i32, Input>
    spirv.GlobalVariable @bsgp_subgroup_size built_in("SubgroupSize") : !spirv.ptr<i32, Input>
    spirv.GlobalVariable @bsgp_subgroup_local_invocation_id built_in("SubgroupLocalInvocationId") : !spirv.ptr<i32, Input>
    func.func @groups() attributes {bsgp.device} {
      %bsgp_push_constants_addr = spirv.mlir.addressof @bsgp_push_constants : !spirv.ptr<!spirv.struct<(i64 [0], i64 [8]), Block>, PushConstant>
      %cst0_i32 = spirv.Constant 0 : i32
      %0 = spirv.AccessChain %bsgp_push_constants_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i64 [0], i64 [8]), Block>, PushConstant>, i32 -> !spirv.ptr<i64, PushConstant>
      %1 = spirv.Load "PushConstant" %0 : i64
      %bsgp_push_constants_addr_0 = spirv.mlir.addressof @bsgp_push_constants : !spirv.ptr<!spirv.struct<(i64 [0], i64 [8]), Block>, PushConstant>
      %cst1_i32 = spirv.Constant 1 : i32
      %2 = spirv.AccessChain %bsgp_push_constants_addr_0[%cst1_i32] : !spirv.ptr<!spirv.struct<(i64 [0], i64 [8]), Block>, PushConstant>, i32 -> !spirv.ptr<i64, PushConstant>
      %3 = spirv.Load "PushConstant" %2 : i64
      %c0_i64 = arith.constant 0 : i64
      %4 = arith.addi %1, %c0_i64 : i64
      %5 = spirv.ConvertUToPtr %4 : i64 to !spirv.ptr<i64, PhysicalStorageBuffer>
      %6 = spirv.Load "PhysicalStorageBuffer" %5 ["Aligned", 8] : i64
      %7 = builtin.unrealized_conversion_cast %6 : i64 to !bsgp.ptr<i32>
      %bsgp_workgroup_id_addr = spirv.mlir.addressof @bsgp_workgroup_id : !spirv.ptr<vector<3xi32>, Input>
      %8 = spirv.Load "Input" %bsgp_workgroup_id_addr : vector<3xi32>
      %9 = spirv.CompositeExtract %8[0 : i32] : vector<3xi32>
      %bsgp_workgroup_id_addr_1 = spirv.mlir.addressof @bsgp_workgroup_id : !spirv.ptr<vector<3xi32>, Input>
      %10 = spirv.Load "Input" %bsgp_workgroup_id_addr_1 : vector<3xi32>
      %11 = spirv.CompositeExtract %10[1 : i32] : vector<3xi32>
      %bsgp_num_workgroups_addr = spirv.mlir.addressof @bsgp_num_workgroups : !spirv.ptr<vector<3xi32>, Input>
      %12 = spirv.Load "Input" %bsgp_num_workgroups_addr : vector<3xi32>
      %13 = spirv.CompositeExtract %12[0 : i32] : vector<3xi32>
      %14 = arith.muli %11, %13 : i32
      %15 = arith.addi %9, %14 : i32
      %16 = arith.extui %15 : i32 to i64
      %bsgp_subgroup_id_addr = spirv.mlir.addressof @bsgp_subgroup_id : !spirv.ptr<i32, Input>
      %17 = spirv.Load "Input" %bsgp_subgroup_id_addr : i32
      %bsgp_subgroup_size_addr = spirv.mlir.addressof @bsgp_subgroup_size : !spirv.ptr<i32, Input>
      %18 = spirv.Load "Input" %bsgp_subgroup_size_addr : i32
      %bsgp_subgroup_local_invocation_id_addr = spirv.mlir.addressof @bsgp_subgroup_local_invocation_id : !spirv.ptr<i32, Input>
      %19 = spirv.Load "Input" %bsgp_subgroup_local_invocation_id_addr : i32
      %20 = arith.muli %17, %18 : i32
      %21 = arith.addi %20, %19 : i32
      %22 = arith.extui %21 : i32 to i64
      %c256_i64 = arith.constant 256 : i64
      %23 = arith.muli %16, %c256_i64 : i64
      %24 = arith.addi %23, %22 : i64
      %25 = arith.cmpi ult, %24, %3 : i64
      %26 = arith.trunci %24 : i64 to i32
      %27 = arith.trunci %3 : i64 to i32
      %28 = arith.cmpi ult, %23, %3 : i64
      scf.if %28 {
        %29 = bsgp.group_rank : i32
        %30 = bsgp.group_count : i32
        bsgp.group_barrier
        %c0_i32 = arith.constant 0 : i32
        %31 = arith.select %25, %26, %c0_i32 : i32
        %32 = bsgp.subgroup_reduce "add" %31 : i32
        %true = arith.constant true
        %33 = arith.andi %true, %25 : i1
        %34 = bsgp.subgroup_vote "any" %33 : i1
        %35 = bsgp.subgroup_shuffle "xor" %32, %29 : i32
        %36 = arith.addi %35, %30 : i32
        scf.if %25 {
          bsgp.ptr.store %36, %7[%26] : !bsgp.ptr<i32>, i32
        } else {
        }
      }
      return
    }
  }
}
