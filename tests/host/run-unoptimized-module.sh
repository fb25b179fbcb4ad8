#!/usr/bin/env bash
# One ctest per unoptimized module (tests/CMakeLists.txt: the corpus's
# models/jax/*.hlo, what JAX's lower(...).as_text(dialect="hlo") writes,
# and models/*.hlo that the host can run): the HLO pipeline's result
# (--emit=hlo) compiled for the host target and run whole by hlo-run's
# module mode, each output checked against the interpreter's run of the
# *unoptimized* module (--reference): the oracle of the program, not of
# its fused form. With EXPECT_LAUNCHES, the manifest's kernel count is
# pinned too.
#
# With `--mode replay` in the options (a loop whose recurrence amplifies
# rounding past any tolerance), each kernel is checked on the values the
# interpreter gives it instead, and the optimized module must give the
# unoptimized one's outputs in the interpreter.
#
#   run-unoptimized-module.sh HLO_COMPILE HLO_RUN MODULE WORK_DIR [HLO_RUN_OPTIONS...]
#   (environment: EXPECT_LAUNCHES=N)
set -euo pipefail
hlo_compile=$1 hlo_run=$2 module=$3 work=$4
shift 4
mkdir -p "$work"
"$hlo_compile" --hlo-opt=on --emit=hlo "$module" -o "$work/optimized.hlo"
"$hlo_compile" -w --target=host --gpu-arch=sm_90a "$work/optimized.hlo" -o "$work/module.so" \
  --manifest "$work/module.json"
if [[ -n ${EXPECT_LAUNCHES:-} ]]; then
  launches=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["kernels"]))' \
    "$work/module.json")
  if [[ $launches != "$EXPECT_LAUNCHES" ]]; then
    echo "run-unoptimized-module: $module: $launches kernels, expected $EXPECT_LAUNCHES"
    exit 1
  fi
  echo "kernels: $launches (as pinned)"
fi
for option in "$@"; do
  if [[ $option == replay ]]; then
    "$hlo_run" --interpret "$module" --output-dir "$work/reference" > /dev/null
    "$hlo_run" --interpret "$work/optimized.hlo" --expect-dir "$work/reference"
    exec "$hlo_run" "$work/optimized.hlo" --manifest "$work/module.json" "$@"
  fi
done
"$hlo_run" "$work/optimized.hlo" --manifest "$work/module.json" --mode module \
  --reference "$module" "$@"
