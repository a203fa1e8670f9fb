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

    Discardable attributes (declared in the dialect's `discardableAttrs`;
    C++ names them through `BSGPDialect::<Name>AttrHelper`):

    | Attribute | On | Meaning |
    |-----------|----|---------|
    | `bsgp.collective` | `func.func` | a collective function (unit) |
    | `bsgp.device` | `func.func` | device code without barriers (unit) |
    | `bsgp.library` | `func.func` | `#bsgp.library<kind>`: a function of the collective library, and what it is |
    | `bsgp.srcloc` | kernel | its superstep's source range (string) |
    | `bsgp.target` | function, kernel | the one target that compiles it (string) |
    | `bsgp.ptx`, `bsgp.spirv` | module | the device code blobs (string) |
    | `bsgp.group_size`, `bsgp.groups_per_block` | kernel | CUDA block shape of a kernel with group ops (integer) |
    | `bsgp.lookback` | kernel | its CUDA blocks wait for earlier blocks (unit) |
    | `bsgp.grid_loop` | kernel | a uniform loop of supersteps in one cooperative CUDA kernel (unit) |
    | `bsgp.block_size`, `bsgp.min_blocks` | spawn, kernel | `[[block_size(N), min_blocks(M)]]` (integer) |
    | `bsgp.load_version`, `bsgp.pass_version`, `bsgp.result_version` | spawn | which copy of a versioned spawn it is (string) |
    | `bsgp.freed_by_flow` | `bsgp.dtempnew` | bsgp-split-uniform-flow frees its list, not the end of the segment holding it (unit) |
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  // Folds of bsgp ops to numbers (bsgp.list_reduce of no element) become
  // arith.constant.
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  // Every `bsgp.*` discardable attribute, declared once: C++ reads and
  // writes them through BSGPDialect::<Name>AttrHelper (its getNameStr() is
  // the name), never through a string literal of the name; test/Lint
  // checks that. BSGPDialect::verifyOperationAttribute checks where each
  // may appear.
  let discardableAttrs = (ins
    // Unit attribute marking a `func.func` as a collective function: all
    // threads call it together, and it may contain barriers and requires
    // (Appendix A). It is inlined into the spawn (§4.2 step 1).
    "::mlir::UnitAttr":$collective,
    // Unit attribute marking a `func.func` as device code without barriers
    // (e.g. `local_sort` in Listing 3): it may use the thread intrinsics.
    "::mlir::UnitAttr":$device,
    // A `func.func` of the collective library (MLIRGen sets it on every
    // function of lib/Collectives), saying what the compiler may assume of
    // it; see BSGP_LibraryAttr.
    "::bsgp::LibraryKindAttr":$library,
    // String attribute of a `bsgp.kernel`: the source range of its
    // superstep, "file:line:col-line:col", for the kernel-to-source log of
    // §4.4 (and of the functions targets make of kernels).
    "::mlir::StringAttr":$srcloc,
    // String attribute ("cpu", "cuda" or "spirv") of a host function
    // specialized for one target by bsgp-specialize-targets, and of the
    // kernels outlined from it: only that target compiles them.
    "::mlir::StringAttr":$target,
    // Module attributes with the device code blobs a target attaches for
    // the module descriptor (bsgp-lower-kernels-nvvm, bsgp-lower-kernels-
    // spirv; read by bsgp-lower-launches): the PTX text and the SPIR-V
    // binary (little-endian words as bytes).
    "::mlir::StringAttr":$ptx,
    "::mlir::StringAttr":$spirv,
    // Integer attribute of a bsgp.kernel: the thread-block size its CUDA
    // code was compiled for (set by bsgp-lower-kernels-nvvm where the CUDA
    // form of the kernel uses work-group operations; absent otherwise).
    "::mlir::IntegerAttr":$group_size,
    // Integer attribute of a bsgp.kernel: how many work groups one CUDA
    // thread block runs (set by bsgp-lower-kernels-nvvm where that is more
    // than one; the runtime's ranks_per_thread).
    "::mlir::IntegerAttr":$groups_per_block,
    // Unit attribute of a bsgp.kernel whose CUDA blocks wait for the blocks
    // before them by block number (it holds a bsgp.group_lookback; set by
    // bsgp-lower-kernels-nvvm): the module descriptor's
    // BSGPRT_KERNEL_LOOKBACK, by which the runtime runs the slices of such a
    // kernel on several GPUs one device after another.
    "::mlir::UnitAttr":$lookback,
    // Unit attribute of a bsgp.kernel made of a whole uniform loop of
    // supersteps by bsgp-fuse-uniform-loops: every thread runs the loop's
    // host arithmetic, each bsgp.grid_launch in it runs a kernel on all
    // ranks and waits at a grid-wide barrier. Only CUDA compiles it, and the
    // runtime launches it with all its blocks resident (cooperatively).
    "::mlir::UnitAttr":$grid_loop,
    // Integer attribute of a `bsgp.spawn` (`[[block_size(N)]]`) and of the
    // kernels outlined from it: the CUDA thread-block size asked for.
    "::mlir::IntegerAttr":$block_size,
    // `spawn (n) [[min_blocks(N)]]`: the thread blocks a multiprocessor
    // should hold at once, on the spawn and its kernels (`.minnctapersm`).
    "::mlir::IntegerAttr":$min_blocks,
    // Which of the two copies of a spawn versioned by
    // bsgp-rematerialize-loads ("reads again", "saves"), bsgp-single-pass
    // ("runs in one pass", "keeps the barrier") or
    // bsgp-forward-sort-results ("sorts into the lists", "copies the sorted
    // lists") this is, for the superstep tables.
    "::mlir::StringAttr":$load_version,
    "::mlir::StringAttr":$pass_version,
    "::mlir::StringAttr":$result_version,
    // Unit attribute of a `bsgp.dtempnew` of a spawn that
    // bsgp-split-uniform-flow cut into segments: its list lives until the
    // whole spawn ends, or until the end of the branch or loop body holding
    // its require where it cannot leave that body, and the pass frees it
    // there; bsgp-outline-kernels leaves it out of the bsgp.dtempfree at
    // the end of the segment.
    "::mlir::UnitAttr":$freed_by_flow
  );
  let extraClassDeclaration = [{
    /// The names of the function markers, which most code asks for.
    static constexpr ::llvm::StringLiteral getCollectiveAttrName() {
      return CollectiveAttrHelper::getNameStr();
    }
    static constexpr ::llvm::StringLiteral getDeviceAttrName() {
      return DeviceAttrHelper::getNameStr();
    }
    static constexpr ::llvm::StringLiteral getSourceLocAttrName() {
      return SrclocAttrHelper::getNameStr();
    }
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return TargetAttrHelper::getNameStr();
    }
  }];
}

class BSGP_Op<string mnemonic, list<Trait> traits = []>
    : Op<BSGP_Dialect, mnemonic, traits>;

#endif // BSGP_DIALECT_BSGP_IR_BSGPDIALECT_TD
