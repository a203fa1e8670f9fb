#!/usr/bin/env bash
#===- build.sh - configure (once) and build bsgpc with Ninja --------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}

"$ROOT/scripts/install-deps.sh"

if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja \
    -DCMAKE_BUILD_TYPE=${BSGP_BUILD_TYPE:-Release} \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
fi
ninja -C "$BUILD" "$@"
