#!/usr/bin/env bash
# The README's second command (and CI's): install what is missing, build,
# and run every test (GoogleTest units and lit/FileCheck) under ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
