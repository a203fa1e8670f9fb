#!/usr/bin/env bash
#===- smith-coverage.sh - line coverage of lib/ by generated programs -----===#
#
# Usage: scripts/smith-coverage.sh [--build DIR] [--smith PATH] [--seeds A-B]
#          [--error-seeds A-B] [--size N] [--jobs N] [--smith-args "ARGS"]
#          --out DIR
#
# How much of the compiler do bsgp-smith's programs alone reach (no lit
# test)? --build is a build configured with
#   -DLLVM_BUILD_INSTRUMENTED_COVERAGE=ON
# (LLVM's option; it adds -fprofile-instr-generate -fcoverage-mapping to
# every target) in which `ninja bsgpc` has run. For each seed the generator
# (--smith, default the normal build's bsgp-smith, so an older generator can
# be measured against the same compiler) writes a program that the
# instrumented bsgpc compiles twice, as difftest.sh does: at -O0 for the cpu
# (with -g) and at -O2 for cpu, cuda and spirv at once, so every conversion
# runs; it also prints the program's superstep table and graph
# (--print-supersteps=all and =dot). bsgp-opt (built in the same build) runs
# the program's MLIR through its registered pipelines (bsgp-pipeline, and
# bsgp-superstep-pipeline then bsgp-stream-pipeline). --error-seeds A-B adds
# the programs of those seeds with one planted error (bsgp-smith
# --plant-error), compiled as above; bsgpc must reject them, so only a
# compilation that does not end with exit status 1 is a failure.
# Writes DIR/report.txt (llvm-cov's per-file table of lib/) and
# DIR/summary.txt (lines covered in lib/, lib/Transforms, lib/Conversion
# and the files of those two below 80%).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=
SMITH=$ROOT/build/bin/bsgp-smith
SEEDS=1-300
ERROR_SEEDS=
SIZE=3
JOBS=$(nproc)
SMITH_ARGS=
OUT=
LLVM_BIN=${BSGP_LLVM_ROOT:-/usr/lib/llvm-22}/bin
while [ $# -gt 0 ]; do
  case "$1" in
  --build) BUILD=$2; shift ;;
  --smith) SMITH=$2; shift ;;
  --seeds) SEEDS=$2; shift ;;
  --error-seeds) ERROR_SEEDS=$2; shift ;;
  --size) SIZE=$2; shift ;;
  --jobs) JOBS=$2; shift ;;
  --smith-args) SMITH_ARGS=$2; shift ;;
  --out) OUT=$2; shift ;;
  *) echo "smith-coverage: unknown argument '$1'" >&2; exit 1 ;;
  esac
  shift
done
[ -n "$BUILD" ] && [ -n "$OUT" ] || {
  echo "usage: smith-coverage.sh --build DIR --out DIR [options]" >&2; exit 1; }
BSGPC=$BUILD/bin/bsgpc
OPT=$BUILD/bin/bsgp-opt
grep -q "LLVM_BUILD_INSTRUMENTED_COVERAGE:BOOL=ON" "$BUILD/CMakeCache.txt" || {
  echo "smith-coverage: $BUILD is not an instrumented build" >&2; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT/prof" "$OUT/seeds"
OUT=$(cd "$OUT" && pwd)

# %4m: a pool of four profiles per binary that the processes merge into,
# instead of one file per compilation.
export LLVM_PROFILE_FILE=$OUT/prof/bsgp-%4m.profraw
compile_seed() {
  local seed=$1 dir=$OUT/seeds/$1
  mkdir -p "$dir" && cd "$dir"
  # shellcheck disable=SC2086
  "$SMITH" --seed "$seed" --size "$SIZE" $SMITH_ARGS -o prog.bsgp 2>/dev/null ||
    { echo "generator $seed"; return; }
  if timeout 120 "$BSGPC" prog.bsgp -emit-mlir -o prog.mlir >/dev/null 2>&1
  then
    timeout 120 "$OPT" prog.mlir --bsgp-pipeline -o /dev/null >/dev/null 2>&1 ||
      echo "opt $seed"
    timeout 120 "$OPT" prog.mlir --bsgp-superstep-pipeline 2>/dev/null |
      timeout 120 "$OPT" --bsgp-stream-pipeline -o /dev/null >/dev/null 2>&1 ||
      echo "opt-steps $seed"
  else
    echo "mlir $seed"
  fi
  timeout 120 "$BSGPC" prog.bsgp -O0 -g -c -o p0.o >/dev/null 2>&1 ||
    echo "cc0 $seed"
  timeout 120 "$BSGPC" prog.bsgp --print-supersteps=all -o table.txt \
    >/dev/null 2>&1 || echo "table $seed"
  timeout 120 "$BSGPC" prog.bsgp --print-supersteps=dot -o graph.dot \
    >/dev/null 2>&1 || echo "dot $seed"
  timeout 120 "$BSGPC" prog.bsgp -O2 --target=cpu,cuda,spirv -c -o p2.o \
    >/dev/null 2>&1 || echo "cc2 $seed"
  cd / && rm -rf "$dir"
}
# A planted error must give exit status 1 (and the error, which difftest.sh
# checks line by line).
compile_error_seed() {
  local seed=$1 dir=$OUT/seeds/e$1
  mkdir -p "$dir" && cd "$dir"
  # shellcheck disable=SC2086
  "$SMITH" --seed "$seed" --size "$SIZE" $SMITH_ARGS --plant-error \
    -o prog.bsgp 2>/dev/null || { echo "generator e$seed"; return; }
  timeout 120 "$BSGPC" prog.bsgp -O0 -g -c -o p0.o >/dev/null 2>&1
  [ $? = 1 ] || echo "error-cc0 $seed"
  timeout 120 "$BSGPC" prog.bsgp -O2 --target=cpu,cuda,spirv -c -o p2.o \
    >/dev/null 2>&1
  [ $? = 1 ] || echo "error-cc2 $seed"
  cd / && rm -rf "$dir"
}
export -f compile_seed compile_error_seed
export OUT SMITH SIZE SMITH_ARGS BSGPC OPT
{
  seq "${SEEDS%-*}" "${SEEDS#*-}" | sed 's/^/compile_seed /'
  [ -z "$ERROR_SEEDS" ] ||
    seq "${ERROR_SEEDS%-*}" "${ERROR_SEEDS#*-}" | sed 's/^/compile_error_seed /'
} | xargs -P "$JOBS" -I{} bash -c '{}' > "$OUT/failures.txt"

"$LLVM_BIN/llvm-profdata" merge -sparse "$OUT"/prof/*.profraw \
  -o "$OUT/bsgpc.profdata"
"$LLVM_BIN/llvm-cov" report "$BSGPC" -object "$OPT" \
  -instr-profile "$OUT/bsgpc.profdata" "$ROOT/lib" > "$OUT/report.txt"

# llvm-cov's columns: Filename Regions Missed Cover Functions Missed Executed
# Lines Missed Cover Branches Missed Cover. Sums over a folder are of lines.
python3 - "$OUT/report.txt" "$ROOT" > "$OUT/summary.txt" <<'EOF'
import sys
report, root = sys.argv[1], sys.argv[2].rstrip('/') + '/'
rows = []
for line in open(report):
    f = line.split()
    # llvm-cov strips the prefix common to all files (lib/ itself).
    if len(f) >= 10 and f[0].endswith(('.cpp', '.h')) and f[7].isdigit():
        name = f[0][len(root):] if f[0].startswith(root) else 'lib/' + f[0]
        rows.append((name, int(f[7]), int(f[8])))
def total(prefix):
    lines = sum(r[1] for r in rows if r[0].startswith(prefix))
    missed = sum(r[2] for r in rows if r[0].startswith(prefix))
    return lines, 100.0 * (lines - missed) / max(lines, 1)
for prefix in ('lib/', 'lib/Transforms/', 'lib/Conversion/'):
    lines, pct = total(prefix)
    print(f'{prefix:18} {pct:6.2f}% of {lines} lines')
print('files of lib/Transforms and lib/Conversion below 80% of lines:')
for name, lines, missed in sorted(rows):
    if name.startswith(('lib/Transforms/', 'lib/Conversion/')) and lines:
        pct = 100.0 * (lines - missed) / lines
        if pct < 80:
            print(f'  {pct:6.2f}% {lines - missed:5}/{lines:<5} {name}')
EOF
cat "$OUT/summary.txt"
echo "smith-coverage: $(wc -l < "$OUT/failures.txt") failed compilations" \
  "(in $OUT/failures.txt)"
