#!/usr/bin/env bash
# Regenerates bench/data/pipeline/: for each JAX program of
# bench/programs/{pipeline,scatter,more}_programs.py, its unoptimized HLO
# (XLA's before_optimizations dump of the jitted function: what JAX hands
# XLA) and XLA's optimized module for an H100 (native variant: GEMMs as
# cuBLAS calls), with XLA's compile seconds of both variants. The table of
# bench/fusion_pipeline.py reads them beside the corpus's programs. Needs
# ../shared/tools/xla-gpu-reference (`xla-ref setup` once); a few minutes.
#
#   bench/make_pipeline_data.sh [WORK_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tool=$root/../shared/tools/xla-gpu-reference
python=${XLA_REF_PYTHON:-$HOME/.cache/xla-gpu-reference/venv/bin/python}
work=${1:-$(mktemp -d)}
out=$root/bench/data/pipeline
for programs in pipeline_programs scatter_programs more_programs; do
  "$python" "$tool/xla_gpu_reference.py" --module "$root/bench/programs/$programs.py" \
    --variants native,default --corpus "$work/$programs" --work "$work/$programs.work" --keep-dump
  for native in "$work/$programs"/*.native; do
    name=$(basename "$native" .native)
    mkdir -p "$out/$name"
    cp "$work/$programs.work/$name.native/dump/"*.before_optimizations.txt "$out/$name/unoptimized.hlo"
    cp "$native/module.hlo" "$out/$name/xla_native.hlo"
    cp "$native/xla_compile_s.txt" "$out/$name/xla_native_compile_s.txt"
    cp "$work/$programs/$name.default/xla_compile_s.txt" "$out/$name/xla_default_compile_s.txt"
  done
done
