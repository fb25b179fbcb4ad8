#!/usr/bin/env bash
# Differential fuzzer of the whole compiler (issue 27): random valid HLO
# fusions of every kind hlo-compile claims (and, as --kind gemm / complex /
# module: XLA's Triton GEMM fusions per GPU architecture, c64/c128 fusions,
# whole modules with buffer sharing, donation and 8-/4-bit entry values),
# compiled for the host and checked against the reference interpreter by
# hlo-run, and compiled to cubin for sm_80 and sm_90 (ptxas; a gemm case:
# for its own two of sm_80, sm_89, sm_90a). The generator and driver are
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
# --bounded fails on more: see below. Steps or cases that could not run
# (no ptxas: the cubin steps, and the `large` cases, which have no other)
# are counted as skipped, each reason on a `SKIPPED:` line.
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
  # Fixed seeds (1..120), under a minute on 2 cores; failures are saved unreduced
  # (rerun a seed with --cases 1 --seed S to reduce it). Every outcome but a
  # pass fails here: besides the bug classes (mismatch, fault, crash or
  # internal error, ptxas failure), run errors of hlo-run, timeouts (a step
  # over 60 s; the slowest takes under a second) and driver errors. And a
  # compiler that refuses the fuzzer's modules checks nothing: any compile
  # error fails, and no kind may end "unsupported" in more than 5% of its
  # cases (one of the 20-odd loop or reduce cases; none of a smaller kind).
  # At 42d169b all 120 cases passed: no refusal of any kind; with the gemm,
  # complex and module kinds in the mix (at 0b77c36) too.
  exec python3 "$root/fuzz/hlo_fuzz.py" --cases 120 --seed 1 --jobs 2 --no-reduce -q \
    --host-threads 1 \
    --fail-on mismatch,fault,crash,ptxas-failure,compile-error,run-error,timeout,tool-error \
    --max-refused 0.05 "${args[@]+"${args[@]}"}"
fi
exec python3 "$root/fuzz/hlo_fuzz.py" "${args[@]+"${args[@]}"}"
