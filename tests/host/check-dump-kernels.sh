#!/usr/bin/env bash
# One ctest per XLA dump with block-level normalization fusions
# (tests/CMakeLists.txt): every kernel of that kind (--emit=fusion-analysis)
# compiled for the host target and run against the reference interpreter
# on its own inputs, one at a time. A kernel whose arrays exceed the
# interpreter's limit is listed as not run, with that reason (it is still
# assembled by ptxas in DumpHeroFusions); any other failure fails the test.
#
#   check-dump-kernels.sh HLO_COMPILE HLO_RUN MODULE.hlo WORK_DIR KIND
set -uo pipefail
hlo_compile=$1 hlo_run=$2 module=$3 work=$4 kind=$5
mkdir -p "$work"
kernels=$("$hlo_compile" --emit=fusion-analysis "$module" 2>/dev/null |
          awk -v kind="$kind" '$2 == kind { sub(/:$/, "", $1); print $1 }')
if [ -z "$kernels" ]; then
  echo "check-dump-kernels: no $kind kernel in $module"
  exit 1
fi
passed=0 oversized=0 failed=0
for kernel in $kernels; do
  log="$work/$kernel.log"
  {
    "$hlo_compile" --target=host -w "$module" --kernel "$kernel" -o "$work/$kernel.so" \
      --manifest "$work/$kernel.json" &&
      "$hlo_run" "$module" --manifest "$work/$kernel.json" --mode kernels
  } > "$log" 2>&1
  code=$?
  if [ $code -eq 0 ]; then
    passed=$((passed + 1))
    echo "PASS $kernel"
  elif grep -q "more than the interpreter's limit" "$log"; then
    oversized=$((oversized + 1))
    echo "NOT RUN $kernel: $(grep -m1 "more than the interpreter's limit" "$log")"
  else
    failed=$((failed + 1))
    echo "FAIL $kernel"
    cat "$log"
  fi
done
echo "$kind kernels: $passed passed, $failed failed, $oversized not run (over the interpreter's limit)"
[ $failed -eq 0 ] || exit 1
# Every kernel over the interpreter's limit: skipped (ctest), with the
# reason in the line scripts/test.sh collects.
if [ $passed -eq 0 ]; then
  echo "SKIPPED: $module: all $oversized $kind kernels need more than the interpreter's limit"
  exit 77
fi
