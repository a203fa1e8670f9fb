#!/usr/bin/env bash
#===- run.sh - the interpreter on an application-shaped program -----------===#
#
# Usage: bench/bsgpi/run.sh [n] [bsgpi]
#
# Runs neighbours.bsgp (a spawn of n threads each testing n distances, and
# a host loop checking the n^2 distances again) in bsgpi and compiled on
# the cpu backend, and prints both times and their ratio. A second bsgpi
# (an older build, say) given as [bsgpi] is timed on the same input too.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}
N=${1:-2000}
OTHER=${2:-}
SRC="$ROOT/bench/bsgpi/neighbours.bsgp"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$BUILD/bin/bsgpc" -O2 "$SRC" -o "$TMP/neighbours"
seconds() { # command... ; prints the wall-clock seconds of the command
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > "$TMP/out.txt"
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}
c=$(BSGP_DEVICE=cpu seconds "$TMP/neighbours" "$N")
cat "$TMP/out.txt"
i=$(seconds "$BUILD/bin/bsgpi" "$SRC" "$N")
grep -q "mismatches=0" "$TMP/out.txt" || { echo "bsgpi: wrong result"; exit 1; }
printf 'n=%d compiled %.3f s  bsgpi %.3f s  (bsgpi / compiled %.0f)\n' "$N" "$c" "$i" \
  "$(awk -v a="$i" -v b="$c" 'BEGIN { print a / b }')"
if [ -n "$OTHER" ]; then
  o=$(seconds "$OTHER" "$SRC" "$N")
  printf 'other bsgpi %.3f s: this one is %.1fx faster\n' "$o" "$(awk -v a="$o" -v b="$i" 'BEGIN { print a / b }')"
fi
