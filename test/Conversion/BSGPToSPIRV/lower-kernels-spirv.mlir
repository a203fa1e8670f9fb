// RUN: bsgp-opt %s --bsgp-lower-kernels-spirv | FileCheck %s

// The SPIR-V lowering on its own, as bsgp-opt runs it: a module with no
// func op must still lower (the pass builds the kernels as func.func before
// converting them, so it loads the func dialect itself). The binary goes to
// the module's bsgp.spirv attribute and the kernel stays for other targets.

// CHECK: module attributes {bsgp.spirv = "
// CHECK: bsgp.kernel @store_rank(
bsgp.kernel @store_rank(%p: !bsgp.ptr<i32>) {
  %r = bsgp.thread_rank : i32
  bsgp.ptr.store %r, %p[%r] : !bsgp.ptr<i32>, i32
  bsgp.return
}
