#!/usr/bin/env bash
# The GPU check, in two halves.
#
# `scripts/gpu-check.sh modules` lists the modules checked by default.
#
# Here, where hlo-compile is built:
#   scripts/gpu-check.sh bundle DIR [--arch sm_90] [MODULE.hlo ...]
#     Compiles the examples and every corpus module hlo-compile claims (or
#     the given modules) to PTX + manifest under DIR/modules/ (with the
#     default modules on sm_90+, also the hand-written kernel of
#     tests/lit/runtime/launch-features.test), and puts
#     hlo-run (plus its sources, to rebuild it there if the binary does not
#     start), xla-reference.py and this script beside them.
#
# There, on a machine with a GPU (the NVIDIA driver; no LLVM needed):
#   DIR/gpu-check.sh run [--xla] [--iterations N] [--timeout S] [--rebuild]
#                        [--mode auto|module|kernels|replay] [--jobs N]
#                        [--launch-only]
#     Runs every module's kernels with hlo-run (--mode: hlo-run's), checks
#     them against the reference interpreter, times them (not with
#     --jobs N > 1, which checks N modules at once and times nothing), and
#     prints one table: module,
#     kernel, emitter, max error, PASS/FAIL, us, GB/s, % of the device's
#     copy bandwidth, and with --xla the module's time under XLA (JAX on the
#     same GPU: mean time of one execution of the whole module, executions
#     queued back to back; its errors in DIR/xla.log). Exits 1 if
#     a kernel fails, 2 if a module could not be checked. --rebuild builds
#     hlo-run from the bundled sources even if the bundled binary starts.
#     --launch-only runs the kernels and checks nothing (hlo-run's).
#
# Here, before a GPU is lent (CI runs it):
#   scripts/gpu-check.sh dry-run DIR [--arch sm_90] [--python PY] [MODULE.hlo ...]
#     The whole GPU check against the stand-in CUDA driver
#     (tests/tools/fake-libcuda.cpp, which enforces the driver's launch
#     rules but executes no kernel): bundles as for a GPU, rebuilds hlo-run
#     from the bundle's own sources with LLVM/MLIR out of reach (as on the
#     GPU machine), runs every module, and the XLA side of --xla up to
#     where it needs a device (xla-reference.py --dry-run with PY, a
#     Python with jax; skipped without). The stand-in computes nothing, so
#     the modules run with --launch-only (nothing is compared); a kernel
#     fault, an ERROR, a TIMEOUT, a missing file or a hlo-run that links
#     LLVM fails the dry run.
#
# Here, without a GPU:
#   scripts/gpu-check.sh host DIR [--arch sm_90] [--iterations N]
#                        [--timeout S] [MODULE.hlo ...]
#     The same for the host target: compiles the modules for this CPU into
#     DIR and runs them here; the same table, its times CPU times (cpu_us,
#     cpu_GB/s, % of memcpy).
set -uo pipefail

usage() { sed -n '2,46p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
command="$1"; shift

# The modules checked by default, one path a line: the examples and every
# corpus module hlo-compile claims: whole categories, and the modules of
# tests/claimed-modules.txt (scripts/crosscheck-interpreter.sh uses the
# same list).
default_modules() {
  local root; root="$(cd "$(dirname "$0")/.." && pwd)"
  local corpus="${HLO_CORPUS_DIR:-$root/../shared/corpus}/xla"
  ls "$root"/examples/*.hlo
  [ -f "$corpus/INDEX.tsv" ] || return 0
  { awk -F'\t' 'NR > 1 && ($2 == "loop" || $2 == "input_slices" || $2 == "convert" ||
                ($2 == "dynamic_update_slice" && $4 ~ /^kLoop/) || $2 ~ /^reduce_/ ||
                $2 == "transpose" || $2 == "concatenate" || $2 == "scatter") {print $1}' \
      "$corpus/INDEX.tsv"
    grep -v '^#' "$root/tests/claimed-modules.txt"; } | sed "s|^|$corpus/|"
}

bundle() {
  [ $# -ge 1 ] || usage
  local dir="$1"; shift
  local arch=sm_90 target=nvptx modules=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --arch) arch="$2"; shift 2 ;;
      --target) target="$2"; shift 2 ;;
      *) modules+=("$1"); shift ;;
    esac
  done
  local code=kernels.ptx
  [ "$target" = host ] && code=kernels.so
  local root; root="$(cd "$(dirname "$0")/.." && pwd)"
  local build="${BUILD_DIR:-$root/build}"
  for tool in hlo-compile hlo-run; do
    [ -x "$build/bin/$tool" ] || { echo "gpu-check: build $tool first ($build/bin)"; exit 2; }
  done
  local default_set=0
  if [ ${#modules[@]} -eq 0 ]; then
    default_set=1
    while IFS= read -r module; do modules+=("$module"); done < <(default_modules)
  fi
  rm -rf "$dir"; mkdir -p "$dir/modules" "$dir/bin" "$dir/src"
  echo "$target" > "$dir/target"
  local compiled=0 skipped=0
  : > "$dir/not-compiled.txt"
  for module in "${modules[@]}"; do
    local name; name="$(basename "$(dirname "$module")")_$(basename "$module" .hlo)"
    local out="$dir/modules/$name"
    mkdir -p "$out"
    cp "$module" "$out/module.hlo"
    if "$build/bin/hlo-compile" "$module" -w --gpu-arch "$arch" --target "$target" \
         -o "$out/$code" --manifest "$out/kernels.json" 2> "$out/compile.log"; then
      compiled=$((compiled + 1))
    else
      echo "$name: $(grep -m1 'error:' "$out/compile.log")" >> "$dir/not-compiled.txt"
      rm -rf "$out"; skipped=$((skipped + 1))
    fi
  done
  # The launch features no emitter uses yet (a tensor map, clusters,
  # dynamic shared memory, a register bound): a hand-written sm_90a kernel
  # (tests/lit/runtime/launch-features.test), with the default modules on
  # sm_90 and later.
  local inputs="$root/tests/lit/runtime/Inputs" capability="${arch#sm_}"
  capability="${capability%%[a-z]*}"
  if [ "$target" = nvptx ] && [ "$default_set" -eq 1 ] && [ "${capability:-0}" -ge 90 ]; then
    local out="$dir/modules/runtime_launch-features"
    mkdir -p "$out"
    cp "$inputs/launch-features.hlo" "$out/module.hlo"
    cp "$inputs/launch-features.ptx" "$out/kernels.ptx"
    sed 's/"code": "launch-features.ptx"/"code": "kernels.ptx"/' "$inputs/launch-features.json" \
      > "$out/kernels.json"
    compiled=$((compiled + 1))
  fi
  cp "$build/bin/hlo-run" "$dir/bin/"
  cp "$0" "$dir/gpu-check.sh"
  cp "$root/scripts/xla-reference.py" "$dir/"
  # hlo-run's sources, to rebuild it where the binary does not start.
  cp "$root/CMakeLists.txt" "$dir/src/"
  mkdir -p "$dir/src/src" "$dir/src/third_party"
  cp -r "$root/src/support" "$root/src/abi" "$root/src/hlo_parser" "$root/src/interpreter" "$root/src/runtime" "$dir/src/src/"
  [ -d /usr/include/CLI ] && cp -r /usr/include/CLI "$dir/src/third_party/"
  echo "gpu-check: bundled $compiled modules for $arch$([ "$target" = host ] && echo " (host target)") in $dir ($(du -sh "$dir" | cut -f1));" \
       "$skipped not compiled (listed in $dir/not-compiled.txt)"
}

# Pads tab-separated columns to a common width (no `column` needed).
align_columns() {
  awk -F'\t' '{ rows[NR] = $0; for (i = 1; i <= NF; i++) if (length($i) > width[i]) width[i] = length($i) }
       END { for (r = 1; r <= NR; r++) { n = split(rows[r], f, "\t"); line = "";
               for (i = 1; i <= n; i++) line = line sprintf(i < n ? "%-" width[i] "s  " : "%s", f[i]);
               print line } }'
}

find_hlo_run() {
  local dir="$1" rebuild="$2"
  if [ "$rebuild" -eq 0 ] && "$dir/bin/hlo-run" --version > /dev/null 2>&1; then
    echo "$dir/bin/hlo-run"; return
  fi
  if [ "$rebuild" -eq 1 ]; then
    echo "gpu-check: building hlo-run from the bundled sources" >&2
  else
    echo "gpu-check: the bundled hlo-run does not start here; building it from source" >&2
  fi
  rm -rf "$dir/build-runtime"
  # HLO_RUN_CXXFLAGS replaces the Release flags (the dry run's -O1: it
  # times nothing, and compiles in two thirds of the time).
  local flags=()
  [ -n "${HLO_RUN_CXXFLAGS:-}" ] &&
    flags=(-DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=$HLO_RUN_CXXFLAGS")
  cmake -S "$dir/src" -B "$dir/build-runtime" -DHLO_RUNTIME_ONLY=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON -DHLO_CLI11_INCLUDE_DIR="$dir/src/third_party" \
    -DHLO_CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}" "${flags[@]}" > "$dir/build-runtime.log" 2>&1 &&
    cmake --build "$dir/build-runtime" -j "$(nproc)" >> "$dir/build-runtime.log" 2>&1 ||
    { echo "gpu-check: building hlo-run failed, see $dir/build-runtime.log" >&2; exit 2; }
  echo "$dir/build-runtime/bin/hlo-run"
}

run() {
  local dir; dir="$(cd "$(dirname "$0")" && pwd)"
  local xla=0 iterations=100 timeout=300 rebuild=0 xla_dry_run=0 python=python3
  local mode=auto jobs=1 launch_only=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --xla) xla=1; shift ;;
      --rebuild) rebuild=1; shift ;;
      # The dry run's: XLA up to the device, with this Python.
      --xla-dry-run) xla=1; xla_dry_run=1; python="$2"; shift 2 ;;
      --iterations) iterations="$2"; shift 2 ;;
      --timeout) timeout="$2"; shift 2 ;;
      --mode) mode="$2"; shift 2 ;;
      --jobs) jobs="$2"; shift 2 ;;
      --launch-only) launch_only=(--launch-only); shift ;;
      *) usage ;;
    esac
  done
  local host=0
  [ "$(cat "$dir/target" 2>/dev/null)" = host ] && host=1
  if [ $host -eq 1 ] && [ $xla -eq 1 ]; then
    echo "gpu-check: --xla times XLA on a GPU; a host bundle runs on this CPU"; exit 2
  fi
  local hlo_run; hlo_run="$(find_hlo_run "$dir" $rebuild)" || exit 2
  local report="$dir/report.tsv" failed=0 errors=0 xla_errors=0
  : > "$report"
  declare -A xla_us status
  # Each module's hlo-run (N at once with --jobs N), its exit status in
  # its folder; then the verdicts, in order.
  local bench=(--bench --iterations "$iterations")
  [ "$jobs" -gt 1 ] && bench=()
  export hlo_run timeout mode report
  printf '%s\0' "$dir"/modules/*/ | xargs -0 -P "$jobs" -I{} bash -c '
    module_dir="$1"; shift; name="$(basename "$module_dir")"
    rm -f "$report.$name"   # hlo-run appends: no rows of an earlier run
    timeout "$timeout" "$hlo_run" "$module_dir/module.hlo" --manifest "$module_dir/kernels.json" \
      --mode "$mode" --skip-oversized "$@" --report "$report.$name" > "$module_dir/run.log" 2>&1
    echo $? > "$module_dir/exit"' _ {} "${bench[@]}" "${launch_only[@]}"
  for module_dir in "$dir"/modules/*/; do
    local name; name="$(basename "$module_dir")"
    local code; code="$(cat "$module_dir/exit" 2>/dev/null || echo 125)"
    case $code in
      0) status[$name]=PASS ;;
      1) status[$name]=FAIL; failed=$((failed + 1)) ;;
      3) echo "gpu-check: $(tail -1 "$module_dir/run.log")"; exit 3 ;;
      4) status[$name]="SKIP(too large)" ;;
      124) status[$name]=TIMEOUT; errors=$((errors + 1)) ;;
      2) if grep -q "more than the interpreter's limit" "$module_dir/run.log"; then
           status[$name]="SKIP(too large)"
         else
           status[$name]="ERROR(2)"; errors=$((errors + 1))
         fi ;;
      *) status[$name]="ERROR($code)"; errors=$((errors + 1)) ;;
    esac
    if [ -f "$report.$name" ]; then
      # hlo-run's header row aside (the table prints its own).
      grep -v '^module'$'\t' "$report.$name" | sed "s|^[^\t]*|$name|" >> "$report"
      rm -f "$report.$name"
    else
      printf '%s\t-\t-\t-\t%s\t-\t-\t-\n' "$name" "${status[$name]}" >> "$report"
    fi
  done
  if [ $xla -eq 1 ]; then
    # XLA's side in one process (JAX starts once): a line per module.
    local xla_args=(time --platform gpu --iterations "$iterations")
    [ $xla_dry_run -eq 1 ] && xla_args+=(--dry-run)
    local modules=("$dir"/modules/*/module.hlo)
    timeout $((timeout * ${#modules[@]})) "$python" "$dir/xla-reference.py" "${xla_args[@]}" \
      "${modules[@]}" > "$dir/xla-times.tsv" 2> "$dir/xla.log"
    local path value
    while IFS=$'\t' read -r path value; do
      xla_us[$(basename "$(dirname "$path")")]="$value"
    done < "$dir/xla-times.tsv"
    for module_dir in "$dir"/modules/*/; do
      local name; name="$(basename "$module_dir")"
      case "${xla_us[$name]:-}" in
        ''|ERROR) xla_us[$name]=ERROR; xla_errors=$((xla_errors + 1)) ;;
      esac
    done
  fi
  head -1 "$dir/modules"/*/run.log 2>/dev/null | grep -m1 '^device:' || true
  {
    if [ $host -eq 1 ]; then
      printf 'module\tkernel\temitter\tmax_abs_error\tstatus\tcpu_us\tcpu_GB/s\t%%_of_memcpy'
    else
      printf 'module\tkernel\temitter\tmax_abs_error\tstatus\tus\tGB/s\t%%_of_copy'
    fi
    [ $xla -eq 1 ] && printf '\txla_module_us'
    printf '\n'
    while IFS=$'\t' read -r module kernel emitter error result us gbps percent; do
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$module" "$kernel" "$emitter" "$error" \
        "$result" "$us" "$gbps" "$percent"
      [ $xla -eq 1 ] && printf '\t%s' "${xla_us[$module]:--}"
      printf '\n'
    done < "$report"
  } | align_columns
  local total; total=$(ls -d "$dir"/modules/*/ | wc -l)
  local skipped; skipped=$(cut -f5 "$report" | grep -c '^SKIP')
  echo "gpu-check: $total modules: $((total - failed - errors - skipped)) passed, $failed failed," \
       "$errors errors, $skipped skipped$([ $xla -eq 1 ] && echo "; XLA: $xla_errors errors")" \
       "(logs: $dir/modules/*/run.log$([ $xla -eq 1 ] && echo ", $dir/xla.log"))"
  [ $errors -eq 0 ] && [ $xla_errors -eq 0 ] || exit 2
  [ $failed -eq 0 ] || exit 1
}

# The whole GPU check against the stand-in driver, as CI runs it.
dry_run() {
  [ $# -ge 1 ] || usage
  local dir="$1"; shift
  local bundle_args=() python=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --arch) bundle_args+=("$1" "$2"); shift 2 ;;
      --python) python="$2"; shift 2 ;;
      *) bundle_args+=("$1"); shift ;;
    esac
  done
  local root; root="$(cd "$(dirname "$0")/.." && pwd)"
  local cuda="${CUDA_HOME:-/usr/local/cuda}"
  bundle "$dir" "${bundle_args[@]}" || exit 2
  # The stand-in driver sits beside the bundle, not in it.
  mkdir -p "$dir.driver"
  c++ -std=c++17 -O1 -shared -fPIC -I"$cuda/include" "$root/tests/tools/fake-libcuda.cpp" \
    -o "$dir.driver/libcuda-fake.so" ||
    { echo "gpu-check: dry run: building the stand-in driver failed"; exit 2; }
  local xla_args=()
  if [ -n "$python" ] && "$python" -c 'import jax, jaxlib' 2> /dev/null; then
    xla_args=(--xla-dry-run "$python")
  else
    echo "gpu-check: dry run: no Python with jax given (--python): the XLA side is skipped"
  fi
  # The GPU machine's environment: no LLVM/MLIR on any path, nothing
  # inherited but the CUDA toolkit's location.
  env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="${HOME:-/tmp}" CUDA_HOME="$cuda" \
      HLO_RUN_LIBCUDA="$dir.driver/libcuda-fake.so" HLO_RUN_CXXFLAGS=-O1 \
      bash "$dir/gpu-check.sh" run --rebuild --iterations 1 --launch-only "${xla_args[@]}"
  local code=$?
  local rebuilt="$dir/build-runtime/bin/hlo-run"
  if [ ! -x "$rebuilt" ]; then
    echo "gpu-check: dry run: hlo-run was not rebuilt from the bundle"; exit 2
  fi
  if ldd "$rebuilt" | grep -Eiq 'llvm|mlir|libcuda' ||
     grep -q 'llvm-[0-9]' "$dir/build-runtime/compile_commands.json"; then
    echo "gpu-check: dry run: the rebuilt hlo-run uses LLVM/MLIR or links libcuda"; exit 2
  fi
  # The stand-in computes nothing, so nothing is compared (--launch-only:
  # the reference interpreter, which the host suite runs on the same
  # modules, would take most of the dry run's time); a FAIL is a kernel
  # fault.
  if [ $code -ne 0 ]; then
    echo "gpu-check: dry run: FAILED (exit $code): a kernel faulted or a module could not run"
    exit 2
  fi
  echo "gpu-check: dry run: passed (every module ran; hlo-run rebuilt without LLVM/MLIR)"
}

# The host target: bundle for this CPU, then run here.
host() {
  [ $# -ge 1 ] || usage
  local dir="$1"; shift
  local bundle_args=() run_args=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --arch) bundle_args+=("$1" "$2"); shift 2 ;;
      --iterations|--timeout) run_args+=("$1" "$2"); shift 2 ;;
      *) bundle_args+=("$1"); shift ;;
    esac
  done
  bundle "$dir" --target host "${bundle_args[@]}" || exit $?
  bash "$dir/gpu-check.sh" run "${run_args[@]}"
}

case "$command" in
  modules) default_modules ;;
  bundle) bundle "$@" ;;
  run) run "$@" ;;
  host) host "$@" ;;
  dry-run) dry_run "$@" ;;
  *) usage ;;
esac
