// RUN: bsgp-opt %s --split-input-file --bsgp-specialize-targets="targets=cpu" | FileCheck %s --check-prefix=ONE
// RUN: bsgp-opt %s --split-input-file --bsgp-specialize-targets="targets=cpu,cuda" | FileCheck %s --check-prefix=FAT
// RUN: not bsgp-opt %s --split-input-file --bsgp-specialize-targets="targets=cpu,gpu" 2>&1 | FileCheck %s --check-prefix=BAD

// The option names targets as --target= does; another name is an error.
// BAD: error: unknown target 'gpu' (expected cpu, cuda or spirv)

// A spawn whose barrier depends on the target, like the collective
// library's scan: on CUDA one superstep, elsewhere a barrier and a require.
// With one target the branch is folded in place; in a fat object each
// target gets its own copy of the function, marked bsgp.target, and the
// function dispatches on bsgprt_target() (2 is BSGPRT_TARGET_CUDA).

// ONE-LABEL: func.func @scan(
// ONE-NOT: bsgp.target_is
// ONE-NOT: scf.if
// ONE: bsgp.spawn
// ONE: bsgp.ptr.store
// ONE-NEXT: bsgp.barrier
// ONE-NEXT: bsgp.require
// ONE-NEXT: func.call @merge
// ONE-NOT: func.func private @scan__

// FAT-LABEL: func.func @scan(
// FAT-SAME: %[[P:[^:]*]]: !bsgp.ptr<i32>, %[[N:[^:]*]]: i32) -> i32
// FAT-NEXT: %[[T:.*]] = call @bsgprt_target() : () -> i32
// FAT-NEXT: %[[CPU:.*]] = arith.constant 1 : i32
// FAT-NEXT: %[[IS:.*]] = arith.cmpi eq, %[[T]], %[[CPU]] : i32
// FAT-NEXT: %[[R:.*]] = scf.if %[[IS]] -> (i32) {
// FAT-NEXT: %[[A:.*]] = func.call @scan__cpu(%[[P]], %[[N]])
// FAT-NEXT: scf.yield %[[A]]
// FAT-NEXT: } else {
// FAT-NEXT: %[[B:.*]] = func.call @scan__cuda(%[[P]], %[[N]])
// FAT-NEXT: scf.yield %[[B]]
// FAT: return %[[R]] : i32
// FAT-LABEL: func.func private @scan__cpu(
// FAT-SAME: attributes {bsgp.target = "cpu"}
// FAT-NOT: bsgp.target_is
// FAT: bsgp.barrier
// FAT-NEXT: bsgp.require
// FAT-NEXT: func.call @merge
// FAT-LABEL: func.func private @scan__cuda(
// FAT-SAME: attributes {bsgp.target = "cuda"}
// FAT-NOT: bsgp.barrier
// FAT: bsgp.group_barrier
// FAT-NOT: bsgp.barrier
// FAT: return
// FAT: func.func private @bsgprt_target() -> i32
func.func private @merge(!bsgp.ptr<i32>)
func.func @scan(%p: !bsgp.ptr<i32>, %n: i32) -> i32 {
  %q = bsgp.target_is "cuda" : i1
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    scf.if %q {
      bsgp.group_barrier
      bsgp.ptr.store %rk, %p[%rk] : !bsgp.ptr<i32>, i32
    } else {
      bsgp.ptr.store %rk, %p[%rk] : !bsgp.ptr<i32>, i32
      bsgp.barrier
      bsgp.require {
        func.call @merge(%p) : (!bsgp.ptr<i32>) -> ()
      }
    }
  }
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}

// -----

// A query that decides no barrier is left to the target lowerings, which
// fold it per kernel: nothing is copied.
// ONE-LABEL: func.func @plain(
// ONE: bsgp.target_is "cuda"
// FAT-LABEL: func.func @plain(
// FAT: bsgp.target_is "cuda"
// FAT-NOT: func.func private @plain__
func.func @plain(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %q = bsgp.target_is "cuda" : i1
    %rk = bsgp.thread_rank : i32
    scf.if %q {
      bsgp.ptr.store %rk, %p[%rk] : !bsgp.ptr<i32>, i32
    }
    bsgp.barrier
    bsgp.ptr.store %rk, %p[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}
