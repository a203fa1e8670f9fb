// RUN: bsgp-opt %s -split-input-file -verify-diagnostics
//
// One case per verifier error of the bsgp ops, in the order of BSGPOps.td.

//===----------------------------------------------------------------------===//
// spawn
//===----------------------------------------------------------------------===//

func.func @spawn_in_spawn(%n: i32) {
  bsgp.spawn %n {
    // expected-error @+1 {{'bsgp.spawn' op cannot be nested in device code}}
    bsgp.spawn %n {
    }
  }
  return
}

// -----

func.func @spawn_in_device_function(%n: i32) attributes {bsgp.device} {
  // expected-error @+1 {{'bsgp.spawn' op cannot be nested in device code}}
  bsgp.spawn %n {
  }
  return
}

// -----

func.func @spawn_in_require(%n: i32) {
  bsgp.spawn %n {
    bsgp.require {
      // expected-error @+1 {{'bsgp.spawn' op cannot be nested in device code}}
      bsgp.spawn %n {
      }
    }
  }
  return
}

// -----

func.func @spawn_yields(%n: i32) {
  // expected-error @+1 {{'bsgp.spawn' op body yields ('i32') but () are expected}}
  bsgp.spawn %n {
    bsgp.yield %n : i32
  }
  return
}

// -----

func.func @spawn_yields_device_value(%n: i32) {
  // expected-error @+1 {{'bsgp.spawn' op may only yield results of bsgp.require ops of its body (host values)}}
  %r = bsgp.spawn %n -> i32 {
    %rk = bsgp.thread_rank : i32
    bsgp.yield %rk : i32
  }
  return
}

// -----

func.func @spawn_thread_count_type(%n: i64) {
  // expected-error @+1 {{operand #0 must be 32-bit signless integer}}
  "bsgp.spawn"(%n) ({
    "bsgp.yield"() : () -> ()
  }) : (i64) -> ()
  return
}

// -----

func.func @spawn_wrong_terminator(%n: i32) {
  "bsgp.spawn"(%n) ({
    // expected-error @+1 {{'bsgp.return' op expects parent op 'bsgp.kernel'}}
    "bsgp.return"() : () -> ()
  }) : (i32) -> ()
  return
}

// -----

func.func @spawn_empty_block(%n: i32) {
  // expected-error @+1 {{'bsgp.spawn' op expects a non-empty block}}
  "bsgp.spawn"(%n) ({
  ^bb0:
  }) : (i32) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// barrier: no barrier inside control flow (§4.4)
//===----------------------------------------------------------------------===//

func.func @barrier_on_host() {
  // expected-error @+1 {{'bsgp.barrier' op must be in a bsgp.spawn body, a bsgp.par region or a function marked bsgp.collective}}
  bsgp.barrier
  return
}

// -----

// Under scf.if and scf.while it may be (uniform control flow, checked by
// bsgp-split-uniform-flow); other control flow cannot hold it.
func.func @barrier_in_for(%n: i32, %lb: index) {
  bsgp.spawn %n {
    scf.for %i = %lb to %lb step %lb {
      // expected-error @+1 {{'bsgp.barrier' op must be in a bsgp.spawn body}}
      bsgp.barrier
    }
  }
  return
}

// -----

func.func @barrier_in_require(%n: i32) {
  bsgp.spawn %n {
    bsgp.require {
      // expected-error @+1 {{'bsgp.barrier' op must be in a bsgp.spawn body}}
      bsgp.barrier
    }
  }
  return
}

// -----

func.func @barrier_in_device_function() attributes {bsgp.device} {
  // expected-error @+1 {{'bsgp.barrier' op must be in a bsgp.spawn body}}
  bsgp.barrier
  return
}

// -----

func.func @barrier_in_superstep(%n: i32) {
  bsgp.spawn %n {
    bsgp.superstep 1 {
      // expected-error @+1 {{'bsgp.barrier' op must be in a bsgp.spawn body}}
      bsgp.barrier
    }
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// require
//===----------------------------------------------------------------------===//

func.func @require_on_host() {
  // expected-error @+1 {{'bsgp.require' op must be in a bsgp.spawn body, a bsgp.par region, a bsgp.superstep or a function marked bsgp.collective}}
  bsgp.require {
  }
  return
}

// -----

func.func @require_in_loop(%n: i32, %lb: index) {
  bsgp.spawn %n {
    scf.for %i = %lb to %lb step %lb {
      // expected-error @+1 {{'bsgp.require' op must be in a bsgp.spawn body}}
      bsgp.require {
      }
    }
  }
  return
}

// -----

func.func @require_yield_types(%n: i32) {
  bsgp.spawn %n {
    // expected-error @+1 {{'bsgp.require' op body yields ('i32') but ('f32') are expected}}
    %x = bsgp.require -> f32 {
      %ts = bsgp.thread_size : i32
      bsgp.yield %ts : i32
    }
  }
  return
}

// -----

func.func @require_uses_rank(%n: i32) {
  bsgp.spawn %n {
    // expected-note @+1 {{defined here}}
    %rk = bsgp.thread_rank : i32
    // expected-error @+1 {{'bsgp.require' op host code cannot use a thread-local value}}
    bsgp.require {
      %p = bsgp.dnew %rk : !bsgp.ptr<i32>
    }
  }
  return
}

// -----

// Values computed from per-thread values are per-thread too.
func.func @require_uses_derived(%n: i32, %p: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %v = bsgp.ptr.load %p[%c0] : !bsgp.ptr<i32>, i32
    // expected-note @+1 {{defined here}}
    %w = arith.addi %v, %c0 : i32
    // expected-error @+1 {{'bsgp.require' op host code cannot use a thread-local value}}
    bsgp.require {
      bsgp.set_size %w
    }
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// par
//===----------------------------------------------------------------------===//

func.func @par_on_host() {
  // expected-error @+1 {{'bsgp.par' op must be in a bsgp.spawn body}}
  bsgp.par {
  }
  return
}

// -----

func.func @par_no_region(%n: i32) {
  bsgp.spawn %n {
    // expected-error @+1 {{'bsgp.par' op needs at least one region}}
    "bsgp.par"() : () -> ()
  }
  return
}

// -----

// The par verifier must not read a foreign terminator as a bsgp.yield.
func.func @par_wrong_terminator(%n: i32) {
  bsgp.spawn %n {
    %r = "bsgp.par"() ({
      // expected-error @+1 {{'bsgp.return' op expects parent op 'bsgp.kernel'}}
      "bsgp.return"() : () -> ()
    }) : () -> i32
  }
  return
}

// -----

func.func @par_yield_types(%n: i32) {
  bsgp.spawn %n {
    // expected-error @+1 {{'bsgp.par' op regions yield ('i32', 'i32') but the results are ('i32')}}
    %r = bsgp.par -> i32 {
      bsgp.yield %n : i32
    }, {
      bsgp.yield %n : i32
    }
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// yield
//===----------------------------------------------------------------------===//

func.func @yield_in_func() {
  // expected-error @+1 {{'bsgp.yield' op expects parent op to be one of 'bsgp.spawn, bsgp.require, bsgp.par, bsgp.superstep'}}
  bsgp.yield
}

// -----

//===----------------------------------------------------------------------===//
// Thread intrinsics
//===----------------------------------------------------------------------===//

func.func @rank_on_host() {
  // expected-error @+1 {{'bsgp.thread_rank' op must be in device code}}
  %rk = bsgp.thread_rank : i32
  return
}

// -----

func.func @rank_in_require(%n: i32) {
  bsgp.spawn %n {
    bsgp.require {
      // expected-error @+1 {{'bsgp.thread_rank' op must be in device code}}
      %rk = bsgp.thread_rank : i32
    }
  }
  return
}

// -----

func.func @size_on_host() {
  // expected-error @+1 {{'bsgp.thread_size' op must be in a bsgp.spawn, a bsgp.kernel or a function marked bsgp.collective or bsgp.device}}
  %sz = bsgp.thread_size : i32
  return
}

// -----

func.func @rank_type(%n: i32) {
  bsgp.spawn %n {
    // expected-error @+1 {{result #0 must be 32-bit signless integer}}
    %rk = "bsgp.thread_rank"() : () -> i64
  }
  return
}

// -----

func.func @oldrank_in_if(%n: i32, %c: i1) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    bsgp.barrier rank_reassigned
    scf.if %c {
      // expected-error @+1 {{'bsgp.set_oldrank' op must follow a barrier with rank_reassigned}}
      bsgp.set_oldrank %rk
    }
  }
  return
}

// -----

func.func @oldrank_twice(%n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    bsgp.barrier rank_reassigned
    bsgp.set_oldrank %rk
    // expected-error @+1 {{'bsgp.set_oldrank' op thread.oldrank is already set in this superstep}}
    bsgp.set_oldrank %rk
  }
  return
}

// -----

func.func @oldrank_plain_barrier(%n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    bsgp.barrier
    // expected-error @+1 {{'bsgp.set_oldrank' op must follow a barrier with rank_reassigned}}
    bsgp.set_oldrank %rk
  }
  return
}

// -----

func.func @oldrank_no_barrier(%n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    // expected-error @+1 {{'bsgp.set_oldrank' op must follow a barrier with rank_reassigned}}
    bsgp.set_oldrank %rk
  }
  return
}

// -----

// The nearest superstep boundary is the barrier in the par, which does not
// reassign ranks; the earlier rank-reassigning barrier does not count.
func.func @oldrank_after_par(%n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    bsgp.barrier rank_reassigned
    bsgp.par {
      bsgp.barrier
    }
    // expected-error @+1 {{'bsgp.set_oldrank' op must follow a barrier with rank_reassigned}}
    bsgp.set_oldrank %rk
  }
  return
}

// -----

func.func @oldrank_superstep(%n: i32) {
  bsgp.spawn %n {
    bsgp.superstep 1 {
      %rk = bsgp.thread_rank : i32
      // expected-error @+1 {{'bsgp.set_oldrank' op must follow a barrier with rank_reassigned}}
      bsgp.set_oldrank %rk
    }
  }
  return
}

// -----

func.func @set_size_outside_require(%n: i32) {
  bsgp.spawn %n {
    // expected-error @+1 {{'bsgp.set_size' op must be in a bsgp.require}}
    bsgp.set_size %n
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// Communication intrinsics
//===----------------------------------------------------------------------===//

func.func @get_on_host(%r: i32, %v: f32) -> f32 {
  // expected-error @+1 {{'bsgp.get' op must be in device code}}
  %g = bsgp.get %r, %v : f32
  return %g : f32
}

// -----

func.func @get_same_superstep(%n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    // expected-error @+1 {{'bsgp.get' op reads the value of the previous superstep, but no barrier separates it from the definition}}
    %g = bsgp.get %rk, %rk : i32
  }
  return
}

// -----

// A barrier in a nested region does not separate the get from the value.
func.func @get_barrier_in_other_par_region(%n: i32) {
  bsgp.spawn %n {
    bsgp.par {
      %rk = bsgp.thread_rank : i32
      // expected-error @+1 {{'bsgp.get' op reads the value of the previous superstep}}
      %g = bsgp.get %rk, %rk : i32
    }, {
      bsgp.barrier
    }
  }
  return
}

// -----

// A use before the definition is a dominance error, not a verifier walk off
// the end of the block.
func.func @get_before_definition(%n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    // expected-error @+1 {{operand #1 does not dominate this use}}
    %g = bsgp.get %rk, %v : i32
    bsgp.barrier
    // expected-note @+1 {{operand defined here}}
    %v = arith.addi %rk, %rk : i32
  }
  return
}

// -----

func.func @get_type_mismatch(%n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    bsgp.barrier
    // expected-error @+1 {{'bsgp.get' op failed to verify that all of {value, result} have same type}}
    %g = "bsgp.get"(%rk, %rk) : (i32, i32) -> f32
  }
  return
}

// -----

func.func @put_on_host(%r: i32, %v: f32) {
  // expected-error @+1 {{'bsgp.put' op must be in device code}}
  %p = bsgp.put %r, %v : f32
  return
}

// -----

func.func @put_in_if(%n: i32, %c: i1) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    scf.if %c {
      // expected-error @+1 {{'bsgp.put' op must be directly in a bsgp.spawn body, a bsgp.par region, a bsgp.superstep or a bsgp.collective function; put to rank -1 to skip it}}
      %p = bsgp.put %rk, %rk : i32
    }
  }
  return
}

// -----

func.func @put_used_too_early(%n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    // expected-error @+1 {{'bsgp.put' op result is the value put by other threads and is only defined after the next barrier}}
    %p = bsgp.put %rk, %rk : i32
    // expected-note @+1 {{used here}}
    %s = arith.addi %p, %rk : i32
    bsgp.barrier
  }
  return
}

// -----

// A loop that may run no iteration: the value leaves it as the put gave it,
// and a path reaches the use without a barrier.
func.func @put_used_after_loop(%n: i32, %m: i32) {
  bsgp.spawn %n {
    %c1 = arith.constant 1 : i32
    %rk = bsgp.thread_rank : i32
    // expected-error @+1 {{'bsgp.put' op result is the value put by other threads and is only defined after the next barrier}}
    %p = bsgp.put %rk, %rk : i32
    %r = scf.while (%x = %p) : (i32) -> i32 {
      %c = arith.cmpi slt, %x, %m : i32
      scf.condition(%c) %x : i32
    } do {
    ^bb0(%x2: i32):
      bsgp.barrier
      %y = arith.addi %x2, %c1 : i32
      scf.yield %y : i32
    }
    // expected-note @+1 {{used here}}
    %s = arith.addi %r, %rk : i32
  }
  return
}

// -----

// One branch without a barrier.
func.func @put_used_after_if(%n: i32, %c: i1) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    // expected-error @+1 {{'bsgp.put' op result is the value put by other threads and is only defined after the next barrier}}
    %p = bsgp.put %rk, %rk : i32
    scf.if %c {
      bsgp.barrier
    }
    // expected-note @+1 {{used here}}
    %s = arith.addi %p, %rk : i32
  }
  return
}

// -----

func.func @put_type_mismatch(%n: i32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    // expected-error @+1 {{'bsgp.put' op failed to verify that all of {value, result} have same type}}
    %p = "bsgp.put"(%rk, %rk) : (i32, i32) -> i64
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// Lists: host code only
//===----------------------------------------------------------------------===//

func.func @dnew_in_spawn(%n: i32) {
  bsgp.spawn %n {
    // expected-error @+1 {{'bsgp.dnew' op must be in host code; inside a bsgp.spawn, place it in a bsgp.require}}
    %p = bsgp.dnew %n : !bsgp.ptr<i32>
  }
  return
}

// -----

func.func @dtempnew_in_kernel(%n: i32) attributes {bsgp.collective} {
  // expected-error @+1 {{'bsgp.dtempnew' op must be in host code}}
  %p = bsgp.dtempnew %n : !bsgp.ptr<i32>
  return
}

// -----

bsgp.kernel @dfree_in_kernel(%p: !bsgp.ptr<i32>) {
  // expected-error @+1 {{'bsgp.dfree' op must be in host code}}
  bsgp.dfree %p : !bsgp.ptr<i32>
  bsgp.return
}

// -----

func.func @dtempfree_in_spawn(%n: i32, %p: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    // expected-error @+1 {{'bsgp.dtempfree' op must be in host code}}
    bsgp.dtempfree %p : !bsgp.ptr<i32>
  }
  return
}

// -----

func.func @dnew_not_pointer(%n: i32) {
  // expected-error @+1 {{result #0 must be bsgp pointer}}
  %p = "bsgp.dnew"(%n) : (i32) -> i32
  return
}

// -----

//===----------------------------------------------------------------------===//
// Pointer operations
//===----------------------------------------------------------------------===//

func.func @load_type(%p: !bsgp.ptr<i32>, %i: i32) {
  // expected-error @+1 {{'bsgp.ptr.load' op failed to verify that result type is the pointer's element type}}
  %v = "bsgp.ptr.load"(%p, %i) : (!bsgp.ptr<i32>, i32) -> f32
  return
}

// -----

func.func @load_index_type(%p: !bsgp.ptr<i32>, %i: f32) {
  // expected-error @+1 {{operand #1 must be signless integer or index}}
  %v = "bsgp.ptr.load"(%p, %i) : (!bsgp.ptr<i32>, f32) -> i32
  return
}

// -----

func.func @store_type(%p: !bsgp.ptr<i32>, %i: i32, %v: f32) {
  // expected-error @+1 {{'bsgp.ptr.store' op failed to verify that value type is the pointer's element type}}
  "bsgp.ptr.store"(%v, %p, %i) : (f32, !bsgp.ptr<i32>, i32) -> ()
  return
}

// -----

func.func @offset_type(%p: !bsgp.ptr<i32>, %i: i32) {
  // expected-error @+1 {{'bsgp.ptr.offset' op failed to verify that all of {ptr, result} have same type}}
  %q = "bsgp.ptr.offset"(%p, %i) : (!bsgp.ptr<i32>, i32) -> !bsgp.ptr<f32>
  return
}

// -----

func.func @cast_not_pointer(%p: !bsgp.ptr<i32>) {
  // expected-error @+1 {{result #0 must be bsgp pointer}}
  %q = "bsgp.ptr.cast"(%p) : (!bsgp.ptr<i32>) -> i64
  return
}

// -----

func.func @cmp_signed(%p: !bsgp.ptr<i32>, %q: !bsgp.ptr<i32>) {
  // expected-error @+1 {{'bsgp.ptr.cmp' op pointers compare as unsigned addresses; use eq, ne, ult, ule, ugt or uge}}
  %c = bsgp.ptr.cmp slt, %p, %q : !bsgp.ptr<i32>
  return
}

// -----

func.func @cmp_types(%p: !bsgp.ptr<i32>, %q: !bsgp.ptr<f32>) {
  // expected-error @+1 {{'bsgp.ptr.cmp' op failed to verify that all of {lhs, rhs} have same type}}
  %c = "bsgp.ptr.cmp"(%p, %q) {predicate = 0 : i64} : (!bsgp.ptr<i32>, !bsgp.ptr<f32>) -> i1
  return
}

// -----

func.func @diff_types(%p: !bsgp.ptr<i32>, %q: !bsgp.ptr<f32>) {
  // expected-error @+1 {{'bsgp.ptr.diff' op failed to verify that all of {lhs, rhs} have same type}}
  %d = "bsgp.ptr.diff"(%p, %q) : (!bsgp.ptr<i32>, !bsgp.ptr<f32>) -> i64
  return
}

// -----

//===----------------------------------------------------------------------===//
// superstep
//===----------------------------------------------------------------------===//

func.func @superstep_outside_spawn() {
  // expected-error @+1 {{'bsgp.superstep' op expects parent op 'bsgp.spawn'}}
  bsgp.superstep 1 {
  }
  return
}

// -----

func.func @superstep_index_zero(%n: i32) {
  bsgp.spawn %n {
    // expected-error @+1 {{'bsgp.superstep' op attribute 'index' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 1}}
    bsgp.superstep 0 {
    }
  }
  return
}

// -----

func.func @superstep_order(%n: i32) {
  bsgp.spawn %n {
    bsgp.superstep 2 {
    }
    // expected-error @+1 {{'bsgp.superstep' op index 2 must be greater than the previous superstep's 2}}
    bsgp.superstep 2 {
    }
  }
  return
}

// -----

func.func @superstep_half_source(%n: i32) {
  bsgp.spawn %n {
    // expected-error @+1 {{'bsgp.superstep' op needs both source_begin and source_end, or neither}}
    bsgp.superstep 1 {
    } {source_begin = loc("a.bsgp":1:1)}
  }
  return
}

// -----

func.func @superstep_yield_types(%n: i32) {
  bsgp.spawn %n {
    // expected-error @+1 {{'bsgp.superstep' op body yields () but ('i32') are expected}}
    %r = bsgp.superstep 1 -> i32 {
      bsgp.yield
    }
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// Temporary streams
//===----------------------------------------------------------------------===//

func.func @stream_alloc_in_spawn(%n: i32) {
  bsgp.spawn %n {
    // expected-error @+1 {{'bsgp.stream_alloc' op must be in host code}}
    %s = bsgp.stream_alloc %n : !bsgp.stream
  }
  return
}

// -----

bsgp.kernel @stream_free_in_kernel(%s: !bsgp.stream) {
  // expected-error @+1 {{'bsgp.stream_free' op must be in host code}}
  bsgp.stream_free %s
  bsgp.return
}

// -----

func.func @save_on_host(%s: !bsgp.stream, %v: i32) {
  // expected-error @+1 {{'bsgp.save' op must be in device code}}
  bsgp.save %v to (%s)[%v] : i32
  return
}

// -----

bsgp.kernel @save_word_count(%s: !bsgp.stream, %v: f64, %i: i32) {
  // expected-error @+1 {{'bsgp.save' op a value of type 'f64' takes 2 stream word(s), but 1 stream(s) are given}}
  bsgp.save %v to (%s)[%i] : f64
  bsgp.return
}

// -----

bsgp.kernel @save_unsavable(%s: !bsgp.stream, %v: index, %i: i32) {
  // expected-error @+1 {{'bsgp.save' op cannot save a value of type 'index' to streams}}
  bsgp.save %v to (%s)[%i] : index
  bsgp.return
}

// -----

func.func @load_on_host(%s: !bsgp.stream, %i: i32) {
  // expected-error @+1 {{'bsgp.load' op must be in device code}}
  %v = bsgp.load (%s)[%i] : f32
  return
}

// -----

bsgp.kernel @load_word_count(%s: !bsgp.stream, %i: i32) {
  // expected-error @+1 {{'bsgp.load' op a value of type 'vector<4xf32>' takes 4 stream word(s), but 2 stream(s) are given}}
  %v = bsgp.load (%s, %s)[%i] : vector<4xf32>
  bsgp.return
}

// -----

bsgp.kernel @load_unsavable(%s: !bsgp.stream, %i: i32) {
  // expected-error @+1 {{'bsgp.load' op cannot save a value of type 'i128' to streams}}
  %v = bsgp.load (%s)[%i] : i128
  bsgp.return
}

// -----

// 2^32 + 1 words must not wrap around to one stream.
bsgp.kernel @load_huge_vector(%s: !bsgp.stream, %i: i32) {
  // expected-error @+1 {{'bsgp.load' op cannot save a value of type 'vector<4294967297xf32>' to streams}}
  %v = bsgp.load (%s)[%i] : vector<4294967297xf32>
  bsgp.return
}

// -----

//===----------------------------------------------------------------------===//
// Kernels and launches
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'bsgp.kernel' op must not return values; kernels write memory and streams}}
bsgp.kernel @kernel_result() -> i32 {
  %c = arith.constant 0 : i32
  bsgp.return
}

// -----

// A nested module is a symbol table, so only the device-code rule stops it.
func.func @kernel_in_spawn(%n: i32) {
  bsgp.spawn %n {
    builtin.module {
      // expected-error @+1 {{'bsgp.kernel' op cannot be nested in device code}}
      bsgp.kernel @inner() {
        bsgp.return
      }
    }
  }
  return
}

// -----

// Kernel parameters carry every host value (§4.2 step 4).
func.func @kernel_uses_host_value(%n: i32) {
  builtin.module {
    // expected-note @+1 {{required by region isolation constraints}}
    bsgp.kernel @k() {
      // expected-error @+1 {{using value defined outside the region}}
      %s = arith.addi %n, %n : i32
      bsgp.return
    }
  }
  return
}

// -----

func.func @return_in_func() {
  // expected-error @+1 {{'bsgp.return' op expects parent op 'bsgp.kernel'}}
  bsgp.return
}

// -----

bsgp.kernel @k() {
  bsgp.return
}

func.func @launch_in_spawn(%n: i32) {
  bsgp.spawn %n {
    // expected-error @+1 {{'bsgp.launch' op must be in host code}}
    bsgp.launch @k(%n)
  }
  return
}

// -----

func.func @f() {
  return
}

func.func @launch_func(%n: i32) {
  // expected-error @+1 {{'bsgp.launch' op 'f' does not reference a bsgp.kernel}}
  bsgp.launch @f(%n)
  return
}

// -----

func.func @launch_missing(%n: i32) {
  // expected-error @+1 {{'bsgp.launch' op 'nowhere' does not reference a bsgp.kernel}}
  bsgp.launch @nowhere(%n)
  return
}

// -----

bsgp.kernel @k(%p: !bsgp.ptr<i32>) {
  bsgp.return
}

func.func @launch_arg_count(%n: i32) {
  // expected-error @+1 {{'bsgp.launch' op passes 0 argument(s) but 'k' takes 1}}
  bsgp.launch @k(%n)
  return
}

// -----

bsgp.kernel @k(%p: !bsgp.ptr<i32>) {
  bsgp.return
}

func.func @launch_arg_type(%n: i32, %q: !bsgp.ptr<f32>) {
  // expected-error @+1 {{'bsgp.launch' op argument #0 has type '!bsgp.ptr<f32>' but 'k' expects '!bsgp.ptr<i32>'}}
  bsgp.launch @k(%n) args(%q : !bsgp.ptr<f32>)
  return
}

// -----

bsgp.kernel @k(%p: !bsgp.ptr<i32>) {
  bsgp.return
}

// A grid launch runs in a kernel that is a whole uniform loop, only.
bsgp.kernel @not_a_loop(%n: i32, %p: !bsgp.ptr<i32>) {
  // expected-error @+1 {{'bsgp.grid_launch' op must be in a bsgp.kernel marked bsgp.grid_loop}}
  bsgp.grid_launch @k(%n) args(%p : !bsgp.ptr<i32>)
  bsgp.return
}

// -----

bsgp.kernel @k(%p: !bsgp.ptr<i32>) {
  bsgp.return
}

bsgp.kernel @loop(%n: i32, %q: !bsgp.ptr<f32>) attributes {bsgp.grid_loop} {
  // expected-error @+1 {{'bsgp.grid_launch' op argument #0 has type '!bsgp.ptr<f32>' but 'k' expects '!bsgp.ptr<i32>'}}
  bsgp.grid_launch @k(%n) args(%q : !bsgp.ptr<f32>)
  bsgp.return
}

// -----

bsgp.kernel @k() {
  bsgp.return
}

func.func @ask_plain_kernel(%n: i32) -> i1 {
  // expected-error @+1 {{'bsgp.can_launch_grid_loop' op 'k' does not reference a bsgp.kernel marked bsgp.grid_loop}}
  %ok = bsgp.can_launch_grid_loop @k(%n)
  return %ok : i1
}

// -----

// expected-error @+1 {{'bsgp.grid_loop' must be a unit attribute of a bsgp.kernel}}
func.func @grid_loop_on_func() attributes {bsgp.grid_loop} {
  return
}

// -----

//===----------------------------------------------------------------------===//
// Dialect attributes and types
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'bsgp.min_blocks' must be an integer}}
func.func @min_blocks_not_integer() attributes {bsgp.min_blocks = "4"} {
  return
}

// -----

// expected-error @+1 {{'bsgp.load_version' must be a string attribute of a spawn}}
func.func @load_version_on_function() attributes {bsgp.load_version = "saves"} {
  return
}

// -----

func.func @load_version_not_string(%n: i32) {
  // expected-error @+1 {{'bsgp.load_version' must be a string attribute of a spawn}}
  bsgp.spawn %n {
  } {bsgp.load_version = 1 : i32}
  return
}

// -----

func.func @freed_by_flow_on_dnew() -> !bsgp.ptr<i32> {
  %c = arith.constant 4 : i32
  // expected-error @+1 {{'bsgp.freed_by_flow' must be a unit attribute of a dtempnew}}
  %p = bsgp.dnew %c {bsgp.freed_by_flow} : !bsgp.ptr<i32>
  return %p : !bsgp.ptr<i32>
}

// -----

// expected-error @+1 {{unknown bsgp attribute 'bsgp.kernel'}}
func.func @unknown_attr() attributes {bsgp.kernel} {
  return
}

// -----

// expected-error @+1 {{'bsgp.collective' must be a unit attribute}}
func.func @non_unit_attr() attributes {bsgp.collective = 1 : i32} {
  return
}

// -----

func.func @attr_not_on_function(%n: i32) {
  // expected-error @+1 {{'bsgp.device' may only mark a function}}
  %c = arith.constant {bsgp.device} 0 : i32
  return
}

// -----

// expected-error @+1 {{pointer element type must be an integer, float, vector or !bsgp.ptr type, or a struct's bytes (!llvm.array<N x i8>), got 'index'}}
func.func private @ptr_to_index(!bsgp.ptr<index>)

// -----

// expected-error @+1 {{pointer element type must be an integer, float, vector or !bsgp.ptr type, or a struct's bytes (!llvm.array<N x i8>), got '!bsgp.stream'}}
func.func private @ptr_to_stream(!bsgp.ptr<!bsgp.stream>)

// -----

// expected-error @+1 {{pointer element type must be an integer, float, vector or !bsgp.ptr type, or a struct's bytes (!llvm.array<N x i8>), got 'i128'}}
func.func private @ptr_to_i128(!bsgp.ptr<i128>)

// -----

// A struct is its bytes; an array of other elements is not a C type here.
// expected-error @+1 {{pointer element type must be an integer, float, vector or !bsgp.ptr type, or a struct's bytes (!llvm.array<N x i8>), got '!llvm.array<2 x i32>'}}
func.func private @ptr_to_int_array(!bsgp.ptr<!llvm.array<2 x i32>>)
