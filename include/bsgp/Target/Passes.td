//===- Passes.td - device module serialization passes ------*- tablegen -*-===//
//
// Part of bsgpc, the BSGP compiler.
//
//===----------------------------------------------------------------------===//
//
// The passes that turn the device modules the conversions built (nested in
// the host module) into the binaries the module descriptor carries: PTX
// from the NVVM module, a SPIR-V binary from the spirv.module. Each stores
// its result in a host module attribute, which bsgp-lower-launches reads,
// and erases the device module.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_TARGET_PASSES_TD
#define BSGP_TARGET_PASSES_TD

include "mlir/Pass/PassBase.td"

def BSGPSerializeToPTXPass
    : Pass<"bsgp-serialize-ptx", "::mlir::ModuleOp"> {
  let summary = "Compile the CUDA device module to PTX";
  let description = [{
    Translates the CUDA device module (`module @bsgp_cuda`, LLVM and NVVM
    dialects only, from bsgp-convert-to-nvvm) to LLVM IR, links libdevice
    from the CUDA toolkit if the module calls it, optimizes it and compiles
    it with LLVM's NVPTX back end. The PTX is stored in the host module's
    `bsgp.ptx` attribute, which bsgp-lower-launches puts in the module
    descriptor, and the device module is erased.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "The GPU architecture (sm_XX) to compile for">,
    Option<"cudaPath", "cuda-path", "std::string", /*default=*/"\"\"",
           "CUDA toolkit root holding nvvm/libdevice (default: found at "
           "the usual places)">,
    Option<"lineInfo", "line-info", "bool", /*default=*/"false",
           "Emit line info so that profilers map PTX to BSGP lines">,
  ];
}

def BSGPSerializeSPIRVPass
    : Pass<"bsgp-serialize-spirv", "::mlir::ModuleOp"> {
  let summary = "Serialize, validate and optimize the SPIR-V device module";
  let description = [{
    Serializes the `spirv.module` of the host module (from
    bsgp-convert-to-spirv), validates the binary for Vulkan 1.3 with
    SPIRV-Tools and, at `opt-level` 1 and above, optimizes it with
    SPIRV-Tools' performance passes and validates it again; a module that
    fails is a compiler bug, reported as an error at the function the
    validator names. The binary is stored in the host module's `bsgp.spirv`
    attribute, which bsgp-lower-launches puts in the module descriptor, and
    the spirv.module is erased.
  }];
  let options = [
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"2",
           "0: no SPIR-V optimization; 1-3: SPIRV-Tools' performance passes">
  ];
}

def BSGPLegalizeDebugLocationsPass
    : Pass<"bsgp-legalize-debug-locations", "::mlir::ModuleOp"> {
  let summary = "Keep inlining call sites only on ops inside functions";
  let description = [{
    Runs before MLIR's `ensure-debug-info-scope-on-llvm-func` (`-g`, and
    CUDA line information). That pass turns a call-site location (the
    location an op takes when the collective library is inlined into the
    program, or when an op is made from such an op) into an inlined
    scope of the LLVM function around it, and assumes that there is one:
    an op outside every `llvm.func` with a call-site location (a global
    that an inlined op made: a format string, a constant list) crashed it.
    Such ops get the outermost caller's location instead: the line of the
    program that called into the library.
  }];
}

#endif // BSGP_TARGET_PASSES_TD
