#!/usr/bin/env bash
#===- run.sh - build and run the CPU benchmarks ---------------------------===#
#
# Usage: bench/cpu/run.sh [scale]   (scale 1 is the full size; CI-free)
# Builds bsgpc, compiles kernels.bsgp and bench/cuda/collectives.bsgp with
# it (-O3) and bench_cpu.cpp with clang++ -O3 -fopenmp, links them with
# libbsgprt, and runs.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}
"$ROOT/scripts/build.sh" bsgpc bsgprt_shared >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
"$BUILD/bin/bsgpc" -O3 -c "$ROOT/bench/cpu/kernels.bsgp" -o "$OUT/kernels.o"
"$BUILD/bin/bsgpc" -O3 -c "$ROOT/bench/cuda/collectives.bsgp" \
  -o "$OUT/collectives.o"
clang++-22 -O3 -fopenmp -Wno-deprecated-declarations -I"$BUILD/include" -c "$ROOT/bench/cpu/bench_cpu.cpp" \
  -o "$OUT/bench_cpu.o"
clang++-22 "$OUT/kernels.o" "$OUT/collectives.o" "$OUT/bench_cpu.o" -fopenmp -L"$BUILD/lib" -lbsgprt \
  -Wl,-rpath,"$BUILD/lib" -o "$OUT/bench_cpu"
BSGP_DEVICE=cpu "$OUT/bench_cpu" "$@"
# Small supersteps (bench/cuda/uniform_loop.bsgp, supersteps.bsgp) against
# OpenMP versions of the same algorithms.
"$BUILD/bin/bsgpc" -O3 -c "$ROOT/bench/cuda/uniform_loop.bsgp" \
  -o "$OUT/uniform_loop.o"
"$BUILD/bin/bsgpc" -O3 -c "$ROOT/bench/cuda/supersteps.bsgp" \
  -o "$OUT/supersteps.o"
clang++-22 -O3 -fopenmp -I"$BUILD/include" -I"$ROOT/runtime/include" \
  "$ROOT/bench/cpu/bench_supersteps_cpu.cpp" "$OUT/uniform_loop.o" \
  "$OUT/supersteps.o" -L"$BUILD/lib" -lbsgprt -Wl,-rpath,"$BUILD/lib" \
  -o "$OUT/bench_supersteps_cpu"
BSGP_DEVICE=cpu "$OUT/bench_supersteps_cpu" "$@"
