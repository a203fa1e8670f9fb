// RUN: bsgp-opt %s --bsgp-lower-kernels-spirv | FileCheck %s

// The SPIR-V device module on its own, as bsgp-opt builds it: a module with
// no func op must still lower (the kernels are built as func.func, so the
// pass loads the func dialect itself). The device module holds the Vulkan
// target environment, the rank's built-ins and the push constants
// {args_address, size}; each kernel becomes a func.func that loads its
// parameters from the argument struct at args_address (natural C layout)
// and runs its body for the ranks of a grid-stride loop: from the linear
// invocation index (GlobalInvocationId.x + GlobalInvocationId.y *
// NumWorkgroups.x * 256) below `size`, by the grid's invocations
// (NumWorkgroups.x * 256 * NumWorkgroups.y), so that the runtime may
// dispatch fewer workgroups than size / 256. The body keeps its bsgp ops;
// the kernel stays for other targets.

// CHECK-LABEL: bsgp.kernel @store_rank(
// CHECK: bsgp.return
bsgp.kernel @store_rank(%p: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}

// CHECK-LABEL: module @bsgp_spirv attributes {bsgp.target = "spirv", spirv.target_env = #spirv.target_env<#spirv.vce<v1.6,
// CHECK: spirv.GlobalVariable @bsgp_global_invocation_id built_in("GlobalInvocationId")
// CHECK: spirv.GlobalVariable @bsgp_num_workgroups built_in("NumWorkgroups")
// CHECK: spirv.GlobalVariable @bsgp_push_constants : !spirv.ptr<!spirv.struct<(i64 [0], i64 [8], i64 [16], i64 [24]), Block>, PushConstant>
// CHECK-LABEL: func.func @store_rank() attributes {bsgp.device}
// CHECK: %[[ARGS:.*]] = spirv.Load "PushConstant" %{{.*}} : i64
// CHECK: %[[SIZE:.*]] = spirv.Load "PushConstant" %{{.*}} : i64
// CHECK: %[[ADDR:.*]] = arith.addi %[[ARGS]], %c0_i64 : i64
// CHECK: %[[PTR:.*]] = spirv.ConvertUToPtr %[[ADDR]] : i64 to !spirv.ptr<i64, PhysicalStorageBuffer>
// CHECK: %[[RAW:.*]] = spirv.Load "PhysicalStorageBuffer" %[[PTR]] ["Aligned", 8] : i64
// CHECK: %[[P:.*]] = builtin.unrealized_conversion_cast %[[RAW]] : i64 to !bsgp.ptr<i32>
// The slice [first, end) the dispatch runs: push constants 3 and 2.
// CHECK: %[[END:.*]] = spirv.Load "PushConstant" %{{.*}} : i64
// CHECK: %[[FIRST:.*]] = spirv.Load "PushConstant" %{{.*}} : i64
// CHECK: %[[GID:.*]] = spirv.Load "Input" %{{.*}} : vector<3xi32>
// CHECK: %[[NWG:.*]] = spirv.Load "Input" %{{.*}} : vector<3xi32>
// CHECK: %[[NX:.*]] = spirv.CompositeExtract %[[NWG]][0 : i32]
// CHECK: %[[NX64:.*]] = arith.extui %[[NX]] : i32 to i64
// CHECK: %[[ROW:.*]] = arith.muli %[[NX64]], %c256_i64 : i64
// CHECK: %[[GX:.*]] = spirv.CompositeExtract %[[GID]][0 : i32]
// CHECK: %[[GX64:.*]] = arith.extui %[[GX]] : i32 to i64
// CHECK: %[[GY:.*]] = spirv.CompositeExtract %[[GID]][1 : i32]
// CHECK: %[[GY64:.*]] = arith.extui %[[GY]] : i32 to i64
// CHECK: %[[OFF:.*]] = arith.muli %[[GY64]], %[[ROW]] : i64
// CHECK: %[[LOCAL:.*]] = arith.addi %[[GX64]], %[[OFF]] : i64
// CHECK: %[[START:.*]] = arith.addi %[[FIRST]], %[[LOCAL]] : i64
// CHECK: %[[NY:.*]] = spirv.CompositeExtract %[[NWG]][1 : i32]
// CHECK: %[[NY64:.*]] = arith.extui %[[NY]] : i32 to i64
// CHECK: %[[STRIDE:.*]] = arith.muli %[[ROW]], %[[NY64]] : i64
// CHECK: scf.for unsigned %[[R64:.*]] = %[[START]] to %[[END]] step %[[STRIDE]] : i64 {
// CHECK-NEXT: %[[RANK:.*]] = arith.trunci %[[R64]] : i64 to i32
// CHECK-NEXT: bsgp.ptr.store %[[RANK]], %[[P]][%[[RANK]]]
// CHECK-NEXT: }
// CHECK-NEXT: return
