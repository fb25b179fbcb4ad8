#!/usr/bin/env bash
# The README's second command (and CI's): install what is missing, build,
# and run every test (GoogleTest units, lit/FileCheck, and the host suite:
# every module the compiler claims, run on this CPU against the reference
# interpreter) under ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
status=0
ctest --test-dir build --output-on-failure -j "$(nproc)" || status=$?
# ctest says that a test was skipped, not why: the scripts' SKIPPED lines
# say (the host suite's modules, steps without ptxas), and so do
# GoogleTest's skips (GTEST_SKIP: no corpus, no CUDA toolkit), whose
# message follows "FILE:LINE: Skipped" in the test's output in ctest's log:
# one line per reason, with its cases (the first three named).
log=build/Testing/Temporary/LastTest.log
if [ -f "$log" ]; then
  { grep -h '^SKIPPED: ' "$log" || true
    awk '/^[0-9]+\/[0-9]+ Test: / { sub(/^[0-9]+\/[0-9]+ Test: /, ""); test = $0; next }
         /^[^ ].*:[0-9]+: Skipped$/ { skipping = 1; reason = ""; next }
         skipping && (/^$/ || /^\[  SKIPPED \]/) {
           if (reason == "") reason = "(GTEST_SKIP without a message)"
           if (!(reason in count)) order[++reasons] = reason
           if (++count[reason] <= 3) names[reason] = names[reason] (count[reason] > 1 ? ", " : "") test
           skipping = 0; next }
         skipping { reason = reason (reason == "" ? "" : " ") $0 }
         END { for (i = 1; i <= reasons; i++) {
                 r = order[i]; n = count[r]
                 printf "SKIPPED: %s: %d GoogleTest case%s: %s%s\n", r, n, (n > 1 ? "s" : ""),
                        names[r], (n > 3 ? sprintf(" and %d more", n - 3) : "") } }' "$log"
  } | sort -u
fi
exit $status
