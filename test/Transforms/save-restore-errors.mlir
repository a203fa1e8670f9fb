// RUN: bsgp-opt %s --bsgp-save-restore -split-input-file -verify-diagnostics --allow-unregistered-dialect

// Values live across barrier(RANK_REASSIGNED) need thread.oldrank.
func.func @no_oldrank(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %v = bsgp.superstep 1 -> i32 {
      %rk = bsgp.thread_rank : i32
      %x = bsgp.ptr.load %p[%rk] : !bsgp.ptr<i32>, i32
      bsgp.yield %x : i32
    }
    // expected-error @below {{superstep 2 follows barrier(RANK_REASSIGNED) but does not set thread.oldrank}}
    bsgp.superstep 2 rank_reassigned {
      %rk = bsgp.thread_rank : i32
      bsgp.ptr.store %v, %p[%rk] : !bsgp.ptr<i32>, i32
    }
  }
  return
}

// -----

func.func @use_before_oldrank(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %v = bsgp.superstep 1 -> i32 {
      %rk = bsgp.thread_rank : i32
      %x = bsgp.ptr.load %p[%rk] : !bsgp.ptr<i32>, i32
      bsgp.yield %x : i32
    }
    bsgp.superstep 2 rank_reassigned {
      %rk = bsgp.thread_rank : i32
      // expected-error @below {{used before thread.oldrank is set}}
      bsgp.ptr.store %v, %p[%rk] : !bsgp.ptr<i32>, i32
      bsgp.set_oldrank %rk
    }
  }
  return
}

// -----

func.func @unsavable(%n: i32) {
  bsgp.spawn %n {
    %v = bsgp.superstep 1 -> tensor<2xi32> {
      // expected-error @below {{cannot keep this value across a barrier: no temporary stream holds 'tensor<2xi32>'}}
      %t = arith.constant dense<1> : tensor<2xi32>
      bsgp.yield %t : tensor<2xi32>
    }
    bsgp.superstep 2 {
      %e = "test.use"(%v) : (tensor<2xi32>) -> i32
    }
  }
  return
}

// -----

// A get in the superstep that follows barrier(RANK_REASSIGNED) would name
// thread r by its new rank, but %v is stored at the old ranks until the
// shuffle at the end of that superstep.
func.func @get_after_reassign(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    %v = bsgp.superstep 1 -> i32 {
      %rk = bsgp.thread_rank : i32
      %x = bsgp.ptr.load %p[%rk] : !bsgp.ptr<i32>, i32
      bsgp.yield %x : i32
    }
    bsgp.superstep 2 rank_reassigned {
      %rk = bsgp.thread_rank : i32
      bsgp.set_oldrank %rk
      %c1 = arith.constant 1 : i32
      %next = arith.addi %rk, %c1 : i32
      // expected-error @below {{thread.get right after a rank reassignment (such as thread.sortby or barrier(RANK_REASSIGNED)) cannot find thread r by its new rank}}
      %g = bsgp.get %next, %v : i32
      bsgp.ptr.store %g, %p[%rk] : !bsgp.ptr<i32>, i32
    }
  }
  return
}
