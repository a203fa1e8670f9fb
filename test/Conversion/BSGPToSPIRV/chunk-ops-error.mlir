// RUN: bsgp-opt %s --bsgp-lower-kernels-spirv -verify-diagnostics

// Only the CPU runs ranks in chunks; the collective library keeps these ops
// under `if (target.cpu)`, which the SPIR-V lowering folds away. (The module
// has no func op: the pass loads the func dialect itself.)
bsgp.kernel @k(%x: f32, %p: !bsgp.ptr<f32>) {
  %cpu = bsgp.target_is "cpu" : i1
  scf.if %cpu {
    %0 = bsgp.chunk_scan "add" %x, %p : !bsgp.ptr<f32>
  }
  // expected-error @+1 {{'bsgp.chunk_reduce' op accumulates over a chunk of ranks, which only the CPU target has; it cannot be lowered for the SPIR-V target (use it under `if (target.cpu)`)}}
  bsgp.chunk_reduce "add" %x, %p : !bsgp.ptr<f32>
  bsgp.return
}
