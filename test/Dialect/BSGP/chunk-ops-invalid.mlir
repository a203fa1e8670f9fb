// RUN: bsgp-opt %s -split-input-file -verify-diagnostics
//
// One case per verifier error of bsgp.chunk_reduce and bsgp.chunk_scan.

func.func @reduce_on_host(%x: i32, %p: !bsgp.ptr<i32>) {
  // expected-error @+1 {{'bsgp.chunk_reduce' op must be in device code}}
  bsgp.chunk_reduce "add" %x, %p : !bsgp.ptr<i32>
  return
}

// -----

func.func @scan_in_require(%n: i32, %x: i32, %p: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %0 = bsgp.require -> i32 {
      // expected-error @+1 {{'bsgp.chunk_scan' op must be in device code}}
      %1 = bsgp.chunk_scan "add" %x, %p : !bsgp.ptr<i32>
      bsgp.yield %1 : i32
    }
  }
  return
}

// -----

// A branch on a thread's value: not every rank of the chunk runs the op.
func.func @reduce_under_branch(%n: i32, %p: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %r = bsgp.thread_rank : i32
    %c0 = arith.constant 0 : i32
    %c = arith.cmpi eq, %r, %c0 : i32
    scf.if %c {
      // expected-error @+1 {{'bsgp.chunk_reduce' op must be in straight-line code, directly in a bsgp.spawn body, a bsgp.par region, a bsgp.superstep, the entry block of a bsgp.kernel or a function marked bsgp.collective: every rank of a chunk must run it once}}
      bsgp.chunk_reduce "add" %r, %p : !bsgp.ptr<i32>
    }
  }
  return
}

// -----

// A loop would run it several times per rank.
bsgp.kernel @scan_in_loop(%x: i32, %p: !bsgp.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  scf.for %i = %c0 to %c4 step %c1 : i32 {
    // expected-error @+1 {{'bsgp.chunk_scan' op must be in straight-line code}}
    %0 = bsgp.chunk_scan "add" %x, %p : !bsgp.ptr<i32>
  }
  bsgp.return
}

// -----

// Outside a kernel's entry block, not every rank gets there.
bsgp.kernel @reduce_after_branch(%x: i32, %p: !bsgp.ptr<i32>, %c: i1) {
  cf.cond_br %c, ^ret, ^body
^ret:
  bsgp.return
^body:
  // expected-error @+1 {{'bsgp.chunk_reduce' op must be in straight-line code}}
  bsgp.chunk_reduce "add" %x, %p : !bsgp.ptr<i32>
  bsgp.return
}

// -----

// A device function may be called under any control flow.
func.func @in_device_function(%x: i32, %p: !bsgp.ptr<i32>)
    attributes {bsgp.device} {
  // expected-error @+1 {{'bsgp.chunk_reduce' op must be in straight-line code}}
  bsgp.chunk_reduce "add" %x, %p : !bsgp.ptr<i32>
  return
}

// -----

bsgp.kernel @bitwise_float(%x: f32, %p: !bsgp.ptr<f32>) {
  // expected-error @+1 {{'bsgp.chunk_reduce' op kind 'and' is not defined on 'f32'; expected add, mul, minf or maxf}}
  bsgp.chunk_reduce "and" %x, %p : !bsgp.ptr<f32>
  bsgp.return
}

// -----

bsgp.kernel @signed_min_float(%x: f64, %p: !bsgp.ptr<f64>) {
  // expected-error @+1 {{'bsgp.chunk_scan' op kind 'mins' is not defined on 'f64'; expected add, mul, minf or maxf}}
  %0 = bsgp.chunk_scan "mins" %x, %p : !bsgp.ptr<f64>
  bsgp.return
}

// -----

bsgp.kernel @float_max_int(%x: i64, %p: !bsgp.ptr<i64>) {
  // expected-error @+1 {{'bsgp.chunk_scan' op kind 'maxf' is not defined on 'i64'; expected add, mul, mins, minu, maxs, maxu, and, or or xor}}
  %0 = bsgp.chunk_scan "maxf" %x, %p : !bsgp.ptr<i64>
  bsgp.return
}

// -----

bsgp.kernel @bad_element(%x: i16, %p: !bsgp.ptr<i16>) {
  // expected-error @+1 {{'bsgp.chunk_reduce' op operand #0 must be}}
  bsgp.chunk_reduce "add" %x, %p : !bsgp.ptr<i16>
  bsgp.return
}

// -----

bsgp.kernel @mismatched(%x: i32, %p: !bsgp.ptr<i64>) {
  // expected-error @+1 {{'bsgp.chunk_reduce' op failed to verify that value type is the list's element type}}
  "bsgp.chunk_reduce"(%x, %p) {kind = "add"} : (i32, !bsgp.ptr<i64>) -> ()
  bsgp.return
}
