#!/usr/bin/env bash
# Differential fuzzer of the whole compiler (issue 27): random valid HLO
# fusions of every kind hlo-compile claims, compiled for the host and
# checked against the reference interpreter by hlo-run, and compiled to
# cubin for sm_80 and sm_90 (ptxas). The generator and driver are
# fuzz/hlo_fuzz_gen.py and fuzz/hlo_fuzz.py; this is their front end.
#
#   scripts/fuzz.sh --minutes N [--seed S] [--jobs J] [--out DIR]   a long run
#   scripts/fuzz.sh --cases N [--seed S] ...                          N seeds from S
#   scripts/fuzz.sh --bounded [--out DIR]                             the ctest (fuzz.bounded):
#                                                                     fixed seeds, no reduction
# Other options (fuzz/hlo_fuzz.py --help): --kind K, --timeout SEC (per
# step, default 60), --no-reduce, --reduce-seconds SEC, --steps, --fail-on,
# -q. Tools: build/bin/hlo-compile and build/bin/hlo-run unless HLO_COMPILE /
# HLO_RUN name others. Every non-pass case is saved with its logs under
# DIR/cases/CLASS/KIND-seedS/ (default DIR: fuzz-out/compiler), reduced to
# a minimal module (reduced/module.hlo) that fails the same way; DIR/summary.txt
# is the table. Exit 1 on any mismatch, fault, crash or ptxas failure.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export HLO_COMPILE="${HLO_COMPILE:-$root/build/bin/hlo-compile}"
export HLO_RUN="${HLO_RUN:-$root/build/bin/hlo-run}"
args=()
bounded=0
for arg in "$@"; do
  if [ "$arg" = "--bounded" ]; then bounded=1; else args+=("$arg"); fi
done
if [ $bounded = 1 ]; then
  # Fixed seeds (1..120), about a minute on 2 cores; failures are saved unreduced
  # (rerun a seed with --cases 1 --seed S to reduce it).
  exec python3 "$root/fuzz/hlo_fuzz.py" --cases 120 --seed 1 --jobs 2 --no-reduce -q \
    --host-threads 1 "${args[@]+"${args[@]}"}"
fi
exec python3 "$root/fuzz/hlo_fuzz.py" "${args[@]+"${args[@]}"}"
