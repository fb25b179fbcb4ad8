#!/usr/bin/env bash
# One ctest per module the compiler claims (tests/CMakeLists.txt): compile
# the module for the host target and run its kernels against the reference
# interpreter with hlo-run (which exits 0 on PASS, 1 on a mismatch or a
# kernel fault).
#
#   check-module.sh HLO_COMPILE HLO_RUN MODULE.hlo WORK_DIR [SKIP_REASON]
#
# SKIP_REASON (from tests/host/expected-skips.txt) marks a module that
# cannot run here: the script checks that it still fails for that reason,
# prints the reason and exits 77 (ctest: skipped). A module that fails for
# any other reason, or that now passes, fails the test, so the list stays
# true.
set -uo pipefail
hlo_compile=$1 hlo_run=$2 module=$3 work=$4 skip_reason=${5:-}
mkdir -p "$work"
log="$work/check.log"
{
  "$hlo_compile" --target=host -w "$module" -o "$work/kernels.so" \
    --manifest "$work/kernels.json" &&
    "$hlo_run" "$module" --manifest "$work/kernels.json"
} > "$log" 2>&1
code=$?
cat "$log"
if [ -n "$skip_reason" ]; then
  if [ $code -ne 0 ] && grep -qF -- "$skip_reason" "$log"; then
    echo "SKIPPED: $module: $skip_reason"
    exit 77
  fi
  echo "check-module: expected '$skip_reason', but the module $( [ $code -eq 0 ] && echo passed ||
        echo failed otherwise): update tests/host/expected-skips.txt"
  exit 1
fi
exit $code
