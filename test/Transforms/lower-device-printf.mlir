// RUN: bsgp-opt --bsgp-lower-device-printf %s | FileCheck %s
// RUN: bsgp-opt --bsgp-lower-device-printf --split-input-file %s | bsgp-opt | FileCheck %s --check-prefix=ROUND

// A printing device function gets a thread copy taking the buffer; the
// original stays for host callers and calls C's printf.
// CHECK-LABEL: llvm.mlir.global internal constant @printf.formats
// CHECK-SAME: (":if\00note %d %f\0A\00:iIf\00t %d %lld %g\0A\00\00")
// CHECK-LABEL: func.func @note(
// CHECK: %[[FMT:.*]] = llvm.mlir.addressof @printf.host.0
// CHECK: llvm.call @printf(%[[FMT]], %arg0, %{{.*}}) vararg
// CHECK-NOT: bsgp.printf
func.func @note(%arg0: i32, %arg1: f32) attributes {bsgp.device} {
  %0 = arith.extf %arg1 : f32 to f64
  bsgp.printf "note %d %f\0A"(%arg0, %0) : i32, f64
  return
}

// The spawn asks for the buffer before it; the records are printed after
// each launch of a kernel given the buffer (bsgp-outline-kernels,
// outline-kernels-printf.mlir), so neither the require block nor the code
// after the spawn prints them here.
// CHECK-LABEL: func.func @f(
// CHECK: %[[RAW:.*]] = llvm.call @bsgprt_printf_buffer()
// CHECK: %[[BUF:.*]] = builtin.unrealized_conversion_cast %[[RAW]] : !llvm.ptr to !bsgp.ptr<i32>
// CHECK: bsgp.spawn
// The thread stores record 2 (the format's number plus one): the int, the
// int64 as two words and the float promoted to double as the float, in
// five words, if the buffer is not full and they fit.
// CHECK: %[[RANK:.*]] = bsgp.thread_rank
// CHECK-DAG: %[[NUM:.*]] = arith.constant 2 : i32
// CHECK-DAG: %[[N:.*]] = arith.constant 5 : i32
// CHECK-DAG: %[[LO:.*]] = arith.trunci %arg1 : i64 to i32
// CHECK-DAG: %[[F:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[CAP:.*]] = bsgp.ptr.load %[[BUF]][%{{.*}}]
// CHECK: %[[USED:.*]] = bsgp.atomic_load %[[BUF]]
// CHECK: %[[OPEN:.*]] = arith.cmpi ult, %[[USED]], %[[CAP]]
// CHECK: scf.if %[[OPEN]]
// CHECK: %[[AT:.*]] = bsgp.atomic_rmw addi %[[N]], %[[BUF]]
// CHECK: %[[ROOM:.*]] = arith.subi %[[CAP]], %[[N]]
// CHECK: %[[FITS:.*]] = arith.cmpi ule, %[[AT]], %[[ROOM]]
// CHECK: scf.if %[[FITS]]
// CHECK: bsgp.ptr.store %[[NUM]], %[[BUF]]
// CHECK: bsgp.ptr.store %[[RANK]], %[[BUF]]
// CHECK: bsgp.ptr.store %[[LO]], %[[BUF]]
// CHECK: bsgp.ptr.store %{{.*}}, %[[BUF]]
// CHECK: bsgp.ptr.store %[[F]], %[[BUF]]
// CHECK: } else {
// CHECK: bsgp.ptr.store %{{.*}}, %[[BUF]][%{{.*}}] : !bsgp.ptr<i32>, i32
// CHECK: bsgp.require
// CHECK-NOT: bsgprt_printf_flush
// CHECK: func.call @note__printf(%[[RANK]], %{{.*}}, %[[BUF]])
// CHECK: }
// CHECK-NOT: bsgprt_printf_flush
// CHECK: call @note(%{{.*}}, %{{.*}}) : (i32, f32) -> ()
func.func @f(%arg0: i32, %arg1: i64) {
  %0 = bsgp.spawn %arg0 -> i32 {
    %2 = bsgp.thread_rank : i32
    %cst_0 = arith.constant 5.000000e-01 : f32
    %3 = arith.extf %cst_0 : f32 to f64
    bsgp.printf "t %d %lld %g\0A"(%2, %arg1, %3) : i32, i64, f64
    %4 = bsgp.require -> i32 {
      %c1 = arith.constant 1 : i32
      %5 = arith.addi %arg0, %c1 : i32
      bsgp.yield %5 : i32
    }
    %cst_2 = arith.constant 1.000000e+00 : f32
    func.call @note(%2, %cst_2) : (i32, f32) -> ()
    bsgp.yield %4 : i32
  }
  %c1_i32 = arith.constant -1 : i32
  %cst = arith.constant 2.000000e+00 : f32
  call @note(%c1_i32, %cst) : (i32, f32) -> ()
  return
}

// The thread copy: the same record code on its buffer argument.
// CHECK-LABEL: func.func private @note__printf(%arg0: i32, %arg1: f32, %arg2: !bsgp.ptr<i32>)
// CHECK-SAME: bsgp.device
// CHECK: bsgp.atomic_rmw addi %{{.*}}, %arg2
// CHECK-NOT: bsgp.printf
// The flush that bsgp-outline-kernels calls is declared.
// CHECK: llvm.func @bsgprt_printf_flush(!llvm.ptr, !llvm.ptr)

// -----

// Without printf the pass changes nothing.
// ROUND-LABEL: func.func @quiet
// ROUND-NOT: bsgprt_printf
func.func @quiet(%n: i32) {
  bsgp.spawn %n {
    %r = bsgp.thread_rank : i32
  }
  return
}
