#!/usr/bin/env bash
# Prints the path of a Python 3 with numpy and ml_dtypes, the test-only
# packages of the 8-/4-bit float tests (never the compiler's), made once
# as a virtual environment under the build directory from PyPI.
#   tests/fp8/python-env.sh BUILD_DIR
set -euo pipefail
venv="$1/test-venv"
python="$venv/bin/python3"
# ml_dtypes is pinned: its conversions are what the interpreter is checked
# against, and they change between versions (0.7 converts -NaN to
# f4e2m1fn +0; 0.6 and XLA's GPU code give -0 for every NaN).
if ! "$python" -c 'import numpy, ml_dtypes; assert ml_dtypes.__version__ == "0.6.0"' \
    2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$python" -m pip install --quiet --disable-pip-version-check \
    'numpy>=1.26,<3' 'ml_dtypes==0.6.0' >&2
fi
echo "$python"
