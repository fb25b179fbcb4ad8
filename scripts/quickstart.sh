#!/usr/bin/env bash
# The README's first command: install what is missing, build, and run the
# main job on examples/gelu.hlo (the GELU fusion of seed 004). Until the
# lowering to PTX lands, the main job writes the verified module and the
# emitted MLIR.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/bin/hlo-compile examples/gelu.hlo -o gelu.verified.hlo
build/bin/hlo-compile --emit=mlir examples/gelu.hlo -o gelu.mlir
echo "quickstart: wrote gelu.verified.hlo (the parsed and verified module)"
echo "quickstart: wrote gelu.mlir (the kernel as emitted, before lowering):"
cat gelu.mlir
