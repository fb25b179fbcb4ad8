#!/usr/bin/env bash
# The README's first command: install what is missing, build, and run the
# main job on examples/gelu.hlo (the GELU fusion of XLA's "XLA:GPU
# Emitters"): PTX for sm_90 in gelu.ptx and its launch manifest in
# gelu.ptx.json.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/bin/hlo-compile examples/gelu.hlo -o gelu.ptx
echo "quickstart: wrote gelu.ptx (PTX for sm_90) and gelu.ptx.json (launch manifest):"
cat gelu.ptx.json
grep -E '^\.(version|target)|\.entry|\.reqntid' gelu.ptx
