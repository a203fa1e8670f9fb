#!/usr/bin/env bash
#===- run.sh - build the multi-device SAXPY run into a folder -------------===#
#
# Usage: bench/multi-device/run.sh <outdir>. Builds saxpy (cpu,cuda,spirv)
# with libbsgprt beside it; on a host with several GPUs run
#   for d in cuda cuda:all; do BSGP_DEVICE=$d <outdir>/saxpy; done
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}
OUT=${1:?usage: run.sh <outdir>}
mkdir -p "$OUT"
"$BUILD/bin/bsgpc" -O2 --target=cpu,cuda,spirv -Wl,-rpath,'$ORIGIN' \
  -I"$ROOT/runtime/include" "$ROOT/bench/multi-device/saxpy.bsgp" \
  "$ROOT/bench/multi-device/saxpy-main.cpp" -o "$OUT/saxpy"
cp -L "$BUILD"/lib/libbsgprt.so* "$OUT/"
