// RUN: bsgp-opt %s --bsgp-inline-collectives -split-input-file -verify-diagnostics

func.func private @sync() attributes {bsgp.collective} {
  bsgp.barrier
  return
}

// Under scf.if (uniform control flow, which bsgp-split-uniform-flow checks)
// it is inlined; in host code (a require) its barrier has no place.
func.func @call_in_if(%n: i32, %c: i1) {
  bsgp.spawn %n {
    scf.if %c {
      func.call @sync() : () -> ()
    }
  }
  return
}

func.func @call_in_require(%n: i32) {
  bsgp.spawn %n {
    bsgp.require {
      // expected-error @below {{collective function 'sync' must be called in a spawn body}}
      func.call @sync() : () -> ()
    }
  }
  return
}

// -----

func.func private @rec() attributes {bsgp.collective} {
  // expected-error @below {{recursive collective function cannot be inlined}}
  func.call @rec() : () -> ()
  bsgp.barrier
  return
}

func.func @recursion(%n: i32) {
  bsgp.spawn %n {
    func.call @rec() : () -> ()
  }
  return
}

// -----

func.func private @__bsgp_thread_sortby_int(i32) attributes {bsgp.collective}

func.func @declaration_only(%n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    // expected-error @below {{collective function '__bsgp_thread_sortby_int' has no body to inline}}
    func.call @__bsgp_thread_sortby_int(%rk) : (i32) -> ()
  }
  return
}

// -----

// Host code may call an inline function, but not one that reads the
// threads' ranks.
func.func private @rank() -> i32 attributes {bsgp.device} {
  // expected-error @below {{'thread.rank' reached host code through an inline function: a function that uses it must be called in a spawn}}
  %r = bsgp.thread_rank : i32
  return %r : i32
}
func.func @host_reads_rank() -> i32 {
  %r = func.call @rank() : () -> i32
  return %r : i32
}
