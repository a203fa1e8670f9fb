#!/usr/bin/env bash
#===- run.sh - build the multi-device SAXPY run into a folder -------------===#
#
# Usage: bench/multi-device/run.sh <outdir>. Builds md-saxpy (cpu,cuda,spirv)
# and md-collectives (bench/cuda/collectives.bsgp: reduce, scan, compact,
# thread.sortby) with libbsgprt beside them; on a host with several GPUs run
#   for d in cuda cuda:all; do BSGP_DEVICE=$d <outdir>/md-saxpy $((1<<30));
#     BSGP_DEVICE=$d <outdir>/md-collectives $((1<<30)); done
# (the md- names keep them apart from the examples' programs in a bundle).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}
OUT=${1:?usage: run.sh <outdir>}
mkdir -p "$OUT"
"$BUILD/bin/bsgpc" -O2 --target=cpu,cuda,spirv -Wl,-rpath,'$ORIGIN' \
  -I"$ROOT/runtime/include" "$ROOT/bench/multi-device/saxpy.bsgp" \
  "$ROOT/bench/multi-device/saxpy-main.cpp" -o "$OUT/md-saxpy"
"$BUILD/bin/bsgpc" -O2 --target=cpu,cuda,spirv -Wl,-rpath,'$ORIGIN' \
  -I"$ROOT/runtime/include" "$ROOT/bench/cuda/collectives.bsgp" \
  "$ROOT/bench/multi-device/collectives-main.cpp" -o "$OUT/md-collectives"
cp -L "$BUILD"/lib/libbsgprt.so* "$OUT/"
