#!/usr/bin/env bash
# Installs the Debian 12 packages hlo-compile needs to build and test, and
# only those that are missing (so a prepared machine pays nothing).
#   LLVM/MLIR 22 (llvm-22-dev, libmlir-22-dev, mlir-22-tools), lit and
#   FileCheck (llvm-22-tools), CLI11, fmt, GoogleTest, CMake, Ninja, g++,
#   python3-venv (the fp8 tests make a venv with numpy and ml_dtypes from
#   PyPI: tests/fp8/python-env.sh).
# The CUDA toolkit (ptxas, libdevice) is expected at /usr/local/cuda or
# $CUDA_HOME; it is not a Debian package and is not installed here.
set -euo pipefail

packages=(
  build-essential cmake ninja-build python3 python3-venv
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libcli11-dev libfmt-dev libgtest-dev
)
if [ "${HLO_WITH_FUZZER:-0}" = 1 ]; then
  packages+=(clang-14 libclang-rt-14-dev)
fi

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
  "${missing[@]}"
