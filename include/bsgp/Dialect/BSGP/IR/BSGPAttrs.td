//===- BSGPAttrs.td - attributes of the bsgp dialect -------*- tablegen -*-===//
//
// The contract between the compiler and the collective library
// (lib/Collectives): what a library function is, declared on the function
// instead of being read off its name.
//
//===----------------------------------------------------------------------===//

#ifndef BSGP_DIALECT_BSGP_IR_BSGPATTRS_TD
#define BSGP_DIALECT_BSGP_IR_BSGPATTRS_TD

include "bsgp/Dialect/BSGP/IR/BSGPDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def BSGP_LibraryKind : I32EnumAttr<"LibraryKind",
    "what a function of the collective library is", [
  I32EnumAttrCase<"Function", 0, "function">,
  I32EnumAttrCase<"SortRanks", 1, "sort_ranks">,
  I32EnumAttrCase<"ReadBack", 2, "read_back">,
  I32EnumAttrCase<"ThreadKill", 3, "thread_kill">,
  I32EnumAttrCase<"ThreadFork", 4, "thread_fork">,
  I32EnumAttrCase<"SegReduce", 5, "segreduce">,
  I32EnumAttrCase<"SegScan", 6, "segscan">,
  I32EnumAttrCase<"Reduce", 7, "reduce">,
  I32EnumAttrCase<"SortIdx", 8, "sort_idx">,
  I32EnumAttrCase<"ThreadSortby", 9, "thread_sortby">,
  I32EnumAttrCase<"Compact", 10, "compact">,
  I32EnumAttrCase<"Split", 11, "split">,
  I32EnumAttrCase<"ThreadSplit", 12, "thread_split">,
  I32EnumAttrCase<"Scan", 13, "scan">,
  I32EnumAttrCase<"ScanOnly", 14, "scan_only">
]> {
  let cppNamespace = "::bsgp";
  let genSpecializedAttr = 0;
}

def BSGP_LibraryAttr : EnumAttr<BSGP_Dialect, BSGP_LibraryKind, "library"> {
  let summary = "what a function of the collective library is";
  let description = [{
    The value of the discardable attribute `bsgp.library`, which MLIRGen
    sets on every function of the collective library (lib/Collectives)
    and which the passes read instead of the function's name:

    - `function`: a function of the library. A call of one that is not
      inlined (the library's host code) reaches memory only through its
      pointer arguments, which the passes checking a superstep's writes
      (bsgp-single-pass, bsgp-forward-sort-keys, ...) rely on.
    - `sort_ranks` (`[[library(sort_ranks)]]` in the library source): the
      stable sort of the pairs (input[i], i), with the signature
      `(input: !bsgp.ptr<T>, keys: !bsgp.ptr<T>, ids: !bsgp.ptr<i32>,
      spareKeys: !bsgp.ptr<T>, spareIds: !bsgp.ptr<i32>, n: i64) -> i1`
      (checked by the verifier): it leaves the sorted pairs in (keys, ids),
      or in the spare lists where it returns true. bsgp-forward-sort-keys
      and bsgp-forward-sort-results rewrite its calls; the operand numbers
      are bsgp::SortRanksOperand.

    - `read_back` (`[[library(read_back)]]`): the host reads `p[0]`, one
      value in device memory, with the signature `(p: !bsgp.ptr<T>) -> T`
      (checked by the verifier). The library returns a uniform value its
      threads computed (a reduce's total) through it, so that
      bsgp-keep-uniforms-on-device can hand `p` to the kernels that use
      the value instead of reading it back on the host.

    - `thread_kill` and `thread_fork` (`[[library(thread_kill)]]`,
      `[[library(thread_fork)]]`): `thread.kill(flag)`, `(i1) -> ()`, and
      `thread.fork(n)`, `(i32) -> i32` (checked by the verifier), collective
      functions. bsgp-merge-kill-fork turns a kill followed by a fork into
      the fork alone, with no children for the killed threads.

    - `reduce`, `segreduce` and `segscan` (`[[library(reduce)]]`, ...
      before a template of the operator and the value type), `sort_idx`,
      `thread_sortby`, `compact` and `split` (before a template of the
      element type), `thread_split`: the functions implementing
      `reduce(op, x)`, `segreduce(op, x, head)`, `segscan(op, x, head)`,
      `sort_idx(key)`, `thread.sortby(key)`, `compact(list, v, keep,
      flag)`, `split(list, v, side, flag)` and `thread.split(side)`. Sema
      binds each call to their instantiation for its operator and types
      (as it binds `thread.kill` and `thread.fork` to theirs), found by
      this kind rather than by a name; to the passes they are plain
      library functions.

    - `scan` and `scan_only`: `scan(op, x)`, one function per form (a
      template of the operator, with the value type given or deduced;
      Sema chooses among them as among overloads), returning the scanned
      value and the total as a 2-vector or the scanned value alone; and
      the scan without the total for a scan written as a statement,
      `[[library(scan_only, +)]]` where it is for one operator alone.

    ```mlir
    func.func private @sort(!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>,
                            !bsgp.ptr<i32>, !bsgp.ptr<i32>, i64) -> i1
        attributes {bsgp.library = #bsgp.library<sort_ranks>}
    ```
  }];
  let assemblyFormat = "`<` $value `>`";
}

#endif // BSGP_DIALECT_BSGP_IR_BSGPATTRS_TD
