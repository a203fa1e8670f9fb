// RUN: bsgp-opt %s --bsgp-split-supersteps -split-input-file -verify-diagnostics

// A require runs on the host before its superstep: it cannot use what the
// superstep computes with side effects, even a uniform value (pure ops over
// host values it computes again: split-supersteps.mlir, @require_pure_chain).
func.func private @next() -> i32 attributes {bsgp.device}

func.func @require_uses_device_value(%n: i32) {
  bsgp.spawn %n {
    %v = func.call @next() : () -> i32
    // expected-note @below {{value defined here}}
    %m = arith.muli %v, %v : i32
    // expected-error @below {{require code runs on the host before its superstep}}
    %p = bsgp.require -> !bsgp.ptr<i32> {
      %q = bsgp.dnew %m : !bsgp.ptr<i32>
      bsgp.yield %q : !bsgp.ptr<i32>
    }
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %rk, %p[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

func.func @par_not_expanded(%n: i32) {
  bsgp.spawn %n {
    // expected-error @below {{bsgp.par must be expanded before superstep splitting}}
    bsgp.par {
      bsgp.barrier
    }
  }
  return
}

// -----

func.func private @sync() attributes {bsgp.collective} {
  bsgp.barrier
  return
}

func.func @collective_not_inlined(%n: i32) {
  bsgp.spawn %n {
    // expected-error @below {{call to collective function 'sync' must be inlined before superstep splitting}}
    func.call @sync() : () -> ()
  }
  return
}
