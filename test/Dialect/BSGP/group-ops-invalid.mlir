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
