// RUN: bsgp-opt %s --bsgp-serialize-spirv | FileCheck %s
// RUN: bsgp-opt %s --bsgp-serialize-spirv="opt-level=0" | FileCheck %s

// The spirv.module of the host module (as bsgp-convert-to-spirv leaves it)
// is serialized, validated for Vulkan 1.3 with SPIRV-Tools (and optimized
// at opt-level 1 and above) and stored in the host module's bsgp.spirv
// attribute, little-endian words from the magic number 0x07230203 on; the
// spirv.module goes away and the kernel stays for bsgp-lower-launches.

// CHECK: module attributes {bsgp.spirv = "\03\02#\07
// CHECK-NOT: spirv.module
// CHECK: bsgp.kernel @scale(

module {
  bsgp.kernel @scale(%arg0: !bsgp.ptr<f32>) {
    %0 = bsgp.thread_rank : i32
    %1 = bsgp.ptr.load %arg0[%0] : !bsgp.ptr<f32>, i32
    %2 = math.trunc %1 : f32
    %3 = arith.mulf %2, %1 : f32
    bsgp.ptr.store %3, %arg0[%0] : !bsgp.ptr<f32>, i32
    bsgp.return
  }
  spirv.module PhysicalStorageBuffer64 GLSL450 requires #spirv.vce<v1.6, [Int64, Shader, PhysicalStorageBufferAddresses, Matrix], []> attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.6, [Shader, Int8, Int16, Int64, Float16, Float64, StorageBuffer8BitAccess, StorageBuffer16BitAccess, PhysicalStorageBufferAddresses, Int64Atomics, GroupNonUniform, GroupNonUniformVote, GroupNonUniformBallot, GroupNonUniformShuffle, GroupNonUniformArithmetic], []>, api=Vulkan, #spirv.resource_limits<>>} {
    spirv.GlobalVariable @bsgp_global_invocation_id built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @bsgp_num_workgroups built_in("NumWorkgroups") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @bsgp_push_constants : !spirv.ptr<!spirv.struct<(i64 [0], i64 [8]), Block>, PushConstant>
    spirv.func @scale() "None" {
      %bsgp_push_constants_addr = spirv.mlir.addressof @bsgp_push_constants : !spirv.ptr<!spirv.struct<(i64 [0], i64 [8]), Block>, PushConstant>
      %cst0_i32 = spirv.Constant 0 : i32
      %0 = spirv.AccessChain %bsgp_push_constants_addr[%cst0_i32] : !spirv.ptr<!spirv.struct<(i64 [0], i64 [8]), Block>, PushConstant>, i32 -> !spirv.ptr<i64, PushConstant>
      %1 = spirv.Load "PushConstant" %0 : i64
      %bsgp_push_constants_addr_0 = spirv.mlir.addressof @bsgp_push_constants : !spirv.ptr<!spirv.struct<(i64 [0], i64 [8]), Block>, PushConstant>
      %cst1_i32 = spirv.Constant 1 : i32
      %2 = spirv.AccessChain %bsgp_push_constants_addr_0[%cst1_i32] : !spirv.ptr<!spirv.struct<(i64 [0], i64 [8]), Block>, PushConstant>, i32 -> !spirv.ptr<i64, PushConstant>
      %3 = spirv.Load "PushConstant" %2 : i64
      %cst0_i64 = spirv.Constant 0 : i64
      %4 = spirv.ConvertUToPtr %1 : i64 to !spirv.ptr<i64, PhysicalStorageBuffer>
      %5 = spirv.Load "PhysicalStorageBuffer" %4 ["Aligned", 8] : i64
      %bsgp_global_invocation_id_addr = spirv.mlir.addressof @bsgp_global_invocation_id : !spirv.ptr<vector<3xi32>, Input>
      %6 = spirv.Load "Input" %bsgp_global_invocation_id_addr : vector<3xi32>
      %bsgp_num_workgroups_addr = spirv.mlir.addressof @bsgp_num_workgroups : !spirv.ptr<vector<3xi32>, Input>
      %7 = spirv.Load "Input" %bsgp_num_workgroups_addr : vector<3xi32>
      %8 = spirv.CompositeExtract %7[0 : i32] : vector<3xi32>
      %9 = spirv.UConvert %8 : i32 to i64
      %cst256_i64 = spirv.Constant 256 : i64
      %10 = spirv.IMul %9, %cst256_i64 : i64
      %11 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
      %12 = spirv.UConvert %11 : i32 to i64
      %13 = spirv.CompositeExtract %6[1 : i32] : vector<3xi32>
      %14 = spirv.UConvert %13 : i32 to i64
      %15 = spirv.IMul %14, %10 : i64
      %16 = spirv.IAdd %12, %15 : i64
      %17 = spirv.ULessThan %16, %3 : i64
      %18 = spirv.SConvert %16 : i64 to i32
      %19 = spirv.SConvert %3 : i64 to i32
      spirv.mlir.selection {
        spirv.BranchConditional %17, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %20 = spirv.SConvert %18 : i32 to i64
        %cst4_i64 = spirv.Constant 4 : i64
        %21 = spirv.IMul %20, %cst4_i64 : i64
        %22 = spirv.IAdd %5, %21 : i64
        %23 = spirv.ConvertUToPtr %22 : i64 to !spirv.ptr<f32, PhysicalStorageBuffer>
        %24 = spirv.Load "PhysicalStorageBuffer" %23 ["Aligned", 4] : f32
        %cst_f32 = spirv.Constant 0.000000e+00 : f32
        %25 = spirv.FOrdLessThan %24, %cst_f32 : f32
        %26 = spirv.GL.Ceil %24 : f32
        %27 = spirv.GL.Floor %24 : f32
        %28 = spirv.Select %25, %26, %27 : i1, f32
        %29 = spirv.FMul %28, %24 {no_contraction} : f32
        %30 = spirv.SConvert %18 : i32 to i64
        %cst4_i64_1 = spirv.Constant 4 : i64
        %31 = spirv.IMul %30, %cst4_i64_1 : i64
        %32 = spirv.IAdd %5, %31 : i64
        %33 = spirv.ConvertUToPtr %32 : i64 to !spirv.ptr<f32, PhysicalStorageBuffer>
        spirv.Store "PhysicalStorageBuffer" %33, %29 ["Aligned", 4] : f32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @scale, @bsgp_global_invocation_id, @bsgp_num_workgroups, @bsgp_push_constants
    spirv.ExecutionMode @scale "LocalSize", 256, 1, 1
  }
}

