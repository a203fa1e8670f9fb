// RUN: bsgp-opt %s --bsgp-resolve-target-queries="targets=cpu" | FileCheck %s --check-prefix=CPU
// RUN: bsgp-opt %s --bsgp-resolve-target-queries="targets=cuda" | FileCheck %s --check-prefix=CUDA
// RUN: bsgp-opt %s --bsgp-resolve-target-queries="targets=cpu,cuda" | FileCheck %s --check-prefix=FAT
// RUN: bsgp-opt %s --bsgp-resolve-target-queries="targets=cuda,spirv" | FileCheck %s --check-prefix=GPUS

// Host code: a constant with one target; with several, a comparison of
// bsgprt_target() with BSGPRT_TARGET_CPU (1), _CUDA (2) or _VULKAN (3), and
// false for a target the object does not carry. Kernels are left to the
// kernel lowerings; device functions too when the CPU kernels share them.

// CPU-LABEL: func.func @host
// CPU-DAG:     %[[T:.*]] = arith.constant true
// CPU-DAG:     %[[F:.*]] = arith.constant false
// CPU:         return %[[T]], %[[F]], %[[F]]
// CUDA-LABEL: func.func @host
// CUDA-DAG:    %[[T:.*]] = arith.constant true
// CUDA-DAG:    %[[F:.*]] = arith.constant false
// CUDA:        return %[[F]], %[[T]], %[[F]]
// FAT-LABEL:  func.func @host
// FAT:          %[[R1:.*]] = call @bsgprt_target() : () -> i32
// FAT:          %[[C1:.*]] = arith.constant 1 : i32
// FAT:          %[[Q1:.*]] = arith.cmpi eq, %[[R1]], %[[C1]] : i32
// FAT:          %[[R2:.*]] = call @bsgprt_target() : () -> i32
// FAT:          %[[C2:.*]] = arith.constant 2 : i32
// FAT:          %[[Q2:.*]] = arith.cmpi eq, %[[R2]], %[[C2]] : i32
// FAT:          %[[F:.*]] = arith.constant false
// FAT:          return %[[Q1]], %[[Q2]], %[[F]]
// GPUS-LABEL: func.func @host
// GPUS:         arith.constant false
// GPUS:         call @bsgprt_target()
// GPUS:         arith.constant 2 : i32
// GPUS:         call @bsgprt_target()
// GPUS:         arith.constant 3 : i32
func.func @host() -> (i1, i1, i1) {
  %a = bsgp.target_is "cpu" : i1
  %b = bsgp.target_is "cuda" : i1
  %c = bsgp.target_is "spirv" : i1
  return %a, %b, %c : i1, i1, i1
}

// CPU-LABEL: func.func @dev
// CPU:         bsgp.target_is "cpu"
// CUDA-LABEL: func.func @dev
// CUDA:        arith.constant false
// CUDA-NOT:    bsgp.target_is
// FAT-LABEL:  func.func @dev
// FAT:          bsgp.target_is "cpu"
// GPUS-LABEL: func.func @dev
// GPUS:         call @bsgprt_target()
func.func @dev() -> i1 attributes {bsgp.device} {
  %a = bsgp.target_is "cpu" : i1
  %b = bsgp.target_is "cuda" : i1
  %c = arith.ori %a, %b : i1
  return %c : i1
}

// CPU-LABEL: bsgp.kernel @k
// CPU:         bsgp.target_is "spirv"
// CUDA-LABEL: bsgp.kernel @k
// CUDA:        bsgp.target_is "spirv"
bsgp.kernel @k(%p: !bsgp.ptr<i1>) {
  %a = bsgp.target_is "spirv" : i1
  %z = arith.constant 0 : i32
  bsgp.ptr.store %a, %p[%z] : !bsgp.ptr<i1>, i32
  bsgp.return
}

// group.size in host code: the target's work-group size (1 on the CPU, 256
// on the GPUs); in a fat object whose targets differ, a select on
// bsgprt_target(); in a copy for one target, that target's.
// CPU-LABEL: func.func @sizes
// CPU:         %[[S:.*]] = arith.constant 1 : i32
// CPU:         return %[[S]]
// CUDA-LABEL: func.func @sizes
// CUDA:        %[[S:.*]] = arith.constant 256 : i32
// CUDA:        return %[[S]]
// FAT-LABEL:  func.func @sizes
// FAT-DAG:      %[[GPU:.*]] = arith.constant 256 : i32
// FAT-DAG:      %[[R:.*]] = call @bsgprt_target() : () -> i32
// FAT-DAG:      %[[ID:.*]] = arith.constant 1 : i32
// FAT:          %[[IS:.*]] = arith.cmpi eq, %[[R]], %[[ID]] : i32
// FAT:          %[[ONE:.*]] = arith.constant 1 : i32
// FAT:          %[[S:.*]] = arith.select %[[IS]], %[[ONE]], %[[GPU]] : i32
// FAT:          return %[[S]]
// GPUS-LABEL: func.func @sizes
// GPUS-NOT:     call
// GPUS:         %[[S:.*]] = arith.constant 256 : i32
// GPUS:         return %[[S]]
func.func @sizes() -> i32 {
  %g = bsgp.group_size : i32
  return %g : i32
}

// CPU-LABEL: func.func private @sizes__cuda
// CPU:         arith.constant 256 : i32
// CPU-NOT:     call
// FAT-LABEL:  func.func private @sizes__cuda
// FAT-NOT:      call
// FAT:          arith.constant 256 : i32
func.func private @sizes__cuda() -> i32 attributes {bsgp.target = "cuda"} {
  %g = bsgp.group_size : i32
  return %g : i32
}

// FAT: func.func private @bsgprt_target() -> i32
