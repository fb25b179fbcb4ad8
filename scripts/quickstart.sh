#!/usr/bin/env bash
# The README's first command: install what is missing, build, and run the
# main job on examples/gelu.hlo (the GELU fusion of seed 004). Until code
# generation lands, the main job prints the verified module.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/bin/hlo-compile examples/gelu.hlo -o gelu.verified.hlo
echo "quickstart: wrote gelu.verified.hlo (the parsed and verified module):"
cat gelu.verified.hlo
