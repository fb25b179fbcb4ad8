#!/usr/bin/env bash
# One ctest per XLA dump (tests/CMakeLists.txt): the whole after-optimizations
# module compiles for sm_90a (XLA's dumps are H100's), and its kernels are
# XLA's (tests/dumps/compare-dump-launches.py: the kernel count, and per
# XLA kernel the grid and block of our launches of the same fusion, with
# every difference pinned in tests/dumps/launch-differences.tsv).
#
#   check-dump.sh HLO_COMPILE DUMP_DIR WORK_DIR
set -euo pipefail
hlo_compile=$1 dump=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
"$hlo_compile" -w --gpu-arch=sm_90a "$dump/module.hlo" -o "$work/module.ptx" \
  --manifest "$work/module.json"
python3 "$here/compare-dump-launches.py" "$dump" "$work/module.json"
