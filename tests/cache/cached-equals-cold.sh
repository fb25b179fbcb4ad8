#!/usr/bin/env bash
# The kernel cache gives the bytes a compile without it writes (issue 57),
# for every corpus dump and the unoptimized programs (whose HLO pipeline
# result it keeps too), and two batches sharing one cache at once write
# what each would alone.
#
#   cached-equals-cold.sh HLO_COMPILE CORPUS_DIR SOURCE_DIR WORK_DIR
#
# Per group of inputs (the dumps; corpus/models/jax; bench/data/pipeline):
# 1. each input compiled alone, in a process of its own, with --no-cache:
#    the reference (no kernel is shared with any other compile);
# 2. two batches of the group at once (one in reverse order), -j 2 each,
#    sharing one fresh cache: each compiles what the other has not yet;
# 3. a third batch on the full cache: every kernel found.
# Every output file of 2 and 3 (PTX, manifest, the module compiled) must
# be the reference's, byte for byte; 3 must compile nothing. And a batch
# alone on a fresh cache compiles each distinct kernel once (-j 2 puts two
# inputs with equal kernels at work at once).
set -euo pipefail
compiler=$1 corpus=$2 source=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
failed=0 total=0

# check GROUP NAMING INPUT...: NAMING says how a batch names an input's
# outputs (dump: FOLDER.module, stem: FILE's stem, folder: FOLDER.STEM).
check() {
  local group=$1 naming=$2
  shift 2
  local inputs=("$@") dir="$work/$group" names=()
  mkdir -p "$dir/reference"
  for input in "${inputs[@]}"; do
    local stem folder name
    stem=$(basename "$input" .hlo) folder=$(basename "$(dirname "$input")")
    case $naming in
      dump) name=$folder.module ;;
      stem) name=$stem ;;
      folder) name=$folder.$stem ;;
    esac
    names+=("$name")
    "$compiler" -w "$input" --no-cache -o "$dir/reference/$name.ptx" \
        --manifest "$dir/reference/$name.ptx.json"
  done
  local reversed=()
  for ((i = ${#inputs[@]} - 1; i >= 0; i--)); do reversed+=("${inputs[i]}"); done
  "$compiler" -w "${inputs[@]}" --output-dir "$dir/first" --cache-dir "$dir/cache" -j 2 \
      2> "$dir/first.log" &
  local first=$!
  "$compiler" -w "${reversed[@]}" --output-dir "$dir/second" --cache-dir "$dir/cache" -j 2 \
      2> "$dir/second.log" &
  local second=$!
  wait $first || { cat "$dir/first.log"; exit 1; }
  wait $second || { cat "$dir/second.log"; exit 1; }
  "$compiler" -w "${inputs[@]}" --output-dir "$dir/warm" --cache-dir "$dir/cache" -j 2 -v \
      2> "$dir/warm.log"
  for name in "${names[@]}"; do
    for file in "$dir/reference/$name".*; do
      file=$(basename "$file")
      for run in first second warm; do
        # The manifest names its code file: the same name in every folder.
        if ! cmp -s "$dir/reference/$file" "$dir/$run/$file"; then
          echo "FAIL: $group: $run/$file differs from the compile without the cache"
          failed=1
        fi
      done
    done
  done
  # One batch alone on a fresh cache compiles each distinct kernel (and
  # each pipeline result) once: as many compiles as entries stored.
  "$compiler" -w "${inputs[@]}" --output-dir "$dir/alone" --cache-dir "$dir/alone-cache" -j 2 -v \
      2> "$dir/alone.log"
  local compiled entries
  compiled=$(sed -n 's/.*kernel cache .*: \([0-9]*\) kernels compiled,.*/\1/p' "$dir/alone.log")
  entries=$(find "$dir/alone-cache/v1" -type f | wc -l)
  if [ "$compiled" != "$entries" ]; then
    echo "FAIL: $group: one batch compiled $compiled times for $entries distinct entries"
    failed=1
  fi
  if ! grep -q "kernel cache .*: 0 kernels compiled" "$dir/warm.log"; then
    echo "FAIL: $group: the warm batch compiled kernels:"
    grep 'kernel cache' "$dir/warm.log" || true
    failed=1
  fi
  echo "$group: ${#inputs[@]} inputs; warm: $(grep "kernels compiled," "$dir/warm.log")"
  total=$((total + ${#inputs[@]}))
}

dumps=()
for dump in "$corpus"/dumps/*/; do
  [ -f "$dump/module.hlo" ] && dumps+=("${dump%/}/module.hlo")
done
[ ${#dumps[@]} -gt 0 ] || { echo "no dumps under $corpus/dumps"; exit 1; }
check dumps dump "${dumps[@]}"
check jax stem "$corpus"/models/jax/*.hlo
check bench folder "$source"/bench/data/pipeline/*/unoptimized.hlo
if [ $failed -eq 0 ]; then
  echo "cached-equals-cold: $total inputs, two concurrent batches and a warm one per group:" \
       "every output equal to the compile without the cache"
  rm -rf "$work"
fi
exit $failed
