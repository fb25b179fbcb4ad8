#!/usr/bin/env bash
# Configures and builds hlo-compile into build/ (Ninja, Release).
# The driver lands at build/bin/hlo-compile.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build
