// RUN: bsgp-opt %s -split-input-file -verify-diagnostics
//
// One case per verifier error of the work-group ops.

func.func @group_rank_on_host() -> i32 {
  // expected-error @+1 {{'bsgp.group_rank' op must be in device code}}
  %0 = bsgp.group_rank : i32
  return %0 : i32
}

// -----

func.func @barrier_on_host() {
  // expected-error @+1 {{'bsgp.group_barrier' op must be in device code}}
  bsgp.group_barrier
  return
}

// -----

func.func @local_on_host() {
  // expected-error @+1 {{'bsgp.group_local' op must be in device code}}
  %0 = bsgp.group_local 4 : !bsgp.ptr<i32>
  return
}

// -----

bsgp.kernel @local_empty() {
  // expected-error @+1 {{'bsgp.group_local' op attribute 'count' failed to satisfy constraint}}
  %0 = bsgp.group_local 0 : !bsgp.ptr<i32>
  bsgp.return
}

// -----

bsgp.kernel @bad_shuffle_mode(%x: i32) {
  // expected-error @+1 {{'bsgp.subgroup_shuffle' op mode must be idx, xor, up or down, not 'left'}}
  %0 = bsgp.subgroup_shuffle "left" %x, %x : i32
  bsgp.return
}

// -----

bsgp.kernel @bad_shuffle_type(%x: i16, %l: i32) {
  // expected-error @+1 {{'bsgp.subgroup_shuffle' op operand #0 must be}}
  %0 = bsgp.subgroup_shuffle "idx" %x, %l : i16
  bsgp.return
}

// -----

bsgp.kernel @bad_vote_mode(%c: i1) {
  // expected-error @+1 {{'bsgp.subgroup_vote' op mode must be any, all or ballot, not 'none'}}
  %0 = bsgp.subgroup_vote "none" %c : i1
  bsgp.return
}

// -----

bsgp.kernel @bad_ballot_type(%c: i1) {
  // expected-error @+1 {{'bsgp.subgroup_vote' op result must be i64 for ballot}}
  %0 = bsgp.subgroup_vote "ballot" %c : i1
  bsgp.return
}

// -----

bsgp.kernel @bad_reduce_kind(%x: i32) {
  // expected-error @+1 {{'bsgp.subgroup_reduce' op kind must be add, mins, minu, maxs, maxu, and, or or xor, not 'mul'}}
  %0 = bsgp.subgroup_reduce "mul" %x : i32
  bsgp.return
}

// -----

func.func @match_on_host(%x: i32) -> i64 {
  // expected-error @+1 {{'bsgp.subgroup_match' op must be in device code}}
  %0 = bsgp.subgroup_match %x : i32
  return %0 : i64
}

// -----

bsgp.kernel @bad_match_type(%x: i16) {
  // expected-error @+1 {{'bsgp.subgroup_match' op operand #0 must be 32-bit signless integer or 64-bit signless integer, but got 'i16'}}
  %0 = bsgp.subgroup_match %x : i16
  bsgp.return
}

// -----

bsgp.kernel @lookback_status_words(%v: i32, %st: !bsgp.ptr<i32>) {
  // expected-error @+1 {{'bsgp.group_lookback' op status must be a list of 64-bit words, not '!bsgp.ptr<i32>'}}
  %0 = bsgp.group_lookback %v, %st min_blocks 8 : !bsgp.ptr<i32>
  bsgp.return
}

// -----

bsgp.kernel @lookback_min_blocks(%v: i32, %st: !bsgp.ptr<i64>) {
  // expected-error @+1 {{'bsgp.group_lookback' op attribute 'min_blocks' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 1 whose maximum value is 32}}
  %0 = bsgp.group_lookback %v, %st min_blocks 33 : !bsgp.ptr<i64>
  bsgp.return
}

// -----

func.func @lookback_on_host(%v: i32, %st: !bsgp.ptr<i64>) -> i32 {
  // expected-error @+1 {{'bsgp.group_lookback' op must be in device code}}
  %0 = bsgp.group_lookback %v, %st min_blocks 8 : !bsgp.ptr<i64>
  return %0 : i32
}

// -----

func.func @single_pass_on_host() -> i1 {
  // expected-error @+1 {{'bsgp.single_pass' op must be in device code}}
  %0 = bsgp.single_pass : i1
  return %0 : i1
}
