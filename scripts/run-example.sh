#!/usr/bin/env bash
#===- run-example.sh - the README's main job ------------------------------===#
#
# Builds bsgpc and its runtime, compiles an example with bsgpc as one would
# with clang (`bsgpc file.bsgp -o app`), and runs it on the CPU unless
# BSGP_DEVICE says otherwise.
#
# Usage: scripts/run-example.sh [file.bsgp] [arguments of the program...]
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}
EXAMPLE=${1:-$ROOT/examples/saxpy.bsgp}
shift || true

"$ROOT/scripts/build.sh" bsgpc bsgprt_shared

OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
APP="$OUT/$(basename "$EXAMPLE" .bsgp)"
echo "== bsgpc $(basename "$EXAMPLE") -o $(basename "$APP")"
"$BUILD/bin/bsgpc" "$EXAMPLE" -o "$APP"
echo "== $(basename "$APP") (BSGP_DEVICE=${BSGP_DEVICE:-cpu})"
BSGP_DEVICE=${BSGP_DEVICE:-cpu} "$APP" "$@"
