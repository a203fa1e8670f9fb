// RUN: bsgp-opt %s --bsgp-expand-par -verify-diagnostics

// Each branch would set thread.oldrank in the same superstep.
func.func @both_reassign(%n: i32) {
  bsgp.spawn %n {
    // expected-error @below {{branches of a par reassign ranks at the same aligned barrier (#1)}}
    bsgp.par {
      bsgp.barrier rank_reassigned
      %rk = bsgp.thread_rank : i32
      bsgp.set_oldrank %rk
    }, {
      bsgp.barrier rank_reassigned
      %rk = bsgp.thread_rank : i32
      bsgp.set_oldrank %rk
    }
  }
  return
}
