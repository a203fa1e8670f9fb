//===- BSGPMemoryOps.td - lists, pointers and atomics ------*- tablegen -*-===//
//
// Lists (dnew, dtempnew), C pointer operations on !bsgp.ptr and atomics.
//
// Included by BSGPOps.td, after the includes and definitions these ops use.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DIALECT_BSGP_IR_BSGPMEMORYOPS_TD
#define BSGP_DIALECT_BSGP_IR_BSGPMEMORYOPS_TD

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
    In a spawn cut into segments at uniform branches and loops, the segments
    are spawns of their own, and `bsgp-split-uniform-flow` frees the list
    where the whole spawn ends (or where the branch or loop body holding it
    ends, if its pointer cannot leave that body); it marks the op
    `bsgp.freed_by_flow`, so that the segment does not free it.
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
    `coherent` (set only by the SPIR-V target, for `bsgp.atomic_load`)
    makes it a load that sees other work groups' writes and is never
    merged with another load: a Coherent, Volatile load of device memory.
  }];
  let arguments = (ins Arg<BSGP_AnyPtr, "", [MemRead]>:$ptr,
                       AnySignlessIntegerOrIndex:$index,
                       UnitAttr:$coherent);
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

def BSGP_PtrToIntOp : BSGP_Op<"ptr.to_int", [Pure]> {
  let summary = "a pointer's 64-bit address as an integer";
  let description = [{
    The address `ptr` holds, as an `i64`. Not a BSGP expression: code
    generation uses it to save a pointer to two temporary-stream words
    (bsgp-split-saved-words); `bsgp.ptr.from_int` is its inverse.
  }];
  let arguments = (ins BSGP_AnyPtr:$ptr);
  let results = (outs I64:$result);
  let assemblyFormat = "$ptr attr-dict `:` qualified(type($ptr))";
  let hasFolder = 1;
}

def BSGP_PtrFromIntOp : BSGP_Op<"ptr.from_int", [Pure]> {
  let summary = "a pointer from its 64-bit address";
  let description = [{
    The inverse of `bsgp.ptr.to_int`: a pointer of the result type holding
    the address `value`.
  }];
  let arguments = (ins I64:$value);
  let results = (outs BSGP_AnyPtr:$result);
  let assemblyFormat = "$value attr-dict `:` qualified(type($result))";
  let hasFolder = 1;
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
    Device code only. MLIR's SPIR-V dialect has no atomic load, so there it
    is a `coherent` `bsgp.ptr.load` (a Coherent, Volatile load).

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

def BSGP_FenceOp : BSGP_Op<"fence", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "`__threadfence()`: a device-scope memory fence";
  let description = [{
    Orders the calling thread's memory accesses at device scope, as CUDA's
    `__threadfence()`: its writes before the fence are seen by any thread of
    the device before its writes after it, and with the relaxed atomics a
    thread of another work group that observes a write after the fence and
    then fences itself sees the writes before it (the last work group of a
    reduction reading every group's partial). It does not wait for other
    threads. Its memory effects keep loads and stores on their side.
    Device code only.

    ```mlir
    bsgp.fence
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

def BSGP_PrintfOp : BSGP_Op<"printf"> {
  let summary = "C's printf called from device code";
  let description = [{
    A call of `printf` that may run in a thread (docs/language.md, "Device
    printf"): `format` is its literal format, which Sema checked against
    the arguments, and `args` are the arguments after C's default
    promotions (`i32` for int and uint, `i64` for the 64-bit integers,
    `f64` for double). bsgp-lower-device-printf turns it into stores to the
    runtime's print buffer in a thread, and into a call of the C function
    on the host.

    ```mlir
    bsgp.printf "rank %d of %d\n"(%r, %n) : i32, i32
    ```
  }];
  let arguments = (ins StrAttr:$format,
                       Variadic<AnyTypeOf<[I32, I64, F64]>>:$args);
  let assemblyFormat = [{
    $format `(` $args `)` attr-dict (`:` type($args)^)?
  }];
}

#endif // BSGP_DIALECT_BSGP_IR_BSGPMEMORYOPS_TD
