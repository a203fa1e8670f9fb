// RUN: bsgp-opt %s --bsgp-split-uniform-flow --split-input-file | FileCheck %s

// A loop over a host bound with a barrier in its body: the loop runs on the
// host; the code before it, its body and the code after it are spawns; the
// thread's x lives in a list from one to the next (allocated by the
// segment that writes it, at its start where the threads keep their ranks,
// and stored where it is computed; freed after the one that reads it); the
// counter stays on the host; the body's trailing barrier goes.
// CHECK-LABEL: func.func @host_loop(
// CHECK-SAME: %[[N:[^:]*]]: i32, %[[K:[^:]*]]: i32, %[[OUT:[^:]*]]: !bsgp.ptr<i32>
// CHECK: %[[FIRST:.*]] = bsgp.spawn %[[N]] -> !bsgp.ptr<i32> {
// CHECK: %[[L0:.*]] = bsgp.require -> !bsgp.ptr<i32> {
// CHECK: llvm.call @bsgprt_temp_alloc_elements
// CHECK: %[[RK:.*]] = bsgp.thread_rank
// CHECK: bsgp.ptr.store %[[RK]], %[[L0]]
// CHECK: %[[LOOP:.*]]:3 = scf.while (%[[I:.*]] = %{{.*}}, %[[XL:.*]] = %[[FIRST]], %{{.*}} = %[[N]])
// CHECK: arith.cmpi slt, %[[I]], %[[K]]
// CHECK: scf.condition
// CHECK: ^bb0(%[[I2:[^:]*]]: i32, %[[XL2:[^:]*]]: !bsgp.ptr<i32>, %[[C2:[^:]*]]: i32):
// CHECK: %[[NEXTI:.*]] = arith.addi %[[I2]]
// CHECK: %[[BODY:.*]] = bsgp.spawn %[[C2]] -> !bsgp.ptr<i32> {
// CHECK: %[[X:.*]] = bsgp.ptr.load %[[XL2]]
// CHECK: %[[Y:.*]] = arith.addi %[[X]], %[[I2]]
// CHECK-NOT: bsgp.barrier
// CHECK: bsgp.ptr.store %[[Y]]
// CHECK: builtin.unrealized_conversion_cast %[[XL2]]
// CHECK-NEXT: llvm.call @bsgprt_temp_free
// CHECK: scf.yield %[[NEXTI]], %[[BODY]]
// CHECK: bsgp.spawn %[[LOOP]]#2 {
// CHECK: %[[XF:.*]] = bsgp.ptr.load %[[LOOP]]#1
// CHECK: bsgp.ptr.store %[[XF]], %[[OUT]]
// CHECK: builtin.unrealized_conversion_cast %[[LOOP]]#1
// CHECK-NEXT: llvm.call @bsgprt_temp_free
func.func @host_loop(%n: i32, %k: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = bsgp.thread_rank : i32
    %res:2 = scf.while (%i = %c0, %x = %r) : (i32, i32) -> (i32, i32) {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i, %x : i32, i32
    } do {
    ^bb0(%i2: i32, %x2: i32):
      %y = arith.addi %x2, %i2 : i32
      bsgp.barrier
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3, %y : i32, i32
    }
    %r2 = bsgp.thread_rank : i32
    bsgp.ptr.store %res#1, %out[%r2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A condition on a collective's result (bsgp.uniform): rank 0 stores the
// condition, the host reads it back and branches; the mark goes, and so
// does a segment left with nothing but its closing barrier.
// CHECK-LABEL: func.func @reduced(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: %[[SEG:.*]] = bsgp.spawn
// CHECK: %[[L:.*]] = bsgp.require -> !bsgp.ptr<i8>
// CHECK-NOT: bsgp.uniform
// CHECK: %[[COND:.*]] = arith.cmpi sgt
// CHECK: %[[B:.*]] = arith.extui %[[COND]]
// CHECK: scf.if
// CHECK-NEXT: bsgp.ptr.store %[[B]], %[[L]]
// CHECK: llvm.call @bsgprt_memcpy_dtoh(%[[SLOT]]
// CHECK: %[[V:.*]] = llvm.load %[[SLOT]]
// CHECK: %[[C:.*]] = arith.trunci %[[V]]
// CHECK: builtin.unrealized_conversion_cast %[[SEG]]
// CHECK-NEXT: llvm.call @bsgprt_temp_free
// CHECK: scf.if %[[C]]
// CHECK-NOT: bsgp.spawn
// CHECK: return
func.func @reduced(%n: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %r = bsgp.thread_rank : i32
    %v = bsgp.ptr.load %out[%r] : !bsgp.ptr<i32>, i32
    %u = bsgp.uniform %v : i32
    %c0 = arith.constant 0 : i32
    %c = arith.cmpi sgt, %u, %c0 : i32
    scf.if %c {
      bsgp.barrier
    }
  }
  return
}

// -----

// A require reading a value the host can compute itself does not cut the
// spawn: the value is computed on the host. (The dtempnew list is freed
// after the spawn by this pass: split-uniform-flow-dtempnew.mlir.)
// CHECK-LABEL: func.func @host_computable(
// CHECK-SAME: %[[N:[^:]*]]: i32
// CHECK: %[[M:.*]] = arith.muli %[[N]]
// CHECK: %[[SEG:.*]] = bsgp.spawn %[[N]] -> !bsgp.ptr<i32> {
// CHECK: bsgp.require
// CHECK: bsgp.dtempnew %[[M]] {bsgp.freed_by_flow}
// CHECK-NOT: bsgp.spawn
// CHECK: builtin.unrealized_conversion_cast %[[SEG]]
// CHECK-NEXT: llvm.call @bsgprt_temp_free
func.func @host_computable(%n: i32) {
  bsgp.spawn %n {
    %c2 = arith.constant 2 : i32
    %m = arith.muli %n, %c2 : i32
    %p = bsgp.require -> !bsgp.ptr<i32> {
      %q = bsgp.dtempnew %m : !bsgp.ptr<i32>
      bsgp.yield %q : !bsgp.ptr<i32>
    }
    %r = bsgp.thread_rank : i32
    bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A require reading what the single-pass question's branch yields, a
// require's result on each side (thread.fork's shape): a host value once
// bsgp-single-pass takes a side, so the spawn is not cut and the question
// stays in it.
// CHECK-LABEL: func.func @host_through_question(
// CHECK: bsgp.spawn
// CHECK-NOT: bsgp.spawn
// CHECK: bsgp.single_pass
// CHECK-NOT: bsgp.spawn
// CHECK: bsgp.barrier rank_reassigned
// CHECK-NOT: bsgp.spawn
// CHECK: llvm.call @use_words
// CHECK-NOT: bsgp.spawn
// CHECK: return
llvm.func @use_words(!llvm.ptr)
func.func @host_through_question(%n: i32) {
  bsgp.spawn %n {
    %z = bsgp.require -> !bsgp.ptr<i32> {
      %null = bsgp.ptr.null : !bsgp.ptr<i32>
      bsgp.yield %null : !bsgp.ptr<i32>
    }
    %q = bsgp.single_pass : i1
    %w = scf.if %q -> (!bsgp.ptr<i32>) {
      %p = bsgp.require -> !bsgp.ptr<i32> {
        %d = bsgp.dtempnew %n : !bsgp.ptr<i32>
        bsgp.yield %d : !bsgp.ptr<i32>
      }
      scf.yield %p : !bsgp.ptr<i32>
    } else {
      scf.yield %z : !bsgp.ptr<i32>
    }
    bsgp.barrier {rank_reassigned}
    bsgp.require {
      %c = builtin.unrealized_conversion_cast %w : !bsgp.ptr<i32> to !llvm.ptr
      llvm.call @use_words(%c) : (!llvm.ptr) -> ()
      bsgp.yield
    }
  }
  return
}

// -----

// A thread-private array used in and after a loop that holds a barrier:
// its two elements go around the host loop as lists, and each spawn makes
// a fresh array of them (stores at its start, loads at its end).
// CHECK-LABEL: func.func @array_loop(
// CHECK: %[[A:.*]]:2 = bsgp.spawn
// CHECK: llvm.alloca
// CHECK: scf.while ({{.*}} = %[[A]]#0, %[[L1:[^ ]*]] = %[[A]]#1
// CHECK: bsgp.spawn
// CHECK: bsgp.ptr.load %[[L1]]
// CHECK: %[[COPY:.*]] = builtin.unrealized_conversion_cast
// CHECK: bsgp.ptr.store {{.*}}, %[[COPY]]
// CHECK: } do {
// CHECK: bsgp.spawn
// CHECK: @bsgprt_temp_alloc_elements
// CHECK: llvm.alloca
// CHECK: bsgp.barrier
// CHECK: }
// CHECK: bsgp.spawn
// CHECK: llvm.alloca
// CHECK: bsgp.ptr.store %{{.*}}, %arg2
func.func @array_loop(%n: i32, %k: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %two = llvm.mlir.constant(2 : i64) : i64
    %a = llvm.alloca %two x i32 : (i64) -> !llvm.ptr
    %p = builtin.unrealized_conversion_cast %a : !llvm.ptr to !bsgp.ptr<i32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = bsgp.thread_rank : i32
    bsgp.ptr.store %r, %p[%c0] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %r, %p[%c1] : !bsgp.ptr<i32>, i32
    %res = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      %x = bsgp.ptr.load %p[%c0] : !bsgp.ptr<i32>, i32
      %y = arith.addi %x, %i2 : i32
      bsgp.ptr.store %y, %p[%c1] : !bsgp.ptr<i32>, i32
      bsgp.barrier
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3 : i32
    }
    %z = bsgp.ptr.load %p[%c1] : !bsgp.ptr<i32>, i32
    %r2 = bsgp.thread_rank : i32
    bsgp.ptr.store %z, %out[%r2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A private array of two structs of 8 bytes goes around the loop as its
// four 32-bit words (a view of the slot as words), in lists of i32.
// CHECK-LABEL: func.func @struct_array_loop(
// CHECK: %[[A:.*]]:4 = bsgp.spawn {{.*}} -> (!bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>, !bsgp.ptr<i32>)
// CHECK: bsgp.ptr.cast %{{.*}} : !bsgp.ptr<!llvm.array<8 x i8>> to !bsgp.ptr<i32>
// CHECK: scf.while
// CHECK: } do {
// CHECK: bsgp.spawn
// CHECK: llvm.alloca %{{.*}} x !llvm.array<8 x i8>
// CHECK: bsgp.ptr.cast %{{.*}} : !bsgp.ptr<!llvm.array<8 x i8>> to !bsgp.ptr<i32>
// CHECK: bsgp.barrier
func.func @struct_array_loop(%n: i32, %k: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %two = llvm.mlir.constant(2 : i64) : i64
    %a = llvm.alloca %two x !llvm.array<8 x i8> : (i64) -> !llvm.ptr
    %p = builtin.unrealized_conversion_cast %a : !llvm.ptr to !bsgp.ptr<!llvm.array<8 x i8>>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = bsgp.thread_rank : i32
    %w = bsgp.ptr.cast %p : !bsgp.ptr<!llvm.array<8 x i8>> to !bsgp.ptr<i32>
    bsgp.ptr.store %r, %w[%c1] : !bsgp.ptr<i32>, i32
    %res = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      %w2 = bsgp.ptr.cast %p : !bsgp.ptr<!llvm.array<8 x i8>> to !bsgp.ptr<i32>
      %x = bsgp.ptr.load %w2[%c1] : !bsgp.ptr<i32>, i32
      %y = arith.addi %x, %i2 : i32
      bsgp.ptr.store %y, %w2[%c1] : !bsgp.ptr<i32>, i32
      bsgp.barrier
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3 : i32
    }
    %w3 = bsgp.ptr.cast %p : !bsgp.ptr<!llvm.array<8 x i8>> to !bsgp.ptr<i32>
    %z = bsgp.ptr.load %w3[%c1] : !bsgp.ptr<i32>, i32
    %r2 = bsgp.thread_rank : i32
    bsgp.ptr.store %z, %out[%r2] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A float3 that lives across the loop goes through lists of 16-byte
// elements, the size of a float3 in every list and the stride of the
// segments' loads and stores (was: 12 bytes, so that the last threads'
// stores ran past the end of the list).
// CHECK-LABEL: func.func @vec3_loop(
// CHECK: %[[B16:.*]] = arith.constant 16 : i64
// CHECK-NEXT: llvm.mlir.zero
// CHECK-NEXT: llvm.call @bsgprt_temp_alloc_elements(%{{.*}}, %[[B16]], %{{.*}})
// CHECK: bsgp.ptr.store %{{.*}} : !bsgp.ptr<vector<3xf32>>, i32
// CHECK-NOT: arith.constant 12 : i64
func.func @vec3_loop(%n: i32, %k: i32, %out: !bsgp.ptr<vector<3xf32>>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %one = arith.constant dense<1.0> : vector<3xf32>
    %r = bsgp.thread_rank : i32
    %rf = arith.sitofp %r : i32 to f32
    %v = vector.broadcast %rf : f32 to vector<3xf32>
    %res:2 = scf.while (%i = %c0, %x = %v) : (i32, vector<3xf32>) -> (i32, vector<3xf32>) {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i, %x : i32, vector<3xf32>
    } do {
    ^bb0(%i2: i32, %x2: vector<3xf32>):
      %y = arith.addf %x2, %one : vector<3xf32>
      bsgp.barrier
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3, %y : i32, vector<3xf32>
    }
    %r2 = bsgp.thread_rank : i32
    bsgp.ptr.store %res#1, %out[%r2] : !bsgp.ptr<vector<3xf32>>, i32
  }
  return
}

// -----

// `if (thread.size == 0)` after the thread count changes (a kill of
// possibly every thread): the host computes the condition in the require
// that reads the new count, since no thread may be left to compute it; no
// rank-0 store, no read back. So does the loop condition with its break
// flag (an scf.if of host values), before the segment, and the loop stops
// once no thread is left (the condition and thread.size > 0).
// CHECK-LABEL: func.func @size_after_kill(
// CHECK-SAME: %[[N:[^:]*]]: i32, %[[M:[^:]*]]: i32
// CHECK: scf.while
// CHECK: scf.if
// CHECK: arith.cmpi slt
// CHECK: %[[SOME:.*]] = arith.cmpi sgt, %{{.*}}, %c0
// CHECK: arith.andi %{{.*}}, %[[SOME]]
// CHECK-NOT: bsgprt_memcpy_dtoh
// CHECK: %[[R:.*]]:2 = bsgp.spawn %{{.*}} -> (i32, i1) {
// CHECK: bsgp.set_size %[[M]]
// CHECK: bsgp.barrier rank_reassigned
// CHECK: bsgp.require -> (i32, i1) {
// CHECK: %[[S:.*]] = bsgp.thread_size
// CHECK: %[[Z:.*]] = arith.cmpi eq, %[[S]]
// CHECK: bsgp.yield %[[S]], %[[Z]]
// CHECK-NOT: bsgp.ptr.store
// CHECK: bsgp.yield
// CHECK-NOT: bsgprt_memcpy_dtoh
// CHECK: scf.if %[[R]]#1
func.func @size_after_kill(%n: i32, %m: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %false = arith.constant false
    %r:2 = scf.while (%it = %c0, %broke = %false) : (i32, i1) -> (i32, i1) {
      %go = scf.if %broke -> (i1) {
        %f = arith.constant false
        scf.yield %f : i1
      } else {
        %lt = arith.cmpi slt, %it, %c4 : i32
        scf.yield %lt : i1
      }
      scf.condition(%go) %it, %broke : i32, i1
    } do {
    ^bb0(%i: i32, %b: i1):
      bsgp.require {
        bsgp.set_size %m
      }
      bsgp.barrier rank_reassigned
      %s = bsgp.thread_size : i32
      %z = arith.cmpi eq, %s, %c0 : i32
      scf.if %z {
        bsgp.require {
          bsgp.ptr.store %i, %out[%c0] : !bsgp.ptr<i32>, i32
        }
      }
      %next = arith.addi %i, %c1 : i32
      scf.yield %next, %z : i32, i1
    }
  }
  return
}

// -----

// A thread.get in a loop body of a value from before the loop: before the
// body reassigns ranks, the get reads the value's list at the other rank;
// after it, the list is still in the ranks of the segment's start, so the
// get stays a get of the value loaded there, which bsgp-save-restore
// carries through the reassignment to the new ranks.
// CHECK-LABEL: func.func @get_after_reassign(
// CHECK: scf.while
// CHECK: ^bb0(%{{[^:]*}}: i32, %[[VL:[^:]*]]: !bsgp.ptr<i32>, %{{[^:]*}}: i32):
// CHECK: bsgp.spawn
// CHECK: %[[RK:.*]] = bsgp.thread_rank
// CHECK: %[[V:.*]] = bsgp.ptr.load %[[VL]][%[[RK]]]
// CHECK-NOT: bsgp.get
// CHECK: %[[BEFORE:.*]] = bsgp.ptr.load %[[VL]][%{{.*}}]
// CHECK: bsgp.barrier rank_reassigned
// CHECK: bsgp.set_oldrank
// CHECK: bsgp.barrier
// CHECK-NOT: bsgp.ptr.load %[[VL]]
// CHECK: %[[AFTER:.*]] = bsgp.get %{{.*}}, %[[V]] : i32
// CHECK: arith.addi %[[BEFORE]], %[[AFTER]]
func.func @get_after_reassign(%n: i32, %k: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = bsgp.thread_rank : i32
    %v = arith.muli %r, %r : i32
    bsgp.barrier
    %res = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      %a = bsgp.get %c1, %v : i32
      bsgp.barrier rank_reassigned
      %rk = bsgp.thread_rank : i32
      %s = bsgp.thread_size : i32
      %last = arith.subi %s, %c1 : i32
      %old = arith.subi %last, %rk : i32
      bsgp.set_oldrank %old
      bsgp.barrier
      %b = bsgp.get %c1, %v : i32
      %sum = arith.addi %a, %b : i32
      bsgp.ptr.store %sum, %out[%rk] : !bsgp.ptr<i32>, i32
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3 : i32
    }
  }
  return
}

// -----

// A put whose barrier is in the loop after it: the segment before the loop
// ends first, so the put is done there, storing its value into the
// variable's list at the put's rank if that is a thread's, instead of the
// thread's own value at its rank.
// CHECK-LABEL: func.func @put_before_loop(
// CHECK: bsgp.spawn
// CHECK: %[[L:.*]] = bsgp.require -> !bsgp.ptr<i32>
// CHECK: bsgp.yield
// CHECK: %[[RK:.*]] = bsgp.thread_rank
// CHECK: %[[R:.*]] = arith.addi %[[RK]]
// CHECK: %[[RK2:.*]] = bsgp.thread_rank
// CHECK: %[[V:.*]] = arith.muli %[[RK2]]
// CHECK: %[[S:.*]] = bsgp.thread_size
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[R]]
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[R]], %[[S]]
// CHECK: %[[OK:.*]] = arith.andi %[[GE]], %[[LT]]
// CHECK: scf.if %[[OK]] {
// CHECK-NEXT: bsgp.ptr.store %[[V]], %[[L]][%[[R]]]
// CHECK: scf.while
func.func @put_before_loop(%n: i32, %k: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c10 = arith.constant 10 : i32
    %rk = bsgp.thread_rank : i32
    %r = arith.addi %rk, %c1 : i32
    %v = arith.muli %rk, %c10 : i32
    %x = bsgp.put %r, %v : i32
    %res = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      bsgp.barrier
      %rk2 = bsgp.thread_rank : i32
      bsgp.ptr.store %x, %out[%rk2] : !bsgp.ptr<i32>, i32
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3 : i32
    }
  }
  return
}

// -----

// A put whose barrier is in the same segment: its result, the value the
// previous thread put, is defined only after that barrier, so it is stored
// into its list there, not where the put is.
// CHECK-LABEL: func.func @put_then_barrier(
// CHECK: bsgp.spawn
// CHECK: %[[L:.*]] = bsgp.require -> !bsgp.ptr<i32>
// CHECK: %[[X:.*]] = bsgp.put
// CHECK-NOT: bsgp.ptr.store %[[X]]
// CHECK: bsgp.barrier
// CHECK: bsgp.ptr.store %[[X]], %[[L]]
// CHECK: scf.while
func.func @put_then_barrier(%n: i32, %k: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %rk = bsgp.thread_rank : i32
    %r = arith.addi %rk, %c1 : i32
    %x = bsgp.put %r, %rk : i32
    bsgp.barrier
    %res = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      bsgp.barrier
      %rk2 = bsgp.thread_rank : i32
      bsgp.ptr.store %x, %out[%rk2] : !bsgp.ptr<i32>, i32
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3 : i32
    }
  }
  return
}

// -----

// A rank used in the loop and after it, in a spawn whose threads never
// move: each segment computes thread.rank itself; no list carries it.
// CHECK-LABEL: func.func @rank_in_segments(
// CHECK-NOT: llvm.call @bsgprt_temp_alloc_elements
// CHECK: scf.while
// CHECK: bsgp.spawn
// CHECK-NEXT: %[[R1:.*]] = bsgp.thread_rank
// CHECK: bsgp.ptr.store %{{.*}}, %{{.*}}[%[[R1]]]
// CHECK-NOT: llvm.call @bsgprt_temp_alloc_elements
// CHECK: bsgp.spawn
// CHECK-NEXT: %[[R2:.*]] = bsgp.thread_rank
// CHECK: bsgp.ptr.store %{{.*}}, %{{.*}}[%[[R2]]]
// CHECK-NOT: llvm.call @bsgprt_temp_alloc_elements
func.func @rank_in_segments(%n: i32, %k: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = bsgp.thread_rank : i32
    %res = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      bsgp.ptr.store %i2, %out[%r] : !bsgp.ptr<i32>, i32
      bsgp.barrier
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3 : i32
    }
    bsgp.ptr.store %res, %out[%r] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// The same with a rank-reassigning barrier in the loop: the rank from
// before the loop is the thread's old one, which a list carries.
// CHECK-LABEL: func.func @rank_through_reassignment(
// CHECK: llvm.call @bsgprt_temp_alloc_elements
// CHECK: %[[RK:.*]] = bsgp.thread_rank
// CHECK: bsgp.ptr.store %[[RK]]
func.func @rank_through_reassignment(%n: i32, %k: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = bsgp.thread_rank : i32
    %res = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      bsgp.ptr.store %i2, %out[%r] : !bsgp.ptr<i32>, i32
      bsgp.barrier rank_reassigned
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3 : i32
    }
    bsgp.ptr.store %res, %out[%r] : !bsgp.ptr<i32>, i32
  }
  return
}

// -----

// A thread.get of the rank reads the rank of the superstep before it (a
// function parameter assigned the rank, then a barrier, in generated
// programs): it keeps the rank from before the barrier, which a list
// carries; the other uses get their own copies.
// CHECK-LABEL: func.func @get_of_rank(
// CHECK: llvm.call @bsgprt_temp_alloc_elements
// CHECK: %[[RK:.*]] = bsgp.thread_rank
// CHECK: bsgp.ptr.store %[[RK]]
// CHECK: scf.while
// CHECK: bsgp.spawn
// CHECK: arith.select
// CHECK: %[[G:.*]] = bsgp.ptr.load
// CHECK: %[[MINE:.*]] = bsgp.thread_rank
// CHECK-NEXT: bsgp.ptr.store %[[G]], %{{.*}}[%[[MINE]]]
func.func @get_of_rank(%n: i32, %k: i32, %out: !bsgp.ptr<i32>) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = bsgp.thread_rank : i32
    bsgp.barrier
    %res = scf.while (%i = %c0) : (i32) -> i32 {
      %c = arith.cmpi slt, %i, %k : i32
      scf.condition(%c) %i : i32
    } do {
    ^bb0(%i2: i32):
      %g = bsgp.get %c0, %r : i32
      bsgp.ptr.store %g, %out[%r] : !bsgp.ptr<i32>, i32
      bsgp.barrier
      %i3 = arith.addi %i2, %c1 : i32
      scf.yield %i3 : i32
    }
  }
  return
}
