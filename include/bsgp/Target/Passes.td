//===- Passes.td - code generation passes of bsgpc ---------*- tablegen -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The passes that take the output of bsgp-outline-kernels (host functions
// with bsgp.launch, and bsgp.kernel ops) down to the LLVM dialect. Device
// code goes to one of the targets; host code always becomes LLVM IR for the
// host.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_TARGET_PASSES_TD
#define BSGP_TARGET_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerKernelsToCPU : Pass<"bsgp-lower-kernels-cpu", "mlir::ModuleOp"> {
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

def LowerLaunches : Pass<"bsgp-lower-launches", "mlir::ModuleOp"> {
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

def ConvertBSGPToLLVM : Pass<"bsgp-convert-to-llvm", "mlir::ModuleOp"> {
  let summary = "Lower host and CPU code (bsgp, func, arith, math, scf, cf) to the LLVM dialect";
  let description = [{
    `!bsgp.ptr<T>` and `!bsgp.stream` become `!llvm.ptr`; pointer ops become
    GEPs, loads and stores; `bsgp.save` / `bsgp.load` split a value into
    32-bit words stored at `index` of one stream each; list and stream
    allocation become calls into libbsgprt, with the op's source location as
    the string the runtime names in its errors. Everything else uses the
    upstream patterns. No bsgp op may remain.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def LowerKernelsToNVVM : Pass<"bsgp-lower-kernels-nvvm", "mlir::ModuleOp"> {
  let summary = "Compile every bsgp.kernel to PTX and attach it to the module";
  let description = [{
    Builds a device module holding, for every `bsgp.kernel @k`, an NVVM
    kernel `@k(args: ptr byval(struct) align 8, size: i64)`: the `.param`
    layout the runtime's CUDA backend launches with (`{args, &size}`). The
    thread's rank is `ctaid.x * ntid.x + tid.x`; threads at or past `size`
    return at once. A kernel with work-group operations whose top level
    loads from device memory runs `groups-per-block` work groups per block,
    its top-level ops interleaved across them (attribute
    `bsgp.groups_per_block`, the descriptor's groups_per_block). Device functions the kernels call are cloned in. Device
    pointers and streams are global (address space 1) pointers. Math
    functions without a PTX instruction call libdevice, linked from the CUDA
    toolkit. The module is compiled by LLVM's NVPTX back end and the PTX is
    stored in the host module's `bsgp.ptx` attribute, which
    bsgp-lower-launches puts in the module descriptor. The kernels stay for
    the other targets.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "The GPU architecture (sm_XX) to compile for">,
    Option<"cudaPath", "cuda-path", "std::string", /*default=*/"\"\"",
           "CUDA toolkit root holding nvvm/libdevice (default: found at "
           "the usual places)">,
    Option<"groupsPerBlock", "groups-per-block", "unsigned",
           /*default=*/"8",
           "Work groups one thread block runs in kernels with work-group "
           "operations (a power of two up to 16)">,
    Option<"lineInfo", "line-info", "bool", /*default=*/"false",
           "Emit line info so that profilers map PTX to BSGP lines">,
  ];
  // The target-query folding creates arith constants and the lowering cf
  // branches: both dialects must be loaded when bsgp-opt runs the pass on
  // a module that had none of their ops.
  let dependentDialects = ["mlir::LLVM::LLVMDialect",
                           "mlir::NVVM::NVVMDialect",
                           "mlir::arith::ArithDialect",
                           "mlir::cf::ControlFlowDialect",
                           "mlir::scf::SCFDialect"];
}

def LowerKernelsToSPIRV : Pass<"bsgp-lower-kernels-spirv", "mlir::ModuleOp"> {
  let summary = "Compile every bsgp.kernel to one SPIR-V module for Vulkan";
  let description = [{
    Builds one `spirv.module PhysicalStorageBuffer64 GLSL450` (SPIR-V 1.6,
    Vulkan 1.3) with a GLCompute entry point `@k` of 256 threads per
    workgroup for every `bsgp.kernel @k`. Each entry point reads the push
    constants `{uint64 args_address; uint64 size}`, loads its parameters
    from the packed argument struct at `args_address` (KernelABI.h layout,
    a PhysicalStorageBuffer), takes the linear invocation index
    `GlobalInvocationId.x + GlobalInvocationId.y * NumWorkgroups.x * 256` as
    its rank and returns at once when the rank is not below `size`. Pointers and streams
    are 64-bit device addresses, dereferenced as PhysicalStorageBuffer
    pointers; local arrays are Function variables. Device functions the
    kernels call are cloned in. The binary is
    stored in the host module's `bsgp.spirv` attribute, which
    bsgp-lower-launches puts in the module descriptor. The kernels stay for
    the other targets. The binary is validated for Vulkan 1.3 with
    SPIRV-Tools and, at `opt-level` 1 and above, optimized with SPIRV-Tools'
    performance passes and validated again; a module that fails is a
    compiler bug, reported as an error.
  }];
  let options = [
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"2",
           "0: no SPIR-V optimization; 1-3: SPIRV-Tools' performance passes">
  ];
  // The kernels and device functions are built as func.func before the
  // conversion: the dialect must be loaded when bsgp-opt runs the pass on
  // a module that had no func op.
  let dependentDialects = ["mlir::spirv::SPIRVDialect",
                           "mlir::func::FuncDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::cf::ControlFlowDialect",
                           "mlir::ub::UBDialect",
                           "mlir::arith::ArithDialect"];
}

def ResolveTargetQueries : Pass<"bsgp-resolve-target-queries",
                                "mlir::ModuleOp"> {
  let summary = "Resolve target.cpu/cuda/spirv in host code";
  let description = [{
    Replaces every `bsgp.target_is` of host code (outside `bsgp.kernel`
    ops and, when the object has a CPU target, outside functions marked
    `bsgp.device` or `bsgp.collective`, which the CPU kernels share) by its
    value. With exactly one target the value is a constant; in an object for
    several targets the host runs with whichever backend the runtime picked,
    so the query becomes `bsgprt_target() == BSGPRT_TARGET_<X>`. Device code
    is left to each target's kernel lowering, which folds the queries to its
    own constants.
  }];
  let options = [
    Option<"cpu", "cpu", "bool", /*default=*/"true",
           "The object carries CPU kernels">,
    Option<"cuda", "cuda", "bool", /*default=*/"false",
           "The object carries PTX kernels">,
    Option<"spirv", "spirv", "bool", /*default=*/"false",
           "The object carries SPIR-V kernels">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect"];
}

#endif // BSGP_TARGET_PASSES_TD
