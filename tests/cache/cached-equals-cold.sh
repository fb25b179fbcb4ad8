#!/usr/bin/env bash
# The kernel cache gives the bytes a compile without it writes, for every
# corpus dump (issue 57), and two batches sharing one cache at once write
# what each would alone.
#
#   cached-equals-cold.sh HLO_COMPILE DUMPS_DIR WORK_DIR
#
# 1. each dump compiled alone, in a process of its own, with --no-cache:
#    the reference (no kernel is shared with any other compile);
# 2. two batches of every dump at once (one in reverse order), -j 2 each,
#    sharing one fresh cache: each compiles what the other has not yet;
# 3. a third batch on the full cache: every kernel found.
# Every PTX and manifest of 2 and 3 must be the reference's, byte for
# byte; 3 must compile nothing.
set -euo pipefail
compiler=$1 dumps=$2 work=$3
rm -rf "$work" && mkdir -p "$work/reference"
inputs=()
for dump in "$dumps"/*/; do
  [ -f "$dump/module.hlo" ] && inputs+=("$dump/module.hlo")
done
[ ${#inputs[@]} -gt 0 ] || { echo "no dumps under $dumps"; exit 1; }
# Batch output names are the dump's folder and the file: NAME.module.ptx.
for input in "${inputs[@]}"; do
  name=$(basename "$(dirname "$input")").module
  "$compiler" -w "$input" --no-cache -o "$work/reference/$name.ptx" \
      --manifest "$work/reference/$name.ptx.json"
done
reversed=()
for ((i = ${#inputs[@]} - 1; i >= 0; i--)); do reversed+=("${inputs[i]}"); done
"$compiler" -w "${inputs[@]}" --output-dir "$work/first" --cache-dir "$work/cache" -j 2 \
    2> "$work/first.log" &
first=$!
"$compiler" -w "${reversed[@]}" --output-dir "$work/second" --cache-dir "$work/cache" -j 2 \
    2> "$work/second.log" &
second=$!
wait $first || { cat "$work/first.log"; exit 1; }
wait $second || { cat "$work/second.log"; exit 1; }
"$compiler" -w "${inputs[@]}" --output-dir "$work/warm" --cache-dir "$work/cache" -j 2 -v \
    2> "$work/warm.log"
failed=0
for input in "${inputs[@]}"; do
  name=$(basename "$(dirname "$input")").module
  for run in first second warm; do
    for file in "$name.ptx" "$name.ptx.json"; do
      # The manifest names its code file: the same name in every folder.
      if ! cmp -s "$work/reference/$file" "$work/$run/$file"; then
        echo "FAIL: $run/$file differs from the compile without the cache"
        failed=1
      fi
    done
  done
done
if ! grep -q "kernel cache .*: 0 kernels compiled" "$work/warm.log"; then
  echo "FAIL: the warm batch compiled kernels:"
  grep 'kernel cache' "$work/warm.log" || true
  failed=1
fi
count=${#inputs[@]}
if [ $failed -eq 0 ]; then
  echo "cached-equals-cold: $count dumps, two concurrent batches and a warm one: every PTX" \
       "and manifest equal to the compile without the cache"
  grep 'kernel cache' "$work/warm.log"
  rm -rf "$work"
fi
exit $failed
