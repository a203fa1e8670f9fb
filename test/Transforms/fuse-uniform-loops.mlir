// RUN: bsgp-opt %s --bsgp-fuse-uniform-loops --split-input-file | FileCheck %s

// The host loop bsgp-split-uniform-flow makes of `for (i < iters) { x =
// f(thread.get(r, x)); barrier; }`: each iteration allocates the list of
// the new x, launches the step and frees the list of the old x, and two
// supersteps of the step hand each other a stream.
llvm.func @bsgprt_temp_alloc_elements(i64, i64, !llvm.ptr) -> !llvm.ptr
llvm.func @bsgprt_temp_free(!llvm.ptr)
bsgp.kernel @step_ss1(%x: !bsgp.ptr<f32>, %s: !bsgp.stream) {
  bsgp.return
}
bsgp.kernel @step_ss2(%s: !bsgp.stream, %n: i32, %y: !bsgp.ptr<f32>) {
  bsgp.return
}

// The host: the kernel where the backend runs it, then the loop without
// its launches for its results and the frees of what the loop does not
// hand on; else the loop as it was.
// CHECK-LABEL: func.func @smooth(
// CHECK: %[[X0:.*]] = builtin.unrealized_conversion_cast
// CHECK: %[[OK:.*]] = bsgp.can_launch_grid_loop @smooth_loop0(%arg1)
// CHECK: %[[R:.*]]:2 = scf.if %[[OK]] -> (i32, !bsgp.ptr<f32>) {
// CHECK:   %[[S:.*]] = bsgp.stream_alloc %arg1
// CHECK:   llvm.call @bsgprt_temp_alloc_elements
// CHECK:   %[[B:.*]] = builtin.unrealized_conversion_cast
// CHECK:   bsgp.launch @smooth_loop0(%arg1) args(%[[X0]], %arg2, %arg1, %[[S]], %[[B]] :
// CHECK:   %[[SK:.*]]:2 = scf.while
// CHECK-NOT: bsgp.launch
// CHECK-NOT: llvm.call
// CHECK:   }
// CHECK:   bsgp.stream_free %[[S]]
// CHECK:   %[[LASTISFIRST:.*]] = bsgp.ptr.cmp eq, %[[SK]]#1, %[[X0]]
// CHECK:   %[[OTHER:.*]] = arith.select %[[LASTISFIRST]], %[[B]], %[[X0]]
// CHECK:   %[[P:.*]] = builtin.unrealized_conversion_cast %[[OTHER]]
// CHECK:   llvm.call @bsgprt_temp_free(%[[P]])
// CHECK:   scf.yield %[[SK]]#0, %[[SK]]#1
// CHECK: } else {
// CHECK:   scf.while
// CHECK:     bsgp.launch @step_ss1
// CHECK:     bsgp.launch @step_ss2
// CHECK:     llvm.call @bsgprt_temp_free
// CHECK:   scf.yield
// CHECK: }
// CHECK: bsgp.launch @after(%arg1) args(%[[R]]#1 :
func.func @smooth(%a: !bsgp.ptr<f32>, %n: i32, %iters: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %n64 = arith.extsi %n : i32 to i64
  %p0 = llvm.call @bsgprt_temp_alloc_elements(%n64, %c4, %null) : (i64, i64, !llvm.ptr) -> !llvm.ptr
  %x0 = builtin.unrealized_conversion_cast %p0 : !llvm.ptr to !bsgp.ptr<f32>
  %r:2 = scf.while (%i = %c0, %x = %x0) : (i32, !bsgp.ptr<f32>) -> (i32, !bsgp.ptr<f32>) {
    %more = arith.cmpi slt, %i, %iters : i32
    scf.condition(%more) %i, %x : i32, !bsgp.ptr<f32>
  } do {
  ^bb0(%i: i32, %x: !bsgp.ptr<f32>):
    %next = arith.addi %i, %c1 overflow<nsw> : i32
    %s = bsgp.stream_alloc %n : !bsgp.stream
    bsgp.launch @step_ss1(%n) args(%x, %s : !bsgp.ptr<f32>, !bsgp.stream)
    %p = llvm.call @bsgprt_temp_alloc_elements(%n64, %c4, %null) : (i64, i64, !llvm.ptr) -> !llvm.ptr
    %y = builtin.unrealized_conversion_cast %p : !llvm.ptr to !bsgp.ptr<f32>
    bsgp.launch @step_ss2(%n) args(%s, %n, %y : !bsgp.stream, i32, !bsgp.ptr<f32>)
    bsgp.stream_free %s
    %old = builtin.unrealized_conversion_cast %x : !bsgp.ptr<f32> to !llvm.ptr
    llvm.call @bsgprt_temp_free(%old) : (!llvm.ptr) -> ()
    scf.yield %next, %y : i32, !bsgp.ptr<f32>
  }
  bsgp.launch @after(%n) args(%r#1 : !bsgp.ptr<f32>)
  return
}
bsgp.kernel @after(%x: !bsgp.ptr<f32>) {
  bsgp.return
}

// The kernel: every thread runs the loop; each launch is a grid launch; the
// new list is whichever of the first list and the extra one the iteration
// does not read; the stream is the one allocated before the loop.
// CHECK-LABEL: bsgp.kernel @smooth_loop0(
// CHECK-SAME: %[[KX:[^:]*]]: !bsgp.ptr<f32>, %[[KITERS:[^:]*]]: i32, %[[KN:[^:]*]]: i32, %[[KS:[^:]*]]: !bsgp.stream, %[[KB:[^:]*]]: !bsgp.ptr<f32>)
// CHECK-SAME: bsgp.grid_loop
// CHECK-NOT: bsgp.target
// CHECK-NOT: llvm.mlir.zero
// CHECK: scf.while
// CHECK: ^bb0(%{{.*}}: i32, %[[READ:.*]]: !bsgp.ptr<f32>):
// CHECK-NOT: llvm.call
// CHECK: bsgp.grid_launch @step_ss1(%[[KN]]) args(%[[READ]], %[[KS]] :
// CHECK: %[[FIRST:.*]] = bsgp.ptr.cmp eq, %[[READ]], %[[KX]]
// CHECK: %[[NEW:.*]] = arith.select %[[FIRST]], %[[KB]], %[[KX]]
// CHECK: bsgp.grid_launch @step_ss2(%[[KN]]) args(%[[KS]], %[[KN]], %[[NEW]] :
// CHECK-NOT: llvm.call
// CHECK-NOT: bsgp.stream_free
// CHECK: scf.yield
// CHECK: bsgp.return

// -----

// A loop whose host reads a value back each iteration (a condition from a
// reduce) stays a host loop.
llvm.func @bsgprt_memcpy_dtoh(!llvm.ptr, !llvm.ptr, i64)
bsgp.kernel @body(%x: !bsgp.ptr<i32>) {
  bsgp.return
}
// CHECK-NOT: bsgp.grid_loop
// CHECK-LABEL: func.func @readback(
// CHECK-NOT: bsgp.can_launch_grid_loop
// CHECK: scf.while
func.func @readback(%d: !bsgp.ptr<i32>, %h: !llvm.ptr, %n: i32) {
  %c4 = arith.constant 4 : i64
  %true = arith.constant true
  %r = scf.while (%go = %true) : (i1) -> i1 {
    scf.condition(%go) %go : i1
  } do {
  ^bb0(%go: i1):
    bsgp.launch @body(%n) args(%d : !bsgp.ptr<i32>)
    %dp = builtin.unrealized_conversion_cast %d : !bsgp.ptr<i32> to !llvm.ptr
    llvm.call @bsgprt_memcpy_dtoh(%h, %dp, %c4) : (!llvm.ptr, !llvm.ptr, i64) -> ()
    %v = llvm.load %h : !llvm.ptr -> i32
    %c0 = arith.constant 0 : i32
    %again = arith.cmpi ne, %v, %c0 : i32
    scf.yield %again : i1
  }
  return
}

// -----

// A kernel with work-group operations needs the block it was compiled for:
// its loop stays a host loop.
bsgp.kernel @grouped(%x: !bsgp.ptr<i32>) {
  bsgp.group_barrier
  bsgp.return
}
// CHECK-NOT: bsgp.grid_loop
// CHECK-LABEL: func.func @groups(
// CHECK-NOT: bsgp.can_launch_grid_loop
func.func @groups(%d: !bsgp.ptr<i32>, %n: i32, %iters: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %iters : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%i: i32):
    bsgp.launch @grouped(%n) args(%d : !bsgp.ptr<i32>)
    %next = arith.addi %i, %c1 : i32
    scf.yield %next : i32
  }
  return
}

// -----

// The loop's carried list starts as a list of another size than the one
// each iteration allocates: the two cannot alternate, and the loop stays.
llvm.func @bsgprt_temp_alloc_elements(i64, i64, !llvm.ptr) -> !llvm.ptr
llvm.func @bsgprt_temp_free(!llvm.ptr)
bsgp.kernel @copy(%x: !bsgp.ptr<f32>, %y: !bsgp.ptr<f32>) {
  bsgp.return
}
// CHECK-NOT: bsgp.grid_loop
// CHECK-LABEL: func.func @sizes(
// CHECK-NOT: bsgp.can_launch_grid_loop
func.func @sizes(%n: i32, %m: i64, %iters: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %n64 = arith.extsi %n : i32 to i64
  %p0 = llvm.call @bsgprt_temp_alloc_elements(%m, %c4, %null) : (i64, i64, !llvm.ptr) -> !llvm.ptr
  %x0 = builtin.unrealized_conversion_cast %p0 : !llvm.ptr to !bsgp.ptr<f32>
  %r:2 = scf.while (%i = %c0, %x = %x0) : (i32, !bsgp.ptr<f32>) -> (i32, !bsgp.ptr<f32>) {
    %more = arith.cmpi slt, %i, %iters : i32
    scf.condition(%more) %i, %x : i32, !bsgp.ptr<f32>
  } do {
  ^bb0(%i: i32, %x: !bsgp.ptr<f32>):
    %next = arith.addi %i, %c1 : i32
    %p = llvm.call @bsgprt_temp_alloc_elements(%n64, %c4, %null) : (i64, i64, !llvm.ptr) -> !llvm.ptr
    %y = builtin.unrealized_conversion_cast %p : !llvm.ptr to !bsgp.ptr<f32>
    bsgp.launch @copy(%n) args(%x, %y : !bsgp.ptr<f32>, !bsgp.ptr<f32>)
    %old = builtin.unrealized_conversion_cast %x : !bsgp.ptr<f32> to !llvm.ptr
    llvm.call @bsgprt_temp_free(%old) : (!llvm.ptr) -> ()
    scf.yield %next, %y : i32, !bsgp.ptr<f32>
  }
  return
}

// -----

// A uniform branch in the body (`if (i == 2) { ...; barrier; }`): every
// thread takes it alike, so the kernel keeps it, with its grid launch.
bsgp.kernel @step(%x: !bsgp.ptr<i32>) {
  bsgp.return
}
// CHECK-LABEL: func.func @branch_in_loop(
// CHECK: bsgp.can_launch_grid_loop @branch_in_loop_loop0
// CHECK-LABEL: bsgp.kernel @branch_in_loop_loop0(
// CHECK: scf.while
// CHECK: %[[TWO:.*]] = arith.cmpi eq
// CHECK-NEXT: scf.if %[[TWO]] {
// CHECK-NEXT: bsgp.grid_launch @step
// CHECK-NEXT: }
// CHECK-NEXT: bsgp.grid_launch @step
func.func @branch_in_loop(%d: !bsgp.ptr<i32>, %n: i32, %iters: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %iters : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%i: i32):
    %two = arith.cmpi eq, %i, %c2 : i32
    scf.if %two {
      bsgp.launch @step(%n) args(%d : !bsgp.ptr<i32>)
    }
    bsgp.launch @step(%n) args(%d : !bsgp.ptr<i32>)
    %next = arith.addi %i, %c1 : i32
    scf.yield %next : i32
  }
  return
}

// -----

// A list allocated in a branch of the body would live as long as the
// branch decides: the loop stays a host loop.
llvm.func @bsgprt_temp_alloc_elements(i64, i64, !llvm.ptr) -> !llvm.ptr
llvm.func @bsgprt_temp_free(!llvm.ptr)
bsgp.kernel @fill(%x: !bsgp.ptr<i32>) {
  bsgp.return
}
// CHECK-NOT: bsgp.grid_loop
// CHECK-LABEL: func.func @list_in_branch(
// CHECK-NOT: bsgp.can_launch_grid_loop
func.func @list_in_branch(%n: i32, %iters: i32, %flag: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %n64 = arith.extsi %n : i32 to i64
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %iters : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%i: i32):
    scf.if %flag {
      %p = llvm.call @bsgprt_temp_alloc_elements(%n64, %c4, %null) : (i64, i64, !llvm.ptr) -> !llvm.ptr
      %l = builtin.unrealized_conversion_cast %p : !llvm.ptr to !bsgp.ptr<i32>
      bsgp.launch @fill(%n) args(%l : !bsgp.ptr<i32>)
      llvm.call @bsgprt_temp_free(%p) : (!llvm.ptr) -> ()
    }
    %next = arith.addi %i, %c1 : i32
    scf.yield %next : i32
  }
  return
}

// -----

// A floating-point value carried by the loop: the host and the kernel could
// round its arithmetic apart (an fma on the GPU) and disagree on the trip
// count, so the loop stays a host loop.
bsgp.kernel @halve(%x: !bsgp.ptr<f32>) {
  bsgp.return
}
// CHECK-NOT: bsgp.grid_loop
// CHECK-LABEL: func.func @float_carried(
// CHECK-NOT: bsgp.can_launch_grid_loop
func.func @float_carried(%d: !bsgp.ptr<f32>, %n: i32, %eps: f32) {
  %one = arith.constant 1.0 : f32
  %a = arith.constant 0.9 : f32
  %b = arith.constant 0.05 : f32
  %r = scf.while (%t = %one) : (f32) -> f32 {
    %more = arith.cmpf ogt, %t, %eps : f32
    scf.condition(%more) %t : f32
  } do {
  ^bb0(%t: f32):
    bsgp.launch @halve(%n) args(%d : !bsgp.ptr<f32>)
    %m = arith.mulf %t, %a : f32
    %next = arith.addf %m, %b : f32
    scf.yield %next : f32
  }
  return
}

// -----

// In a copy of a host function for one target (bsgp-specialize-targets),
// the loop's kernel is for that target only, and launches that target's
// kernels; so does a copy for SPIR-V (the Vulkan runtime launches the
// loop's kernel only on devices whose workgroups it knows to run at once).
bsgp.kernel @tstep_ss1(%x: !bsgp.ptr<f32>) attributes {bsgp.target = "cpu"} {
  bsgp.return
}
bsgp.kernel @tstep_spirv(%x: !bsgp.ptr<f32>) attributes {bsgp.target = "spirv"} {
  bsgp.return
}
// CHECK-LABEL: func.func private @targeted__cpu(
// CHECK: bsgp.can_launch_grid_loop @targeted__cpu_loop0
func.func private @targeted__cpu(%a: !bsgp.ptr<f32>, %n: i32, %iters: i32) attributes {bsgp.target = "cpu"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %iters : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%i: i32):
    bsgp.launch @tstep_ss1(%n) args(%a : !bsgp.ptr<f32>)
    %next = arith.addi %i, %c1 overflow<nsw> : i32
    scf.yield %next : i32
  }
  return
}
// CHECK-LABEL: func.func private @targeted__spirv(
// CHECK: bsgp.can_launch_grid_loop @targeted__spirv_loop1
// CHECK: scf.while
// CHECK: bsgp.launch @tstep_spirv
func.func private @targeted__spirv(%a: !bsgp.ptr<f32>, %n: i32, %iters: i32) attributes {bsgp.target = "spirv"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %iters : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%i: i32):
    bsgp.launch @tstep_spirv(%n) args(%a : !bsgp.ptr<f32>)
    %next = arith.addi %i, %c1 overflow<nsw> : i32
    scf.yield %next : i32
  }
  return
}
// CHECK-LABEL: bsgp.kernel @targeted__cpu_loop0(
// CHECK-SAME: bsgp.grid_loop
// CHECK-SAME: bsgp.target = "cpu"
// CHECK: bsgp.grid_launch @tstep_ss1
// CHECK-LABEL: bsgp.kernel @targeted__spirv_loop1(
// CHECK-SAME: bsgp.grid_loop
// CHECK-SAME: bsgp.target = "spirv"
// CHECK: bsgp.grid_launch @tstep_spirv

// -----

// A kernel with per-chunk accumulators (a reduce's CPU form) is not run by
// a grid loop: its chunks are the launch's.
bsgp.kernel @chunked(%x: f32, %partials: !bsgp.ptr<f32>) {
  bsgp.chunk_reduce "add" %x, %partials : !bsgp.ptr<f32>
  bsgp.return
}
// CHECK-LABEL: func.func @chunk_loop(
// CHECK-NOT: bsgp.can_launch_grid_loop
func.func @chunk_loop(%p: !bsgp.ptr<f32>, %n: i32, %iters: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f = arith.constant 1.0 : f32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %iters : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%i: i32):
    bsgp.launch @chunked(%n) args(%f, %p : f32, !bsgp.ptr<f32>)
    %next = arith.addi %i, %c1 overflow<nsw> : i32
    scf.yield %next : i32
  }
  return
}
// CHECK-NOT: bsgp.grid_loop
