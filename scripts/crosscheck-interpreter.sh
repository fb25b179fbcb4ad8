#!/usr/bin/env bash
# Checks hlo-run's reference interpreter against XLA's own CPU backend (via
# JAX) on the same inputs: the examples and every corpus module hlo-compile
# claims. Prints one line per module and a summary. Needs a Python with jax
# (PYTHON=/path/to/python, default python3); development aid, not CI. Exits
# 1 if a module disagrees, 2 if nothing could be checked.
#
#   scripts/crosscheck-interpreter.sh [BUILD_DIR] [MODULE.hlo ...]
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"; shift || true
python="${PYTHON:-python3}"
corpus="$here/../shared/corpus/xla"
modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
  while IFS= read -r file; do modules+=("$file"); done < <("$here/scripts/gpu-check.sh" modules)
fi
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
pass=0; fail=0; skip=0
for module in "${modules[@]}"; do
  name="${module#$corpus/}"; name="${name#$here/}"
  dir="$work/$(echo "$name" | tr '/' '_')"
  if ! timeout 600 "$build/bin/hlo-run" --interpret "$module" --save-dir "$dir/in" > /dev/null 2> "$dir.err"; then
    echo "SKIP  $name: interpreter: $(head -1 "$dir.err")"; skip=$((skip + 1)); continue
  fi
  if ! "$python" "$here/scripts/xla-reference.py" run "$module" --inputs "$dir/in" \
       --outputs "$dir/xla" > /dev/null 2> "$dir.err"; then
    echo "SKIP  $name: XLA: $(grep -v '^ ' "$dir.err" | tail -1)"; skip=$((skip + 1)); continue
  fi
  inputs=()
  for input in "$dir"/in/input_*.npy; do
    [ -e "$input" ] || continue
    n="${input##*input_}"; inputs+=(--input "${n%.npy}=$input")
  done
  if out="$("$build/bin/hlo-run" --interpret "$module" "${inputs[@]}" --expect-dir "$dir/xla" 2>&1)"; then
    echo "PASS  $name"; pass=$((pass + 1))
  else
    echo "FAIL  $name"; echo "$out" | grep -E "FAIL|mismatch|error" | sed 's/^/      /' | head -4
    fail=$((fail + 1))
  fi
done
echo "interpreter vs XLA CPU: $pass passed, $fail failed, $skip skipped"
if [ "$pass" -eq 0 ] && [ "$fail" -eq 0 ]; then
  echo "crosscheck: checked nothing (is jax installed for $python?)" >&2
  exit 2
fi
[ "$fail" -eq 0 ]
