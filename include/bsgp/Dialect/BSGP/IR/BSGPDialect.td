//===- BSGPDialect.td - the bsgp dialect definition --------*- tablegen -*-===//
//
// The dialect of BSGP (Zhou, Hou and Guo, "BSGP: Bulk-Synchronous GPU
// Programming", SIGGRAPH 2008). Section numbers (§) refer to that paper.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DIALECT_BSGP_IR_BSGPDIALECT_TD
#define BSGP_DIALECT_BSGP_IR_BSGPDIALECT_TD

include "mlir/IR/OpBase.td"

def BSGP_Dialect : Dialect {
  let name = "bsgp";
  let cppNamespace = "::bsgp";
  let summary = "Bulk-synchronous GPU programming: spawn, barrier, require, "
                "supersteps and temporary streams";
  let description = [{
    The `bsgp` dialect represents BSGP programs in SSA form (§4.4): a BSGP
    *value* (the result of an assignment's right hand side, §4.1) is an SSA
    value. Only the BSGP constructs are ops of this dialect; arithmetic,
    control flow and calls use the upstream `arith`, `math`, `scf`, `cf`,
    `vector` and `func` dialects.

    The dialect has three layers, in pipeline order:

    1. *Source form*, produced from the AST: `bsgp.spawn` regions containing
       `bsgp.barrier`, `bsgp.require`, `bsgp.par`, the thread intrinsics
       (`bsgp.thread_rank`, `bsgp.get`, `bsgp.put`, ...) and the memory ops.
       Collective functions are `func.func` ops carrying the `bsgp.collective`
       unit attribute; they may contain barriers and are inlined (§4.2 step 1).
    2. *Superstep form* (§4.2 step 3): the body of a spawn is a sequence of
       `bsgp.superstep` ops; values used by a later superstep are results of
       the superstep that defines them, so step 5 of §4.2 reads them off the
       IR directly.
    3. *Stream form* (§4.2 steps 6-7, §4.3): `bsgp.kernel` functions and
       `bsgp.launch` ops on the host, with saved values passed through
       temporary streams (`bsgp.stream_alloc`, `bsgp.save`, `bsgp.load`,
       `bsgp.stream_free`).
  }];
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Unit attribute marking a `func.func` as a collective function: all
    /// threads call it together, and it may contain barriers and requires
    /// (Appendix A). It is inlined into the spawn (§4.2 step 1).
    static constexpr ::llvm::StringLiteral getCollectiveAttrName() {
      return ::llvm::StringLiteral("bsgp.collective");
    }
    /// Unit attribute marking a `func.func` as device code without barriers
    /// (e.g. `local_sort` in Listing 3): it may use the thread intrinsics.
    static constexpr ::llvm::StringLiteral getDeviceAttrName() {
      return ::llvm::StringLiteral("bsgp.device");
    }
    /// String attribute of a `bsgp.kernel`: the source range of its
    /// superstep, "file:line:col-line:col", for the kernel-to-source log of
    /// §4.4.
    static constexpr ::llvm::StringLiteral getSourceLocAttrName() {
      return ::llvm::StringLiteral("bsgp.srcloc");
    }
    /// String attribute ("cpu", "cuda" or "spirv") of a host function
    /// specialized for one target by bsgp-specialize-targets, and of the
    /// kernels outlined from it: only that target compiles them.
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return ::llvm::StringLiteral("bsgp.target");
    }
  }];
}

class BSGP_Op<string mnemonic, list<Trait> traits = []>
    : Op<BSGP_Dialect, mnemonic, traits>;

#endif // BSGP_DIALECT_BSGP_IR_BSGPDIALECT_TD
