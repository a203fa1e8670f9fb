// RUN: bsgp-opt %s --bsgp-outline-kernels | FileCheck %s

func.func private @local_sort(!bsgp.ptr<i32>, i32) attributes {bsgp.device}
func.func private @global_merge(!bsgp.ptr<i32>)

// Listing 3 in stream form -> Listing 4: one kernel per superstep with the
// host values and streams it uses as parameters; on the host the require
// bodies, stream allocation, launches on n*3 threads, stream frees and the
// final __dtempfree of both dtempnew lists.
// CHECK-LABEL: bsgp.kernel @findFaces_spawn0_ss1(
// CHECK-SAME: %[[IB:[^:]*]]: !bsgp.ptr<i32>, %[[SORTED:[^:]*]]: !bsgp.ptr<i32>, %[[T0:[^:]*]]: !bsgp.stream, %[[T1:[^:]*]]: !bsgp.stream)
// CHECK-SAME: attributes {bsgp.srcloc = "l3.bsgp:4:9-12:9"}
// CHECK-NEXT: %[[RK:.*]] = bsgp.thread_rank
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[F:.*]] = arith.divsi %[[RK]], %[[C3]]
// CHECK-NEXT: %[[V:.*]] = bsgp.ptr.load %[[IB]][%[[RK]]]
// CHECK-NEXT: func.call @local_sort(%[[SORTED]], %[[V]])
// CHECK-NEXT: bsgp.save %[[F]] to{{ ?}}(%[[T0]]){{ ?}}[%[[RK]]]
// CHECK-NEXT: bsgp.save %[[V]] to{{ ?}}(%[[T1]]){{ ?}}[%[[RK]]]
// CHECK-NEXT: bsgp.return
// CHECK: bsgp.kernel @findFaces_spawn0_ss2(%{{.*}}: !bsgp.ptr<i32>, %{{.*}}: !bsgp.stream, %{{.*}}: !bsgp.stream, %{{.*}}: !bsgp.ptr<i32>, %{{.*}}: !bsgp.ptr<i32>, %{{.*}}: !bsgp.stream)
// A superstep without a source range is attributed to its spawn.
// CHECK-SAME: bsgp.srcloc = "{{.*}}outline-kernels.mlir:[[SPAWNLINE:[0-9]+]]:3-[[SPAWNLINE]]:3"
// CHECK: bsgp.return
// CHECK: bsgp.kernel @findFaces_spawn0_ss3(%{{.*}}: !bsgp.stream, %{{.*}}: !bsgp.ptr<i32>, %{{.*}}: !bsgp.ptr<i32>)
// CHECK: bsgp.return
// CHECK-LABEL: func.func @findFaces(
// CHECK-SAME: %[[HPF:[^:]*]]: !bsgp.ptr<i32>, %[[HHD:[^:]*]]: !bsgp.ptr<i32>, %[[HIB:[^:]*]]: !bsgp.ptr<i32>, %[[HN:[^:]*]]: i32)
// CHECK-NEXT: %[[C3H:.*]] = arith.constant 3
// CHECK-NEXT: %[[SIZE:.*]] = arith.muli %[[HN]], %[[C3H]]
// CHECK-NEXT: %[[LIST:.*]] = bsgp.dtempnew %[[SIZE]]
// CHECK-NEXT: %[[S0:.*]] = bsgp.stream_alloc %[[SIZE]]
// CHECK-NEXT: %[[S1:.*]] = bsgp.stream_alloc %[[SIZE]]
// CHECK-NEXT: bsgp.launch @findFaces_spawn0_ss1(%[[SIZE]]) args(%[[HIB]], %[[LIST]], %[[S0]], %[[S1]] :
// CHECK-NEXT: call @global_merge(%[[LIST]])
// CHECK-NEXT: %[[OWNER:.*]] = bsgp.dtempnew %[[HN]]
// CHECK-NEXT: %[[S2:.*]] = bsgp.stream_alloc %[[SIZE]]
// CHECK-NEXT: bsgp.launch @findFaces_spawn0_ss2(%[[SIZE]]) args(%[[LIST]], %[[S0]], %[[S1]], %[[HPF]], %[[OWNER]], %[[S2]] :
// CHECK-NEXT: bsgp.stream_free %[[S0]]
// CHECK-NEXT: bsgp.stream_free %[[S1]]
// CHECK-NEXT: bsgp.launch @findFaces_spawn0_ss3(%[[SIZE]]) args(%[[S2]], %[[OWNER]], %[[HHD]] :
// CHECK-NEXT: bsgp.stream_free %[[S2]]
// CHECK-NEXT: bsgp.dtempfree %[[LIST]], %[[OWNER]]
// CHECK-NEXT: return
func.func @findFaces(%pf: !bsgp.ptr<i32>, %hd: !bsgp.ptr<i32>, %ib: !bsgp.ptr<i32>, %n: i32) {
  %c3 = arith.constant 3 : i32
  %n3 = arith.muli %n, %c3 : i32
  bsgp.spawn %n3 {
    %sorted = bsgp.require -> !bsgp.ptr<i32> {
      %ts = bsgp.thread_size : i32
      %p = bsgp.dtempnew %ts : !bsgp.ptr<i32>
      bsgp.yield %p : !bsgp.ptr<i32>
    }
    %t0 = bsgp.require -> !bsgp.stream {
      %ts = bsgp.thread_size : i32
      %s = bsgp.stream_alloc %ts : !bsgp.stream
      bsgp.yield %s : !bsgp.stream
    }
    %t1 = bsgp.require -> !bsgp.stream {
      %ts = bsgp.thread_size : i32
      %s = bsgp.stream_alloc %ts : !bsgp.stream
      bsgp.yield %s : !bsgp.stream
    }
    bsgp.superstep 1 source(loc("l3.bsgp":4:9), loc("l3.bsgp":12:9)) {
      %rk = bsgp.thread_rank : i32
      %c3d = arith.constant 3 : i32
      %f = arith.divsi %rk, %c3d : i32
      %v = bsgp.ptr.load %ib[%rk] : !bsgp.ptr<i32>, i32
      func.call @local_sort(%sorted, %v) : (!bsgp.ptr<i32>, i32) -> ()
      bsgp.save %f to(%t0) [%rk] : i32
      bsgp.save %v to(%t1) [%rk] : i32
    }
    bsgp.require {
      func.call @global_merge(%sorted) : (!bsgp.ptr<i32>) -> ()
    }
    %owner = bsgp.require -> !bsgp.ptr<i32> {
      %o = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %o : !bsgp.ptr<i32>
    }
    %t2 = bsgp.require -> !bsgp.stream {
      %ts = bsgp.thread_size : i32
      %s = bsgp.stream_alloc %ts : !bsgp.stream
      bsgp.yield %s : !bsgp.stream
    }
    bsgp.superstep 2 rank_reassigned {
      %rk = bsgp.thread_rank : i32
      %old = bsgp.ptr.load %sorted[%rk] : !bsgp.ptr<i32>, i32
      %f = bsgp.load(%t0) [%old] : i32
      %v = bsgp.load(%t1) [%old] : i32
      bsgp.ptr.store %f, %pf[%rk] : !bsgp.ptr<i32>, i32
      bsgp.ptr.store %v, %owner[%rk] : !bsgp.ptr<i32>, i32
      bsgp.save %v to(%t2) [%rk] : i32
    }
    bsgp.require {
      bsgp.stream_free %t0
    }
    bsgp.require {
      bsgp.stream_free %t1
    }
    bsgp.superstep 3 {
      %rk = bsgp.thread_rank : i32
      %v = bsgp.load(%t2) [%rk] : i32
      %c0 = arith.constant 0 : i32
      %p = arith.cmpi eq, %rk, %c0 : i32
      %cond = scf.if %p -> i1 {
        %t = arith.constant true
        scf.yield %t : i1
      } else {
        %c1 = arith.constant 1 : i32
        %prev = arith.subi %rk, %c1 : i32
        %o = bsgp.ptr.load %owner[%prev] : !bsgp.ptr<i32>, i32
        %ne = arith.cmpi ne, %o, %v : i32
        scf.yield %ne : i1
      }
      scf.if %cond {
        bsgp.ptr.store %rk, %hd[%v] : !bsgp.ptr<i32>, i32
      }
    }
    bsgp.require {
      bsgp.stream_free %t2
    }
  }
  return
}

// set_size (thread.fork / thread.kill) changes the thread count of the
// following launches and of thread.size in later requires. A host constant
// is cloned into the kernel instead of being passed. A spawn in a host loop
// is lowered in the loop; spawns are numbered per function, and a name that
// is already taken gets a suffix.
// CHECK-LABEL: bsgp.kernel @resize_spawn0_ss1(%{{.*}}: !bsgp.ptr<i32>)
// CHECK-NEXT: arith.constant 5 : i32
// CHECK: bsgp.kernel @resize_spawn0_ss2(
// CHECK: bsgp.kernel @resize_spawn1_ss1_0(
// CHECK-LABEL: func.func @resize(
// CHECK-SAME: %[[P:[^:]*]]: !bsgp.ptr<i32>, %[[N:[^:]*]]: i32)
// CHECK: bsgp.launch @resize_spawn0_ss1(%[[N]]) args(%[[P]] : !bsgp.ptr<i32>)
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[N]], %[[N]]
// CHECK-NEXT: %[[L:.*]] = bsgp.dnew %[[M]]
// CHECK-NEXT: bsgp.launch @resize_spawn0_ss2(%[[M]]) args(%[[L]] : !bsgp.ptr<i32>)
// CHECK: scf.for
// CHECK-NEXT: bsgp.launch @resize_spawn1_ss1_0(%[[N]])
// CHECK-NOT: bsgp.dtempfree
// CHECK: return
func.func @resize(%p: !bsgp.ptr<i32>, %n: i32) {
  %c5 = arith.constant 5 : i32
  bsgp.spawn %n {
    bsgp.superstep 1 {
      %rk = bsgp.thread_rank : i32
      bsgp.ptr.store %c5, %p[%rk] : !bsgp.ptr<i32>, i32
    }
    %list = bsgp.require -> !bsgp.ptr<i32> {
      %ts = bsgp.thread_size : i32
      %m = arith.muli %ts, %ts : i32
      bsgp.set_size %m
      %ts2 = bsgp.thread_size : i32
      %l = bsgp.dnew %ts2 : !bsgp.ptr<i32>
      bsgp.yield %l : !bsgp.ptr<i32>
    }
    bsgp.superstep 2 rank_reassigned {
      %rk = bsgp.thread_rank : i32
      bsgp.ptr.store %rk, %list[%rk] : !bsgp.ptr<i32>, i32
    }
  }
  %lb = arith.constant 0 : index
  %ub = arith.constant 2 : index
  %st = arith.constant 1 : index
  scf.for %i = %lb to %ub step %st {
    bsgp.spawn %n {
      bsgp.superstep 1 {
        %rk = bsgp.thread_rank : i32
        bsgp.ptr.store %rk, %p[%i] : !bsgp.ptr<i32>, index
      }
    }
  }
  return
}

bsgp.kernel @resize_spawn1_ss1() {
  bsgp.return
}

// An empty superstep launches nothing, nor does one of dead code only (a
// load nothing uses: what bsgp-forward-sort-keys leaves of Listing 1's
// first superstep); a host value that a superstep yields (hand-written
// superstep form) is passed to the kernel that uses it.
// CHECK-LABEL: bsgp.kernel @empty_step_spawn0_ss2(
// CHECK-SAME: %[[V:[^:]*]]: i32, %[[Q:[^:]*]]: !bsgp.ptr<i32>)
// CHECK: bsgp.ptr.store %[[V]], %[[Q]]
// CHECK-LABEL: func.func @empty_step(
// CHECK-NOT: @empty_step_spawn0_ss1
// CHECK-NOT: @empty_step_spawn0_ss3
// CHECK: bsgp.launch @empty_step_spawn0_ss2
// CHECK-NOT: bsgp.launch
// CHECK: return
func.func @empty_step(%p: !bsgp.ptr<i32>, %n: i32) {
  bsgp.spawn %n {
    bsgp.superstep 1 {
    }
    bsgp.superstep 2 {
      %rk = bsgp.thread_rank : i32
      bsgp.ptr.store %n, %p[%rk] : !bsgp.ptr<i32>, i32
    }
    bsgp.superstep 3 {
      %rk = bsgp.thread_rank : i32
      %dead = bsgp.ptr.load %p[%rk] : !bsgp.ptr<i32>, i32
    }
  }
  return
}

// A target query of the host code that the kernel uses (CSE merges equal
// queries) is cloned into the kernel, like a constant: each target's
// lowering folds the kernel's own query.
// CHECK-LABEL: bsgp.kernel @query_spawn0_ss1(
// CHECK-SAME: %{{[^:]*}}: !bsgp.ptr<i32>)
// CHECK-NEXT: bsgp.target_is "spirv"
// CHECK-LABEL: func.func @query(
// CHECK: bsgp.target_is "spirv"
// CHECK: bsgp.launch @query_spawn0_ss1(%{{.*}}) args(%{{[^,]*}} :
func.func @query(%p: !bsgp.ptr<i32>, %n: i32) -> i1 {
  %q = bsgp.target_is "spirv" : i1
  bsgp.spawn %n {
    bsgp.superstep 1 {
      %rk = bsgp.thread_rank : i32
      scf.if %q {
        bsgp.ptr.store %rk, %p[%rk] : !bsgp.ptr<i32>, i32
      }
    }
  }
  return %q : i1
}
