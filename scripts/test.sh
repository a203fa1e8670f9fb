#!/usr/bin/env bash
#===- test.sh - build everything and run the whole test suite -------------===#
#
# Runs lit (which also runs the GoogleTest unit tests) and ends with one line
# "tests: N passed, N failed" counting every test that ran.
#
#===----------------------------------------------------------------------===#
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}

"$ROOT/scripts/build.sh" all || exit 1

LOG=$(mktemp)
ninja -C "$BUILD" check-bsgp 2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}

# lit aligns its summary ("  Passed : 70 (95.89%)") when several kinds occur.
count() { grep -E "^ *$1 *: *[0-9]+" "$LOG" | awk -F: '{s+=$2} END {print s+0}'; }
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count "Unexpectedly Passed") + $(count Unresolved) + $(count "Timed Out") ))
rm -f "$LOG"
echo "tests: $passed passed, $failed failed"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
