// RUN: bsgp-opt %s --bsgp-outline-kernels -split-input-file -verify-diagnostics

func.func @not_split(%n: i32) {
  bsgp.spawn %n {
    // expected-error @below {{spawn is not in superstep form}}
    %rk = bsgp.thread_rank : i32
    bsgp.barrier
  }
  return
}

// -----

func.func @results_left(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    // expected-error @below {{superstep still has saved values as results}}
    %v = bsgp.superstep 1 -> i32 {
      %rk = bsgp.thread_rank : i32
      bsgp.yield %rk : i32
    }
    bsgp.superstep 2 {
      bsgp.ptr.store %v, %p[%v] : !bsgp.ptr<i32>, i32
    }
  }
  return
}

// -----

func.func @set_size_in_if(%n: i32, %c: i1) {
  bsgp.spawn %n {
    bsgp.require {
      scf.if %c {
        // expected-error @below {{set_size inside control flow of a require is not supported}}
        bsgp.set_size %n
      }
    }
    bsgp.superstep 1 {
      %rk = bsgp.thread_rank : i32
    }
  }
  return
}
