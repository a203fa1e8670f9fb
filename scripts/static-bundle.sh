#!/usr/bin/env bash
#===- static-bundle.sh - the toolchain for a machine without LLVM --------===#
#
# Usage: scripts/static-bundle.sh <out.tar.xz> [tool...]
#
# The GPU machine has the NVIDIA driver, a C++ toolchain and many cores, but
# no LLVM. This links the tools (default: bsgpc, bsgpi, bsgp-smith) against
# LLVM's, MLIR's and Clang's static archives instead of the shared libraries
# (ld.lld keeps only what they use), strips them, and packs them with the
# collective library, <bsgp.h>, libbsgprt, OpenMP and the difftest scripts
# in the layout bsgpc expects (bin/, lib/, lib/bsgp/, lib/bsgp/include/):
#
#   tar xJf bundle.tar.xz -C dir && dir/bin/bsgpc prog.bsgp -o prog
#
# bsgpc links programs through Clang's driver, which needs a `clang++` on
# PATH only to name its compile jobs; bin/clang++ forwards to the machine's
# c++ for C++ inputs. The fuzzers are linked with libFuzzer and sanitizers
# as in the build (name them as tools: bsgp-frontend-fuzzer ...).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BSGP_BUILD_DIR:-$ROOT/build}
OUT=${1:?usage: static-bundle.sh <out.tar.xz> [tool...]}
shift
TOOLS=("$@")
[ ${#TOOLS[@]} -gt 0 ] || TOOLS=(bsgpc bsgpi bsgp-smith)
LLVM_LIB=${BSGP_LLVM_ROOT:-/usr/lib/llvm-22}/lib

"$ROOT/scripts/build.sh" "${TOOLS[@]}" bsgprt_shared >/dev/null
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/bin" "$STAGE/lib/bsgp" "$STAGE/scripts"

# The static archives replace every shared LLVM library in the link command
# CMake wrote; zlib and zstd stay shared (every Linux machine has them).
ARCHIVES=(-Wl,--start-group "$LLVM_LIB"/libMLIR*.a "$LLVM_LIB"/libclang*.a
          "$LLVM_LIB"/libLLVM*.a -Wl,--end-group -lz -l:libzstd.so.1)
for tool in "${TOOLS[@]}"; do
  cmd=$(cd "$BUILD" && ninja -t commands "bin/$tool" | tail -1)
  cmd=${cmd#: && }
  cmd=${cmd% && :}
  # shellcheck disable=SC2206
  words=($cmd)
  link=()
  for w in "${words[@]}"; do
    case "$w" in
    */libLLVM.so* | */libMLIR.so* | */libclang-cpp.so*) ;;
    -o) link+=("$w") ;;
    "bin/$tool") link+=("$STAGE/bin/$tool") ;;
    -Wl,-rpath,*) ;;
    *) link+=("${w//\"/}") ;;
    esac
  done
  (cd "$BUILD" && "${link[@]}" -fuse-ld=lld "${ARCHIVES[@]}" -lrt -ldl -lpthread)
  strip "$STAGE/bin/$tool"
done

cp "$BUILD/lib/bsgp/collectives.bsgp" "$STAGE/lib/bsgp/"
# <bsgp.h> and BSGP's <math.h>, <stdio.h>, ..., which bsgpc and bsgpi find in
# lib/bsgp/include.
cp -r "$BUILD/lib/bsgp/include" "$STAGE/lib/bsgp/"
cp -P "$BUILD"/lib/libbsgprt.so* "$STAGE/lib/"
omp=$(ldd "$BUILD/lib/libbsgprt.so" | awk '/libomp/ { print $3 }')
[ -n "$omp" ] && cp -L "$omp" "$STAGE/lib/"
ffi=$(ldconfig -p | awk '/libffi.so.8 .*x86-64/ { print $NF; exit }')
[ -n "$ffi" ] && cp -L "$ffi" "$STAGE/lib/"
cp "$ROOT/scripts/difftest.sh" "$STAGE/scripts/"
cat >"$STAGE/bin/clang++" <<'EOF'
#!/bin/sh
exec c++ "$@"
EOF
chmod +x "$STAGE/bin/clang++"
tar -C "$STAGE" -cf - . | xz -T2 -6 >"$OUT"
echo "static-bundle: $OUT ($(du -h "$OUT" | cut -f1))"
