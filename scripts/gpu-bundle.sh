#!/usr/bin/env bash
#===- gpu-bundle.sh - build programs here, run them on a GPU machine ------===#
#
# Usage: scripts/gpu-bundle.sh <outdir>
#
# The GPU machine has the NVIDIA driver but no LLVM, so everything is built
# here: the examples and the execution tests' programs with
# --target=cpu,cuda, the CUDA benchmark (bench/cuda), and libbsgprt with its
# OpenMP. For each program the bundle records the output of a CPU run made
# here; <outdir>/run.sh, run on the GPU machine, runs every program on the
# GPU and checks that it prints exactly what it printed on the CPU, then
# runs the benchmark.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}
OUT=${1:?usage: gpu-bundle.sh <outdir>}
mkdir -p "$OUT/expected"
"$ROOT/scripts/build.sh" bsgpc bsgprt_shared >/dev/null
BSGPC=("$BUILD/bin/bsgpc" --target=cpu,cuda -O2 -Wl,-rpath,'$ORIGIN')

programs=()
build() { # name sources...
  local name=$1
  shift
  "${BSGPC[@]}" "$@" -o "$OUT/$name"
  BSGP_DEVICE=cpu "$OUT/$name" > "$OUT/expected/$name.txt"
  programs+=("$name")
}
for e in saxpy sgemv stencil mandelbrot poly3 find-faces memory-test par-sort; do
  build "$e" "$ROOT/examples/$e.bsgp"
done
build listing5 "$ROOT/examples/paper/listing5-memory-test.bsgp" \
  "$ROOT/test/Execution/examples/Inputs/listing5-main.cpp"
for t in find-faces get-numbers par-sort-idx reduce-scan thread-manipulation; do
  main=("$ROOT"/test/Execution/Inputs/$t-main.cpp)
  [ -f "${main[0]}" ] || main=()
  build "$t" "$ROOT/test/Execution/$t.bsgp" "${main[@]}"
done
for t in control-flow spawn-results math local-arrays; do
  build "$t" "$ROOT/test/Execution/language/Inputs/$t.bsgp"
done

"$ROOT/bench/cuda/build.sh" "$OUT" >/dev/null
rm -f "$OUT"/*.o

cat > "$OUT/run.sh" <<RUN
#!/usr/bin/env bash
# Runs every program on the GPU and compares with its CPU output.
cd "\$(dirname "\$0")"
export LD_LIBRARY_PATH=\$PWD
failed=0
for p in ${programs[*]}; do
  if BSGP_DEVICE=cuda ./\$p > \$p.gpu.txt 2>&1 && cmp -s \$p.gpu.txt expected/\$p.txt; then
    echo "PASS \$p"
  else
    echo "FAIL \$p"; diff expected/\$p.txt \$p.gpu.txt | head -5; failed=1
  fi
done
./bench_cuda "\${1:-1}"
exit \$failed
RUN
chmod +x "$OUT/run.sh"
