#!/usr/bin/env bash
#===- gpu-bundle.sh - build programs here, run them on a GPU machine ------===#
#
# Usage: scripts/gpu-bundle.sh <outdir>
#
# The GPU machine has the NVIDIA driver but no LLVM, so everything is built
# here: the examples and the execution tests' programs with
# --target=cpu,cuda,spirv, the CUDA benchmarks
# (bench/cuda), and libbsgprt with its OpenMP. For each program the bundle
# records the output of a CPU run made here; <outdir>/run.sh, run on the GPU
# machine, runs every program on each backend named in $BACKENDS (default
# "cuda"; "cuda vulkan" needs a Vulkan loader there) and checks that it
# prints exactly what it printed on the CPU, then runs the benchmarks (with
# vulkan in $BACKENDS, also SAXPY and the stencil on both GPU backends).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}
OUT=${1:?usage: gpu-bundle.sh <outdir>}
mkdir -p "$OUT/expected"
"$ROOT/scripts/build.sh" bsgpc bsgprt_shared >/dev/null
BSGPC=("$BUILD/bin/bsgpc" -O2 -Wl,-rpath,'$ORIGIN')

programs=()
build() { # targets name sources...
  local targets=$1 name=$2
  shift 2
  "${BSGPC[@]}" --target="$targets" "$@" -o "$OUT/$name"
  BSGP_DEVICE=cpu "$OUT/$name" > "$OUT/expected/$name.txt"
  programs+=("$name:$targets")
}
ALL=cpu,cuda,spirv
for e in saxpy sgemv sgemv-subgroup stencil mandelbrot poly3 find-faces memory-test par-sort \
    jacobi kmeans; do
  build $ALL "$e" "$ROOT/examples/$e.bsgp"
done
build $ALL listing5 "$ROOT/examples/paper/listing5-memory-test.bsgp" \
  "$ROOT/test/Execution/examples/Inputs/listing5-main.cpp"
APP="$ROOT/examples/apps/particles"
build $ALL particles "$APP/particles.bsgp" "$APP/main.cpp" "$APP/render.cpp"
for t in find-faces get-numbers par-sort-idx reduce-scan thread-manipulation sort-keys large-lists \
    reload-after-barrier uniform-flow fork-double-save rank-flow-loops segmented \
    spawn-domains; do
  main=("$ROOT"/test/Execution/Inputs/$t-main.cpp)
  [ -f "${main[0]}" ] || main=()
  build $ALL "$t" "$ROOT/test/Execution/$t.bsgp" "${main[@]}"
done
for t in control-flow spawn-results math local-arrays atomics-barrier \
    constants struct-fields struct-values-step struct-values-barrier \
    struct-values-init void-main wide-division global-variables unsized-arrays \
    struct-array-fields scalar-compound-literals; do
  build $ALL "$t" "$ROOT/test/Execution/language/Inputs/$t.bsgp"
done
build $ALL atomics "$ROOT/test/Execution/language/Inputs/atomics.bsgp" \
  "$ROOT/test/Execution/language/Inputs/atomics-main.cpp"
build $ALL min-max "$ROOT/test/Execution/language/Inputs/min-max.bsgp" \
  "$ROOT/test/Execution/language/Inputs/min-max-main.cpp"
for t in group-ops group-uniform generic-values wide-multiply reduce-total-on-device \
    reduce-last-group \
    address-of-locals struct-initializers c-program narrow-integers \
    get-in-memory; do
  build $ALL "$t" "$ROOT/test/Execution/language/Inputs/$t.bsgp"
done
# A fork past INT32_MAX children is an error at its line on every backend
# (CUDA's single-pass fork finds it in the caller's superstep, the scans of
# 5000 counts in their last pass): the messages and statuses compared.
"${BSGPC[@]}" --target=$ALL "$ROOT/test/Execution/language/Inputs/fork-total.bsgp" \
  -o "$OUT/fork-total-errors"
cat > "$OUT/fork-total" <<'EOF'
#!/bin/sh
d=$(dirname "$0")
for mode in two wrap many lots; do
  "$d/fork-total-errors" $mode 2>&1
  echo "status $?"
done
EOF
chmod +x "$OUT/fork-total"
BSGP_DEVICE=cpu "$OUT/fork-total" > "$OUT/expected/fork-total.txt"
programs+=("fork-total:$ALL")
# The spirv target compiles no private array of structs and passes no
# address of a local to a function.
for t in address-of-device struct-field-barrier struct-array-init-device; do
  build cpu,cuda "$t" "$ROOT/test/Execution/language/Inputs/$t.bsgp"
done
# The math functions against the host's C library, within each backend's
# bounds: the errors differ by backend, so the comparison is of the
# verdicts (the programs print the errors too: run them alone to see).
for t in float-math double-math; do
  build $ALL "$t" "$ROOT/test/Execution/language/Inputs/$t.bsgp"
  mv "$OUT/$t" "$OUT/$t-errors"
  printf '#!/bin/sh\n"$(dirname "$0")/%s-errors" | grep -E "FAILED|functions failed"\n' "$t" > "$OUT/$t"
  chmod +x "$OUT/$t"
  BSGP_DEVICE=cpu "$OUT/$t" > "$OUT/expected/$t.txt"
done
# The threads' printf lines come in any order: compared sorted.
build $ALL device-printf "$ROOT/test/Execution/language/Inputs/device-printf.bsgp"
LC_ALL=C sort -o "$OUT/expected/device-printf.txt" "$OUT/expected/device-printf.txt"
programs[-1]+=":sort"
# The adaptive tessellation app: its self-check, and a 512x512 map at high
# detail (about a million triangles per camera) through a wrapper script.
build $ALL tessellation "$ROOT/examples/apps/tessellation/tessellation.bsgp" \
  "$ROOT/examples/apps/tessellation/main.cpp"
printf '#!/bin/sh\nexec "$(dirname "$0")/tessellation" --size 512 --grid 8 --max-level 16 --detail 96 --cameras 5\n' \
  > "$OUT/tessellation-large"
chmod +x "$OUT/tessellation-large"
BSGP_DEVICE=cpu "$OUT/tessellation-large" > "$OUT/expected/tessellation-large.txt"
programs+=("tessellation-large:$ALL")
# The X3D parser app: its self-check on the hand-written scenes (copied
# beside it) and a generated one, compared with pugixml where installed.
APP="$ROOT/examples/apps/x3d"
PUGI=()
[ -f /usr/include/pugixml.hpp ] && PUGI=(-lpugixml)
mkdir -p "$OUT/x3d-tests"
cp "$APP"/tests/*.x3d "$OUT/x3d-tests/"
"${BSGPC[@]}" --target=$ALL "$APP"/*.bsgp "$APP"/*.cpp "${PUGI[@]}" -o "$OUT/x3d"
pugi=$(ldd "$OUT/x3d" | awk '/libpugixml/ {print $3}')
[ -n "$pugi" ] && cp -L "$pugi" "$OUT/"
printf '#!/bin/sh\nd=$(dirname "$0")\nexec "$d/x3d" --tests "$d/x3d-tests"\n' \
  > "$OUT/x3d-check"
chmod +x "$OUT/x3d-check"
BSGP_DEVICE=cpu "$OUT/x3d-check" > "$OUT/expected/x3d-check.txt"
programs+=("x3d-check:$ALL")
# The kd-tree ray tracer app: its self-check (a 96x96 picture checked
# against the brute-force renderer on each backend).
APP="$ROOT/examples/apps/raytracer"
build $ALL raytracer "$APP/raytracer.bsgp" "$APP/main.cpp" "$APP/kdtree.cpp" \
  "$APP/scene.cpp" "$APP/reference.cpp"

"$ROOT/bench/cuda/build.sh" "$OUT" >/dev/null
rm -f "$OUT"/*.o

cat > "$OUT/run.sh" <<RUN
#!/usr/bin/env bash
# Runs every program on each backend of \$BACKENDS and compares with its
# CPU output; then the benchmarks (scale \$1, default 1).
cd "\$(dirname "\$0")"
set -o pipefail
export LD_LIBRARY_PATH=\$PWD
failed=0
for entry in ${programs[*]}; do
  p=\${entry%%:*} targets=\${entry#*:} order=cat
  [[ \$targets == *:sort ]] && order="env LC_ALL=C sort"
  for b in \${BACKENDS:-cuda}; do
    [ \$b = vulkan ] && [[ \$targets != *spirv* ]] && continue
    if BSGP_DEVICE=\$b ./\$p 2>&1 | \$order > \$p.\$b.txt &&
       cmp -s \$p.\$b.txt expected/\$p.txt; then
      echo "PASS \$p (\$b)"
    else
      echo "FAIL \$p (\$b)"; diff expected/\$p.txt \$p.\$b.txt | head -5; failed=1
    fi
  done
done
# The collectives on lists of 10^8 elements, checked against std::.
for b in \${BACKENDS:-cuda}; do
  if BSGP_DEVICE=\$b ./large-lists 100000000 > large-lists-1e8.\$b.txt 2>&1 &&
     grep -q "large lists: 0 failures" large-lists-1e8.\$b.txt; then
    echo "PASS large-lists n=10^8 (\$b)"
  else
    echo "FAIL large-lists n=10^8 (\$b)"; tail -5 large-lists-1e8.\$b.txt; failed=1
  fi
done
./bench_cuda "\${1:-1}"
./bench_collectives "\${1:-1}"
./bench_segmented "\${1:-1}"
./bench_uniform_loop
./bench_supersteps
# The same loops with the BSGP side on the cpu backend (against OpenMP),
# the CPU kernels against OpenMP, and the uniform loop on the vulkan
# backend (against the same CUDA programs; bench_supersteps hands BSGP
# CUDA allocations, so it runs on cuda only).
BSGP_DEVICE=cpu ./bench_supersteps_cpu
BSGP_DEVICE=cpu ./bench_cpu "\${1:-1}"
case " \${BACKENDS:-cuda} " in *" vulkan "*)
  BSGP_DEVICE=vulkan ./bench_uniform_loop ;;
esac
./bench_particles
./bench_tessellation
BSGP_DEVICE=cuda ./x3d --bench
./bench_raytracer
case " \${BACKENDS:-cuda} " in *" vulkan "*) ./bench_backends "\${1:-1}" ;; esac
exit \$failed
RUN
chmod +x "$OUT/run.sh"
