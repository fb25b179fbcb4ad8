#!/usr/bin/env bash
# Runs every ```sh block of the README as written, from a scratch copy of
# the repository root (its folders linked, so outputs land in the scratch
# directory): the README's commands must work as they are shown. Blocks
# that cannot run here (installing, a GPU) are ```console.
#
#   run-readme-blocks.sh SOURCE_DIR BUILD_DIR SCRATCH_DIR
set -uo pipefail
source_dir=$1 build_dir=$2 scratch=$3
rm -rf "$scratch"; mkdir -p "$scratch"
for entry in "$source_dir"/*; do
  name=$(basename "$entry")
  [ "$name" = build ] || ln -s "$entry" "$scratch/$name"
done
ln -s "$build_dir" "$scratch/build"
awk '/^```sh$/ {n++; inside=1; next} /^```/ {inside=0; next}
     inside {print > (dir "/block" n ".sh")}' dir="$scratch" "$source_dir/README.md"
status=0 count=0
for block in "$scratch"/block*.sh; do
  count=$((count + 1))
  if ! (cd "$scratch" && bash -euo pipefail "$block" > "$block.log" 2>&1); then
    echo "README block $(basename "$block" .sh) failed:"; cat "$block"
    echo "--- its output:"; tail -20 "$block.log"
    status=1
  fi
done
echo "README: $count sh blocks run, $( [ $status -eq 0 ] && echo all passed || echo some failed)"
exit $status
