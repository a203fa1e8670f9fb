#!/usr/bin/env bash
#===- difftest-reduce.sh - shrink a difftest failure with C-Reduce --------===#
#
# Usage: scripts/difftest-reduce.sh [--build DIR] [--backends cpu,vulkan]
#          [--timeout SEC] [--max-time SEC] SEED-DIR KIND
#
# SEED-DIR is a failure saved by difftest.sh (prog.bsgp and the outputs);
# KIND its verdict: compile-error, compile-crash, crash or mismatch. Writes
# SEED-DIR/interesting.sh, an interestingness test that keeps the same kind
# of failure, and SEED-DIR/reduced.bsgp, the program C-Reduce shrank with it.
#
# The test guards against the usual traps of reducing a program that is
# only wrong at run time: the reduced program must still pass
# `bsgpc -fsyntax-only -Werror` (no function left without its return),
# compile at -O0 and -O2, and, for a mismatch, run
# to completion at -O0 (under valgrind where installed, so a reduction that
# removed a bounds guard or initialization is rejected) before its outputs
# are compared.
#
#===----------------------------------------------------------------------===#
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}
BACKENDS=cpu
TIMEOUT=60
MAXTIME=1800
while [ $# -gt 2 ]; do
  case "$1" in
  --build) BUILD=$2; shift ;;
  --backends) BACKENDS=$2; shift ;;
  --timeout) TIMEOUT=$2; shift ;;
  --max-time) MAXTIME=$2; shift ;;
  *) echo "difftest-reduce: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
if [ $# -ne 2 ]; then
  sed -n '/^# Usage/,/^#$/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
DIR=$(cd "$1" && pwd)
KIND=$2
BSGPC=$(cd "$BUILD/bin" && pwd)/bsgpc
REDUCER=$(command -v creduce || command -v cvise || true)
if [ -z "$REDUCER" ]; then
  echo "difftest-reduce: creduce (or cvise) is not installed" >&2
  exit 2
fi
VALGRIND=""
command -v valgrind >/dev/null && VALGRIND="valgrind --error-exitcode=99 -q"

T2=--target=cpu
VULKAN=0
case ",$BACKENDS," in *,vulkan,*) T2=--target=cpu,spirv; VULKAN=1 ;; esac

# The text that identifies the failure: an error message without its
# location, or the variant pair that disagreed.
case "$KIND" in
compile-error | compile-crash)
  # The compilation that failed: -O0 unless only -O2 did.
  ERRFILE=$DIR/cc0.err
  CC="-O0 -o p0"
  if [ "$(cat "$DIR/cc0.rc" 2>/dev/null)" = 0 ]; then
    ERRFILE=$DIR/cc2.err
    CC="-O2 $T2 -o p2"
  fi
  SIG=$(grep -m1 -o 'error: .*\|Assertion .*' "$ERRFILE" | cut -c1-120)
  ;;
crash | mismatch) SIG="" ;;
*)
  echo "difftest-reduce: cannot reduce a '$KIND' failure" >&2
  exit 1
  ;;
esac

TEST=$DIR/interesting.sh
{
  echo '#!/usr/bin/env bash'
  echo "# Interestingness test for C-Reduce: a $KIND of seed $(basename "$DIR")."
  echo 'ulimit -c 0'
  echo "BSGPC='$BSGPC'"
  echo "T=$TIMEOUT"
  # Generated programs compile without warnings; C-Reduce likes to empty a
  # function's body, leaving it without a return (an undefined value).
  echo 'timeout 20 "$BSGPC" -fsyntax-only -Werror prog.bsgp >/dev/null 2>&1 || exit 1'
  case "$KIND" in
  compile-error | compile-crash)
    printf 'SIG=%q\n' "$SIG"
    echo 'timeout $T "$BSGPC" prog.bsgp '"$CC"' >log 2>&1'
    echo 'grep -qF -- "$SIG" log'
    ;;
  *)
    echo 'timeout $T "$BSGPC" prog.bsgp -O0 -o p0 >/dev/null 2>&1 || exit 1'
    echo 'timeout $T "$BSGPC" prog.bsgp -O2 '"$T2"' -o p2 >/dev/null 2>&1 || exit 1'
    echo "BSGP_DEVICE=cpu timeout \$T $VALGRIND ./p0 >o0 2>/dev/null || exit 1"
    if [ "$KIND" = crash ]; then
      echo 'BSGP_DEVICE=cpu timeout $T ./p2 >/dev/null 2>&1 && exit 1'
      [ $VULKAN = 1 ] && echo 'BSGP_DEVICE=vulkan timeout $T ./p2 >/dev/null 2>&1 && exit 1'
      echo 'exit 0'
    else
      echo 'BSGP_DEVICE=cpu timeout $T ./p2 >o2 2>/dev/null || exit 1'
      echo 'cmp -s o0 o2 || exit 0'
      if [ $VULKAN = 1 ]; then
        echo 'BSGP_DEVICE=vulkan timeout $T ./p2 >ov 2>/dev/null || exit 1'
        echo 'cmp -s o0 ov || exit 0'
      fi
      echo 'exit 1'
    fi
    ;;
  esac
} >"$TEST"
chmod +x "$TEST"

WORK=$(mktemp -d)
cp "$DIR/prog.bsgp" "$WORK/prog.bsgp"
cd "$WORK" || exit 1
if ! "$TEST" >/dev/null 2>&1; then
  echo "difftest-reduce: $(basename "$DIR"): the failure does not reproduce" >&2
  rm -rf "$WORK"
  exit 1
fi
timeout "$MAXTIME" "$REDUCER" --n 1 "$TEST" prog.bsgp >"$DIR/reduce.log" 2>&1
cp prog.bsgp "$DIR/reduced.bsgp"
cd / && rm -rf "$WORK"
echo "difftest-reduce: $(basename "$DIR"): $(wc -l <"$DIR/reduced.bsgp") lines in $DIR/reduced.bsgp"
