//===- BSGPOps.td - bsgp dialect operations ----------------*- tablegen -*-===//
//
// Operations of the bsgp dialect, in pipeline order: the source constructs of
// §5 (spawn, barrier, require, par, thread intrinsics, communication, memory),
// then the ops that the §4 passes produce (supersteps, temporary streams,
// kernels and launches). Section numbers refer to the BSGP paper.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DIALECT_BSGP_IR_BSGPOPS_TD
#define BSGP_DIALECT_BSGP_IR_BSGPOPS_TD

include "bsgp/Dialect/BSGP/IR/BSGPAttrs.td"
include "bsgp/Dialect/BSGP/IR/BSGPDialect.td"
include "bsgp/Dialect/BSGP/IR/BSGPTypes.td"
include "mlir/Dialect/Arith/IR/ArithBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// The per-thread rank and the thread count. Ops that read them must not be
/// merged or moved across a rank-reassigning barrier, `bsgp.set_oldrank` or
/// `bsgp.set_size`, so they read this resource instead of being `Pure`.
def BSGP_ThreadState : Resource<"::bsgp::ThreadStateResource">;

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
    "Limitation"), so a barrier must be an immediate child of a
    `bsgp.spawn` body, of a `bsgp.par` region, or of a function carrying the
    `bsgp.collective` attribute (which is inlined into a spawn body, §4.2
    step 1). Barriers inside `scf`/`cf` control flow are rejected; uniform
    loops around barriers are not supported.

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

def BSGP_SetOldRankOp : BSGP_Op<"set_oldrank", [
    MemoryEffects<[MemWrite<BSGP_ThreadState>]>]> {
  let summary = "`thread.oldrank = r` after a rank-reassigning barrier (§4.2)";
  let description = [{
    After `barrier(RANK_REASSIGNED)` every thread sets `thread.oldrank` to its
    rank before the barrier (Listing 3). The stream-load pass moves the
    loads of saved values right after this op and indexes the streams with
    the operand, then saves the values still needed under the new ranks
    (Listing 4, pass2). In SSA the old rank is simply the operand; no op
    reads it back.

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

//===----------------------------------------------------------------------===//
// Lists: dnew, dtempnew (§4.2, §5)
//===----------------------------------------------------------------------===//

/// The count is a signed element count, `i32` or `i64` (sign-extended):
/// lists of 2^31 elements or more need the 64-bit form, which the frontend
/// always emits. Its type is printed after the pointer's when it is `i64`
/// (`bsgp.dnew %n : !bsgp.ptr<f32>, i64`).
class BSGP_AllocOp<string mnemonic> : BSGP_Op<mnemonic> {
  let arguments = (ins AnyTypeOf<[I32, I64]>:$count);
  let results = (outs Res<BSGP_AnyPtr, "", [MemAlloc]>:$ptr);
  let assemblyFormat =
      "$count attr-dict `:` qualified(type($ptr)) `` custom<CountType>(type($count))";
  let hasVerifier = 1;
}

def BSGP_DNewOp : BSGP_AllocOp<"dnew"> {
  let summary = "`dnew[n]T`: allocate a list in video memory";
  let description = [{
    Allocates `count` elements of the pointer's element type in device (video)
    memory and returns the pointer (Listing 6). The list lives until freed
    with `bsgp.dfree`. Host code only (inside a `bsgp.require` when in a
    spawn).
  }];
}

def BSGP_DTempNewOp : BSGP_AllocOp<"dtempnew"> {
  let summary = "`dtempnew[n]T`: allocate a list freed after the spawn";
  let description = [{
    Like `bsgp.dnew`, but the list is temporary: the compiler frees it with
    `bsgp.dtempfree` after the last launch of the spawn (Listing 4). Used by
    collective functions for internal lists (Listing 3). Host code only.
  }];
}

def BSGP_DFreeOp : BSGP_Op<"dfree"> {
  let summary = "free a list allocated with `dnew`";
  let arguments = (ins Arg<BSGP_AnyPtr, "", [MemFree]>:$ptr);
  let assemblyFormat = "$ptr attr-dict `:` qualified(type($ptr))";
  let hasVerifier = 1;
}

def BSGP_DTempFreeOp : BSGP_Op<"dtempfree"> {
  let summary = "free the lists of a spawn's `dtempnew` ops (`__dtempfree`)";
  let description = [{
    Listing 4 ends a spawn with `__dtempfree()`, which frees every list
    allocated with `dtempnew`. In SSA the pass that lowers the spawn knows
    them, so the op lists them explicitly and the runtime needs no list of
    its own. Host code only.
  }];
  let arguments = (ins Arg<Variadic<BSGP_AnyPtr>, "", [MemFree]>:$ptrs);
  let assemblyFormat = "($ptrs^ `:` qualified(type($ptrs)))? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointer operations (C semantics on !bsgp.ptr)
//===----------------------------------------------------------------------===//

def BSGP_PtrLoadOp : BSGP_Op<"ptr.load", [
    TypesMatchWith<"result type is the pointer's element type", "ptr",
                   "result",
                   "::llvm::cast<::bsgp::PtrType>($_self).getElementType()">]> {
  let summary = "`p[i]` as an rvalue";
  let description = [{
    Loads element `index` of the list `ptr`. The index is any signless
    integer or `index`; it counts elements, as in C, and is sign-extended.
  }];
  let arguments = (ins Arg<BSGP_AnyPtr, "", [MemRead]>:$ptr,
                       AnySignlessIntegerOrIndex:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $ptr `[` $index `]` attr-dict `:` qualified(type($ptr)) `,` type($index)
  }];
}

def BSGP_PtrStoreOp : BSGP_Op<"ptr.store", [
    TypesMatchWith<"value type is the pointer's element type", "ptr",
                   "value",
                   "::llvm::cast<::bsgp::PtrType>($_self).getElementType()">]> {
  let summary = "`p[i] = v`";
  let description = [{
    Stores `value` to element `index` of the list `ptr`. Global memory is
    the only mutable state of a BSGP program (§5); thread-local variables
    are SSA values.
  }];
  let arguments = (ins AnyType:$value,
                       Arg<BSGP_AnyPtr, "", [MemWrite]>:$ptr,
                       AnySignlessIntegerOrIndex:$index);
  let assemblyFormat = [{
    $value `,` $ptr `[` $index `]` attr-dict `:` qualified(type($ptr)) `,`
    type($index)
  }];
}

def BSGP_PtrOffsetOp : BSGP_Op<"ptr.offset", [
    Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "`p + i` in elements";
  let arguments = (ins BSGP_AnyPtr:$ptr, AnySignlessIntegerOrIndex:$index);
  let results = (outs BSGP_AnyPtr:$result);
  let assemblyFormat = [{
    $ptr `[` $index `]` attr-dict `:` qualified(type($ptr)) `,` type($index)
  }];
}

def BSGP_PtrNullOp : BSGP_Op<"ptr.null", [Pure]> {
  let summary = "the null pointer, `NULL`";
  let results = (outs BSGP_AnyPtr:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def BSGP_PtrCastOp : BSGP_Op<"ptr.cast", [Pure]> {
  let summary = "`(U*)p`: change the element type of a pointer";
  let arguments = (ins BSGP_AnyPtr:$ptr);
  let results = (outs BSGP_AnyPtr:$result);
  let assemblyFormat = [{
    $ptr attr-dict `:` qualified(type($ptr)) `to` qualified(type($result))
  }];
  let hasFolder = 1;
}

def BSGP_PtrCmpOp : BSGP_Op<"ptr.cmp", [
    Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "pointer comparison (`==`, `!=`, `<`, ...)";
  let description = [{
    Compares two pointers of the same type as addresses. Only the predicates
    that make sense for addresses are accepted: `eq`, `ne` and the unsigned
    orderings `ult`, `ule`, `ugt`, `uge`.
  }];
  let arguments = (ins Arith_CmpIPredicateAttr:$predicate, BSGP_AnyPtr:$lhs,
                       BSGP_AnyPtr:$rhs);
  let results = (outs I1:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` qualified(type($lhs))
  }];
  let hasVerifier = 1;
}

def BSGP_PtrDiffOp : BSGP_Op<"ptr.diff", [
    Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "`p - q` in elements, as a 64-bit `ptrdiff_t`";
  let arguments = (ins BSGP_AnyPtr:$lhs, BSGP_AnyPtr:$rhs);
  let results = (outs I64:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` qualified(type($lhs))";
}

//===----------------------------------------------------------------------===//
// Superstep form (§4.2 steps 3 and 5)
//===----------------------------------------------------------------------===//

def BSGP_SuperstepOp : BSGP_Op<"superstep", [
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">,
    HasParent<"SpawnOp">]> {
  let summary = "one superstep of a spawn, after barrier splitting (§4.2)";
  let description = [{
    §4.2 step 3 splits a spawn body at its barriers; each piece becomes a
    superstep and later a kernel. `index` numbers the supersteps of the
    spawn from 1 (as in the paper's tables); `source_begin`/`source_end` are
    the source range of the piece, which feeds the kernel-to-source log of
    §4.4. `rank_reassigned` marks a superstep that follows
    `barrier(RANK_REASSIGNED)`.

    A value used in a later superstep is a result of the superstep defining
    it, so the results are exactly the *saved values* of §4.2 step 5
    (Table 1). The stream passes then replace them by `bsgp.save` /
    `bsgp.load` pairs.

    ```mlir
    %f, %v = bsgp.superstep 1 -> (i32, i32) {
      ...
      bsgp.yield %f, %v : i32, i32
    }
    bsgp.superstep 2 rank_reassigned {
      ... uses %f, %v ...
    }
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<1>]>:$index,
                       UnitAttr:$rank_reassigned,
                       OptionalAttr<LocationAttr>:$source_begin,
                       OptionalAttr<LocationAttr>:$source_end);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $index (`rank_reassigned` $rank_reassigned^)?
    (`source` `(` $source_begin^ `,` $source_end `)`)?
    (`->` custom<ResultTypes>(type($results))^)? $body attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Temporary streams (§4.1, §4.2 steps 6-7, §4.3)
//===----------------------------------------------------------------------===//

def BSGP_StreamAllocOp : BSGP_Op<"stream_alloc"> {
  let summary = "allocate a temporary stream (`__newstream`)";
  let description = [{
    Allocates a temporary stream of `size` 32-bit words, `size` being the
    thread count of the launches that use it (Listing 4). Host code only.
  }];
  let arguments = (ins I32:$size);
  let results = (outs Res<BSGP_StreamType, "", [MemAlloc]>:$stream);
  let assemblyFormat = "$size attr-dict `:` qualified(type($stream))";
  let hasVerifier = 1;
}

def BSGP_StreamFreeOp : BSGP_Op<"stream_free"> {
  let summary = "free a temporary stream (`__freestream`)";
  let arguments = (ins Arg<BSGP_StreamType, "", [MemFree]>:$stream);
  let assemblyFormat = "$stream attr-dict";
  let hasVerifier = 1;
}

def BSGP_SaveOp : BSGP_Op<"save"> {
  let summary = "save a value to temporary streams (`t0[thread.rank] = f`)";
  let description = [{
    Stores `value` at word `index` of the streams, one stream per 32-bit word
    of the value: one for `i1`, `i8`, `i16`, `i32`, `f16`, `f32`; two for
    `i64`, `f64` and pointers (low word first); `n * w` for a vector of `n`
    elements of `w` words each. Values narrower than a word are widened.
    One stream per word keeps every stream the same shape, which is what the
    minimum flow of §4.3 needs to share streams among values of any type.
    Device code only.

    ```mlir
    bsgp.save %v to (%s0, %s1, %s2, %s3)[%rk] : vector<4xf32>
    ```
  }];
  let arguments = (ins AnyType:$value,
                       Arg<Variadic<BSGP_StreamType>, "", [MemWrite]>:$streams,
                       I32:$index);
  let assemblyFormat = [{
    $value `to` ` ` `(` $streams `)` `` `[` $index `]` attr-dict `:`
    type($value)
  }];
  let hasVerifier = 1;
}

def BSGP_LoadOp : BSGP_Op<"load"> {
  let summary = "load a saved value from temporary streams (`f = t0[rank]`)";
  let description = [{
    The inverse of `bsgp.save`: reads word `index` of each stream and
    reassembles a value of the result type. After a rank-reassigning barrier
    the index is the operand of `bsgp.set_oldrank` (Listing 4, pass2).
    Device code only.
  }];
  let arguments = (ins Arg<Variadic<BSGP_StreamType>, "", [MemRead]>:$streams,
                       I32:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    ` ` `(` $streams `)` `` `[` $index `]` attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Kernels and launches (§4.2 steps 3-4)
//===----------------------------------------------------------------------===//

def BSGP_KernelOp : BSGP_Op<"kernel", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove]> {
  let summary = "a superstep outlined as a kernel (a pass)";
  let description = [{
    The kernel of one superstep (§4.2 step 3; `kernel pass1(...)` in
    Listing 4). Every host value the superstep used is an argument (step 4),
    so the body is isolated from above. The body is device code; it ends
    with `bsgp.return` and has no results. The optional `superstep`
    attribute is the index of the superstep it came from.

    ```mlir
    bsgp.kernel @pass1(%ib: !bsgp.ptr<i32>, %t0: !bsgp.stream) {
      ...
      bsgp.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() {
      return getBody().empty() ? nullptr : &getBody();
    }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def BSGP_ReturnOp : BSGP_Op<"return", [
    Pure, ReturnLike, Terminator, HasParent<"KernelOp">]> {
  let summary = "end of a kernel";
  let assemblyFormat = "attr-dict";
}

def BSGP_LaunchOp : BSGP_Op<"launch", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "launch a kernel on a number of threads (`launch(n, k(...))`)";
  let description = [{
    Host code that runs `kernel` on `threadCount` threads with `args` as its
    parameters (Listing 4: `launch (thread.size, pass1(ib, sorted_id, t0,
    t1))`). Returning from the launch is the barrier. The verifier checks
    that the callee is a `bsgp.kernel` and that the argument types match
    its signature.

    ```mlir
    bsgp.launch @pass1(%size) args(%ib, %t0 : !bsgp.ptr<i32>, !bsgp.stream)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, I32:$threadCount,
                       Variadic<AnyType>:$args);
  let assemblyFormat = [{
    $kernel `(` $threadCount `)` (`args` `(` $args^ `:` type($args) `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Target queries and atomics
//===----------------------------------------------------------------------===//

def BSGP_TargetIsOp : BSGP_Op<"target_is", [Pure]> {
  let summary = "`target.cpu`, `target.cuda`, `target.spirv`";
  let description = [{
    True when the code runs on `target` (`"cpu"`, `"cuda"` or `"spirv"`).
    In device code each target's kernel lowering replaces it by its constant
    before anything else and removes the branches that become dead, so code
    under `if (!target.spirv)` never reaches the SPIR-V conversion. In host
    code `bsgp-resolve-target-queries` replaces it by a constant when the
    object has one target, or by a comparison of `bsgprt_target()` with the
    target's number in a fat object.

    ```mlir
    %on_cpu = bsgp.target_is "cpu" : i1
    ```
  }];
  let arguments = (ins StrAttr:$target);
  let results = (outs I1:$result);
  let assemblyFormat = "$target attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def BSGP_AtomicRMWOp : BSGP_Op<"atomic_rmw", [
    TypesMatchWith<"value type is the pointer's element type", "ptr",
                   "value",
                   "::llvm::cast<::bsgp::PtrType>($_self).getElementType()">,
    TypesMatchWith<"result type is the pointer's element type", "ptr",
                   "result",
                   "::llvm::cast<::bsgp::PtrType>($_self).getElementType()">]> {
  let summary = "atomic read-modify-write of `*ptr` (`atomicAdd`, ...)";
  let description = [{
    Atomically replaces `*ptr` by `*ptr kind value` and returns the old
    value, with relaxed (monotonic) ordering at device scope, as CUDA's
    `atomic*` functions. `kind` is one of the `arith` atomic kinds `addi`,
    `addf`, `mins`, `minu`, `maxs`, `maxu`, `andi`, `ori`, `xori` and
    `assign` (exchange); the element type is a 32- or 64-bit integer, or
    `f32` for `addf` and `assign`. `atomicSub(p, v)` is `addi` of `-v`.
    Device code only.

    ```mlir
    %old = bsgp.atomic_rmw addi %one, %p : !bsgp.ptr<i32>
    ```
  }];
  let arguments = (ins AtomicRMWKindAttr:$kind, AnyType:$value,
                       Arg<BSGP_AnyPtr, "", [MemRead, MemWrite]>:$ptr);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $kind $value `,` $ptr attr-dict `:` qualified(type($ptr))
  }];
  let hasVerifier = 1;
}

def BSGP_AtomicLoadOp : BSGP_Op<"atomic_load", [
    TypesMatchWith<"result type is the pointer's element type", "ptr",
                   "result",
                   "::llvm::cast<::bsgp::PtrType>($_self).getElementType()">]> {
  let summary = "atomic load of `*ptr` (`atomicLoad`)";
  let description = [{
    Reads `*ptr` atomically with relaxed (monotonic) ordering at device
    scope: a thread polling a word that another thread publishes sees the
    update (a plain load may be served from a stale cache line), without
    the cost of a read-modify-write. A 32- or 64-bit integer element.
    Device code only. SPIR-V's core has no atomic load in MLIR's dialect,
    so there it is an atomic or of 0.

    ```mlir
    %v = bsgp.atomic_load %p : !bsgp.ptr<i64>
    ```
  }];
  let arguments = (ins Arg<BSGP_AnyPtr, "", [MemRead]>:$ptr);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$ptr attr-dict `:` qualified(type($ptr))";
  let hasVerifier = 1;
}

def BSGP_AtomicCASOp : BSGP_Op<"atomic_cas", [
    TypesMatchWith<"expected type is the pointer's element type", "ptr",
                   "expected",
                   "::llvm::cast<::bsgp::PtrType>($_self).getElementType()">,
    TypesMatchWith<"desired type is the pointer's element type", "ptr",
                   "desired",
                   "::llvm::cast<::bsgp::PtrType>($_self).getElementType()">,
    TypesMatchWith<"result type is the pointer's element type", "ptr",
                   "result",
                   "::llvm::cast<::bsgp::PtrType>($_self).getElementType()">]> {
  let summary = "atomic compare-and-swap of `*ptr` (`atomicCAS`)";
  let description = [{
    Atomically: `old = *ptr; if (old == expected) *ptr = desired;` and
    returns `old` (relaxed ordering, device scope). The element type is a
    32- or 64-bit integer or `f32`; floats are compared bit for bit.
    Device code only.

    ```mlir
    %old = bsgp.atomic_cas %p, %expected, %desired : !bsgp.ptr<i32>
    ```
  }];
  let arguments = (ins Arg<BSGP_AnyPtr, "", [MemRead, MemWrite]>:$ptr,
                       AnyType:$expected, AnyType:$desired);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $ptr `,` $expected `,` $desired attr-dict `:` qualified(type($ptr))
  }];
  let hasVerifier = 1;
}

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
    "the number of threads of a work group">;
def BSGP_GroupIdOp : BSGP_GroupQueryOp<"group_id", "group.id",
    "the index of the thread's work group">;
def BSGP_GroupCountOp : BSGP_GroupQueryOp<"group_count", "group.count",
    "the number of work groups">;
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
    never go through memory.

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

#endif // BSGP_DIALECT_BSGP_IR_BSGPOPS_TD
