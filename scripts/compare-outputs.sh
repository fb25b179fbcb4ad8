#!/usr/bin/env bash
# A byte-for-byte record of what hlo-compile writes for every module of the
# corpus (../shared/corpus: xla/, models/, and each XLA dump's module.hlo):
# PTX for sm_90 with its manifest, host assembly, and each run's
# diagnostics (times stripped). Records of two builds compared with
# `diff -r` show that a change meant to keep behaviour (a restructuring)
# kept it.
#
#   scripts/compare-outputs.sh OUT [HLO_COMPILE] [CORPUS]
#   diff -r OUT_BEFORE OUT_AFTER && echo identical
#
# Defaults: build/bin/hlo-compile, ../shared/corpus. Uses every core
# (batch mode; JOBS=N for fewer).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out=${1:?usage: compare-outputs.sh OUT [HLO_COMPILE] [CORPUS]}
compiler=${2:-$root/build/bin/hlo-compile}
corpus=${3:-$root/../shared/corpus}
rm -rf "$out" && mkdir -p "$out"
mapfile -t inputs < <(cd "$corpus" && { find xla models -name '*.hlo'; ls dumps/*/module.hlo; } |
                      LC_ALL=C sort | sed "s|^|$corpus/|")
# Batch lines end in the time a module took: dropped, as is the total's;
# paths are relative to the corpus and to OUT.
strip_times() {
  sed -E -e 's/, [0-9]+\.[0-9]+ s$//' -e 's/ \([0-9]+\.[0-9]+ s, [0-9]+ at once\)$//' \
      -e "s|$corpus/||g" -e "s|$out/||g"
}
run() {
  local name=$1
  shift
  local start=$SECONDS
  "$compiler" -w "${inputs[@]}" --output-dir "$out/$name" -j "${JOBS:-$(nproc)}" "$@" 2>&1 | strip_times > "$out/$name.log" || true
  echo "compare-outputs: $name: $(ls "$out/$name" | wc -l) files, $((SECONDS - start)) s" >&2
}
run ptx --gpu-arch sm_90
run host --target=host --emit=asm
echo "compare-outputs: ${#inputs[@]} modules recorded in $out" >&2
