//===- Passes.td - conversion passes of bsgpc --------------*- tablegen -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The passes that take the output of bsgp-outline-kernels (host functions
// with bsgp.launch, and bsgp.kernel ops) down to the LLVM dialect for the
// host and the CPU, to an NVVM device module for CUDA and to a SPIR-V
// module for Vulkan. Each GPU target first builds its device module as a
// module nested in the host module; the passes after it rewrite that
// module step by step, and lib/Target serializes it (bsgp-serialize-ptx,
// bsgp-serialize-spirv). docs/internals.md draws the pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_CONVERSION_PASSES_TD
#define BSGP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Common to every target
//===----------------------------------------------------------------------===//

def BSGPResolveTargetQueriesPass
    : Pass<"bsgp-resolve-target-queries", "::mlir::ModuleOp"> {
  let summary = "Resolve target.cpu/cuda/spirv and group.size in host code";
  let description = [{
    Replaces every `bsgp.target_is` and `bsgp.group_size` of host code
    (outside `bsgp.kernel` ops and, when the object has a CPU target,
    outside functions marked `bsgp.device` or `bsgp.collective`, which the
    CPU kernels share) by its value. With exactly one target the value is a
    constant; in an object for several targets the host runs with whichever
    backend the runtime picked, so the query becomes `bsgprt_target() ==
    BSGPRT_TARGET_<X>`, and the group size a constant where the targets
    share it, else a select on `bsgprt_target()`. In a function copied for
    one target (`bsgp.target`), that target's. Device code is left to each
    target's kernel lowering, which folds the queries to its own constants.
  }];
  let options = [
    Option<"targets", "targets", "std::string", /*default=*/"\"cpu\"",
           "The targets the object carries, comma-separated (cpu,cuda,spirv)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect"];
}

def BSGPSplitSavedWordsPass : Pass<"bsgp-split-saved-words"> {
  let summary = "Split saved values into 32-bit stream words";
  let description = [{
    Temporary streams are arrays of 32-bit words (§4.3): a value saved to
    `n` streams is `n` words, low word first, vector elements in order. This
    pass writes that layout once for every target: each `bsgp.save` and
    `bsgp.load` of a type other than `i32` becomes one `i32` save or load
    per stream, and the value is split into its words and joined back with
    `arith` and `vector` ops (a pointer through `bsgp.ptr.to_int` and
    `bsgp.ptr.from_int`). The targets' lowerings then only store and load
    words. First in code generation, before the targets diverge.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::vector::VectorDialect"];
}

//===----------------------------------------------------------------------===//
// BSGPToLLVM: the CPU target and host code
//===----------------------------------------------------------------------===//

def BSGPLowerKernelsToCPUPass
    : Pass<"bsgp-lower-kernels-cpu", "::mlir::ModuleOp"> {
  let summary = "Turn each bsgp.kernel into a native function over a rank range";
  let description = [{
    For every `bsgp.kernel @k` this pass adds `func.func @k__cpu(%args:
    !llvm.ptr, %begin: i64, %end: i64, %size: i64)`, the signature of
    `bsgprt_cpu_kernel_fn` in the runtime's C ABI. The function unpacks the
    kernel's parameters from the packed argument struct once, then runs the
    kernel body in a loop over ranks `[begin, end)`: the rank loop is the
    innermost loop, so LLVM's loop vectorizer sees one iteration per thread
    (Brook's CPU backend did the same by hand). `bsgp.thread_rank` becomes the
    induction variable and `bsgp.thread_size` the `size` parameter.
    The kernels themselves stay, for the other targets and for
    bsgp-lower-launches, which records `@k__cpu` in the module descriptor.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}

def BSGPSplitRankLoopRowsPass
    : Pass<"bsgp-split-rank-loop-rows", "::mlir::ModuleOp"> {
  let summary = "Split a CPU rank loop that divides the rank by a parameter into rows";
  let description = [{
    Where the rank loop of a CPU entry point (bsgp-lower-kernels-cpu)
    divides the rank by a value `u` defined outside it that is not a
    constant (`rank / u`, `rank % u`, signed or unsigned), the loop becomes
    a loop over rows of `u` ranks around the original body: `rank / u` is
    the row, computed once per chunk and then incremented, and `rank % u`
    is the inner loop's counter (from 0 in every row but the chunk's first,
    which is a loop of its own), `rank` the row's first rank plus it, so no
    division is left per rank and the inner loop is the one a 2-D OpenMP
    loop nest writes. The split
    loop runs under `u >= 16 && begin >= 0`; otherwise (short rows, a zero
    or negative divisor) the original loop does, so results and a division
    by zero are as before. Only the first such divisor is split on.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
}

def BSGPLowerLaunchesPass : Pass<"bsgp-lower-launches", "::mlir::ModuleOp"> {
  let summary = "Lower bsgp.launch to runtime calls and emit the module descriptor";
  let description = [{
    Numbers the module's kernels in order, emits the `bsgprt_module_desc`
    global the runtime reads (kernel names, CPU entry points `@k__cpu` when
    bsgp-lower-kernels-cpu made them, source ranges from `bsgp.srcloc`,
    argument-struct sizes, and the PTX or SPIR-V blobs found in the module's
    `bsgp.ptx` and `bsgp.spirv` attributes), and replaces each
    `bsgp.launch @k(%n) args(...)` by packing the arguments into a stack
    struct and calling `bsgprt_launch`. The argument struct has the natural
    C layout of the lowered parameter types, so the host, the CPU entry
    point and a PTX `.param` buffer agree on it. The kernels are erased.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def BSGPConvertToLLVMPass : Pass<"bsgp-convert-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower host and CPU code (bsgp, func, arith, math, scf, cf) to the LLVM dialect";
  let description = [{
    `!bsgp.ptr<T>` and `!bsgp.stream` become `!llvm.ptr`; pointer ops become
    GEPs, loads and stores; `bsgp.save` / `bsgp.load` split a value into
    32-bit words stored at `index` of one stream each; list and stream
    allocation become calls into libbsgprt, with the op's source location as
    the string the runtime names in its errors. Everything else uses the
    upstream patterns (populateBSGPToLLVMPatterns). No bsgp op may remain.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

//===----------------------------------------------------------------------===//
// BSGPToNVVM: the CUDA target
//===----------------------------------------------------------------------===//

def BSGPCoarsenGroupsPass
    : Pass<"bsgp-coarsen-groups", "::mlir::ModuleOp"> {
  let summary = "Choose how many work groups one CUDA thread block runs";
  let description = [{
    For every `bsgp.kernel` the CUDA target compiles whose CUDA form uses
    work-group operations, decides how many work groups one thread block
    runs (at most `groups-per-block`; CoarsenGroups.h says when a kernel
    keeps one) and records a count above one as the kernel's
    `bsgp.groups_per_block`, the descriptor's ranks_per_thread.
    bsgp-lower-kernels-nvvm interleaves that many work groups in each
    block of the kernel's entry point.
  }];
  let options = [
    Option<"groupsPerBlock", "groups-per-block", "unsigned",
           /*default=*/"8",
           "Work groups one thread block runs in kernels with work-group "
           "operations (a power of two up to 16)">,
  ];
}

def BSGPLowerKernelsToNVVMPass
    : Pass<"bsgp-lower-kernels-nvvm", "::mlir::ModuleOp"> {
  let summary = "Build the CUDA device module: one NVVM kernel per bsgp.kernel";
  let description = [{
    Adds to the host module a device module, `module @bsgp_cuda attributes
    {bsgp.target = "cuda"}`, holding for every `bsgp.kernel @k` an NVVM
    kernel `@k(args: ptr byval(struct) align 8, size: i64)`: the `.param`
    layout the runtime's CUDA backend launches with (`{args, &size}`). The
    thread's rank is `ctaid.x * ntid.x + tid.x`; threads at or past `size`
    return at once, and a kernel without work-group operations loops over
    the ranks with a grid stride. A kernel with `bsgp.groups_per_block`
    (bsgp-coarsen-groups) runs that many work groups per block, its
    top-level ops interleaved across them. Device functions the kernels
    call are cloned in, private. The kernel's body keeps its bsgp ops; the
    target queries are folded for CUDA. The host kernels get
    `bsgp.group_size` where the CUDA form uses work-group operations or a
    `[[block_size]]`, and stay for the other targets.
  }];
  // The target-query folding creates arith constants, the rank loop scf
  // ops: the dialects must be loaded when bsgp-opt runs the pass on a
  // module that had none of their ops.
  let dependentDialects = ["mlir::LLVM::LLVMDialect",
                           "mlir::NVVM::NVVMDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

def BSGPLowerLookbackPass : Pass<"bsgp-lower-lookback", "::mlir::ModuleOp"> {
  let summary = "Expand bsgp.group_lookback into a decoupled look-back";
  let description = [{
    In the CUDA device module, replaces every `bsgp.group_lookback` by
    Merrill and Garland's decoupled look-back of its thread block over the
    status words (LowerLookback.h): atomics on the status stream, a
    `local` word for the block's prefix, group barriers and a warp vote.
    Coarsened kernels have expanded theirs in bsgp-lower-kernels-nvvm,
    once per block.
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

def BSGPLowerGroupOpsToNVVMPass
    : Pass<"bsgp-lower-group-ops-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower work-group and subgroup ops of CUDA kernels to NVVM";
  let description = [{
    In the kernels of the CUDA device module: a work group is a thread
    block, a subgroup a warp. Group queries become special registers (the
    group size the constant 256), group barriers `bar.sync 0`, shuffles,
    votes and matches their `.sync` warp instructions over the full or
    active mask, subgroup reductions `redux.sync` from sm_80 and a shuffle
    tree before, and `local` arrays one shared-memory global per array and
    kernel. Before sm_70, `bsgp.subgroup_match` is expanded into ballots.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "The GPU architecture (sm_XX) to compile for">,
  ];
  let dependentDialects = ["mlir::LLVM::LLVMDialect",
                           "mlir::NVVM::NVVMDialect"];
}

def BSGPConvertToNVVMPass : Pass<"bsgp-convert-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Convert the CUDA device module to the LLVM and NVVM dialects";
  let description = [{
    Lowers everything left in the CUDA device module (bsgp pointer, stream
    and atomic ops, func, arith, math, scf, cf) to the LLVM and NVVM
    dialects with populateBSGPToNVVMPatterns: math with a PTX instruction
    stays an LLVM intrinsic, other math calls libdevice, atomics are atomic
    at device scope, and device pointers are generic addresses. Reports any
    op without a lowering, and drops the `bsgp.*` attributes, which mean
    nothing to LLVM IR. bsgp-serialize-ptx compiles the result.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect",
                           "mlir::NVVM::NVVMDialect",
                           "mlir::cf::ControlFlowDialect"];
}

//===----------------------------------------------------------------------===//
// BSGPToSPIRV: the SPIR-V target
//===----------------------------------------------------------------------===//

def BSGPLowerKernelsToSPIRVPass
    : Pass<"bsgp-lower-kernels-spirv", "::mlir::ModuleOp"> {
  let summary = "Build the SPIR-V device module: one entry function per bsgp.kernel";
  let description = [{
    Adds to the host module a `spirv.module PhysicalStorageBuffer64 GLSL450`
    (Vulkan 1.3 target environment) holding the push constants
    `{uint64 args_address; uint64 size}` and, for every `bsgp.kernel @k`, a
    `func.func @k()` that loads its parameters from the packed argument
    struct at `args_address` (KernelABI.h layout, a PhysicalStorageBuffer),
    takes the linear invocation index `GlobalInvocationId.x +
    GlobalInvocationId.y * NumWorkgroups.x * 256` as its rank and skips its
    body when the rank is not below `size`. Kernels with work-group
    operations number invocations by subgroup and predicate the body's
    memory operations on the rank instead (GroupOps.h). Device functions
    the kernels call are cloned in. The functions keep their bsgp ops; the
    target queries are folded for SPIR-V, and chunk ops, look-backs and
    recursion are reported. With `unroll-loops`, the kernels' short counted
    loops are unrolled (UnrollLoops.cpp), as LLVM does for the other
    targets.
  }];
  let options = [
    Option<"unrollLoops", "unroll-loops", "bool", /*default=*/"true",
           "Unroll the kernels' loops of at most 16 constant trips">
  ];
  let dependentDialects = ["mlir::spirv::SPIRVDialect",
                           "mlir::func::FuncDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}

def BSGPLowerGroupOpsToSPIRVPass
    : Pass<"bsgp-lower-group-ops-spirv", "::mlir::ModuleOp"> {
  let summary = "Lower work-group and subgroup ops to SPIR-V";
  let description = [{
    In the functions of the SPIR-V device module: a work group is a Vulkan
    workgroup of 256 invocations, a subgroup a Vulkan subgroup. Group
    queries read built-in variables (group.count from the push constants'
    thread count), group barriers become OpControlBarrier, shuffles, votes
    and reductions GroupNonUniform instructions (GroupOps.h).
    bsgp-lower-local-arrays-spirv lowers `local` arrays.
  }];
  let dependentDialects = ["mlir::spirv::SPIRVDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

def BSGPLegalizeForSPIRVPass
    : Pass<"bsgp-legalize-for-spirv", "::mlir::ModuleOp"> {
  let summary = "Rewrite atomics, float and 64-bit integer division and double math that SPIR-V lacks or Vulkan relaxes";
  let description = [{
    In the SPIR-V device module: `bsgp.atomic_load` becomes an atomic or of
    0 (the SPIR-V dialect has no OpAtomicLoad), a float `bsgp.atomic_rmw
    addf` a compare-exchange loop on the bits (no float atomics without an
    extension; where every active lane of a subgroup adds to one address,
    the first of them adds the subgroup's sum, with OpGroupNonUniformFAdd,
    so that threads do not retry one by one), and an f32 `arith.divf` a
    division in double precision, rounded once, since Vulkan lets OpFDiv be
    off by 2.5 ULP while BSGP promises IEEE quotients. The math ops on f64
    that GLSL.std.450 has
    only for 16- and 32-bit floats (`math.exp`, `exp2`, `log`, `log2`,
    `log10`, `powf`, `sin`, `cos`, `tan`, `asin`, `acos`, `atan`, `atan2`,
    `sinh`, `cosh`, `tanh`) become calls of functions of the module,
    `bsgp.math.<name>`, created once each, that compute them in software
    (DoubleMath.h). A 64-bit `arith.divui`, `remui`, `divsi` or `remsi`
    whose divisor is not a constant becomes a call of `bsgp.int.udiv64`
    (a 32-bit division where both operands fit, else one shift and
    subtract a quotient bit; signs as C's), since NVIDIA's Vulkan driver
    divided one lane by another lane's divisor (WideDivision.h).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::math::MathDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::spirv::SPIRVDialect"];
}

def BSGPLowerLocalArraysToSPIRVPass
    : Pass<"bsgp-lower-local-arrays-spirv", "::mlir::ModuleOp"> {
  let summary = "Turn private and `local` arrays into SPIR-V variables";
  let description = [{
    In the functions of the SPIR-V device module, a private array (an
    `llvm.alloca` cast to a `!bsgp.ptr`) becomes a Function-storage
    `spirv.Variable` array and a `bsgp.group_local` a Workgroup variable;
    the pointer loads, stores and atomics that reach them become accesses
    through `spirv.AccessChain`, and the array's pointer a byte offset
    (LocalArrays.h). A use that would need the array's address is
    reported.
  }];
  let dependentDialects = ["mlir::spirv::SPIRVDialect",
                           "mlir::arith::ArithDialect"];
}

def BSGPStructurizeForSPIRVPass
    : Pass<"bsgp-structurize-for-spirv", "::mlir::ModuleOp"> {
  let summary = "Check SPIR-V functions are structured; rewrite their compares";
  let description = [{
    SPIR-V shaders need structured control flow. MLIRGen writes early
    returns, breaks and continues as flags and kernel bodies are one block,
    so every function of the SPIR-V device module arrives structured; one
    with branches (IR written by hand) is an error here. Signed 64-bit
    relational compares then become unsigned ones of the operands with their
    sign bits flipped, which lavapipe evaluates right, and the other
    rewrites of SignedCompares.h run.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}

def BSGPConvertToSPIRVPass : Pass<"bsgp-convert-to-spirv", "::mlir::ModuleOp"> {
  let summary = "Convert the SPIR-V device module to the SPIR-V dialect";
  let description = [{
    Lowers everything left in the SPIR-V device module to the SPIR-V
    dialect with populateBSGPToSPIRVPatterns and the upstream patterns:
    pointers and streams are 64-bit device addresses, dereferenced as
    PhysicalStorageBuffer pointers, `bsgp.save` / `bsgp.load` split values
    into stream words, atomics are relaxed at device scope. Float
    arithmetic gets NoContraction; every kernel gets a GLCompute entry
    point of 256 invocations per workgroup whose interface lists the
    variables its call tree uses; the module's version, capabilities and
    extensions are the minimal ones for SPIR-V 1.6. bsgp-serialize-spirv
    writes the result.
  }];
  let dependentDialects = ["mlir::spirv::SPIRVDialect"];
}

#endif // BSGP_CONVERSION_PASSES_TD
