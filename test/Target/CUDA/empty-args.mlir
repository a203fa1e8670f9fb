// RUN: bsgp-opt %s --bsgp-lower-kernels-nvvm --bsgp-convert-to-nvvm --bsgp-serialize-ptx | FileCheck %s
// RUN: bsgp-opt %s --bsgp-lower-kernels-nvvm --bsgp-convert-to-nvvm --bsgp-serialize-ptx | grep -o 'bsgp.ptx = ".*"' \
// RUN:   | sed -e 's/^bsgp.ptx = "//' -e 's/"$//' -e 's/\\0A/\n/g' -e 's/\\09/\t/g' > %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// A kernel that captures nothing (a superstep whose work LLVM removed, as a
// generated program once had) still declares a one-byte argument struct:
// ptxas rejects `.param .b8 args[0]` before the size parameter.

// CHECK: module attributes {bsgp.ptx = "{{.*}}.entry no_args({{.*}}.param .align 8 .b8 no_args_param_0[1],{{.*}}.param .u64 no_args_param_1
bsgp.kernel @no_args() {
  bsgp.return
}
