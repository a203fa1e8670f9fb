//===- BSGPStructureOps.td - structure and thread ops ------*- tablegen -*-===//
//
// Spawn, barrier, require, par and yield (§4.1, §5), the thread intrinsics
// and the communication intrinsics (get, rebind, put).
//
// Included by BSGPOps.td, after the includes and definitions these ops use.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DIALECT_BSGP_IR_BSGPSTRUCTUREOPS_TD
#define BSGP_DIALECT_BSGP_IR_BSGPSTRUCTUREOPS_TD

//===----------------------------------------------------------------------===//
// Structure: spawn, barrier, require, par, yield (§4.1, §5)
//===----------------------------------------------------------------------===//

def BSGP_SpawnOp : BSGP_Op<"spawn", [
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "run a block of device code on a number of threads (§5)";
  let description = [{
    `spawn (n) { ... }` of §5: the body is executed by `n` threads, split into
    supersteps by the `bsgp.barrier` ops directly in it. The body is device
    code, but it may use host SSA values defined above the spawn; §4.2 step 4
    turns those uses into kernel parameters when the kernels are outlined, so
    the region is deliberately not `IsolatedFromAbove`.

    Host variables that `bsgp.require` blocks of the body assign are visible
    after the spawn (Listing 6 returns the list a require allocated): the
    body yields them, and they are the spawn's results. Only results of
    requires directly in the body (or values from above) may be yielded.

    The thread count is `i32` because `thread.size` and `thread.rank` are C
    `int`s in BSGP; the frontend converts other integer types with the arith
    op that matches their signedness. A spawn may not appear in device code
    (inside another spawn, a kernel or a device/collective function).

    ```mlir
    bsgp.spawn %n {
      %rk = bsgp.thread_rank : i32
      bsgp.barrier
    }
    ```
  }];
  let arguments = (ins I32:$threadCount);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $threadCount (`->` custom<ResultTypes>(type($results))^)? $body attr-dict
  }];
  let hasVerifier = 1;
}

def BSGP_BarrierOp : BSGP_Op<"barrier"> {
  let summary = "barrier synchronization of all threads (§4.1, §5)";
  let description = [{
    `barrier;` ends the current superstep: every value computed before it is
    visible to the code after it (the compiler saves what is needed, §4.2).
    With `rank_reassigned` it is `barrier(RANK_REASSIGNED)` (§4.1): each
    thread then announces its previous rank with `bsgp.set_oldrank` and the
    stream loads of the next superstep use that rank (Listing 4, pass2).

    Stream processing cannot synchronize inside control flow (§4.4,
    "Limitation"), so a barrier must be in a `bsgp.spawn` body, a
    `bsgp.par` region, or a function carrying the `bsgp.collective`
    attribute (which is inlined into a spawn body, §4.2 step 1): directly,
    or under `scf.if`/`scf.while` whose condition every thread computes
    alike, which `bsgp-split-uniform-flow` checks and turns into host
    control flow around spawns of the code between.

    The op has no memory-effect interface on purpose: it orders every memory
    access and every thread-state read around it.
  }];
  let arguments = (ins UnitAttr:$rank_reassigned);
  let assemblyFormat = "(`rank_reassigned` $rank_reassigned^)? attr-dict";
  let hasVerifier = 1;
}

def BSGP_RequireOp : BSGP_Op<"require", [
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "host code run before the containing superstep (§5)";
  let description = [{
    `require { ... }` of §5: host (control processor) code, typically an
    allocation, executed before the kernel of the containing superstep is
    launched (§4.2 step 3 moves it in front of the launch). Values it
    computes for device code are yielded as results:

    ```mlir
    %ids = bsgp.require -> !bsgp.ptr<i32> {
      %ts = bsgp.thread_size : i32
      %p = bsgp.dtempnew %ts : !bsgp.ptr<i32>
      bsgp.yield %p : !bsgp.ptr<i32>
    }
    ```

    A require is an immediate child of a spawn body, a par region, a
    superstep or a collective function. Its body runs once, on the host, so
    it may not use per-thread values (`bsgp.thread_rank`, `bsgp.get`, device
    loads and what is computed from them); `bsgp.thread_size` and
    `bsgp.set_size` are allowed.
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "(`->` custom<ResultTypes>(type($results))^)? $body attr-dict";
  let hasVerifier = 1;
}

def BSGP_ParOp : BSGP_Op<"par", [
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "independent statements whose barriers are aligned (§5)";
  let description = [{
    `par { s1; s2; ... }` of §5 (Listings 7 and 8, Fig. 5): one region per
    independent statement. The compiler aligns the k-th barriers of all
    regions and bundles the corresponding supersteps. The results of the op
    are the values yielded by the regions, concatenated in region order.

    ```mlir
    %a, %b = bsgp.par -> (i32, i32) {
      ...
      bsgp.yield %idxA : i32
    }, {
      ...
      bsgp.yield %idxB : i32
    }
    ```

    Placement rules are those of `bsgp.require`.
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let assemblyFormat = "(`->` custom<ResultTypes>(type($results))^)? $branches attr-dict";
  let hasVerifier = 1;
}

def BSGP_YieldOp : BSGP_Op<"yield", [
    Pure, ReturnLike, Terminator,
    ParentOneOf<["SpawnOp", "RequireOp", "ParOp", "SuperstepOp"]>]> {
  let summary = "terminator of spawn, require, par and superstep regions";
  let description = [{
    Ends a region of a bsgp structure op and passes the values that leave it:
    none for `bsgp.spawn`, the op's results for `bsgp.require` and
    `bsgp.superstep`, this region's share of the results for `bsgp.par`. An
    operand-less yield may be omitted in the custom form.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// Thread intrinsics (§4.1, §5, Appendix A)
//===----------------------------------------------------------------------===//

def BSGP_ThreadRankOp : BSGP_Op<"thread_rank", [
    MemoryEffects<[MemRead<BSGP_ThreadState>]>]> {
  let summary = "the calling thread's rank, `thread.rank`";
  let description = [{
    The rank of the calling thread in `[0, thread.size)`. It reads the thread
    state rather than being `Pure` because a rank-reassigning barrier changes
    it; within one superstep it is a constant (§4.2 step 2 relies on that to
    avoid saving copies of it). Device code only.
  }];
  let results = (outs I32:$rank);
  let assemblyFormat = "attr-dict `:` type($rank)";
  let hasVerifier = 1;
}

def BSGP_ThreadSizeOp : BSGP_Op<"thread_size", [
    MemoryEffects<[MemRead<BSGP_ThreadState>]>]> {
  let summary = "the number of threads, `thread.size`";
  let description = [{
    The current thread count of the enclosing spawn. Unlike the rank it is
    also available to host code inside a `bsgp.require` (Listings 3 and 6
    allocate `dtempnew[thread.size]`). `bsgp.set_size` changes it.
  }];
  let results = (outs I32:$size);
  let assemblyFormat = "attr-dict `:` type($size)";
  let hasVerifier = 1;
}

def BSGP_OldRankOp : BSGP_Op<"oldrank", [
    MemoryEffects<[MemRead<BSGP_ThreadState>]>]> {
  let summary = "reads `thread.oldrank`";
  let description = [{
    The calling thread's rank before the most recent rank reassignment of
    its spawn: the operand of the nearest `bsgp.set_oldrank` before it (as
    the collectives that reassign ranks, such as `thread.sortby` and
    `thread.fork`, set it), or its `thread.rank` if no reassignment came
    before. `bsgp-resolve-oldrank` replaces it by that value once the
    collectives are inlined.
  }];
  let results = (outs I32:$oldRank);
  let assemblyFormat = "attr-dict `:` type($oldRank)";
}

def BSGP_SetOldRankOp : BSGP_Op<"set_oldrank", [
    MemoryEffects<[MemWrite<BSGP_ThreadState>]>]> {
  let summary = "`thread.oldrank = r` after a rank-reassigning barrier (§4.2)";
  let description = [{
    After `barrier(RANK_REASSIGNED)` every thread sets `thread.oldrank` to its
    rank before the barrier (Listing 3). The stream-load pass moves the
    loads of saved values right after this op and indexes the streams with
    the operand, then saves the values still needed under the new ranks
    (Listing 4, pass2). In SSA the old rank is simply the operand, which
    `bsgp-resolve-oldrank` gives the `bsgp.oldrank` reads after it.

    It must be an immediate child of a spawn body, par region or collective
    function and the nearest preceding barrier in its block must be
    rank-reassigning, with no other `set_oldrank` in between; in a
    `bsgp.superstep` the superstep must carry `rank_reassigned`.
  }];
  let arguments = (ins I32:$oldRank);
  let assemblyFormat = "$oldRank attr-dict";
  let hasVerifier = 1;
}

def BSGP_SetSizeOp : BSGP_Op<"set_size", [
    MemoryEffects<[MemWrite<BSGP_ThreadState>]>]> {
  let summary = "`thread.size = n`, host side, for fork and kill (§5)";
  let description = [{
    Sets the thread count of the next superstep. `thread.fork` and
    `thread.kill` (Appendix A) are collective functions that compute the new
    count and call this from a `bsgp.require`, followed by a rank-reassigning
    barrier; no other compiler support is needed (§5). Only inside a
    `bsgp.require`.
  }];
  let arguments = (ins I32:$size);
  let assemblyFormat = "$size attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Communication intrinsics (§5)
//===----------------------------------------------------------------------===//

def BSGP_GetOp : BSGP_Op<"get", [
    AllTypesMatch<["value", "result"]>,
    MemoryEffects<[MemRead<BSGP_ThreadState>]>]> {
  let summary = "`thread.get(r, v)`: v's value in thread r (§5)";
  let description = [{
    The value of the thread-local `value` in the thread whose rank is `rank`,
    as it was at the end of the previous superstep; undefined if `rank` is
    not a valid rank. Since `value` is saved to a temporary stream anyway
    (it is used across a barrier), the op becomes a stream load indexed by
    `rank` (§5, "Handling communication intrinsics").

    The verifier requires `value` to be a device value separated from the
    get by at least one barrier, or a value that is the same in every thread
    (a host value or a constant: the get is then the value itself, which
    bsgp-save-restore uses directly). Device code only.
  }];
  let arguments = (ins I32:$rank, AnyType:$value);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$rank `,` $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def BSGP_UniformOp : BSGP_Op<"uniform", [
    AllTypesMatch<["value", "result"]>,
    MemoryEffects<[MemRead<BSGP_ThreadState>]>]> {
  let summary = "the value, which every thread of the spawn holds alike";
  let description = [{
    Marks the result of a collective that every thread receives alike (the
    value `reduce` returns, the total `scan` returns): a condition computed
    from it is uniform (docs/language.md, "Uniform control flow"), so a
    barrier may sit under a branch or loop on it. The frontend puts it on
    the collective's result; `bsgp-split-uniform-flow` reads it and replaces
    it by its operand. It reads the thread state only so that nothing moves
    or folds it away before that pass.

    ```mlir
    %total = bsgp.uniform %r : i32
    ```
  }];
  let arguments = (ins AnyType:$value);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def BSGP_RebindOp : BSGP_Op<"rebind", [AllTypesMatch<["value", "replacement"]>]> {
  let summary = "`thread.rebind(x, e)`: from here on, this thread's x is e";
  let description = [{
    Asserts that in this thread `replacement` holds the same value as
    `value` (the variable's value where the op stands), so that uses of
    `value` the op dominates may read `replacement` instead:
    bsgp-inline-collectives makes that replacement and erases the op.
    `thread.sortby(key)` uses it for the key, which after the sort is the
    sorted key list at the new rank: read in rank order there instead of
    saved before the barrier and gathered by old rank after it. The
    program's results are undefined when the two differ.
  }];
  let arguments = (ins AnyType:$value, AnyType:$replacement);
  let assemblyFormat = "$value `,` $replacement attr-dict `:` type($value)";
}

def BSGP_PutOp : BSGP_Op<"put", [
    AllTypesMatch<["value", "result"]>,
    MemoryEffects<[MemRead<BSGP_ThreadState>]>]> {
  let summary = "`thread.put(r, p, v)`: a new value of p, after the barrier";
  let description = [{
    `thread.put(r, p, v)` stores `v` to the variable `p` of the thread with
    rank `r`; the store is visible after the next barrier and "put is
    considered to be an assignment to p" (§5). In SSA the op *defines* the
    new value of `p`: the frontend rebinds `p` to the result. In thread `t`
    after the next barrier, the result holds the `value` some thread put to
    rank `t` (undefined if none did, because the default saving code of `p`
    is removed, §5). A put to an invalid rank does nothing, which is how the
    frontend expresses a conditional put: it if-converts the rank to `-1`.

    Rules checked by the verifier: the op is an immediate child of a spawn
    body, par region, superstep or collective function (so that its result
    can reach later supersteps), and every use of the result comes after a
    barrier that follows the put.
  }];
  let arguments = (ins I32:$rank, AnyType:$value);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$rank `,` $value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

#endif // BSGP_DIALECT_BSGP_IR_BSGPSTRUCTUREOPS_TD
