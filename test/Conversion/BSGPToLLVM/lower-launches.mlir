// RUN: bsgp-opt %s --split-input-file --bsgp-lower-kernels-cpu --bsgp-lower-launches | FileCheck %s
// RUN: bsgp-opt %s --split-input-file --bsgp-lower-launches | FileCheck %s --check-prefix=NOCPU

// Two kernels, numbered in module order. Each launch packs its arguments
// into a stack slot made once in the entry block (a launch in a host loop
// must not grow the stack) and calls bsgprt_launch with the kernel index.

// CHECK-DAG:   llvm.mlir.global internal constant @[[NAME0:__bsgp_str_[0-9a-f]+]]("first\00")
// CHECK-DAG:   llvm.mlir.global internal constant @[[NAME1:__bsgp_str_[0-9a-f]+]]("second\00")
// CHECK-DAG:   llvm.mlir.global internal constant @[[LOC0:__bsgp_str_[0-9a-f]+]]("k.bsgp:2:1-4:2\00")
// CHECK-LABEL: func.func @host(
// CHECK-SAME:    %[[N:.*]]: i32, %[[P:.*]]: !bsgp.ptr<i32>, %[[V:.*]]: i64)
// CHECK:         %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK:         %[[SLOT1:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(i64)>
// CHECK:         %[[SLOT0:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i32)>
// CHECK:         scf.for
// CHECK:           %[[PC:.*]] = builtin.unrealized_conversion_cast %[[P]] : !bsgp.ptr<i32> to !llvm.ptr
// CHECK:           %[[F0:.*]] = llvm.getelementptr %[[SLOT0]][0, 0]
// CHECK:           llvm.store %[[PC]], %[[F0]] : !llvm.ptr, !llvm.ptr
// CHECK:           %[[F1:.*]] = llvm.getelementptr %[[SLOT0]][0, 1]
// CHECK:           llvm.store %[[N]], %[[F1]] : i32, !llvm.ptr
// CHECK:           %[[DESC:.*]] = llvm.mlir.addressof @__bsgp_module_desc
// CHECK:           %[[K0:.*]] = llvm.mlir.constant(0 : i32)
// CHECK:           %[[CNT:.*]] = llvm.sext %[[N]] : i32 to i64
// CHECK:           llvm.call @bsgprt_launch(%[[DESC]], %[[K0]], %[[CNT]], %[[SLOT0]])
// CHECK:         }
// CHECK:         %[[K1:.*]] = llvm.mlir.constant(1 : i32)
// CHECK:         llvm.call @bsgprt_launch(%{{.*}}, %[[K1]], %{{.*}}, %[[SLOT1]])
// CHECK-NOT:   bsgp.kernel
// CHECK:       llvm.mlir.global internal constant @__bsgp_kernel_table() {{.*}} : !llvm.array<2 x struct<(ptr, ptr, ptr, i32, i32, i32, i32)>>
// CHECK:         llvm.mlir.addressof @[[NAME0]]
// CHECK:         llvm.mlir.addressof @first__cpu
// CHECK:         llvm.mlir.addressof @[[LOC0]]
// The packed struct {ptr, i32} is 16 bytes with C alignment, {i64} 8. Then
// the group size, the groups a block and the flags: BSGPRT_KERNEL_LOOKBACK
// for the kernel marked bsgp.lookback only.
// CHECK:         llvm.mlir.constant(16 : i32)
// CHECK-NEXT:    llvm.mlir.constant(0 : i32)
// CHECK-NEXT:    llvm.mlir.constant(0 : i32)
// CHECK-NEXT:    %[[FLAGS0:.*]] = llvm.mlir.constant(0 : i32)
// CHECK:         llvm.insertvalue %[[FLAGS0]], %{{.*}}[6]
// CHECK:         llvm.mlir.addressof @[[NAME1]]
// CHECK:         llvm.mlir.addressof @second__cpu
// CHECK:         llvm.mlir.constant(8 : i32)
// CHECK-NEXT:    llvm.mlir.constant(0 : i32)
// CHECK-NEXT:    llvm.mlir.constant(0 : i32)
// CHECK-NEXT:    %[[FLAGS1:.*]] = llvm.mlir.constant(1 : i32)
// CHECK:         llvm.insertvalue %[[FLAGS1]], %{{.*}}[6]
// CHECK:       llvm.mlir.global internal constant @__bsgp_module_desc()
// The ABI version and the kernel count come first.
// CHECK:         %[[VER:.*]] = llvm.mlir.constant(7 : i32)
// CHECK:         %[[NK:.*]] = llvm.mlir.constant(2 : i32)
// CHECK:         llvm.insertvalue %[[VER]], %{{.*}}[0]
// CHECK:         llvm.insertvalue %[[NK]], %{{.*}}[1]
// CHECK:       llvm.func @bsgprt_launch(!llvm.ptr, i32, i64, !llvm.ptr)
// CHECK-NOT:   global_ctors

// Without the CPU target the table has null entry points.
// NOCPU-LABEL: @__bsgp_kernel_table
// NOCPU-NOT:     @first__cpu
// NOCPU:         llvm.mlir.zero : !llvm.ptr
module {
  bsgp.kernel @first(%p: !bsgp.ptr<i32>, %n: i32) attributes {bsgp.srcloc = "k.bsgp:2:1-4:2"} {
    %r = bsgp.thread_rank : i32
    bsgp.ptr.store %n, %p[%r] : !bsgp.ptr<i32>, i32
    bsgp.return
  }
  bsgp.kernel @second(%v: i64) attributes {bsgp.lookback} {
    bsgp.return
  }
  func.func @host(%n: i32, %p: !bsgp.ptr<i32>, %v: i64) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c4 step %c1 {
      bsgp.launch @first(%n) args(%p, %n : !bsgp.ptr<i32>, i32)
    }
    bsgp.launch @second(%n) args(%v : i64)
    return
  }
}

// -----

// A module with no kernels gets no descriptor.
// CHECK-LABEL: func.func @plain
// CHECK-NOT:   __bsgp_module_desc
func.func @plain() {
  return
}

// -----

// A module with PTX (or SPIR-V) registers its descriptor before main, from
// an internal constructor; the CPU-only module above has none.
// CHECK-LABEL: func.func @gpu
// CHECK:       llvm.func internal @__bsgp_register_module()
// CHECK-NEXT:    %[[D:.*]] = llvm.mlir.addressof @__bsgp_module_desc
// CHECK-NEXT:    llvm.call @bsgprt_register_module(%[[D]])
// CHECK-NEXT:    llvm.return
// CHECK:       llvm.mlir.global_ctors ctors = [@__bsgp_register_module], priorities = [65535 : i32]
// NOCPU-LABEL: func.func @gpu
// NOCPU:       llvm.mlir.global_ctors ctors = [@__bsgp_register_module]
module attributes {bsgp.ptx = "// ptx"} {
  bsgp.kernel @k(%v: i32) {
    bsgp.return
  }
  func.func @gpu(%n: i32) {
    bsgp.launch @k(%n) args(%n : i32)
    return
  }
}

// -----

// args_size is the size of the struct the host fills, in the natural C
// layout: {i32, i64, i32, ptr} has its fields at 0, 8, 16 and 24, so 32
// bytes. MLIR's default data layout aligns i64 to 4 and made it 24, and
// the vulkan backend, which copies args_size bytes, lost the pointer.
// CHECK-LABEL: func.func @wide
// CHECK:       llvm.call @bsgprt_launch
// CHECK:       @__bsgp_kernel_table() {{.*}} : !llvm.array<1 x
// CHECK:         llvm.mlir.constant(32 : i32)
// CHECK-LABEL: llvm.mlir.global internal constant @__bsgp_module_desc
module {
  bsgp.kernel @w(%a: i32, %v: i64, %b: i32, %p: !bsgp.ptr<i64>) {
    bsgp.return
  }
  func.func @wide(%a: i32, %v: i64, %p: !bsgp.ptr<i64>) {
    bsgp.launch @w(%a) args(%a, %v, %a, %p : i32, i64, i32, !bsgp.ptr<i64>)
    return
  }
}

// -----

// A call of the program into a host function of the collective library is
// bracketed by bsgprt_callsite_push/pop with the call's position, so that
// the profile lists the library's kernels at the program's line; the
// library's own calls (and calls of the program's functions) are not.
// CHECK:       llvm.mlir.global internal constant @[[S:.*]]("find.bsgp:7:5\00")
// CHECK-LABEL: func.func @user
// CHECK:       %[[W:.*]] = llvm.mlir.addressof @[[S]] : !llvm.ptr
// CHECK-NEXT:  llvm.call @bsgprt_callsite_push(%[[W]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:  call @sort(%{{.*}}) : (i32) -> ()
// CHECK-NEXT:  llvm.call @bsgprt_callsite_pop() : () -> ()
// CHECK-NEXT:  call @helper(%{{.*}}) : (i32) -> ()
// CHECK-NEXT:  return
// CHECK-LABEL: func.func private @sort
// CHECK-NOT:   bsgprt_callsite
// CHECK:       call @pass
// CHECK-NOT:   bsgprt_callsite
// CHECK:       llvm.call @bsgprt_launch
module {
  bsgp.kernel @k(%v: i32) {
    bsgp.return
  }
  func.func @user(%n: i32) {
    call @sort(%n) : (i32) -> () loc("find.bsgp":7:5)
    call @helper(%n) : (i32) -> ()
    return
  }
  func.func private @helper(%n: i32) {
    return
  }
  func.func private @sort(%n: i32) attributes {bsgp.library = #bsgp.library<function>} {
    call @pass(%n) : (i32) -> ()
    return
  }
  func.func private @pass(%n: i32) attributes {bsgp.library = #bsgp.library<function>} {
    bsgp.launch @k(%n) args(%n : i32)
    return
  }
}
