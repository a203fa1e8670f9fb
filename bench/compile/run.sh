#!/usr/bin/env bash
#===- run.sh - compile time of bsgpc against nvcc for the CUDA twins ------===#
#
# Usage: bench/compile/run.sh [reps]
# Times `bsgpc -O3 -c` of each benchmarked BSGP program for the CPU alone,
# for cpu,cuda and for cpu,cuda,spirv, and `nvcc -O3 -arch=sm_90 -c` of the
# hand-written CUDA file that benchmark compares it with (the twin's kernels
# and, as in bench/cuda, its host code). Prints the best of [reps] (default 3)
# processor times of each and the ratio nvcc / bsgpc (cpu,cuda,spirv).
# Needs the CUDA toolkit (NVCC, default /usr/local/cuda/bin/nvcc), no GPU.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
REPS=${1:-3}
"$ROOT/scripts/build.sh" bsgpc bsgprt_shared >/dev/null
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# best <command...>: the least processor seconds (user + system, the
# compiler's own subprocesses included) of REPS runs. Processor time rather
# than wall-clock time, so that other work on a small machine does not
# count; both compilers run single-threaded here.
best() {
  local b=""
  for _ in $(seq "$REPS"); do
    local t
    /usr/bin/time -f '%U %S' -o "$TMP/time" "$@" >/dev/null 2>&1 ||
      { echo "failed: $*" >&2; exit 1; }
    t=$(awk '{print $1 + $2}' "$TMP/time")
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
  done
  printf '%.2f' "$b"
}

INC=(-I"$BUILD/include" -I"$ROOT/runtime/include")
APPS="$ROOT/examples/apps"
printf '| program | lines | bsgpc cpu | cpu,cuda | cpu,cuda,spirv | twin (nvcc -O3) | lines | nvcc | nvcc / bsgpc (all three) |\n'
printf '| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |\n'
# name | BSGP source | CUDA twin | extra nvcc flags
while IFS='|' read -r name src twin flags; do
  [ -n "$name" ] || continue
  src=$ROOT/$src
  twin=$ROOT/$twin
  c1=$(best "$BUILD/bin/bsgpc" -O3 --target=cpu -c "$src" -o "$TMP/a.o")
  c2=$(best "$BUILD/bin/bsgpc" -O3 --target=cpu,cuda -c "$src" -o "$TMP/a.o")
  c3=$(best "$BUILD/bin/bsgpc" -O3 --target=cpu,cuda,spirv -c "$src" -o "$TMP/a.o")
  # shellcheck disable=SC2086
  nv=$(best "$NVCC" -O3 -arch=sm_90 "${INC[@]}" $flags -c "$twin" -o "$TMP/b.o")
  printf '| %s | %d | %s s | %s s | %s s | `%s` | %d | %s s | %.1f |\n' "$name" \
    "$(wc -l <"$src")" "$c1" "$c2" "$c3" "${twin#"$ROOT"/}" "$(wc -l <"$twin")" \
    "$nv" "$(echo "$nv / $c3" | bc -l)"
done <<LIST
SAXPY, SGEMV, stencil, Listing 1|bench/cpu/kernels.bsgp|bench/cuda/bench_cuda.cu|
collectives (CUB)|bench/cuda/collectives.bsgp|bench/cuda/bench_collectives.cu|
uniform loop|bench/cuda/uniform_loop.bsgp|bench/cuda/bench_uniform_loop.cu|
particles|examples/apps/particles/particles.bsgp|bench/cuda/particles_twin.cu|-fmad=false -I$APPS/particles
tessellation|examples/apps/tessellation/tessellation.bsgp|bench/cuda/bench_tessellation.cu|-I$APPS/tessellation
ray tracer|examples/apps/raytracer/raytracer.bsgp|bench/cuda/raytracer_twin.cu|-I$APPS/raytracer
LIST
