#!/usr/bin/env bash
#===- difftest.sh - differential testing with bsgp-smith programs ---------===#
#
# For each seed: bsgp-smith writes a program; bsgpc compiles it at -O0 (cpu)
# and at -O2 (cpu, or cpu,spirv when the vulkan backend is tested); the
# programs run on each backend, and bsgpi interprets the program where it
# is built. All outputs must be equal. A generator failure, a compiler
# error or crash, a run that crashes or times out, or a mismatch is saved
# under --out with the seed, the program and every output; --reduce then
# shrinks the program with C-Reduce, keeping the same kind of failure.
# With --smith-args --plant-error, each program has one invalid construct
# instead: both compilations must reject its marked line (file:line:col,
# exit status 1, no crash), and nothing runs.
#
# Usage: scripts/difftest.sh [--seeds A-B] [--size S] [--backends cpu,cuda,vulkan,cpu:N,vulkan:N]
#          [--jobs N] [--timeout SEC] [--out DIR] [--reduce]
#          [--smith-args "ARGS"] [--build DIR] [--bsgpi PATH] [--no-bsgpi]
# Prints one line per failure and `difftest: N passed, M failed`; exits 1
# when a seed failed.
#
#===----------------------------------------------------------------------===#
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SELF="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}
SEEDS=1-100
SIZE=3
BACKENDS=cpu
JOBS=1
TIMEOUT=60
OUT=difftest-out
REDUCE=0
SMITH_ARGS=""
USE_BSGPI=1
BSGPI=""
ONE=""

usage() { sed -n '/^# Usage/,/^# Prints/p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
  --seeds) SEEDS=$2; shift ;;
  --size) SIZE=$2; shift ;;
  --backends) BACKENDS=$2; shift ;;
  --jobs) JOBS=$2; shift ;;
  --timeout) TIMEOUT=$2; shift ;;
  --out) OUT=$2; shift ;;
  --reduce) REDUCE=1 ;;
  --smith-args) SMITH_ARGS=$2; shift ;;
  --build) BUILD=$2; shift ;;
  --bsgpi) BSGPI=$2; shift ;;
  --no-bsgpi) USE_BSGPI=0 ;;
  --one) ONE=$2; shift ;; # internal: test one seed, print its verdict
  -h | --help) usage; exit 0 ;;
  *) echo "difftest: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

SMITH="$BUILD/bin/bsgp-smith"
BSGPC="$BUILD/bin/bsgpc"
# The interpreter is the reference where it is built.
[ -n "$BSGPI" ] || BSGPI="$BUILD/bin/bsgpi"
[ "$USE_BSGPI" = 1 ] && [ -x "$BSGPI" ] || BSGPI=""
for tool in "$SMITH" "$BSGPC"; do
  if [ ! -x "$tool" ]; then
    echo "difftest: $tool is not built" >&2
    exit 2
  fi
done
if ! mkdir -p "$OUT" || ! OUT=$(cd "$OUT" && pwd); then
  echo "difftest: cannot use '$OUT' as the output directory" >&2
  exit 2
fi
export OUT TIMEOUT

# run NAME CMD...: runs a program with the timeout; its stdout goes to
# NAME.out, stderr to NAME.err, and the exit status (124 on timeout) to
# NAME.rc.
run() {
  local name=$1
  shift
  timeout -k 5 "$TIMEOUT" "$@" >"$name.out" 2>"$name.err"
  echo $? >"$name.rc"
}

# test_seed SEED: prints "pass SEED" or "fail SEED KIND DETAIL"; a failing
# seed's files stay in $OUT/seed-SEED.
test_seed() {
  local seed=$1
  local dir="$OUT/seed-$seed"
  rm -rf "$dir"
  mkdir -p "$dir"
  cd "$dir" || return
  local t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  if ! "$SMITH" --seed "$seed" --size "$SIZE" $SMITH_ARGS -o prog.bsgp \
      2>smith.err; then
    echo "fail $seed generator $(head -c 200 smith.err | tr '\n' ' ')"
    return
  fi
  # The -O2 program carries the code of every backend under test.
  local gpus="" t2=--target=cpu
  case ",$BACKENDS," in *,cuda,*) gpus="$gpus cuda"; t2=$t2,cuda ;; esac
  case ",$BACKENDS," in *,vulkan,*) gpus="$gpus vulkan"; t2=$t2,spirv ;; esac
  case ",$BACKENDS," in *,vulkan,*) ;; *,vulkan:*) t2=$t2,spirv ;; esac
  run cc0 "$BSGPC" prog.bsgp -O0 -o p0
  run cc2 "$BSGPC" prog.bsgp -O2 "$t2" -o p2
  local v
  # A program with a planted error (--smith-args --plant-error): both
  # compilations must reject the marked line with exit status 1, not crash.
  local want
  want=$(grep -n '// bsgp-smith: error here$' prog.bsgp | head -1 | cut -d: -f1)
  if [ -n "$want" ]; then
    for v in cc0 cc2; do
      local got
      got=$(grep -m1 -o '^prog.bsgp:[0-9]*:[0-9]*: error:' $v.err | cut -d: -f2)
      if [ "$(cat $v.rc)" != 1 ] || [ "$got" != "$want" ] ||
          grep -q "PLEASE submit\|Assertion\|Stack dump" $v.err; then
        echo "fail $seed planted-error $v: exit $(cat $v.rc), first error at line ${got:-none}, marked line $want"
        return
      fi
    done
    cd "$OUT" && rm -rf "$dir"
    echo "pass $seed 0"
    return
  fi
  for v in cc0 cc2; do
    if [ "$(cat $v.rc)" != 0 ]; then
      local kind=compile-error
      [ "$(cat $v.rc)" = 124 ] && kind=compile-timeout
      [ "$(cat $v.rc)" -gt 128 ] && kind=compile-crash
      grep -q "PLEASE submit\|Assertion\|Stack dump" $v.err && kind=compile-crash
      echo "fail $seed $kind $v: $(grep -m1 'error\|Assertion' $v.err | head -c 200)"
      return
    fi
  done
  local variants="o0-cpu o2-cpu"
  BSGP_DEVICE=cpu run o0-cpu ./p0
  BSGP_DEVICE=cpu run o2-cpu ./p2
  local g
  for g in $gpus; do
    BSGP_DEVICE=$g run o2-$g ./p2
    variants="$variants o2-$g"
  done
  # cpu:N and vulkan:N: the -O2 program on N devices (docs/multi-device.md).
  local m
  for m in $(echo "$BACKENDS" | tr ',' '\n' | grep -x '\(cpu\|vulkan\):[0-9]*'); do
    BSGP_DEVICE=$m BSGP_SORT_ACROSS_MIN=2 run "o2-${m%:*}${m#*:}dev" ./p2
    variants="$variants o2-${m%:*}${m#*:}dev"
  done
  if [ -n "$BSGPI" ]; then
    run bsgpi "$BSGPI" prog.bsgp
    variants="bsgpi $variants"
  fi
  local t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{ printf "%.2f\n", $2 - $1 }' >seconds
  local ref="" first=""
  for v in $variants; do
    local rc=$(cat $v.rc)
    if [ "$rc" = 124 ]; then
      echo "fail $seed timeout $v"
      return
    fi
    if [ "$rc" != 0 ]; then
      echo "fail $seed crash $v exit $rc: $(head -c 200 $v.err | tr '\n' ' ')"
      return
    fi
    # The runtime reports errors it recovers from (a backend that is not
    # there falls back to the cpu) on stderr.
    if grep -q "runtime error" $v.err; then
      echo "fail $seed runtime-error $v: $(grep -m1 'runtime error' $v.err | head -c 200)"
      return
    fi
    if [ -z "$ref" ]; then
      ref=$v
    elif ! cmp -s "$ref.out" "$v.out"; then
      # The first line that differs names the function that went wrong.
      echo "fail $seed mismatch $ref/$v: $(diff "$ref.out" "$v.out" | grep -m1 '^[<>]' | head -c 100)"
      return
    fi
  done
  cd "$OUT" && rm -rf "$dir"
  echo "pass $seed $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')"
}

if [ -n "$ONE" ]; then
  test_seed "$ONE"
  exit 0
fi

case "$SEEDS" in
*-*) FIRST=${SEEDS%-*}; LAST=${SEEDS#*-} ;;
*) FIRST=$SEEDS; LAST=$SEEDS ;;
esac

LOG="$OUT/results.txt"
: >"$LOG"
seq "$FIRST" "$LAST" |
  xargs -P "$JOBS" -I{} "$SELF" --one {} --size "$SIZE" \
    --backends "$BACKENDS" --timeout "$TIMEOUT" --out "$OUT" \
    --smith-args "$SMITH_ARGS" --build "$BUILD" \
    $([ -n "$BSGPI" ] && echo --bsgpi "$BSGPI" || echo --no-bsgpi) |
  while read -r verdict seed rest; do
    echo "$verdict $seed $rest" >>"$LOG"
    if [ "$verdict" != pass ]; then
      echo "difftest: seed $seed: $rest"
      echo "$seed $rest" >"$OUT/seed-$seed/verdict"
    fi
  done

PASSED=$(grep -c '^pass' "$LOG")
FAILED=$(grep -c '^fail' "$LOG")
SECS=$(awk '$1 == "pass" { s += $3; n++ } END { if (n) printf "%.2f", s / n; else print "-" }' "$LOG")
echo "difftest: $PASSED passed, $FAILED failed (seeds $FIRST-$LAST, size $SIZE, backends $BACKENDS$([ -n "$BSGPI" ] && echo ", bsgpi"); $SECS s per passing seed)"

if [ "$REDUCE" = 1 ] && [ "$FAILED" -gt 0 ]; then
  grep '^fail' "$LOG" | while read -r _ seed kind _; do
    "$(dirname "$SELF")/difftest-reduce.sh" --build "$BUILD" \
      --backends "$BACKENDS" --timeout "$TIMEOUT" "$OUT/seed-$seed" "$kind"
  done
fi
[ "$FAILED" = 0 ]
