//===- Passes.td - the §4 compilation passes ---------------*- tablegen -*-===//
//
// The passes of §4.2 of the BSGP paper, in pipeline order. docs/passes.md
// describes each one and walks Listing 3 through the pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_TRANSFORMS_PASSES_TD
#define BSGP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def BSGPMergeKillForkPass
    : Pass<"bsgp-merge-kill-fork", "::mlir::ModuleOp"> {
  let summary = "fold a thread.kill into the thread.fork that follows it";
  let description = [{
    `thread.kill(f); ...; c = thread.fork(n);` in one block of a spawn,
    with only computation between (no memory, thread state, barrier or
    collective, in the functions called too), becomes `c =
    thread.fork(f ? 0 : n)` with the code between in an `scf.if (!f)`:
    a thread with no children is a killed one, and the fork ranks the
    children in their parents' order, so the children, their values and
    their ranks are those of the two calls. It saves the kill's scan, its
    read-back of the survivors' count and the move of every saved value.
    The calls are recognized by `#bsgp.library<thread_kill>` and
    `#bsgp.library<thread_fork>`. Left alone when the spawn reads ranks of
    an earlier superstep (`thread.oldrank`, `thread.get`, `thread.put`),
    which the two forms number differently.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def BSGPInlineCollectivesPass
    : Pass<"bsgp-inline-collectives", "::mlir::ModuleOp"> {
  let summary = "inline calls to functions containing barriers (§4.2 step 1)";
  let description = [{
    Inlines every `func.call` whose callee carries `bsgp.collective` (the
    only functions that may contain a `bsgp.barrier`), transitively, so that the barriers of
    collective functions land in the spawn body. A call to such a function
    inside control flow, or a recursive collective, is an error. Calls of
    functions using work-group or subgroup ops, `bsgp.get` or
    `bsgp.oldrank` are inlined too, at any depth of control flow. Then every `bsgp.rebind %x, %e` is applied and
    erased: the uses of `%x` it dominates read `%e`.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def BSGPSpecializeTargetsPass
    : Pass<"bsgp-specialize-targets", "::mlir::ModuleOp"> {
  let summary = "one copy of a host function per target where barriers depend on the target";
  let description = [{
    A spawn whose barriers or require blocks sit under `if (target.X)` has
    a different superstep structure, and so different host code, on each
    target (an algorithm that needs no barrier on a GPU with work-group
    operations but one on the CPU, say). §4.2 step 3 can only cut barriers at
    the top level of a spawn, so such a function is specialized first.
    With one target in the object its queries are folded to constants in
    place. With several, the function gets one private copy per target,
    `<name>__<target>`, with the queries folded and the attribute
    `bsgp.target`, which its kernels inherit (only that target's lowering
    compiles them); the function itself becomes a dispatch on the
    runtime's backend (`bsgprt_target()`). Functions whose barriers do not
    depend on a target are left alone: their queries are folded per kernel
    by the target lowerings.
  }];
  let options = [
    Option<"targets", "targets", "std::string", /*default=*/"\"cpu\"",
           "the targets the object carries, comma-separated (cpu,cuda,spirv)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect"];
}

def BSGPExpandParPass : Pass<"bsgp-expand-par"> {
  let summary = "align the barriers of par branches and merge supersteps (§5)";
  let description = [{
    Replaces each `bsgp.par` by its branches interleaved at their barriers:
    the k-th superstep of every branch is bundled into one superstep
    (Fig. 5). Branches with fewer barriers align from the start.
  }];
}

def BSGPLowerDevicePrintfPass
    : Pass<"bsgp-lower-device-printf", "::mlir::ModuleOp"> {
  let summary = "printf in the threads: records in a buffer the host prints";
  let description = [{
    Each `bsgp.printf` a thread runs appends a record to the runtime's
    print buffer (`bsgprt_printf_buffer`, 32-bit words: [0] the words used,
    [1] the capacity, [2] a flag that a record was lost, then the records,
    in an area the runtime keeps zero): one atomic add claims the words,
    and the thread stores its format's number plus one and its arguments (a 64-bit
    value as two words, low first; a float promoted to double as the
    float) only if they fit, and raises the flag otherwise. A spawn whose threads print asks for the
    buffer before it; `bsgp-outline-kernels` calls
    `bsgprt_printf_flush(buffer, table)` after each launch of a kernel
    given the buffer, so that the host formats each superstep's records
    with C's printf. `table` is the
    module's format table `@printf.formats` (per format ':', its
    argument kinds `i` `I` `f` `d`, a zero byte, its text, a zero byte).
    Device functions that print, directly or through calls, get a copy
    `<name>__printf` taking the buffer as a last argument, which thread
    code calls; the original keeps host callers working, and a
    `bsgp.printf` outside thread code becomes a call of C's `printf`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def BSGPResolveOldRankPass : Pass<"bsgp-resolve-oldrank", "::mlir::ModuleOp"> {
  let summary = "reads of `thread.oldrank` become the value last assigned to it";
  let description = [{
    After the collectives are inlined and `par` is expanded, every rank
    reassignment of a spawn is a `bsgp.set_oldrank` in its body. Each
    `bsgp.oldrank` in the spawn (at any depth of control flow) is replaced
    by the operand of the nearest `bsgp.set_oldrank` before it in the
    spawn body, an SSA value that later passes save across barriers like
    any other, or by `thread.rank` where no reassignment came before (the
    ranks are still the spawn's own). A read outside a spawn body, in a
    device function, is an error.
  }];
}

def BSGPSplitUniformFlowPass : Pass<"bsgp-split-uniform-flow", "::mlir::ModuleOp"> {
  let summary = "branches and loops holding barriers become host control flow";
  let description = [{
    A barrier (or collective, require, rank reassignment) may sit under an
    `scf.if` or inside an `scf.while` whose condition every thread computes
    alike (a uniformity analysis over the SSA form, loops at a fixed point;
    a thread-dependent one is an error). Each such branch or loop of a
    spawn becomes the same `scf.if`/`scf.while` in host code, and the
    device code between them a spawn of its own, which the later passes
    split into supersteps. A value of each thread live from one such spawn
    to another is kept in a list of `thread.size` elements that the first
    allocates (in a require at its end, or at its start where it keeps its
    threads' ranks and count: each thread then stores the value where it
    is computed, and a closing superstep that would only store goes) and
    stores at the rank and the next loads at the rank; a `thread.get` of
    it loads the list at the other rank. A uniform value the host needs is
    computed on the host from host values where it can be, is the
    require's own where a collective's total was read back, and otherwise
    is stored by rank 0 and read back (one small copy). A require that reads a uniform device value
    (`require out = dnew[reduce(+, c)]int`) also cuts the spawn. The
    spawn's `bsgp.dtempnew` lists live until it ends: the pass marks them
    `bsgp.freed_by_flow` and frees them itself, where the spawn ends or
    where the branch or loop body holding the require ends (if no pointer
    made from the list leaves it); a list it cannot name there goes to the
    runtime's deferred frees (`bsgprt_temp_defer_free`), emptied where the
    spawn ends. The `bsgp.uniform` marks go. Spawns without either are left
    alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def BSGPSinglePassPass : Pass<"bsgp-single-pass", "::mlir::ModuleOp"> {
  let summary = "answer the collectives' bsgp.single_pass questions";
  let description = [{
    A collective such as scan has a barrier: every rank's code before it
    runs before any rank's code after it. The CUDA library can instead
    learn each work group's prefix inside the superstep by decoupled
    look-back (`bsgp.group_lookback`), a single pass over the data, which
    is right when the caller's code relies on no such ordering. The
    library asks with `bsgp.single_pass`, whose one use is the condition
    of an `scf.if` holding the single-pass form (its else-region holds the
    form with the barrier). This pass answers, before the spawn is split.

    The part of the superstep before the question must write no memory but
    work-group arrays; the single-pass form and the rest of the superstep
    after it must write nothing a rank's earlier part read in another
    rank, and hold no `require`. The question must not sit in a loop of
    the spawn. Each pair of a memory read before and a write after is
    cleared statically (memory the spawn allocated, the same element
    `p[thread.rank]`) or by a test on the host before the spawn: element
    ranges `thread.size` long that do not meet or are the same, or another
    allocation of the runtime (`bsgprt_distinct_allocations`). A spawn
    with a yes is versioned: `scf.if tests { one pass } else { barrier }`,
    marked by `bsgp.pass_version`, where the tests always include
    `bsgprt_single_pass_forms() != 0` (0 on several GPUs, whose look-back
    kernels run one device after another, so that the two-level forms run
    on all devices at once). A no makes the question a constant.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def BSGPCarryPrivateArraysPass : Pass<"bsgp-carry-private-arrays"> {
  let summary = "keep thread-private arrays across barriers (§4.2 step 5)";
  let description = [{
    A thread-private array (`int a[3];`, an `llvm.alloca` cast to
    `!bsgp.ptr` at the top level of a spawn body) lives in the stack of the
    kernel of its superstep. For each top-level barrier after which the
    array (or a pointer made from it by `bsgp.ptr.offset`/`bsgp.ptr.cast`)
    is used, the pass loads every element before the barrier, and after it
    (after the `bsgp.set_oldrank` of a rank-reassigning barrier) stores
    them into a new slot that the code after the barrier uses instead. The
    elements become saved values like scalars: streams allocated by the
    minimum flow, loaded by old rank after a rank reassignment. Runs on
    expanded pars, before `bsgp-split-supersteps`. Errors: an array of
    more than 256 stream words used after a barrier, and a pointer into an
    array chosen by another op (a select) used after a barrier.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def BSGPSplitSuperstepsPass : Pass<"bsgp-split-supersteps"> {
  let summary = "cut spawn bodies at their barriers into supersteps (§4.2 step 3)";
  let description = [{
    Turns the body of every `bsgp.spawn` into an ordered list of
    `bsgp.superstep` ops (indexed from 1) with the `bsgp.require` ops of
    each superstep moved in front of it. A value used by a later superstep
    becomes a result of its defining superstep.
  }];
}

def BSGPForwardSortKeysPass : Pass<"bsgp-forward-sort-keys"> {
  let summary = "let thread.sortby and sort_idx sort the caller's key list";
  let description = [{
    Where the superstep before a call of the library's sort of ranks
    `(input, keys, ...)` (a function marked `#bsgp.library<sort_ranks>`;
    the library passes `keys` as `input`) stores `p[thread.rank]` into
    `keys` at the rank, `p` a list from before the spawn, and no write of
    that superstep or of the host code up to the sort can reach `p` (every
    write goes to memory the spawn allocated or to work-group memory), the
    call reads `p` instead and the store goes. Spawns that set
    `thread.size` are left alone.
  }];
}

def BSGPRematerializePass : Pass<"bsgp-rematerialize"> {
  let summary = "recompute cheap values instead of saving them (§4.2 step 2)";
  let description = [{
    A superstep result computed by at most six side-effect-free ops from
    constants, host values, `bsgp.thread_rank` and `bsgp.thread_size` is
    recomputed in each using superstep instead of being saved, as long as
    no rank-reassigning superstep (or `set_size`, for the size) lies in
    between. This is why `rk1` of Listing 3 is not saved. A result computed
    by such ops from other results of its superstep is recomputed in a
    using superstep that loads those results anyway.
  }];
}

def BSGPForwardSortResultsPass : Pass<"bsgp-forward-sort-results"> {
  let summary = "let thread.sortby sort into the caller's output lists";
  let description = [{
    Where the superstep after a call of the library's sort of ranks (a
    function marked `#bsgp.library<sort_ranks>`) stores both
    the sorted keys and the ranks it reads at the rank
    (`sorted[thread.rank] = k`) into lists from before the spawn, reads no
    other such list and touches those lists only through the stores, the
    call gets them as its spare lists, the host copies the pairs there when
    the sort answers that they are in its own lists, the stores go and the
    superstep reads the caller's lists. The spawn is versioned on
    `bsgprt_distinct_allocations` of the two outputs, and of each output
    and a sort input from before the spawn.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def BSGPRematerializeLoadsPass
    : Pass<"bsgp-rematerialize-loads", "::mlir::ModuleOp"> {
  let summary = "load p[thread.rank] again after a barrier instead of saving it";
  let description = [{
    A superstep result that is `p[thread.rank]` for a pointer `p` from
    before the spawn is loaded again by each superstep using it, when every
    store in between goes to memory the spawn allocated, to work-group
    memory, or to a host pointer `q`. The host tests before the spawn that
    each such `q` stored to at `thread.rank` and `p` are at least
    `thread.size` elements apart (or equal, for stores in the superstep
    that loads again), and that any other `q` is in another allocation of
    the runtime than `p` (`bsgprt_distinct_allocations`); it runs a copy of
    the spawn that loads again if so, the original otherwise. No test and
    no copy when there is no such `q`. A value the defining superstep also
    stores at the rank into a list `q` the spawn allocated, which a using
    superstep reads, is read again from `q` (no test).
    Spawns that set `thread.size`, and values used after a rank
    reassignment or through `thread.get`/`thread.put`, are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def BSGPFindSavedValuesPass : Pass<"bsgp-find-saved-values"> {
  let summary = "keep exactly the saved values as superstep results (§4.2 step 5)";
  let description = [{
    Drops superstep results that no other superstep uses, so that the
    results are exactly the values used outside their defining superstep
    (Table 1). With `print-table` the table of each spawn is printed to
    stdout, with `print-dot` its superstep graph and minimum flow (Fig. 4)
    in Graphviz DOT.
  }];
  let options = [
    Option<"printTable", "print-table", "bool", /*default=*/"false",
           "print the saved-value table of each spawn to stdout">,
    Option<"printDot", "print-dot", "bool", /*default=*/"false",
           "print the superstep graph of each spawn (Fig. 4) to stdout">
  ];
}

def BSGPSaveRestorePass : Pass<"bsgp-save-restore"> {
  let summary = "generate bsgp.save / bsgp.load for saved values (§4.2 step 6)";
  let description = [{
    Replaces superstep results by a `bsgp.save` at the end of the defining
    superstep and a `bsgp.load` at the start of each using superstep, on
    one temporary stream per value word. After `barrier(RANK_REASSIGNED)`
    values are loaded at `thread.oldrank` and those needed later are saved
    again at the new rank (Listing 4, pass2). `bsgp.get` becomes a load at
    the given rank and `bsgp.put` a save at the given rank.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def BSGPAllocateStreamsPass : Pass<"bsgp-allocate-streams"> {
  let summary = "share temporary streams by minimum flow (§4.3)";
  let description = [{
    Replaces the one-stream-per-word allocation of bsgp-save-restore by the
    minimum-flow allocation of BSGPSupport: `bsgp.stream_alloc` right
    before the first superstep writing a stream, `bsgp.stream_free` right
    after the last superstep reading it.
  }];
}

def BSGPOutlineKernelsPass
    : Pass<"bsgp-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "outline supersteps as kernels and spawns as launches (§4.2 steps 3-4)";
  let description = [{
    Each superstep becomes a `bsgp.kernel @<func>_spawn<i>_ss<j>` whose
    parameters are the host values and streams it uses; the spawn becomes
    host code: require bodies, stream allocation, `bsgp.launch` ops (each
    followed by `bsgprt_printf_flush` where the kernel is given the print
    buffer of bsgp-lower-device-printf) and a final `bsgp.dtempfree` of
    the spawn's `bsgp.dtempnew` lists (but those marked
    `bsgp.freed_by_flow`, which bsgp-split-uniform-flow frees).
  }];
}

def BSGPFuseUniformLoopsPass
    : Pass<"bsgp-fuse-uniform-loops", "::mlir::ModuleOp"> {
  let summary = "run a host loop of superstep launches as one kernel";
  let description = [{
    A host `scf.while` (a uniform loop that bsgp-split-uniform-flow cut out
    of a spawn) whose iterations do only arithmetic, launches of kernels
    without work-group operations and the temporary lists they hand each
    other becomes a `bsgp.kernel` marked `bsgp.grid_loop`: each thread runs
    the loop's arithmetic and, for each launch, a `bsgp.grid_launch`, the
    kernel's ranks a grid stride apart followed by a grid-wide barrier. A
    list allocated by an iteration and freed by the next alternates between
    the loop's first list and one more, allocated before the loop; a list
    an iteration allocates and frees is allocated once.

    The host asks `bsgp.can_launch_grid_loop`; where the backend can keep
    the kernel's blocks resident, it launches the kernel and runs the loop
    without its launches to learn the loop's results, else the original
    loop. In the pipeline for every target.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def BSGPNarrowSingleRankPass
    : Pass<"bsgp-narrow-single-rank", "::mlir::ModuleOp"> {
  let summary = "launch one thread for a kernel guarded by `thread.rank == v`";
  let description = [{
    A kernel whose body only reads before an `scf.if (thread.rank == v)`
    that holds all its writes, with `v` a parameter or a constant, does
    nothing in any thread but rank `v` (the superstep `if (thread.rank ==
    0) out[0] = total;` after a reduce). Its launches run one thread
    (`v < count ? 1 : 0`, unsigned) and, in the kernel, `thread.rank` is
    `v`. Kernels using `thread.size`, `thread.get`, rank reassignment or
    work-group operations are left alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def BSGPKeepUniformsOnDevicePass
    : Pass<"bsgp-keep-uniforms-on-device", "::mlir::ModuleOp"> {
  let summary = "give kernels a uniform value's address instead of its value";
  let description = [{
    The collective library returns a value its threads computed (a
    reduce's total) by a call of a `#bsgp.library<read_back>` function,
    which copies `p[0]` from device memory to the host: a round trip that
    waits for every kernel before it. Where the value's only uses are
    arguments of `bsgp.launch`es in the same block, nothing between the
    call and those launches can write `p[0]` (no op writing memory, no
    launch given `p`) and each launched kernel has that launch alone, the
    launches pass `p` instead and each kernel loads `p[0]` at its entry;
    the call goes away and the host never waits. A value the host itself
    uses (a loop condition, a grid size) is still read back.
  }];
}

#endif // BSGP_TRANSFORMS_PASSES_TD
