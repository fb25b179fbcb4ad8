#!/usr/bin/env bash
# ctest fp8.conversions (issue 28): every 8-/4-bit float type, f32 inputs
# from every bit-pattern class (tests/fp8/conversion_sweep.py):
#   1. the interpreter's convert = ml_dtypes, bit for bit (NaN for NaN);
#   2. the kernels on the host target = the interpreter, bit for bit;
#   3. the kernels assemble for sm_80 and sm_90 without spills (without
#      ptxas: a SKIPPED line, which scripts/test.sh's summary lists).
#   tests/fp8/check-conversions.sh BUILD_DIR WORK_DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "$1" && pwd)"
work="$2"
bin="$build/bin"
python="$("$here/python-env.sh" "$build")"
ptxas="${CUDA_HOME:-/usr/local/cuda}/bin/ptxas"
if [ ! -x "$ptxas" ]; then
  echo "SKIPPED: fp8.conversions: step 3 (cubins for sm_80/sm_90 without spills): no ptxas at $ptxas"
fi
rm -rf "$work" && mkdir -p "$work"
"$python" -W ignore "$here/conversion_sweep.py" generate "$work"
status=0
for type in f8e4m3fn f8e5m2 f8e4m3fnuz f8e5m2fnuz f8e4m3b11fnuz f8e3m4 f8e4m3 f8e8m0fnu f4e2m1fn; do
  module="$work/$type.hlo"
  "$bin/hlo-run" --interpret "$module" --input 0="$work/x.npy" --output-dir "$work/$type" >/dev/null
  "$python" -W ignore "$here/conversion_sweep.py" compare "$work" "$type" "$work/$type" || status=1
  "$bin/hlo-compile" --target=host "$module" -o "$work/$type.so"
  if "$bin/hlo-run" "$module" --manifest "$work/$type.so.json" --input 0="$work/x.npy" \
      --atol 0 --rtol 0 > "$work/$type.host.log" 2>&1; then
    echo "$type: host kernels = interpreter: PASS"
  else
    echo "$type: host kernels differ from the interpreter: FAIL"
    grep -E 'FAIL|mismatch|error' "$work/$type.host.log" | head -5
    status=1
  fi
  if [ -x "$ptxas" ]; then
    for arch in sm_80 sm_90; do
      "$bin/hlo-compile" -arch $arch --emit=cubin --resource-usage "$module" \
        -o "$work/$type.$arch.cubin" 2> "$work/$type.$arch.usage"
      # Columns: kernel registers spill-stores spill-loads stack ...
      if awk '$2 ~ /^[0-9]+$/ && ($3 != 0 || $4 != 0) { bad = 1 } END { exit bad }' "$work/$type.$arch.usage"; then
        echo "$type: $arch cubin, no spills: PASS"
      else
        echo "$type: $arch spills: FAIL"; cat "$work/$type.$arch.usage"; status=1
      fi
    done
  fi
done
exit $status
