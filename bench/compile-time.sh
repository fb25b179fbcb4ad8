#!/usr/bin/env bash
# Compile-time benchmark: wall time of `hlo-compile FILE -o out.ptx` as a
# process (median of N runs, default 10), then one run's per-stage split
# (--time-passes). Usage: bench/compile-time.sh [FILE] [N]
set -euo pipefail
cd "$(dirname "$0")/.."
file=${1:-examples/gelu.hlo}
runs=${2:-10}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
times=()
for _ in $(seq "$runs"); do
  start=$(date +%s%N)
  build/bin/hlo-compile "$file" -o "$out/out.ptx"
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
median=${sorted[$(( runs / 2 ))]}
echo "compile-time: $file: median $(( median / 1000 )).$(( median % 1000 / 100 )) ms over $runs runs (min $(( sorted[0] / 1000 )) ms, max $(( sorted[runs - 1] / 1000 )) ms)"
build/bin/hlo-compile "$file" -o "$out/out.ptx" --time-passes 2>&1 | grep '^hlo-compile:'
