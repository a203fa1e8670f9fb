// RUN: bsgp-opt %s --bsgp-legalize-debug-locations -mlir-print-debuginfo | FileCheck %s

// A global made by an op inlined from the collective library keeps the
// line of the program's call (the outermost caller); ops inside functions
// keep their call sites, which the debug scope pass turns into inlined
// scopes (it crashed on the global before: test/Driver/debug-info.test).

// CHECK-LABEL: llvm.mlir.global internal constant @fmt
// CHECK-SAME: loc([[PROG:#loc[0-9]*]])
// CHECK: llvm.mlir.global internal constant @named
// CHECK-SAME: loc([[NAMED:#loc[0-9]*]])
// CHECK: llvm.func @f
// CHECK: llvm.return loc([[CALL:#loc[0-9]*]])
// CHECK: llvm.mlir.global internal constant @plain
// CHECK-SAME: loc([[LIB:#loc[0-9]*]])
// CHECK-DAG: [[PROG]] = loc("prog.bsgp":3:5)
// CHECK-DAG: [[LIB]] = loc("lib.bsgp":10:2)
// CHECK-DAG: [[NAMED]] = loc("str"([[PROG]]))
// CHECK-DAG: [[CALL]] = loc(callsite(

#prog = loc("prog.bsgp":3:5)
#lib = loc("lib.bsgp":10:2)
#inner = loc("lib.bsgp":20:7)
module {
  llvm.mlir.global internal constant @fmt("x\00") {addr_space = 0 : i32} loc(callsite(#lib at #prog))
  llvm.mlir.global internal constant @named("y\00") {addr_space = 0 : i32} loc("str"(callsite(#inner at callsite(#lib at #prog))))
  llvm.func @f() {
    llvm.return loc(callsite(#lib at #prog))
  } loc(#prog)
  llvm.mlir.global internal constant @plain("z\00") {addr_space = 0 : i32} loc(#lib)
}
