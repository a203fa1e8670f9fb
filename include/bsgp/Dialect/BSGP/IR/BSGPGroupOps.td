//===- BSGPGroupOps.td - work-group and chunk ops ----------*- tablegen -*-===//
//
// Local communication inside a work group and subgroup (§5), and the
// accumulation over a CPU chunk internal to the collective library.
//
// Included by BSGPOps.td, after the includes and definitions these ops use.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DIALECT_BSGP_IR_BSGPGROUPOPS_TD
#define BSGP_DIALECT_BSGP_IR_BSGPGROUPOPS_TD

//===----------------------------------------------------------------------===//
// Local communication inside a work group (§5: "we provide the programmer
// with access to them through an interface similar to CUDA's")
//===----------------------------------------------------------------------===//

class BSGP_GroupQueryOp<string mnemonic, string source, string what>
    : BSGP_Op<mnemonic, [MemoryEffects<[MemRead<BSGP_ThreadState>]>]> {
  let summary = "`" # source # "`: " # what;
  let description = [{
    A work-group or subgroup query of the calling thread. The values depend
    on the target: on the CPU a work group and a subgroup are one thread; on
    CUDA a work group is a thread block of 256 threads and a subgroup a warp
    of 32. Device code only; the target's kernel lowering replaces it.
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def BSGP_GroupRankOp : BSGP_GroupQueryOp<"group_rank", "group.rank",
    "the thread's rank in its work group">;
def BSGP_GroupSizeOp : BSGP_GroupQueryOp<"group_size", "group.size",
    "the number of threads of a work group"> {
  let description = [{
    The threads of a work group on the target running the code: 1 on the
    CPU, 256 on CUDA and SPIR-V (`bsgp::TargetInfo`). Unlike the other
    queries it is also host code's, the size of the work groups of the
    target the program runs on; `bsgp-resolve-target-queries` replaces it
    there, the target's kernel lowering in device code.
  }];
}
def BSGP_GroupIdOp : BSGP_GroupQueryOp<"group_id", "group.id",
    "the index of the thread's work group">;
def BSGP_GroupCountOp : BSGP_GroupQueryOp<"group_count", "group.count",
    "the number of work groups">;
def BSGP_GroupThreadsOp : BSGP_GroupQueryOp<"group_threads", "group.threads",
    "the number of threads of the thread's work group: group.size but in "
    "the last work group when thread.size is not a multiple of it">;
def BSGP_SubgroupRankOp : BSGP_GroupQueryOp<"subgroup_rank", "subgroup.rank",
    "the thread's lane in its subgroup">;
def BSGP_SubgroupSizeOp : BSGP_GroupQueryOp<"subgroup_size", "subgroup.size",
    "the number of lanes of a subgroup">;

def BSGP_GroupBarrierOp : BSGP_Op<"group_barrier"> {
  let summary = "`group.barrier()`: a barrier among the threads of a work group";
  let description = [{
    Waits until every thread of the calling thread's work group has reached
    it, and makes their earlier writes to `bsgp.group_local` arrays (and to
    global memory) visible to the group. Unlike `bsgp.barrier` it does not
    end a superstep: it stays inside the kernel, and may sit in control flow
    that is uniform across the work group. It has no memory-effect
    interface, so nothing moves across it.
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def BSGP_GroupLocalOp : BSGP_Op<"group_local"> {
  let summary = "`local T a[N];`: an array shared by a work group";
  let description = [{
    An array of `count` elements shared by the threads of one work group
    (CUDA `__shared__`, SPIR-V `Workgroup` storage), uninitialized, living
    for one kernel: a value derived from it may not be used across a
    `bsgp.barrier` (bsgp-find-saved-values reports it).

    ```mlir
    %a = bsgp.group_local 256 : !bsgp.ptr<i32>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$count);
  let results = (outs Res<BSGP_AnyPtr, "", [MemAlloc]>:$ptr);
  let assemblyFormat = "$count attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

def BSGP_GroupLookbackOp : BSGP_Op<"group_lookback"> {
  let summary = "the sum of a value over the work groups before this one";
  let description = [{
    Every thread of a work group passes the same `value`; each gets the
    32-bit sum of the values of all work groups with a smaller `group.id`,
    learned within the kernel by Merrill and Garland's decoupled look-back
    over `status`, a list of at least `group.count` 64-bit words that must
    be zero when the kernel starts. Each thread block publishes its
    aggregate at once and its inclusive prefix when it knows it; a block
    adds the aggregates of the blocks before it, 32 at a time, until it
    meets a published prefix. A thread block that runs several work groups
    (bsgp-lower-kernels-nvvm's coarsening) looks back once for all of them.

    A block waits for the blocks before it, so the GPU must start thread
    blocks in the order of their index, as CUB's single-pass scan also
    assumes. Only the CUDA target lowers it; the collective library uses it
    under `target.cuda` where bsgp-single-pass allows one pass. Device
    code only; every thread of the work group must reach it, at the top
    level of the superstep.

    Blocks waiting at the look-back leave the memory idle unless enough
    others run beside them: `min_blocks` asks ptxas to fit that many blocks
    on a multiprocessor (`.minnctapersm`, as `[[min_blocks(N)]]` does, which
    takes precedence), the smallest over the kernel's look-backs.

    ```mlir
    %prefix = bsgp.group_lookback %aggregate, %status min_blocks 8
        : !bsgp.ptr<i64>
    ```
  }];
  let arguments = (ins I32:$value,
                       Arg<BSGP_AnyPtr, "", [MemRead, MemWrite]>:$status,
                       ConfinedAttr<I32Attr, [IntMinValue<1>,
                                              IntMaxValue<32>]>:$min_blocks);
  let results = (outs I32:$result);
  let assemblyFormat = [{
    $value `,` $status `min_blocks` $min_blocks attr-dict `:`
    qualified(type($status))
  }];
  let hasVerifier = 1;
}

def BSGP_SinglePassOp : BSGP_Op<"single_pass"> {
  let summary = "may the collective at this point run without its barrier";
  let description = [{
    The collective library's question to bsgp-single-pass, which replaces
    it by a constant before the spawn is split into supersteps: true if the
    caller's superstep around this point needs no barrier here, that is if
    the caller's code before it (from the superstep's start) writes no
    memory but work-group arrays, and nothing the code guarded by it or
    after it (to the superstep's end) writes can be what the code before it
    read in another thread. Its one use must be the condition of an
    `scf.if` whose then-region is the collective without the barrier.
    Where the answer needs pointers compared at run time, the pass versions
    the spawn. Device code only.

    ```mlir
    %one = bsgp.single_pass : i1
    ```
  }];
  let results = (outs I1:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def BSGP_SubgroupShuffleOp : BSGP_Op<"subgroup_shuffle", [
    AllTypesMatch<["value", "result"]>]> {
  let summary = "`subgroup.shuffle*(x, n)`: x of another lane of the subgroup";
  let description = [{
    `mode` is `idx` (lane `n` modulo the subgroup size), `xor` (lane
    `rank ^ n`), `up` (lane `rank - n`) or `down` (lane `rank + n`). When
    the source lane is outside the subgroup the thread gets its own `x`
    (CUDA's semantics). Every lane of the subgroup must execute it
    together; it has no memory-effect interface so that it is neither moved
    nor merged.

    ```mlir
    %y = bsgp.subgroup_shuffle "xor" %x, %c1 : f32
    ```
  }];
  let arguments = (ins StrAttr:$mode, AnyTypeOf<[I32, I64, F32, F64]>:$value,
                       I32:$lane);
  let results = (outs AnyTypeOf<[I32, I64, F32, F64]>:$result);
  let assemblyFormat = "$mode $value `,` $lane attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def BSGP_SubgroupVoteOp : BSGP_Op<"subgroup_vote"> {
  let summary = "`subgroup.any/all/ballot(c)`: a vote of the subgroup's lanes";
  let description = [{
    `any` and `all` return an `i1`; `ballot` returns the `i64` mask whose
    bit k is lane k's condition (subgroups have at most 64 lanes).
  }];
  let arguments = (ins StrAttr:$mode, I1:$predicate);
  let results = (outs AnyTypeOf<[I1, I64]>:$result);
  let assemblyFormat = "$mode $predicate attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def BSGP_SubgroupReduceOp : BSGP_Op<"subgroup_reduce", [
    AllTypesMatch<["value", "result"]>]> {
  let summary = "`subgroup.add/min/max/and/or/xor(x)`: x combined over the subgroup";
  let description = [{
    Combines `value` over the lanes of the subgroup that execute the op
    together (the existing lanes: a partial subgroup's missing lanes take no
    part) and gives every one of them the result. `kind` is `add`, `mins`,
    `minu`, `maxs`, `maxu`, `and`, `or` or `xor` (the integer kinds of
    `bsgp.chunk_reduce`). One instruction on CUDA
    from sm_80 (`redux.sync`), a Reduce of `OpGroupNonUniformIAdd` and its
    kin on SPIR-V, the value itself on the CPU (one-lane subgroups). Like
    the shuffles it has no memory-effect interface, so that it is neither
    moved nor merged.

    ```mlir
    %t = bsgp.subgroup_reduce "add" %x : i32
    ```
  }];
  let arguments = (ins StrAttr:$kind, I32:$value);
  let results = (outs I32:$result);
  let assemblyFormat = "$kind $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def BSGP_SubgroupMatchOp : BSGP_Op<"subgroup_match"> {
  let summary = "`subgroup.match(x)`: the lanes whose x equals the caller's";
  let description = [{
    The `i64` mask of the lanes of the subgroup, among those that execute
    the op together (the existing lanes), whose `value` has the same bits
    as the calling lane's, the caller included. `match.any.sync` on CUDA
    from sm_70; elsewhere one ballot per bit of `value`
    (`bsgp::expandSubgroupMatch`); `1` on the CPU (one-lane subgroups).
    Like the votes it has no memory-effect interface, so that it is neither
    moved nor merged.

    ```mlir
    %m = bsgp.subgroup_match %d : i32
    ```
  }];
  let arguments = (ins AnyTypeOf<[I32, I64]>:$value);
  let results = (outs I64:$result);
  let assemblyFormat = "$value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Accumulation over a CPU chunk (internal to the collective library)
//===----------------------------------------------------------------------===//

/// The element types and the operators of the chunk accumulations.
def BSGP_ChunkElement : AnyTypeOf<[I32, I64, F32, F64]>;

class BSGP_ChunkOp<string mnemonic, list<Trait> traits = []>
    : BSGP_Op<mnemonic, traits # [
        TypesMatchWith<"value type is the list's element type", "list",
                       "value",
                       "::llvm::cast<::bsgp::PtrType>($_self).getElementType()">]> {
  let hasVerifier = 1;
  code commonDescription = [{
    The CPU target runs a kernel as contiguous chunks of ranks, one chunk per
    OpenMP thread (`bsgprt_cpu_chunk_count(n)` chunks for a launch of `n`
    ranks, chunk `c` running ranks `[n*c/chunks, n*(c+1)/chunks)` in
    ascending order; `bsgprt_cpu_chunk_index()` says which one a thread
    runs). The chunk ops accumulate `value` over the ranks of the calling
    chunk in rank order with `kind`: `add`, `mul`, `and`, `or`, `xor`;
    `mins`/`maxs` (signed) and `minu`/`maxu` (unsigned) for integers;
    `minf`/`maxf` for floats, where the minimum of `a` (the earlier values)
    and `b` is `b < a ? b : a` and the maximum `a < b ? b : a` (as the
    collective library combines). `bsgp-lower-kernels-cpu` turns the
    accumulator into a value carried by the rank loop, so the chunk's values
    never go through memory. A `chunk_reduce "add"` of floats is a tree
    instead, for its rounding error: blocks of 256 ranks, each summed in
    any order (vectorized), whose sums combine pairwise.

    The lowering is exact only if every rank of the chunk runs the op once,
    so it must be in straight-line code: directly in a spawn body, a par
    region, a superstep, a collective function or the entry block of a
    kernel, or under an `scf.if` on a target query (folded away before the
    CPU lowering). Only the CPU target has chunks: the collective library
    uses these ops under `if (target.cpu)`, and the GPU lowerings reject
    them. From BSGP source they are the library's builtins
    `__bsgp_chunk_reduce(op, x, list)` and `__bsgp_chunk_scan(op, x, list)`.
  }];
}

def BSGP_ChunkReduceOp : BSGP_ChunkOp<"chunk_reduce"> {
  let summary = "store the combination of a value over each CPU chunk";
  let description = commonDescription # [{
    `bsgp.chunk_reduce` stores the combination of `value` over the ranks of
    chunk `c` to `list[c]` once the chunk has run its last rank. The
    collective library's reduce and scan then combine or scan the
    `bsgprt_cpu_chunk_count(n)` partials after the barrier.

    ```mlir
    bsgp.chunk_reduce "add" %x, %partials : !bsgp.ptr<i32>
    ```
  }];
  let arguments = (ins StrAttr:$kind, BSGP_ChunkElement:$value,
                       Arg<BSGP_AnyPtr, "", [MemWrite]>:$list);
  let assemblyFormat = [{
    $kind $value `,` $list attr-dict `:` qualified(type($list))
  }];
}

def BSGP_ChunkScanOp : BSGP_ChunkOp<"chunk_scan", [
    TypesMatchWith<"result type is the list's element type", "list", "result",
                   "::llvm::cast<::bsgp::PtrType>($_self).getElementType()">]> {
  let summary = "a prefix of a value within each CPU chunk, from a per-chunk start";
  let description = commonDescription # [{
    `bsgp.chunk_scan` returns, for a rank `r` of chunk `c` starting at rank
    `b`, `list[c] ⊕ value(b) ⊕ ... ⊕ value(r-1)`: the exclusive scan of
    `value` within the chunk, started from the chunk's element of `list`
    (loaded once per chunk). After the chunk totals of a `chunk_reduce` have
    been scanned, this is every rank's exclusive scan over all ranks.

    ```mlir
    %prefix = bsgp.chunk_scan "add" %x, %prefixes : !bsgp.ptr<i32>
    ```
  }];
  let arguments = (ins StrAttr:$kind, BSGP_ChunkElement:$value,
                       Arg<BSGP_AnyPtr, "", [MemRead]>:$list);
  let results = (outs BSGP_ChunkElement:$result);
  let assemblyFormat = [{
    $kind $value `,` $list attr-dict `:` qualified(type($list))
  }];
}

#endif // BSGP_DIALECT_BSGP_IR_BSGPGROUPOPS_TD
