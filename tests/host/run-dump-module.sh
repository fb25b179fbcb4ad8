#!/usr/bin/env bash
# One ctest per XLA dump listed in tests/host/whole-module-dumps.txt
# (tests/CMakeLists.txt): the whole after-optimizations module compiled for
# the host target and run by hlo-run's module mode — every kernel, device
# copy and library call of the entry in schedule order on the buffers the
# manifest describes — and each module output checked against the
# reference interpreter; or, with --mode replay in the list, each kernel
# checked on the values the interpreter computes for its operands.
#
#   run-dump-module.sh HLO_COMPILE HLO_RUN DUMP_DIR WORK_DIR [HLO_RUN_OPTIONS...]
set -euo pipefail
hlo_compile=$1 hlo_run=$2 dump=$3 work=$4
shift 4
mkdir -p "$work"
# The dumps are XLA's for the H100: sm_90a (wgmma where XLA's GEMM tile
# allows).
"$hlo_compile" -w --target=host --gpu-arch=sm_90a "$dump/module.hlo" -o "$work/module.so" \
  --manifest "$work/module.json"
# Module mode unless the list gives another (--mode replay).
mode=(--mode module)
for option in "$@"; do [[ $option == --mode ]] && mode=(); done
"$hlo_run" "$dump/module.hlo" --manifest "$work/module.json" "${mode[@]}" "$@"
