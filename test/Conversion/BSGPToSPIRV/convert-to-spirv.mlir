// RUN: bsgp-opt %s --bsgp-convert-to-spirv | FileCheck %s

// The last conversion of the SPIR-V device module (here as the passes
// before it leave a kernel): the builtin module becomes a spirv.module with
// the minimal capabilities for SPIR-V 1.6, functions become spirv.func,
// pointers 64-bit PhysicalStorageBuffer addresses, float arithmetic gets
// NoContraction, math.trunc is Ceil below zero and Floor elsewhere (the
// SPIR-V dialect has no GLSL.std.450 Trunc), and every kernel gets a
// GLCompute entry point of 256 invocations whose interface lists the
// variables it uses.

// CHECK-NOT: module @bsgp_spirv
// CHECK-LABEL: spirv.module PhysicalStorageBuffer64 GLSL450 requires #spirv.vce<v1.6, [{{[^]]*}}PhysicalStorageBufferAddresses{{[^]]*}}], []>
// CHECK: spirv.GlobalVariable @bsgp_push_constants
// CHECK-LABEL: spirv.func @scale() "None" {
// CHECK-NOT: bsgp.
// CHECK: spirv.mlir.selection {
// CHECK: %[[X:.*]] = spirv.Load "PhysicalStorageBuffer" %{{.*}} ["Aligned", 4] : f32
// CHECK: %[[ZERO:.*]] = spirv.Constant 0.000000e+00 : f32
// CHECK: %[[NEG:.*]] = spirv.FOrdLessThan %[[X]], %[[ZERO]] : f32
// CHECK: %[[UP:.*]] = spirv.GL.Ceil %[[X]] : f32
// CHECK: %[[DOWN:.*]] = spirv.GL.Floor %[[X]] : f32
// CHECK: %[[T:.*]] = spirv.Select %[[NEG]], %[[UP]], %[[DOWN]] : i1, f32
// CHECK: spirv.FMul %[[T]], %[[X]] {no_contraction} : f32
// CHECK: spirv.Store "PhysicalStorageBuffer"
// CHECK: spirv.Return
// CHECK: spirv.EntryPoint "GLCompute" @scale, @bsgp_global_invocation_id, @bsgp_num_workgroups, @bsgp_push_constants
// CHECK: spirv.ExecutionMode @scale "LocalSize", 256, 1, 1

module {
  bsgp.kernel @scale(%arg0: !bsgp.ptr<f32>) {
    %0 = bsgp.thread_rank : i32
    %1 = bsgp.ptr.load %arg0[%0] : !bsgp.ptr<f32>, i32
    %2 = math.trunc %1 : f32
    %3 = arith.mulf %2, %1 : f32
    bsgp.ptr.store %3, %arg0[%0] : !bsgp.ptr<f32>, i32
    bsgp.return
  }
  module @bsgp_spirv attributes {bsgp.target = "spirv", spirv.target_env = #spirv.target_env<#spirv.vce<v1.6, [Shader, Int8, Int16, Int64, Float16, Float64, StorageBuffer8BitAccess, StorageBuffer16BitAccess, PhysicalStorageBufferAddresses, Int64Atomics, GroupNonUniform, GroupNonUniformVote, GroupNonUniformBallot, GroupNonUniformShuffle, GroupNonUniformArithmetic], []>, api=Vulkan, #spirv.resource_limits<>>} {
    spirv.GlobalVariable @bsgp_global_invocation_id built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @bsgp_num_workgroups built_in("NumWorkgroups") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @bsgp_push_constants : !spirv.ptr<!spirv.struct<(i64 [0], i64 [8]), Block>, PushConstant>
    func.func @scale() attributes {bsgp.device} {
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
      %7 = builtin.unrealized_conversion_cast %6 : i64 to !bsgp.ptr<f32>
      %bsgp_global_invocation_id_addr = spirv.mlir.addressof @bsgp_global_invocation_id : !spirv.ptr<vector<3xi32>, Input>
      %8 = spirv.Load "Input" %bsgp_global_invocation_id_addr : vector<3xi32>
      %bsgp_num_workgroups_addr = spirv.mlir.addressof @bsgp_num_workgroups : !spirv.ptr<vector<3xi32>, Input>
      %9 = spirv.Load "Input" %bsgp_num_workgroups_addr : vector<3xi32>
      %10 = spirv.CompositeExtract %9[0 : i32] : vector<3xi32>
      %11 = arith.extui %10 : i32 to i64
      %c256_i64 = arith.constant 256 : i64
      %12 = arith.muli %11, %c256_i64 : i64
      %13 = spirv.CompositeExtract %8[0 : i32] : vector<3xi32>
      %14 = arith.extui %13 : i32 to i64
      %15 = spirv.CompositeExtract %8[1 : i32] : vector<3xi32>
      %16 = arith.extui %15 : i32 to i64
      %17 = arith.muli %16, %12 : i64
      %18 = arith.addi %14, %17 : i64
      %19 = arith.cmpi ult, %18, %3 : i64
      %20 = arith.trunci %18 : i64 to i32
      %21 = arith.trunci %3 : i64 to i32
      scf.if %19 {
        %22 = bsgp.ptr.load %7[%20] : !bsgp.ptr<f32>, i32
        %23 = math.trunc %22 : f32
        %24 = arith.mulf %23, %22 : f32
        bsgp.ptr.store %24, %7[%20] : !bsgp.ptr<f32>, i32
      }
      return
    }
  }
}

