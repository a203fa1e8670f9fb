// RUN: bsgp-opt %s | bsgp-opt | FileCheck %s
// RUN: bsgp-opt %s --mlir-print-op-generic | bsgp-opt | FileCheck %s
//
// Round trip of every bsgp op in its custom form, and through the generic
// form, which checks that the custom printers and parsers agree with ODS.

// The source range of a superstep is printed through location aliases.
// CHECK: #[[LOCB:loc[0-9]*]] = loc("sort.bsgp":4:3)
// CHECK: #[[LOCE:loc[0-9]*]] = loc("sort.bsgp":9:1)

// §5 spawn, barrier, thread intrinsics; the implicit yield is elided.
// A spawn yields the host values its requires computed (Listing 6).
// CHECK-LABEL: func.func @spawn_results
// CHECK: %[[R:.*]] = bsgp.spawn %{{.*}} -> !bsgp.ptr<f32> {
// CHECK:   %[[L:.*]] = bsgp.require -> !bsgp.ptr<f32> {
// CHECK:   bsgp.yield %[[L]] : !bsgp.ptr<f32>
// CHECK: return %[[R]] : !bsgp.ptr<f32>
func.func @spawn_results(%n: i32) -> !bsgp.ptr<f32> {
  %r = bsgp.spawn %n -> !bsgp.ptr<f32> {
    %l = bsgp.require -> !bsgp.ptr<f32> {
      %ts = bsgp.thread_size : i32
      %p = bsgp.dnew %ts : !bsgp.ptr<f32>
      bsgp.yield %p : !bsgp.ptr<f32>
    }
    bsgp.yield %l : !bsgp.ptr<f32>
  }
  return %r : !bsgp.ptr<f32>
}

// CHECK-LABEL: func.func @spawn_barrier
// CHECK-SAME: (%[[N:.*]]: i32)
func.func @spawn_barrier(%n: i32) {
  // CHECK: bsgp.spawn %[[N]] {
  bsgp.spawn %n {
    // CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank : i32
    %rk = bsgp.thread_rank : i32
    // CHECK-NEXT: %[[SZ:.*]] = bsgp.thread_size : i32
    %sz = bsgp.thread_size : i32
    // CHECK-NEXT: bsgp.barrier{{$}}
    bsgp.barrier
    // CHECK-NEXT: bsgp.barrier rank_reassigned{{$}}
    bsgp.barrier rank_reassigned
    // CHECK-NEXT: bsgp.set_oldrank %[[RK]]{{$}}
    bsgp.set_oldrank %rk
    // CHECK-NEXT: }
  }
  return
}

// §5 require with results, set_size, and the list allocators (Listing 3).
// CHECK-LABEL: func.func @require_lists
func.func @require_lists(%n: i32) {
  bsgp.spawn %n {
    // CHECK: %[[P:.*]]:2 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<f32>) {
    %p:2 = bsgp.require -> (!bsgp.ptr<i32>, !bsgp.ptr<f32>) {
      // CHECK-NEXT: %[[TS:.*]] = bsgp.thread_size : i32
      %ts = bsgp.thread_size : i32
      // CHECK-NEXT: %[[A:.*]] = bsgp.dtempnew %[[TS]] : !bsgp.ptr<i32>
      %a = bsgp.dtempnew %ts : !bsgp.ptr<i32>
      // CHECK-NEXT: %[[B:.*]] = bsgp.dnew %[[TS]] : !bsgp.ptr<f32>
      %b = bsgp.dnew %ts : !bsgp.ptr<f32>
      // CHECK-NEXT: bsgp.set_size %[[TS]]{{$}}
      bsgp.set_size %ts
      // CHECK-NEXT: bsgp.yield %[[A]], %[[B]] : !bsgp.ptr<i32>, !bsgp.ptr<f32>
      bsgp.yield %a, %b : !bsgp.ptr<i32>, !bsgp.ptr<f32>
    }
    // A single result is printed without parentheses.
    // CHECK: %{{.*}} = bsgp.require -> i32 {
    %one = bsgp.require -> i32 {
      %ts = bsgp.thread_size : i32
      bsgp.yield %ts : i32
    }
    // A require without results has no arrow.
    // CHECK: bsgp.require {
    // CHECK-NEXT: bsgp.dfree %[[P]]#1 : !bsgp.ptr<f32>
    // CHECK-NEXT: bsgp.dtempfree %[[P]]#0 : !bsgp.ptr<i32>
    // CHECK-NEXT: bsgp.dtempfree{{$}}
    // CHECK-NEXT: }
    bsgp.require {
      bsgp.dfree %p#1 : !bsgp.ptr<f32>
      bsgp.dtempfree %p#0 : !bsgp.ptr<i32>
      bsgp.dtempfree
    }
  }
  return
}

// §5 par with two regions, barriers inside, results concatenated.
// CHECK-LABEL: func.func @par
func.func @par(%n: i32) {
  bsgp.spawn %n {
    // CHECK: %[[R:.*]]:2 = bsgp.par -> (i32, f32) {
    %r:2 = bsgp.par -> (i32, f32) {
      // CHECK-NEXT: %[[X:.*]] = bsgp.thread_rank : i32
      %x = bsgp.thread_rank : i32
      // CHECK-NEXT: bsgp.barrier
      bsgp.barrier
      // CHECK-NEXT: bsgp.yield %[[X]] : i32
      bsgp.yield %x : i32
    // CHECK-NEXT: }, {
    }, {
      // CHECK-NEXT: %[[Y:.*]] = arith.constant 1.0{{.*}} : f32
      %y = arith.constant 1.0 : f32
      // CHECK-NEXT: bsgp.barrier
      bsgp.barrier
      // CHECK-NEXT: bsgp.yield %[[Y]] : f32
      bsgp.yield %y : f32
    // CHECK-NEXT: }
    }
    // A par without results, whose yields are elided.
    // CHECK: bsgp.par {
    // CHECK-NEXT: bsgp.barrier
    // CHECK-NEXT: }, {
    // CHECK-NEXT: }
    bsgp.par {
      bsgp.barrier
    }, {
    }
  }
  return
}

// §5 communication intrinsics: get reads the previous superstep, put
// defines a value visible after the next barrier.
// CHECK-LABEL: func.func @get_put
func.func @get_put(%n: i32) {
  bsgp.spawn %n {
    // CHECK: %[[RK:.*]] = bsgp.thread_rank : i32
    %rk = bsgp.thread_rank : i32
    // CHECK-NEXT: %[[V:.*]] = arith.sitofp %[[RK]] : i32 to f32
    %v = arith.sitofp %rk : i32 to f32
    // CHECK-NEXT: bsgp.barrier
    bsgp.barrier
    // CHECK-NEXT: %[[G:.*]] = bsgp.get %[[RK]], %[[V]] : f32
    %g = bsgp.get %rk, %v : f32
    // CHECK-NEXT: %[[P:.*]] = bsgp.put %[[RK]], %[[G]] : f32
    %p = bsgp.put %rk, %g : f32
    // CHECK-NEXT: bsgp.barrier
    bsgp.barrier
    // CHECK-NEXT: arith.addf %[[P]], %[[G]] : f32
    %s = arith.addf %p, %g : f32
  }
  return
}

// A put whose barrier is in uniform control flow: the value passes through
// the loop's arguments to uses after the barrier of its body, and the uses
// after the loop follow a do loop (its condition region holds the barrier)
// or an if with a barrier in both branches, which every path crosses.
// CHECK-LABEL: func.func @put_through_flow
// CHECK: bsgp.put
func.func @put_through_flow(%n: i32, %m: i32) {
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %rk = bsgp.thread_rank : i32
    %p = bsgp.put %rk, %rk : i32
    %r = scf.while (%x = %p) : (i32) -> i32 {
      bsgp.barrier
      %c = arith.cmpi slt, %x, %m : i32
      scf.condition(%c) %x : i32
    } do {
    ^bb0(%x2: i32):
      %y = arith.addi %x2, %c1 : i32
      scf.yield %y : i32
    }
    %q = bsgp.put %rk, %r : i32
    %t = arith.cmpi sgt, %m, %c0 : i32
    scf.if %t {
      bsgp.barrier
    } else {
      bsgp.barrier
    }
    %s = arith.addi %q, %r : i32
  }
  return
}

// A host value is the same in every thread, so a get of it is valid (it
// is the value itself; bsgp-save-restore reads it directly). Canonicalization
// makes such gets when it folds a variable to a constant or host value.
// CHECK-LABEL: func.func @get_host_value
// CHECK: bsgp.get %{{.*}}, %{{.*}} : f32
func.func @get_host_value(%n: i32, %v: f32) {
  bsgp.spawn %n {
    %rk = bsgp.thread_rank : i32
    bsgp.barrier
    %g = bsgp.get %rk, %v : f32
  }
  return
}

// In an inline function (bsgp.device), get of a parameter reads the
// caller's argument: whether a barrier separates it is checked where the
// function is inlined.
// CHECK-LABEL: func.func private @get_parameter
// CHECK: bsgp.get %{{.*}}, %{{.*}} : i32
func.func private @get_parameter(%r: i32, %v: i32) -> i32 attributes {bsgp.device} {
  %g = bsgp.get %r, %v : i32
  return %g : i32
}

// C pointer operations on !bsgp.ptr.
// CHECK-LABEL: func.func @pointers
// CHECK-SAME: (%[[P:.*]]: !bsgp.ptr<f32>, %[[Q:.*]]: !bsgp.ptr<f32>, %[[I:.*]]: i32, %[[J:.*]]: index)
func.func @pointers(%p: !bsgp.ptr<f32>, %q: !bsgp.ptr<f32>, %i: i32, %j: index)
    -> (f32, i1, i64) {
  // CHECK: %[[L:.*]] = bsgp.ptr.load %[[P]][%[[I]]] : !bsgp.ptr<f32>, i32
  %l = bsgp.ptr.load %p[%i] : !bsgp.ptr<f32>, i32
  // CHECK-NEXT: bsgp.ptr.store %[[L]], %[[Q]][%[[J]]] : !bsgp.ptr<f32>, index
  bsgp.ptr.store %l, %q[%j] : !bsgp.ptr<f32>, index
  // CHECK-NEXT: %[[O:.*]] = bsgp.ptr.offset %[[P]][%[[I]]] : !bsgp.ptr<f32>, i32
  %o = bsgp.ptr.offset %p[%i] : !bsgp.ptr<f32>, i32
  // CHECK-NEXT: %[[NULL:.*]] = bsgp.ptr.null : !bsgp.ptr<i8>
  %null = bsgp.ptr.null : !bsgp.ptr<i8>
  // CHECK-NEXT: %[[C:.*]] = bsgp.ptr.cast %[[O]] : !bsgp.ptr<f32> to !bsgp.ptr<i8>
  %c = bsgp.ptr.cast %o : !bsgp.ptr<f32> to !bsgp.ptr<i8>
  // CHECK-NEXT: %[[EQ:.*]] = bsgp.ptr.cmp eq, %[[C]], %[[NULL]] : !bsgp.ptr<i8>
  %eq = bsgp.ptr.cmp eq, %c, %null : !bsgp.ptr<i8>
  // CHECK-NEXT: bsgp.ptr.cmp ult, %[[P]], %[[Q]] : !bsgp.ptr<f32>
  %lt = bsgp.ptr.cmp ult, %p, %q : !bsgp.ptr<f32>
  // CHECK-NEXT: %[[D:.*]] = bsgp.ptr.diff %[[O]], %[[P]] : !bsgp.ptr<f32>
  %d = bsgp.ptr.diff %o, %p : !bsgp.ptr<f32>
  // CHECK-NEXT: return %[[L]], %[[EQ]], %[[D]] : f32, i1, i64
  return %l, %eq, %d : f32, i1, i64
}

// §4.2 step 3 superstep form: saved values are superstep results.
// CHECK-LABEL: func.func @supersteps
func.func @supersteps(%n: i32) {
  bsgp.spawn %n {
    // CHECK: %[[S:.*]]:2 = bsgp.superstep 1 -> (i32, f32) {
    %s:2 = bsgp.superstep 1 -> (i32, f32) {
      %rk = bsgp.thread_rank : i32
      %f = arith.sitofp %rk : i32 to f32
      // CHECK: bsgp.yield %{{.*}}, %{{.*}} : i32, f32
      bsgp.yield %rk, %f : i32, f32
    }
    // CHECK: bsgp.superstep 2 rank_reassigned source(#[[LOCB]], #[[LOCE]]) {
    bsgp.superstep 2 rank_reassigned source(loc("sort.bsgp":4:3), loc("sort.bsgp":9:1)) {
      // CHECK-NEXT: bsgp.set_oldrank %[[S]]#0
      bsgp.set_oldrank %s#0
      // CHECK-NEXT: bsgp.get %[[S]]#0, %[[S]]#1 : f32
      %g = bsgp.get %s#0, %s#1 : f32
    }
    // CHECK: bsgp.superstep 5 {
    bsgp.superstep 5 {
    }
  }
  return
}

// §4.2 steps 6-7, §4.3 stream form: kernels, launches and streams.
// CHECK-LABEL: bsgp.kernel @pass1
// CHECK-SAME: (%[[IB:.*]]: !bsgp.ptr<i32>, %[[T0:.*]]: !bsgp.stream, %[[T1:.*]]: !bsgp.stream, %[[T2:.*]]: !bsgp.stream)
// CHECK-SAME: attributes {superstep = 1 : i32}
bsgp.kernel @pass1(%ib: !bsgp.ptr<i32>, %t0: !bsgp.stream, %t1: !bsgp.stream,
                   %t2: !bsgp.stream) attributes {superstep = 1 : i32} {
  // CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank : i32
  %rk = bsgp.thread_rank : i32
  // CHECK-NEXT: %[[V:.*]] = bsgp.ptr.load %[[IB]][%[[RK]]] : !bsgp.ptr<i32>, i32
  %v = bsgp.ptr.load %ib[%rk] : !bsgp.ptr<i32>, i32
  // CHECK-NEXT: bsgp.save %[[V]] to (%[[T0]])[%[[RK]]] : i32
  bsgp.save %v to (%t0)[%rk] : i32
  // CHECK-NEXT: %[[W:.*]] = arith.extsi %[[V]] : i32 to i64
  %w = arith.extsi %v : i32 to i64
  // CHECK-NEXT: bsgp.save %[[W]] to (%[[T1]], %[[T2]])[%[[RK]]] : i64
  bsgp.save %w to (%t1, %t2)[%rk] : i64
  // CHECK-NEXT: bsgp.return
  bsgp.return
}

// CHECK-LABEL: bsgp.kernel @pass2
bsgp.kernel @pass2(%t0: !bsgp.stream, %t1: !bsgp.stream, %t2: !bsgp.stream,
                   %t3: !bsgp.stream, %old: i32) {
  // CHECK: bsgp.load (%{{.*}})[%{{.*}}] : f32
  %f = bsgp.load (%t0)[%old] : f32
  // CHECK-NEXT: bsgp.load (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})[%{{.*}}] : vector<2xf64>
  %v = bsgp.load (%t0, %t1, %t2, %t3)[%old] : vector<2xf64>
  bsgp.return
}

// CHECK-LABEL: func.func @host
// CHECK-SAME: (%[[N:.*]]: i32, %[[IB:.*]]: !bsgp.ptr<i32>)
func.func @host(%n: i32, %ib: !bsgp.ptr<i32>) {
  // CHECK: %[[T0:.*]] = bsgp.stream_alloc %[[N]] : !bsgp.stream
  %t0 = bsgp.stream_alloc %n : !bsgp.stream
  %t1 = bsgp.stream_alloc %n : !bsgp.stream
  %t2 = bsgp.stream_alloc %n : !bsgp.stream
  %t3 = bsgp.stream_alloc %n : !bsgp.stream
  // CHECK: bsgp.launch @pass1(%[[N]]) args(%[[IB]], %[[T0]], %{{.*}}, %{{.*}} : !bsgp.ptr<i32>, !bsgp.stream, !bsgp.stream, !bsgp.stream)
  bsgp.launch @pass1(%n) args(%ib, %t0, %t1, %t2 : !bsgp.ptr<i32>, !bsgp.stream, !bsgp.stream, !bsgp.stream)
  bsgp.launch @pass2(%n) args(%t0, %t1, %t2, %t3, %n : !bsgp.stream, !bsgp.stream, !bsgp.stream, !bsgp.stream, i32)
  // CHECK: bsgp.launch @empty(%[[N]]){{$}}
  bsgp.launch @empty(%n)
  // CHECK: bsgp.stream_free %[[T0]]{{$}}
  bsgp.stream_free %t0
  bsgp.stream_free %t1
  bsgp.stream_free %t2
  bsgp.stream_free %t3
  return
}

// CHECK-LABEL: bsgp.kernel @empty()
// CHECK-NEXT: bsgp.return
bsgp.kernel @empty() {
  bsgp.return
}

// A uniform loop made one kernel (bsgp-fuse-uniform-loops), and the host's
// question whether the backend runs it.
// CHECK-LABEL: bsgp.kernel @loop(
// CHECK-SAME: attributes {bsgp.grid_loop}
bsgp.kernel @loop(%n: i32) attributes {bsgp.grid_loop} {
  // CHECK-NEXT: bsgp.grid_launch @empty(%{{.*}}){{$}}
  bsgp.grid_launch @empty(%n)
  bsgp.return
}
// CHECK-LABEL: func.func @ask(
func.func @ask(%n: i32) -> i1 {
  // CHECK-NEXT: bsgp.can_launch_grid_loop @loop(%{{.*}}){{$}}
  %ok = bsgp.can_launch_grid_loop @loop(%n)
  return %ok : i1
}

// Collective functions hold barriers and requires (Appendix A); device
// functions use the thread intrinsics.
// CHECK-LABEL: func.func @collective
// CHECK-SAME: attributes {bsgp.collective}
func.func @collective(%x: i32) -> i32 attributes {bsgp.collective} {
  // CHECK-NEXT: bsgp.barrier rank_reassigned
  bsgp.barrier rank_reassigned
  // CHECK-NEXT: bsgp.set_oldrank
  bsgp.set_oldrank %x
  // CHECK-NEXT: bsgp.require {
  // CHECK-NEXT: bsgp.thread_size
  // CHECK-NEXT: bsgp.set_size
  bsgp.require {
    %ts = bsgp.thread_size : i32
    bsgp.set_size %ts
  }
  %rk = bsgp.thread_rank : i32
  return %rk : i32
}

// CHECK-LABEL: func.func @device
// CHECK-SAME: attributes {bsgp.device}
func.func @device() -> i32 attributes {bsgp.device} {
  // CHECK-NEXT: bsgp.thread_rank : i32
  %rk = bsgp.thread_rank : i32
  return %rk : i32
}
