#!/usr/bin/env bash
# One ctest per XLA dump (tests/CMakeLists.txt): the whole after-optimizations
# module compiles for sm_90a (XLA's dumps are H100's), and its kernels are
# XLA's (tests/dumps/compare-dump-launches.py: the kernel count, and per
# XLA kernel the grid and block of our launches of the same fusion, with
# every difference pinned in tests/dumps/launch-differences.tsv).
#
# Then the dry run of the GPU performance run (issue 53) against the CUDA
# stand-in: every kernel of ours launched once per distinct code and
# launch, each with XLA's kernel for its fusion beside it (hlo-run
# --xla-kernels --launch-only): XLA's PTX must load, bind to the fusion's
# buffers (its parameter count and declared alignments) and pass the
# driver's launch rules (block, grid, shared memory). A kernel of XLA's that
# cannot be bound or loaded fails the test; one XLA compiled as another
# fusion's kernel is counted, not run. Kernels with an array of more than
# 2^26 elements are skipped (the stand-in's device memory is this
# machine's: maxtext's largest kernels would take 11 GB of it).
#
#   check-dump.sh HLO_COMPILE DUMP_DIR WORK_DIR [HLO_RUN FAKE_LIBCUDA]
set -euo pipefail
hlo_compile=$1 dump=$2 work=$3 hlo_run=${4:-} fake=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
"$hlo_compile" -w --gpu-arch=sm_90a "$dump/module.hlo" -o "$work/module.ptx" \
  --manifest "$work/module.json"
python3 "$here/compare-dump-launches.py" "$dump" "$work/module.json"
if [ -z "$hlo_run" ]; then
  exit 0
fi
if [ ! -f "$fake" ]; then
  echo "SKIPPED: the XLA dry run: no CUDA stand-in at '$fake'"
  exit 0
fi
rm -f "$work/xla-dry-run.tsv"
status=0
HLO_RUN_LIBCUDA="$fake" "$hlo_run" "$dump/module.hlo" --manifest "$work/module.json" \
  --xla-kernels "$dump" --launch-only --max-elements 67108864 --skip-oversized \
  --report "$work/xla-dry-run.tsv" > "$work/xla-dry-run.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  echo "FAIL: the XLA dry run (hlo-run exit $status): $(grep -m3 -E 'error|fault' "$work/xla-dry-run.log")"
  exit 1
fi
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { n[$c["xla_status"]]++ }
  END { line = "XLA dry run:"; for (s in n) line = line " " s " " n[s]; print line
        bad = n["unbound"] + n["not-loaded"] + n["no-ptx"] + n["FAULT"]
        if (bad > 0) { print "FAIL: XLA kernels that did not bind, load or launch (see " \
                       FILENAME ")"; exit 1 } }' "$work/xla-dry-run.tsv"
grep -m1 '^XLA.s kernels:' "$work/xla-dry-run.log"
