// RUN: bsgp-opt %s --bsgp-split-uniform-flow --split-input-file -verify-diagnostics

// A branch on the rank cannot hold a barrier (Sema says so first, with
// notes on the variables; this is the check on the IR).
func.func @varying(%n: i32) {
  bsgp.spawn %n {
    %r = bsgp.thread_rank : i32
    %c0 = arith.constant 0 : i32
    %c = arith.cmpi eq, %r, %c0 : i32
    // expected-note@+1 {{the condition depends on the thread}}
    scf.if %c {
      // expected-error@+1 {{barrier under control flow that differs between threads}}
      bsgp.barrier
    }
  }
  return
}

// -----

// A loop whose counter steps by a loaded value varies too.
func.func @varying_loop(%n: i32, %p: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %r = bsgp.thread_rank : i32
    // expected-note@+1 {{the condition depends on the thread}}
    %res = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %n : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      // expected-error@+1 {{barrier under control flow that differs between threads}}
      bsgp.barrier
      %s = bsgp.ptr.load %p[%r] : !bsgp.ptr<i32>, i32
      %i3 = arith.addi %i2, %s : i32
      scf.yield %i3 : i32
    }
  }
  return
}

// -----

// An array of more than 256 words is not carried through the branch
// element by element: the error names the array, not a pointer into it.
func.func @private_array_too_large(%n: i32, %k: i32) {
  bsgp.spawn %n {
    %size = llvm.mlir.constant(300 : i64) : i64
    // expected-error@+1 {{a thread-private array of 300 elements lives through a branch or loop that holds a barrier: its 300 words would each be carried in a list of their own (at most 256)}}
    %a = llvm.alloca %size x i32 : (i64) -> !llvm.ptr
    %p = builtin.unrealized_conversion_cast %a : !llvm.ptr to !bsgp.ptr<i32>
    %c0 = arith.constant 0 : i32
    %r = bsgp.thread_rank : i32
    bsgp.ptr.store %r, %p[%c0] : !bsgp.ptr<i32>, i32
    %c = arith.cmpi sgt, %k, %c0 : i32
    scf.if %c {
      bsgp.barrier
    }
    %v = bsgp.ptr.load %p[%c0] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %v, %p[%r] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A pointer into a thread's stack means nothing in the next kernel. The
// array itself goes through the branch element by element, but not a
// pointer into it made before the branch.
func.func @private_pointer(%n: i32, %k: i32) {
  bsgp.spawn %n {
    %two = llvm.mlir.constant(2 : i64) : i64
    %a = llvm.alloca %two x i32 : (i64) -> !llvm.ptr
    %p = builtin.unrealized_conversion_cast %a : !llvm.ptr to !bsgp.ptr<i32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-error@+1 {{a pointer into a thread-private or 'local' array cannot live across a branch or loop that holds a barrier}}
    %q = bsgp.ptr.offset %p[%c1] : !bsgp.ptr<i32>, i32
    %c = arith.cmpi sgt, %k, %c0 : i32
    scf.if %c {
      bsgp.barrier
    }
    %r = bsgp.thread_rank : i32
    bsgp.ptr.store %r, %q[%c0] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A per-thread value of a type no list holds, live across a loop that holds
// a barrier (only IR written by hand has one: the error names its IR type).
func.func @unsavable(%n: i32, %k: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    // expected-error @+2 {{cannot keep this value across a branch or loop that holds a barrier: no temporary stream holds 'index'}}
    %r = bsgp.thread_rank : i32
    %t = arith.index_cast %r : i32 to index
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %res = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      bsgp.barrier
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3 : i32
    }
    %u = arith.index_cast %t : index to i32
    bsgp.ptr.store %u, %out[%u] : !bsgp.ptr<i32>, i32
  }
  return
}
