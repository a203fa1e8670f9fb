//===- BSGPListOps.td - the runtime's list primitives ------*- tablegen -*-===//
//
// Reductions, scans and sorts of whole lists by the runtime (host code,
// internal to the collective library).
//
// Included by BSGPOps.td, after the includes and definitions these ops use.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DIALECT_BSGP_IR_BSGPLISTOPS_TD
#define BSGP_DIALECT_BSGP_IR_BSGPLISTOPS_TD

/// The element types of the runtime's list primitives (bsgprt_list_type).
def BSGP_ListElement : AnyTypeOf<[I32, I64, F32, F64]>;

class BSGP_ListOp<string mnemonic, list<Trait> traits = []>
    : BSGP_Op<mnemonic, traits> {
  let hasVerifier = 1;
  code commonDescription = [{
    Host code only. Backends with native list primitives (the cpu backend:
    `bsgprt_list_primitives_native()`) run the collective library's list
    reductions, scans and sorts through these ops; on the others the
    library runs kernels of its own. The ops lower to the runtime's
    `bsgprt_list_*` entry points with the operator and the element type as
    arguments (runtime/include/bsgp/runtime.h), so neither the library nor
    the compiler names a function per operator and type. `kind` is the
    operator as the chunk ops spell it: `add`, `mul`, `and`, `or`, `xor`;
    `mins`/`maxs` and `minu`/`maxu` for signed and unsigned integers;
    `minf`/`maxf` for floats. From BSGP source they are the library's
    builtins `__bsgp_native_reduce(op, in, n)`,
    `__bsgp_native_scan_exclusive(op, in, out, n)` and
    `__bsgp_native_sort_pairs(keys, values, n)`.
  }];
}

def BSGP_ListReduceOp : BSGP_ListOp<"list_reduce", [
    TypesMatchWith<"result type is the list's element type", "in", "result",
                   "::llvm::cast<::bsgp::PtrType>($_self).getElementType()">]> {
  let summary = "the reduction of a list in device memory, to the host";
  let description = commonDescription # [{
    `bsgp.list_reduce` returns `in[0] ⊕ ... ⊕ in[count-1]`, or the
    operator's identity when `count` is 0 (0 for add, or and xor, 1 for mul,
    all ones for and, the type's largest and smallest values for min and
    max, ±infinity for floats). With a constant count of 0 it folds to that
    identity, which the library uses as the identity of its own kernels.

    ```mlir
    %total = bsgp.list_reduce "add" %in, %n : !bsgp.ptr<i32>
    ```
  }];
  let arguments = (ins StrAttr:$kind, Arg<BSGP_AnyPtr, "", [MemRead]>:$in,
                       I64:$count);
  let results = (outs BSGP_ListElement:$result);
  let assemblyFormat = [{
    $kind $in `,` $count attr-dict `:` qualified(type($in))
  }];
  let hasFolder = 1;
}

def BSGP_ListScanExclusiveOp : BSGP_ListOp<"list_scan_exclusive", [
    AllTypesMatch<["in", "out"]>,
    TypesMatchWith<"result type is the list's element type", "in", "total",
                   "::llvm::cast<::bsgp::PtrType>($_self).getElementType()">]> {
  let summary = "the exclusive scan of a list in device memory";
  let description = commonDescription # [{
    `bsgp.list_scan_exclusive` stores `out[i] = in[0] ⊕ ... ⊕ in[i-1]`
    (`out[0]` the identity) for every `i < count` and returns the reduction
    of all `count` elements. `in` may be `out`.

    ```mlir
    %total = bsgp.list_scan_exclusive "add" %in, %out, %n : !bsgp.ptr<i32>
    ```
  }];
  let arguments = (ins StrAttr:$kind, Arg<BSGP_AnyPtr, "", [MemRead]>:$in,
                       Arg<BSGP_AnyPtr, "", [MemWrite]>:$out, I64:$count);
  let results = (outs BSGP_ListElement:$total);
  let assemblyFormat = [{
    $kind $in `,` $out `,` $count attr-dict `:` qualified(type($in))
  }];
}

def BSGP_ListSortPairsOp : BSGP_ListOp<"list_sort_pairs"> {
  let summary = "a stable sort of keys in device memory, with their values";
  let description = commonDescription # [{
    `bsgp.list_sort_pairs` sorts `keys[0, count)` ascending, stably, and
    applies the same permutation to `values`, a list of `i32`. Integer keys are
    signed unless the op is `unsigned`; floats are ordered by value with
    -0 < +0 and NaNs after +infinity.

    ```mlir
    bsgp.list_sort_pairs unsigned %keys, %ids, %n : !bsgp.ptr<i32>, !bsgp.ptr<i32>
    ```
  }];
  let arguments = (ins
      Arg<BSGP_AnyPtr, "", [MemRead, MemWrite]>:$keys,
      Arg<BSGP_AnyPtr, "", [MemRead, MemWrite]>:$values, I64:$count,
      UnitAttr:$is_unsigned);
  let assemblyFormat = [{
    (`unsigned` $is_unsigned^)? $keys `,` $values `,` $count attr-dict `:`
    qualified(type($keys)) `,` qualified(type($values))
  }];
}

#endif // BSGP_DIALECT_BSGP_IR_BSGPLISTOPS_TD
