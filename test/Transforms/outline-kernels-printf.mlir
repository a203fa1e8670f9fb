// RUN: bsgp-opt %s --bsgp-outline-kernels | FileCheck %s

// Device printf (bsgp-lower-device-printf made the buffer): each launch of
// a kernel given the print buffer is followed by a flush of its records,
// so that they come out superstep by superstep, before the host code after
// the superstep (here a require block that prints); a kernel without it
// costs no flush. A dtempnew that bsgp-split-uniform-flow marked
// `bsgp.freed_by_flow` is left out of the spawn's dtempfree.

llvm.mlir.global internal constant @printf.formats(":i\00r %d\0A\00\00") {addr_space = 0 : i32}
llvm.func @bsgprt_printf_buffer() -> !llvm.ptr
llvm.func @bsgprt_printf_flush(!llvm.ptr, !llvm.ptr)
llvm.func @puts(!llvm.ptr) -> i32

// CHECK-LABEL: func.func @f(
// CHECK: %[[RAW:.*]] = llvm.call @bsgprt_printf_buffer()
// CHECK: %[[BUF:.*]] = builtin.unrealized_conversion_cast %[[RAW]]
// CHECK: %[[KEPT:.*]] = bsgp.dtempnew
// CHECK: %[[MINE:.*]] = bsgp.dtempnew
// CHECK: bsgp.launch @f_spawn0_ss1(%{{.*}}) args(%[[BUF]], %{{.*}} :
// CHECK-NEXT: %[[TAB:.*]] = llvm.mlir.addressof @printf.formats
// CHECK-NEXT: llvm.call @bsgprt_printf_flush(%[[RAW]], %[[TAB]])
// CHECK-NEXT: llvm.call @puts
// CHECK-NEXT: bsgp.launch @f_spawn0_ss2(
// CHECK-NOT: bsgprt_printf_flush
// CHECK: bsgp.dtempfree %[[MINE]] :
// CHECK-NEXT: return
func.func @f(%n: i32, %out: !bsgp.ptr<i32>, %text: !llvm.ptr) {
  %raw = llvm.call @bsgprt_printf_buffer() : () -> !llvm.ptr
  %buf = builtin.unrealized_conversion_cast %raw : !llvm.ptr to !bsgp.ptr<i32>
  bsgp.spawn %n {
    %kept = bsgp.require -> !bsgp.ptr<i32> {
      %p = bsgp.dtempnew %n {bsgp.freed_by_flow} : !bsgp.ptr<i32>
      bsgp.yield %p : !bsgp.ptr<i32>
    }
    %mine = bsgp.require -> !bsgp.ptr<i32> {
      %p = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %p : !bsgp.ptr<i32>
    }
    bsgp.superstep 1 {
      %r = bsgp.thread_rank : i32
      %c2 = arith.constant 2 : i32
      bsgp.ptr.store %c2, %buf[%r] : !bsgp.ptr<i32>, i32
      bsgp.ptr.store %r, %kept[%r] : !bsgp.ptr<i32>, i32
      bsgp.ptr.store %r, %mine[%r] : !bsgp.ptr<i32>, i32
    }
    bsgp.require {
      %0 = llvm.call @puts(%text) : (!llvm.ptr) -> i32
      bsgp.yield
    }
    bsgp.superstep 2 {
      %r = bsgp.thread_rank : i32
      %v = bsgp.ptr.load %kept[%r] : !bsgp.ptr<i32>, i32
      bsgp.ptr.store %v, %out[%r] : !bsgp.ptr<i32>, i32
    }
  }
  return
}
