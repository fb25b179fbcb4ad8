#!/usr/bin/env bash
# The GPU check's dry run as a ctest (scripts/gpu-check.sh dry-run): every
# module of the GPU check bundled as for a GPU, hlo-run rebuilt from the
# bundle without LLVM/MLIR, run against the stand-in CUDA driver, and the
# XLA side up to the device with jax from a test-only virtual environment
# (PyPI, under the build directory; never the compiler's).
#   tests/gpu/dry-run.sh BUILD_DIR WORK_DIR
set -euo pipefail
build="$1" work="$2"
root="$(cd "$(dirname "$0")/../.." && pwd)"
venv="$build/jax-venv"
python="$venv/bin/python3"
if ! "$python" -c 'import jax, jaxlib, numpy, ml_dtypes' 2> /dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$python" -m pip install --quiet --disable-pip-version-check \
    'jax==0.10.2' 'jaxlib==0.10.2' 'ml_dtypes==0.6.0'
fi
rm -rf "$work" "$work.driver"
BUILD_DIR="$build" exec bash "$root/scripts/gpu-check.sh" dry-run "$work" --python "$python"
