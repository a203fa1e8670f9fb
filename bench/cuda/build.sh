#!/usr/bin/env bash
#===- build.sh - build the CUDA benchmark for a GPU machine ---------------===#
#
# Usage: bench/cuda/build.sh <outdir>
# Compiles bench/cpu/kernels.bsgp with bsgpc --target=cpu,cuda and
# bench_cuda.cu with nvcc -O3, and puts the program, libbsgprt and libomp in
# <outdir>, which can be copied to a machine with an NVIDIA GPU and no LLVM.
# Run it there as: LD_LIBRARY_PATH=<outdir> <outdir>/bench_cuda [scale]
# bench_cuda links cuBLAS from the toolkit (too large to copy): its rpath
# names the toolkit's lib64, which the GPU machine must have at the same path.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}
OUT=${1:?usage: build.sh <outdir>}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CUDA_LIB=$(cd "$(dirname "$NVCC")/.." && pwd)/lib64
mkdir -p "$OUT"
"$ROOT/scripts/build.sh" bsgpc bsgprt_shared >/dev/null
"$BUILD/bin/bsgpc" -O3 --target=cpu,cuda -c "$ROOT/bench/cpu/kernels.bsgp" \
  -o "$OUT/kernels.o"
"$NVCC" -O3 -arch=sm_90 -I"$BUILD/include" -c "$ROOT/bench/cuda/bench_cuda.cu" \
  -o "$OUT/bench_cuda.o"
"$NVCC" -arch=sm_90 "$OUT/bench_cuda.o" "$OUT/kernels.o" -L"$BUILD/lib" \
  -lbsgprt -lcublas -Xlinker -rpath,'$ORIGIN' -Xlinker -rpath,"$CUDA_LIB" \
  -o "$OUT/bench_cuda"
# bench/cuda/NAME.bsgp and its competitor bench_NAME.cu, as bench_NAME.
# With a second argument, also for SPIR-V, so that BSGP_DEVICE=vulkan runs
# the BSGP side on the vulkan backend of the same GPU.
bsgp_bench() {
  "$BUILD/bin/bsgpc" -O3 --target=cpu,cuda${2:+,spirv} \
    -c "$ROOT/bench/cuda/$1.bsgp" -o "$OUT/$1.o"
  "$NVCC" -O3 -arch=sm_90 -I"$BUILD/include" -I"$ROOT/runtime/include" \
    -c "$ROOT/bench/cuda/bench_$1.cu" -o "$OUT/bench_$1.o"
  "$NVCC" -arch=sm_90 "$OUT/bench_$1.o" "$OUT/$1.o" -L"$BUILD/lib" -lbsgprt \
    -Xlinker -rpath,'$ORIGIN' -o "$OUT/bench_$1"
}
# The collectives against CUB.
bsgp_bench collectives
# segscan and segreduce against CUB's by-key scan and reduce.
bsgp_bench segmented
# Loops of supersteps in one spawn against CUDA host loops, graphs and a
# cooperative kernel.
bsgp_bench uniform_loop spirv
# Programs of many small supersteps (wavefront, BFS, pathfinder, backprop)
# against their hand-written CUDA.
bsgp_bench supersteps
# The same two programs on the cpu backend against OpenMP versions.
"$BUILD/bin/bsgpc" -O3 --target=cpu -c "$ROOT/bench/cuda/uniform_loop.bsgp" \
  -o "$OUT/uniform_loop-cpu.o"
"$BUILD/bin/bsgpc" -O3 --target=cpu -c "$ROOT/bench/cuda/supersteps.bsgp" \
  -o "$OUT/supersteps-cpu.o"
clang++-22 -O3 -fopenmp -std=c++17 -I"$ROOT/runtime/include" \
  "$ROOT/bench/cpu/bench_supersteps_cpu.cpp" "$OUT/uniform_loop-cpu.o" \
  "$OUT/supersteps-cpu.o" -L"$BUILD/lib" -lbsgprt -Wl,-rpath,'$ORIGIN' \
  -o "$OUT/bench_supersteps_cpu"
# The CPU kernels against OpenMP (bench/cpu/run.sh), for the GPU machine's
# cores.
clang++-22 -O3 -fopenmp -std=c++17 -Wno-deprecated-declarations \
  -I"$ROOT/runtime/include" -c "$ROOT/bench/cpu/bench_cpu.cpp" \
  -o "$OUT/bench_cpu.o"
"$BUILD/bin/bsgpc" -O3 --target=cpu -c "$ROOT/bench/cpu/kernels.bsgp" \
  -o "$OUT/kernels-cpu.o"
"$BUILD/bin/bsgpc" -O3 --target=cpu -c "$ROOT/bench/cuda/collectives.bsgp" \
  -o "$OUT/collectives-cpu.o"
clang++-22 "$OUT/bench_cpu.o" "$OUT/kernels-cpu.o" "$OUT/collectives-cpu.o" \
  -fopenmp -L"$BUILD/lib" -lbsgprt -Wl,-rpath,'$ORIGIN' -o "$OUT/bench_cpu"
# The particle fluid (examples/apps/particles) against its CUDA twin; the
# twin without FMA contraction, so that both round alike (bench_particles.cu).
APP="$ROOT/examples/apps/particles"
"$BUILD/bin/bsgpc" -O3 --target=cpu,cuda -c "$APP/particles.bsgp" \
  -o "$OUT/particles.o"
"$NVCC" -O3 -arch=sm_90 -fmad=false -I"$APP" -c \
  "$ROOT/bench/cuda/particles_twin.cu" -o "$OUT/particles_twin.o"
"$NVCC" -O3 -arch=sm_90 -I"$BUILD/include" -I"$ROOT/runtime/include" -I"$APP" \
  -c "$ROOT/bench/cuda/bench_particles.cu" -o "$OUT/bench_particles.o"
"$NVCC" -arch=sm_90 "$OUT/bench_particles.o" "$OUT/particles_twin.o" \
  "$OUT/particles.o" -L"$BUILD/lib" -lbsgprt -Xlinker -rpath,'$ORIGIN' \
  -o "$OUT/bench_particles"
# The same kernels on the cuda and the vulkan backend (no nvcc: the program
# only talks to libbsgprt).
"$BUILD/bin/bsgpc" -O3 --target=cpu,cuda,spirv -c "$ROOT/bench/cpu/kernels.bsgp" \
  -o "$OUT/kernels-all.o"
"$BUILD/bin/bsgpc" -O3 --target=cpu,cuda,spirv -c "$ROOT/bench/cuda/supersteps.bsgp" \
  -o "$OUT/supersteps-all.o"
clang++-22 -O2 -std=c++17 -I"$ROOT/runtime/include" \
  "$ROOT/bench/cuda/bench_backends.cpp" "$OUT/kernels-all.o" \
  "$OUT/supersteps-all.o" -L"$BUILD/lib" \
  -lbsgprt -Wl,-rpath,'$ORIGIN' -o "$OUT/bench_backends"
cp -L "$BUILD"/lib/libbsgprt.so* "$OUT/"
cp -L /usr/lib/llvm-22/lib/libomp.so.5 "$OUT/" 2>/dev/null ||
  cp -L /usr/lib/llvm-22/lib/libomp.so "$OUT/libomp.so.5"
# The adaptive tessellation app (examples/apps/tessellation), both BSGP
# versions, against its CUDA twin.
"$BUILD/bin/bsgpc" -O3 --target=cpu,cuda \
  -c "$ROOT/examples/apps/tessellation/tessellation.bsgp" \
  -o "$OUT/tessellation-kernels.o"
"$NVCC" -O3 -arch=sm_90 -I"$BUILD/include" -I"$ROOT/runtime/include" \
  -c "$ROOT/bench/cuda/bench_tessellation.cu" -o "$OUT/bench_tessellation.o"
"$NVCC" -arch=sm_90 "$OUT/bench_tessellation.o" "$OUT/tessellation-kernels.o" \
  -L"$BUILD/lib" -lbsgprt -Xlinker -rpath,'$ORIGIN' \
  -o "$OUT/bench_tessellation"
# The kd-tree ray tracer (examples/apps/raytracer) against its CUDA twin,
# on the tree of the app's kdtree.cpp; the twin without FMA contraction, so
# that both round alike (bench_raytracer.cu).
APP="$ROOT/examples/apps/raytracer"
"$BUILD/bin/bsgpc" -O3 --target=cpu,cuda -c "$APP/raytracer.bsgp" \
  -o "$OUT/raytracer-kernels.o"
"$NVCC" -O3 -arch=sm_90 -fmad=false -std=c++17 -I"$APP" -c \
  "$ROOT/bench/cuda/raytracer_twin.cu" -o "$OUT/raytracer_twin.o"
for f in kdtree scene; do
  "$NVCC" -O3 -std=c++17 -I"$APP" -c "$APP/$f.cpp" -o "$OUT/raytracer-$f.o"
done
"$NVCC" -O3 -arch=sm_90 -std=c++17 -I"$BUILD/include" -I"$ROOT/runtime/include" \
  -I"$APP" -c "$ROOT/bench/cuda/bench_raytracer.cu" -o "$OUT/bench_raytracer.o"
"$NVCC" -arch=sm_90 "$OUT/bench_raytracer.o" "$OUT/raytracer_twin.o" \
  "$OUT/raytracer-kdtree.o" "$OUT/raytracer-scene.o" \
  "$OUT/raytracer-kernels.o" -L"$BUILD/lib" -lbsgprt \
  -Xlinker -rpath,'$ORIGIN' -o "$OUT/bench_raytracer"
