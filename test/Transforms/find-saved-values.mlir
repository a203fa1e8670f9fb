// RUN: bsgp-opt %s --bsgp-split-supersteps --bsgp-rematerialize --bsgp-find-saved-values=print-table -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: bsgp-opt %s --bsgp-find-saved-values | FileCheck %s
// RUN: bsgp-opt %s --bsgp-split-supersteps --bsgp-rematerialize --bsgp-find-saved-values=print-dot -o /dev/null | FileCheck %s --check-prefix=DOT

// Table 1 of the paper, read off Listing 3 after rank propagation, but for
// f: v is saved; rk0 and rk1 are not (rk1 is recomputed in superstep 3).
// The paper saves f = rk0 / 3 too; superstep 2 recomputes it from the old
// rank instead (bsgp-rematerialize), so it has no use left. v is also used
// in superstep 1 (by local_sort), which the paper leaves out.
// TABLE-LABEL: spawn 0 in @findFaces: 3 supersteps
// TABLE-NEXT: value{{ +}}def{{ +}}uses{{ +}}saved{{ +}}words
// TABLE-NEXT: rk0{{ +}}1{{ +}}1{{ +}}no{{ +}}1
// TABLE-NEXT: f{{ +}}1{{ +}}-{{ +}}no{{ +}}1
// TABLE-NEXT: v{{ +}}1{{ +}}1,2,3{{ +}}yes{{ +}}1
// TABLE-NEXT: rk1{{ +}}2{{ +}}2{{ +}}no{{ +}}1
// TABLE-NOT: rk1
// TABLE-LABEL: spawn 0 in @listing5: 4 supersteps
func.func private @local_sort(!bsgp.ptr<i32>, i32) attributes {bsgp.device}
func.func private @global_merge(!bsgp.ptr<i32>)

func.func @findFaces(%pf: !bsgp.ptr<i32>, %hd: !bsgp.ptr<i32>, %ib: !bsgp.ptr<i32>, %n: i32) {
  %c3 = arith.constant 3 : i32
  %n3 = arith.muli %n, %c3 : i32
  bsgp.spawn %n3 {
    %rk0 = bsgp.thread_rank : i32 loc("rk0"("l3.bsgp":4:9))
    %c3d = arith.constant 3 : i32
    %f = arith.divsi %rk0, %c3d : i32 loc("f"("l3.bsgp":5:9))
    %v = bsgp.ptr.load %ib[%rk0] : !bsgp.ptr<i32>, i32 loc("v"("l3.bsgp":5:23))
    %sorted = bsgp.require -> !bsgp.ptr<i32> {
      %ts = bsgp.thread_size : i32
      %p = bsgp.dtempnew %ts : !bsgp.ptr<i32>
      bsgp.yield %p : !bsgp.ptr<i32>
    }
    func.call @local_sort(%sorted, %v) : (!bsgp.ptr<i32>, i32) -> ()
    bsgp.barrier rank_reassigned loc("l3.bsgp":12:9)
    bsgp.require {
      func.call @global_merge(%sorted) : (!bsgp.ptr<i32>) -> ()
    }
    %rk = bsgp.thread_rank : i32 loc("l3.bsgp":17:27)
    %old = bsgp.ptr.load %sorted[%rk] : !bsgp.ptr<i32>, i32
    bsgp.set_oldrank %old
    %owner = bsgp.require -> !bsgp.ptr<i32> {
      %o = bsgp.dtempnew %n : !bsgp.ptr<i32>
      bsgp.yield %o : !bsgp.ptr<i32>
    }
    %rk1 = bsgp.thread_rank : i32 loc("rk1"("l3.bsgp":22:9))
    bsgp.ptr.store %f, %pf[%rk1] : !bsgp.ptr<i32>, i32
    bsgp.ptr.store %v, %owner[%rk1] : !bsgp.ptr<i32>, i32
    bsgp.barrier loc("l3.bsgp":25:9)
    %c0 = arith.constant 0 : i32 loc("l3.bsgp":27:9)
    %is0 = arith.cmpi eq, %rk1, %c0 : i32
    %cond = scf.if %is0 -> i1 {
      %t = arith.constant true
      scf.yield %t : i1
    } else {
      %c1 = arith.constant 1 : i32
      %prev = arith.subi %rk1, %c1 : i32
      %o = bsgp.ptr.load %owner[%prev] : !bsgp.ptr<i32>, i32
      %ne = arith.cmpi ne, %o, %v : i32
      scf.yield %ne : i1
    }
    scf.if %cond {
      bsgp.ptr.store %rk1, %hd[%v] : !bsgp.ptr<i32>, i32
    } loc("l3.bsgp":28:13)
  }
  return
}

// Table 2 of the paper (Listing 5). v4 is used where it is defined.
// Fig. 4(c): the non-value edges carry 2, 0, 1, 0, 1, 0, 2 units; v0, v2
// and v3 share a colour (stream), v1 has the other.
// DOT-LABEL: // spawn 0 in @listing5
// DOT-NEXT: digraph supersteps {
// DOT: n0 -> n1 [label="2"];
// DOT-NEXT: n1 -> n2 [label="0"];
// DOT-NEXT: n2 -> n3 [label="1"];
// DOT-NEXT: n3 -> n4 [label="0"];
// DOT-NEXT: n4 -> n5 [label="1"];
// DOT-NEXT: n5 -> n6 [label="0"];
// DOT-NEXT: n6 -> n7 [label="2"];
// DOT-NEXT: n1 -> n2 [label="v0", color=[[C0:[a-z]+]],
// DOT-NEXT: n1 -> n6 [label="v1", color=[[C1:[a-z]+]],
// DOT-NEXT: n3 -> n4 [label="v2", color=[[C0]],
// DOT-NEXT: n5 -> n6 [label="v3", color=[[C0]],
// TABLE-NEXT: value
// TABLE-NEXT: v0{{ +}}1{{ +}}2{{ +}}yes{{ +}}1
// TABLE-NEXT: v1{{ +}}1{{ +}}3,4{{ +}}yes{{ +}}1
// TABLE-NEXT: v2{{ +}}2{{ +}}3{{ +}}yes{{ +}}1
// TABLE-NEXT: v3{{ +}}3{{ +}}4{{ +}}yes{{ +}}1
// TABLE-NEXT: v4{{ +}}4{{ +}}4{{ +}}no{{ +}}1
func.func @listing5(%a: !bsgp.ptr<i32>) {
  %one = arith.constant 1 : i32
  bsgp.spawn %one {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %v0 = bsgp.ptr.load %a[%c0] : !bsgp.ptr<i32>, i32 loc("v0")
    %v1 = bsgp.ptr.load %a[%c1] : !bsgp.ptr<i32>, i32 loc("v1")
    bsgp.barrier
    %v2 = arith.addi %v0, %v0 : i32 loc("v2")
    bsgp.barrier
    %v3 = arith.addi %v1, %v2 : i32 loc("v3")
    bsgp.barrier
    %v4 = arith.addi %v3, %v1 : i32 loc("v4")
    %rk = bsgp.thread_rank : i32
    bsgp.ptr.store %v4, %a[%rk] : !bsgp.ptr<i32>, i32
  }
  return
}

// Words: an f64 and a pointer take two 32-bit words, a vector<4xf32> four.
// d, used one and three supersteps later, is one saved value; the empty
// piece between the two barriers in a row is no superstep.
// TABLE-LABEL: spawn 1 in @words_and_dead: 4 supersteps
// TABLE-NEXT: value
// TABLE-NEXT: d{{ +}}1{{ +}}2,4{{ +}}yes{{ +}}2
// TABLE-NEXT: q{{ +}}1{{ +}}2{{ +}}yes{{ +}}2
// TABLE-NEXT: w{{ +}}1{{ +}}2{{ +}}yes{{ +}}4

// The superstep result that no superstep uses any more is dropped; the
// others keep their order.
// CHECK-LABEL: func.func @words_and_dead(
// CHECK: %[[R:.*]] = bsgp.superstep 1 -> i32 {
// CHECK: bsgp.yield %{{.*}} : i32
// CHECK: bsgp.superstep 2 {
// CHECK: bsgp.ptr.store %[[R]]
func.func @words_and_dead(%p: !bsgp.ptr<i32>, %fp: !bsgp.ptr<f64>,
                          %pp: !bsgp.ptr<!bsgp.ptr<i32>>,
                          %vp: !bsgp.ptr<vector<4xf32>>, %n: i32) {
  bsgp.spawn %n {
    %a, %b = bsgp.superstep 1 -> (i32, i32) {
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      bsgp.yield %c1, %c2 : i32, i32
    }
    bsgp.superstep 2 {
      %c0 = arith.constant 0 : i32
      bsgp.ptr.store %b, %p[%c0] : !bsgp.ptr<i32>, i32
    }
  }
  bsgp.spawn %n {
    %c0 = arith.constant 0 : i32
    %d = bsgp.ptr.load %fp[%c0] : !bsgp.ptr<f64>, i32 loc("d")
    %q = bsgp.ptr.load %pp[%c0] : !bsgp.ptr<!bsgp.ptr<i32>>, i32 loc("q")
    %w = bsgp.ptr.load %vp[%c0] : !bsgp.ptr<vector<4xf32>>, i32 loc("w")
    bsgp.barrier
    %c1 = arith.constant 1 : i32
    bsgp.ptr.store %d, %fp[%c1] : !bsgp.ptr<f64>, i32
    bsgp.ptr.store %q, %pp[%c1] : !bsgp.ptr<!bsgp.ptr<i32>>, i32
    bsgp.ptr.store %w, %vp[%c1] : !bsgp.ptr<vector<4xf32>>, i32
    bsgp.barrier
    bsgp.barrier
    %c2 = arith.constant 2 : i32
    bsgp.ptr.store %c2, %p[%c2] : !bsgp.ptr<i32>, i32
    bsgp.barrier
    %c3 = arith.constant 3 : i32
    bsgp.ptr.store %d, %fp[%c3] : !bsgp.ptr<f64>, i32
  }
  return
}
