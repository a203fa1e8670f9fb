// RUN: bsgp-opt %s --bsgp-lower-kernels-cpu | FileCheck %s

// The accumulations over a chunk become values carried by the rank loop:
// the chunk index comes from the runtime once per chunk, a chunk_reduce
// starts from its identity and stores the loop's result to list[chunk], a
// chunk_scan starts from list[chunk] and its result is the accumulator
// before the rank's value. A chunk without ranks touches no list element.

// CHECK-LABEL: llvm.func internal @scan__cpu(
// CHECK-SAME:    %{{.*}}: !llvm.ptr, %[[BEGIN:.*]]: i64, %[[END:.*]]: i64, %{{.*}}: i64)
// CHECK:         %[[IN:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !bsgp.ptr<i32>
// CHECK:         %[[PART:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !bsgp.ptr<i32>
// CHECK:         %[[OUT:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !bsgp.ptr<i32>
// CHECK:         %[[B:.*]] = arith.trunci %[[BEGIN]] : i64 to i32
// CHECK:         %[[E:.*]] = arith.trunci %[[END]] : i64 to i32
// CHECK:         %[[CHUNK:.*]] = llvm.call @bsgprt_cpu_chunk_index() : () -> i64
// CHECK:         %[[NONEMPTY:.*]] = arith.cmpi ult, %[[BEGIN]], %[[END]] : i64
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[SMIN:.*]] = arith.constant -2147483648 : i32
// CHECK:         %[[START:.*]] = scf.if %[[NONEMPTY]] -> (i32) {
// CHECK-NEXT:      %[[P:.*]] = bsgp.ptr.load %[[PART]][%[[CHUNK]]] : !bsgp.ptr<i32>, i64
// CHECK-NEXT:      scf.yield %[[P]] : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[SMIN]] : i32
// CHECK-NEXT:    }
// CHECK:         %[[LOOP:.*]]:2 = scf.for %[[R:.*]] = %[[B]] to %[[E]] step %{{.*}} iter_args(%[[SUM:.*]] = %[[ZERO]], %[[MAX:.*]] = %[[START]]) -> (i32, i32) : i32 {
// CHECK-NEXT:      %[[BODY:.*]]:2 = scf.execute_region -> (i32, i32) {
// CHECK-NEXT:        %[[X:.*]] = bsgp.ptr.load %[[IN]][%[[R]]]
// CHECK-NEXT:        %[[SUM2:.*]] = arith.addi %[[SUM]], %[[X]] : i32
// CHECK-NEXT:        %[[MAX2:.*]] = arith.maxsi %[[MAX]], %[[X]] : i32
// CHECK-NEXT:        bsgp.ptr.store %[[MAX]], %[[OUT]][%[[R]]]
// CHECK-NEXT:        scf.yield %[[SUM2]], %[[MAX2]] : i32, i32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[BODY]]#0, %[[BODY]]#1 : i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %[[NONEMPTY]] {
// CHECK-NEXT:      bsgp.ptr.store %[[LOOP]]#0, %[[PART]][%[[CHUNK]]] : !bsgp.ptr<i32>, i64
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.return
bsgp.kernel @scan(%in: !bsgp.ptr<i32>, %part: !bsgp.ptr<i32>,
                  %out: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  %x = bsgp.ptr.load %in[%r] : !bsgp.ptr<i32>, i32
  bsgp.chunk_reduce "add" %x, %part : !bsgp.ptr<i32>
  %p = bsgp.chunk_scan "maxs" %x, %part : !bsgp.ptr<i32>
  bsgp.ptr.store %p, %out[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}

// Float min and max keep the library's operand order (NaNs and signed
// zeros), from +-infinity; 64-bit integers start from their own
// identities.
// CHECK-LABEL: llvm.func internal @kinds__cpu(
// CHECK-DAG:     %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK-DAG:     %[[NINF:.*]] = arith.constant 0xFFF0000000000000 : f64
// CHECK-DAG:     %[[ONES:.*]] = arith.constant -1 : i64
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[UZERO:.*]] = arith.constant 0 : i64
// CHECK:         scf.for %{{.*}} iter_args(%[[MIN:.*]] = %[[INF]], %[[MAXF:.*]] = %[[NINF]], %[[AND:.*]] = %[[ONES]], %[[MUL:.*]] = %[[ONE]], %[[MAXU:.*]] = %[[UZERO]]) -> (f32, f64, i64, i64, i64)
// CHECK:           %[[LT:.*]] = arith.cmpf olt, %[[F:.*]], %[[MIN]] : f32
// CHECK-NEXT:      %[[MIN2:.*]] = arith.select %[[LT]], %[[F]], %[[MIN]] : f32
// CHECK-NEXT:      %[[GT:.*]] = arith.cmpf olt, %[[MAXF]], %[[D:.*]] : f64
// CHECK-NEXT:      %[[MAXF2:.*]] = arith.select %[[GT]], %[[D]], %[[MAXF]] : f64
// CHECK-NEXT:      %[[AND2:.*]] = arith.andi %[[AND]], %[[Y:.*]] : i64
// CHECK-NEXT:      %[[MUL2:.*]] = arith.muli %[[MUL]], %[[Y]] : i64
// CHECK-NEXT:      %[[MAXU2:.*]] = arith.maxui %[[MAXU]], %[[Y]] : i64
// CHECK:           scf.yield %[[MIN2]], %[[MAXF2]], %[[AND2]], %[[MUL2]], %[[MAXU2]]
bsgp.kernel @kinds(%f: f32, %pf: !bsgp.ptr<f32>, %d: f64, %pd: !bsgp.ptr<f64>,
                   %y: i64, %py: !bsgp.ptr<i64>) {
  bsgp.chunk_reduce "minf" %f, %pf : !bsgp.ptr<f32>
  bsgp.chunk_reduce "maxf" %d, %pd : !bsgp.ptr<f64>
  bsgp.chunk_reduce "and" %y, %py : !bsgp.ptr<i64>
  bsgp.chunk_reduce "mul" %y, %py : !bsgp.ptr<i64>
  bsgp.chunk_reduce "maxu" %y, %py : !bsgp.ptr<i64>
  bsgp.return
}

// A kernel whose ranks may end early: the accumulation in the entry block
// ran before any exit, so every block ending the rank's work passes the
// accumulator on.
// CHECK-LABEL: llvm.func internal @early__cpu(
// CHECK:         scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f64)
// CHECK-NEXT:      scf.execute_region -> f64 {
// CHECK:             %[[NEXT:.*]] = arith.addf %[[ACC]], %{{.*}} : f64
// CHECK:             cf.cond_br %{{.*}}, ^[[RET:.*]], ^[[BODY:.*]]
// CHECK:           ^[[RET]]:
// CHECK-NEXT:        scf.yield %[[NEXT]] : f64
// CHECK:           ^[[BODY]]:
// CHECK:             bsgp.ptr.store %[[ACC]]
// CHECK-NEXT:        scf.yield %[[NEXT]] : f64
bsgp.kernel @early(%x: f64, %p: !bsgp.ptr<f64>, %o: !bsgp.ptr<f64>,
                   %limit: i32) {
  %r = bsgp.thread_rank : i32
  %s = bsgp.chunk_scan "add" %x, %p : !bsgp.ptr<f64>
  %c = arith.cmpi sge, %r, %limit : i32
  cf.cond_br %c, ^ret, ^body
^ret:
  bsgp.return
^body:
  bsgp.ptr.store %s, %o[%r] : !bsgp.ptr<f64>, i32
  bsgp.return
}

// Under a branch on the target alone, the op is at the top level once the
// query is folded.
// CHECK-LABEL: llvm.func internal @branch__cpu(
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i32)
// CHECK-NOT:     bsgp.chunk_reduce
// CHECK:         llvm.return
bsgp.kernel @branch(%x: i32, %p: !bsgp.ptr<i32>) {
  %cpu = bsgp.target_is "cpu" : i1
  scf.if %cpu {
    bsgp.chunk_reduce "or" %x, %p : !bsgp.ptr<i32>
  }
  bsgp.return
}

// A kernel without chunk ops asks the runtime for nothing.
// CHECK-LABEL: llvm.func internal @plain__cpu(
// CHECK-NOT:     bsgprt_cpu_chunk_index
// CHECK:         scf.for %{{.*}} : i32 {
bsgp.kernel @plain(%p: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}

// A float sum is a tree, not a sequence: the chunk's ranks run in blocks of
// 256 from an outer loop that carries the other accumulators; each block
// sums from the identity with a reassociable addf (vectorized), and the
// block's sum joins a stack of 32 partial sums (while the block index's low
// bit is set, it adds the level's sum and moves up a level). After the
// blocks, the levels whose bit is set in the block count add up to the
// chunk's total.
// CHECK-LABEL: llvm.func internal @tree__cpu(
// CHECK-SAME:    %{{.*}}: !llvm.ptr, %[[BEGIN:.*]]: i64, %[[END:.*]]: i64, %{{.*}}: i64)
// CHECK:         %[[LEVELS:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-NEXT:    %[[SLOT:.*]] = llvm.alloca %[[LEVELS]] x f32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[STACK:.*]] = builtin.unrealized_conversion_cast %[[SLOT]] : !llvm.ptr to !bsgp.ptr<f32>
// CHECK:         %[[IN:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !bsgp.ptr<f32>
// CHECK:         %[[PART:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !bsgp.ptr<f32>
// CHECK:         %[[IPART:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !bsgp.ptr<i32>
// CHECK:         %[[B:.*]] = arith.trunci %[[BEGIN]] : i64 to i32
// CHECK-NEXT:    %[[E:.*]] = arith.trunci %[[END]] : i64 to i32
// CHECK:         %[[CHUNK:.*]] = llvm.call @bsgprt_cpu_chunk_index() : () -> i64
// CHECK-NEXT:    %[[NONEMPTY:.*]] = arith.cmpi ult
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[SMIN:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:    %[[BLOCK:.*]] = arith.constant 256 : i32
// CHECK-NEXT:    %[[OUTER:.*]]:2 = scf.for %[[FIRST:.*]] = %[[B]] to %[[E]] step %[[BLOCK]] iter_args(%[[UNUSED:.*]] = %[[ZERO]], %[[MAX:.*]] = %[[SMIN]]) -> (f32, i32) : i32 {
// CHECK-NEXT:      %[[LEFT:.*]] = arith.subi %[[E]], %[[FIRST]] : i32
// CHECK-NEXT:      %[[LEN:.*]] = arith.minsi %[[LEFT]], %[[BLOCK]] : i32
// CHECK-NEXT:      %[[LAST:.*]] = arith.addi %[[FIRST]], %[[LEN]] : i32
// CHECK-NEXT:      %[[INNER:.*]]:2 = scf.for %[[R:.*]] = %[[FIRST]] to %[[LAST]] step %{{.*}} iter_args(%[[SUM:.*]] = %[[ZERO]], %[[MAX2:.*]] = %[[MAX]]) -> (f32, i32) : i32 {
// CHECK:             %[[X:.*]] = bsgp.ptr.load %[[IN]][%[[R]]]
// CHECK-NEXT:        %[[SUM2:.*]] = arith.addf %[[SUM]], %[[X]] fastmath<reassoc> : f32
// CHECK-NEXT:        %[[MAX3:.*]] = arith.maxsi %[[MAX2]], %[[R]] : i32
// CHECK-NEXT:        scf.yield %[[SUM2]], %[[MAX3]] : f32, i32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:      %[[OFF:.*]] = arith.subi %[[FIRST]], %[[B]] : i32
// CHECK-NEXT:      %[[INDEX:.*]] = arith.divui %[[OFF]], %[[BLOCK]] : i32
// CHECK:           %[[CARRY:.*]]:3 = scf.while (%[[K:.*]] = %[[INDEX]], %[[LVL:.*]] = %{{.*}}, %[[S:.*]] = %[[INNER]]#0) : (i32, i32, f32) -> (i32, i32, f32) {
// CHECK-NEXT:        %[[LOW:.*]] = arith.andi %[[K]], %{{.*}} : i32
// CHECK-NEXT:        %[[ODD:.*]] = arith.cmpi ne, %[[LOW]], %{{.*}} : i32
// CHECK-NEXT:        scf.condition(%[[ODD]])
// CHECK-NEXT:      } do {
// CHECK-NEXT:      ^bb0(%[[K2:.*]]: i32, %[[LVL2:.*]]: i32, %[[S2:.*]]: f32):
// CHECK-NEXT:        %[[BELOW:.*]] = bsgp.ptr.load %[[STACK]][%[[LVL2]]]
// CHECK-NEXT:        %[[MERGED:.*]] = arith.addf %[[BELOW]], %[[S2]] : f32
// CHECK-NEXT:        %[[K3:.*]] = arith.shrui %[[K2]], %{{.*}} : i32
// CHECK-NEXT:        %[[LVL3:.*]] = arith.addi %[[LVL2]], %{{.*}} : i32
// CHECK-NEXT:        scf.yield %[[K3]], %[[LVL3]], %[[MERGED]]
// CHECK-NEXT:      }
// CHECK-NEXT:      bsgp.ptr.store %[[CARRY]]#2, %[[STACK]][%[[CARRY]]#1]
// CHECK-NEXT:      scf.yield %[[UNUSED]], %[[INNER]]#1 : f32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[SPAN:.*]] = arith.subi %[[E]], %[[B]] : i32
// CHECK-NEXT:    %[[WHOLE:.*]] = arith.divui %[[SPAN]], %[[BLOCK]] : i32
// CHECK-NEXT:    %[[REST:.*]] = arith.remui %[[SPAN]], %[[BLOCK]] : i32
// CHECK:         %[[BLOCKS:.*]] = arith.addi %[[WHOLE]], %{{.*}} : i32
// CHECK:         %[[TOTAL:.*]] = scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) : i32 {
// CHECK-NEXT:      %[[SH:.*]] = arith.shrui %[[BLOCKS]], %[[L]] : i32
// CHECK-NEXT:      %[[BIT:.*]] = arith.andi %[[SH]], %{{.*}} : i32
// CHECK-NEXT:      %[[SET:.*]] = arith.cmpi ne, %[[BIT]], %{{.*}} : i32
// CHECK-NEXT:      %[[ADDED:.*]] = scf.if %[[SET]] -> (f32) {
// CHECK-NEXT:        %[[LV:.*]] = bsgp.ptr.load %[[STACK]][%[[L]]]
// CHECK-NEXT:        %[[ACC2:.*]] = arith.addf %[[LV]], %[[ACC]] : f32
// CHECK-NEXT:        scf.yield %[[ACC2]] : f32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[ACC]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[ADDED]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %[[NONEMPTY]] {
// CHECK-NEXT:      bsgp.ptr.store %[[TOTAL]], %[[PART]][%[[CHUNK]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %[[NONEMPTY]] {
// CHECK-NEXT:      bsgp.ptr.store %[[OUTER]]#1, %[[IPART]][%[[CHUNK]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.return
bsgp.kernel @tree(%in: !bsgp.ptr<f32>, %part: !bsgp.ptr<f32>,
                  %ip: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  %x = bsgp.ptr.load %in[%r] : !bsgp.ptr<f32>, i32
  bsgp.chunk_reduce "add" %x, %part : !bsgp.ptr<f32>
  bsgp.chunk_reduce "maxs" %r, %ip : !bsgp.ptr<i32>
  bsgp.return
}

// The runtime's function, declared once.
// CHECK:       llvm.func @bsgprt_cpu_chunk_index() -> i64
// CHECK-NOT:   llvm.func @bsgprt_cpu_chunk_index
