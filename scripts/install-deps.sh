#!/usr/bin/env bash
#===- install-deps.sh - install what bsgpc needs on Debian 12 -------------===#
#
# Installs only the packages that are missing, so a second run costs nothing.
# Needs root (or sudo) the first time.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

PKGS=(
  llvm-22-dev libmlir-22-dev mlir-22-tools clang-22 libclang-22-dev lld-22
  llvm-22-tools libomp-22-dev libclang-rt-22-dev clang-format-22
  cmake ninja-build ccache googletest libgtest-dev python3 make pkgconf
  spirv-tools libvulkan-dev mesa-vulkan-drivers vulkan-tools
  valgrind libffi-dev libstb-dev
  libpugixml-dev
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
