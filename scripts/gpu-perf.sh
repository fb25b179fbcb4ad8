#!/usr/bin/env bash
# The performance run for a short GPU loan (issue 53), in two halves.
#
# Here, where hlo-compile is built (ptxas from the CUDA toolkit):
#   scripts/gpu-perf.sh bundle DIR [--arch sm_90a] [--dumps GLOB] [--no-check] [--ptx]
#                              [--archive] [--tune "CASE ..."] [--tune-limit N]
#     DIR/check/: the GPU check's bundle (scripts/gpu-check.sh bundle: every
#       claimed module, hlo-run and its sources);
#     DIR/dumps/NAME/: every XLA dump of ../shared/corpus/dumps (or those
#       matching GLOB, e.g. 'gpt2*'): its module.hlo, our kernels as a cubin
#       and manifest, and XLA's kernels (xla_kernels.tsv, xla_ptx/) each
#       assembled to a cubin too (a cubin_file column), so that nothing is
#       JIT-compiled on the GPU machine;
#     DIR/gemm/: the GEMM bench (bench/gemm/run.py compile: ours beside
#       cuBLASLt, default tier);
#     DIR/autotune/CASE/: each --tune case's GEMM candidates (hlo-run
#       --autotune-prepare, --tune-limit a case: default the bf16 and
#       f8e4m3fn GEMMs at 4096^3, 8 candidates each: what part (e) can
#       time and check in its share), compiled here and timed there;
#     DIR/gpu-perf.sh (this script) and DIR/summary.py
#       (bench/gpu_perf_summary.py). --no-check leaves DIR/check/ out;
#       --ptx bundles PTX instead of cubins (what the CUDA stand-in reads);
#       --archive also writes DIR.tar.xz (all dumps: ~100 MB as files, ~7 MB
#       archived; what a device loan's 64 MiB carry takes: `tar xJf` there).
#
# Here, before a GPU is lent (a ctest runs it on two dumps):
#   scripts/gpu-perf.sh dry-run DIR [--dumps GLOB] [--budget SECONDS]
#     Bundles with --ptx and runs the run half against the CUDA and
#     cuBLASLt stand-ins (tests/tools/fake-*.cpp, built by the build):
#     every part must start and write its tables; the stand-ins compute
#     nothing, so times and checks mean nothing there.
#
# There, on the GPU machine (the NVIDIA driver and python3; no LLVM):
#   DIR/gpu-perf.sh run [--budget SECONDS] [--jobs N] [--warmup W] [--iterations I]
#     (a) correctness: the claimed modules kernel by kernel (gpu-check.sh
#         run --mode kernels, N at once), then every dump kernel by kernel
#         with XLA's kernel beside ours (hlo-run --xla-kernels: both
#         checked against the interpreter; kernels whose reference needs
#         an array over 2^24 elements are skipped), N dumps at once;
#     (b) timing: every dump, one at a time, each of our kernels and XLA's
#         for the same fusion on the same seeded inputs (hlo-run --time-only
#         --xla-kernels: back-to-back launches between one event pair,
#         median of 5 batches, L2 not flushed);
#     (c) the GEMM bench (bench/gemm/run.py run), ours beside cuBLASLt;
#     (e) GEMM autotune: each case's candidates timed, the fastest checked
#         against the interpreter, the winners in DIR/results/gemm-tuned.jsonl
#         (hlo-compile --gemm-configs reads it: commit it to keep them);
#     (d) DIR/results/summary.md from what (a)-(e) wrote.
#     Each part has its share of --budget (default 480 s: a 120 + b 170 +
#     c 90 + e 70 (at least 30), the rest margin), every module a time limit of its own, and
#     every table is written as it goes (hlo-run appends each kernel's row
#     when it is done): a run cut short leaves what it measured.
#
# Sizing (the two earlier 15-minute loans): kernels mode over the 184
# claimed modules took ~100 s on 14 jobs; the dumps hold ~5,000 of our
# launches, ~1,600 distinct (--time-only times shared code once), and
# 1,573 XLA kernels; at --iterations 10 a kernel costs 5 x 10 launches
# plus as many copies, ~0.2 ms for most, ~50 ms for the largest GEMMs.
set -uo pipefail

usage() { sed -n '2,58p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 1 ] || usage
command="$1"; shift

bundle() {
  [ $# -ge 1 ] || usage
  local dir="$1"; shift
  local arch=sm_90a glob='*' check=1 code=cubin archive=0 tune_limit=8
  local tune="bf16_4096x4096x4096 f8e4m3fn_4096x4096x4096"
  while [ $# -gt 0 ]; do
    case "$1" in
      --arch) arch="$2"; shift 2 ;;
      --tune) tune="$2"; shift 2 ;;
      --tune-limit) tune_limit="$2"; shift 2 ;;
      --dumps) glob="$2"; shift 2 ;;
      --no-check) check=0; shift ;;
      --ptx) code=ptx; shift ;;
      --archive) archive=1; shift ;;
      *) usage ;;
    esac
  done
  local root; root="$(cd "$(dirname "$0")/.." && pwd)"
  local build="${BUILD_DIR:-$root/build}"
  local corpus="${HLO_CORPUS_DIR:-$root/../shared/corpus}"
  local ptxas="${CUDA_HOME:-/usr/local/cuda}/bin/ptxas"
  [ -x "$build/bin/hlo-compile" ] && [ -x "$build/bin/hlo-run" ] ||
    { echo "gpu-perf: build hlo-compile and hlo-run first ($build/bin)"; exit 2; }
  [ -x "$ptxas" ] || { echo "gpu-perf: no ptxas at $ptxas (set CUDA_HOME)"; exit 2; }
  rm -rf "$dir"; mkdir -p "$dir/dumps" "$dir/bin"
  if [ $check -eq 1 ]; then
    BUILD_DIR="$build" bash "$root/scripts/gpu-check.sh" bundle "$dir/check" --arch "$arch" ||
      exit 2
  fi
  cp "$build/bin/hlo-run" "$dir/bin/"
  local bundled=0 failed=0
  : > "$dir/not-bundled.txt"
  for dump in "$corpus"/dumps/$glob; do
    [ -f "$dump/module.hlo" ] || continue
    local name; name="$(basename "$dump")"
    local out="$dir/dumps/$name"
    mkdir -p "$out/xla_ptx"
    cp "$dump/module.hlo" "$out/"
    if ! "$build/bin/hlo-compile" -w --gpu-arch "$arch" "$dump/module.hlo" -o "$out/module.$code" \
         --manifest "$out/module.json" 2> "$out/compile.log"; then
      echo "$name: $(grep -m1 'error:' "$out/compile.log")" >> "$dir/not-bundled.txt"
      rm -rf "$out"; failed=$((failed + 1)); continue
    fi
    # XLA's kernels, each assembled as XLA's own ptxas run would (-arch of
    # its PTX's .target); the table gains the cubin's path.
    cp "$dump"/xla_ptx/*.ptx "$out/xla_ptx/" 2> /dev/null
    if [ "$code" = ptx ]; then
      cp "$dump/xla_kernels.tsv" "$out/"
      bundled=$((bundled + 1)); continue
    fi
    awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ptx_file") c = i;
                                       print $0, "cubin_file"; next }
                             { p = $c; sub(/\.ptx$/, ".cubin", p); print $0, p }' \
      "$dump/xla_kernels.tsv" > "$out/xla_kernels.tsv"
    ls "$out"/xla_ptx/*.ptx 2> /dev/null |
      xargs -r -P "$(nproc)" -I{} sh -c \
        'ptx="$1"; "$2" -arch="$(sed -n "s/^\.target \([a-z0-9_]*\).*/\1/p" "$ptx" | head -1)" \
           "$ptx" -o "${ptx%.ptx}.cubin" 2>> "$3/ptxas.log" || echo "$ptx" >> "$3/ptxas-failed.txt"' \
        _ {} "$ptxas" "$out"
    bundled=$((bundled + 1))
  done
  python3 "$root/bench/gemm/run.py" compile "$dir/gemm" --arch "$arch" \
    --hlo-compile "$build/bin/hlo-compile" --hlo-run "$build/bin/hlo-run" \
    > "$dir/gemm-compile.log" 2>&1 ||
    echo "gpu-perf: the GEMM bench did not compile (see $dir/gemm-compile.log)"
  local case_name
  for case_name in $tune; do
    local case_dir="$dir/gemm/cases/$case_name"
    [ -f "$case_dir/ours.json" ] || continue
    "$build/bin/hlo-run" "$case_dir/ours.hlo" --manifest "$case_dir/ours.json" \
      --autotune-prepare "$dir/autotune/$case_name" --autotune-limit "$tune_limit" \
      --hlo-compile "$build/bin/hlo-compile" >> "$dir/autotune-prepare.log" 2>&1 ||
      echo "gpu-perf: the autotune candidates of $case_name did not compile"
  done
  cp "$0" "$dir/gpu-perf.sh"
  cp "$root/bench/gpu_perf_summary.py" "$dir/summary.py"
  echo "gpu-perf: bundled $bundled dumps for $arch in $dir ($(du -sh "$dir" | cut -f1));" \
       "$failed not compiled (listed in $dir/not-bundled.txt)"
  if [ $archive -eq 1 ]; then
    tar cJf "$dir.tar.xz" -C "$(dirname "$dir")" "$(basename "$dir")" ||
      { echo "gpu-perf: could not write $dir.tar.xz"; exit 2; }
    echo "gpu-perf: $dir.tar.xz ($(du -sh "$dir.tar.xz" | cut -f1)); there: tar xJf" \
         "$(basename "$dir").tar.xz && $(basename "$dir")/gpu-perf.sh run"
  fi
}

# Runs "$@" under a limit of $1 seconds; returns its status (124: limit).
limited() { local seconds="$1"; shift; timeout --kill-after=10 "$seconds" "$@"; }

# Seconds left before the part's deadline (at least 1).
left() { local now; now=$(date +%s); echo $(( $1 > now ? $1 - now : 1 )); }

run() {
  local dir; dir="$(cd "$(dirname "$0")" && pwd)"
  local budget=480 jobs=8 warmup=3 iterations=10
  while [ $# -gt 0 ]; do
    case "$1" in
      --budget) budget="$2"; shift 2 ;;
      --jobs) jobs="$2"; shift 2 ;;
      --warmup) warmup="$2"; shift 2 ;;
      --iterations) iterations="$2"; shift 2 ;;
      *) usage ;;
    esac
  done
  local hlo_run="$dir/bin/hlo-run"
  "$hlo_run" --version > /dev/null 2>&1 ||
    { echo "gpu-perf: the bundled hlo-run does not start here"; exit 2; }
  local results="$dir/results"
  rm -rf "$results"; mkdir -p "$results/check" "$results/perf"
  local start; start=$(date +%s)
  local part_a=$(( budget * 120 / 480 )) part_b=$(( budget * 170 / 480 ))
  local part_c=$(( budget * 90 / 480 )) part_e=$(( budget * 70 / 480 ))
  [ "$part_e" -lt 30 ] && part_e=30
  echo "gpu-perf: budget ${budget}s: correctness ${part_a}s, timing ${part_b}s, GEMMs ${part_c}s, autotune ${part_e}s" |
    tee "$results/log.txt"

  # (a) Correctness: claimed modules, then the dumps with XLA's kernels.
  local deadline=$(( $(date +%s) + part_a ))
  if [ -x "$dir/check/gpu-check.sh" ]; then
    limited "$(( part_a / 2 ))" bash "$dir/check/gpu-check.sh" run --mode kernels --jobs "$jobs" \
      --timeout 60 > "$results/check/claimed.txt" 2>&1
    echo "claimed modules: exit $? ($(grep -c ' PASS' "$results/check/claimed.txt") PASS lines)" |
      tee -a "$results/log.txt"
  fi
  local names=()
  for out in "$dir"/dumps/*/; do names+=("$(basename "$out")"); done
  printf '%s\n' "${names[@]}" |
    xargs -r -P "$jobs" -I{} bash -c '
      d="$1/dumps/$2"
      timeout --kill-after=10 "$3" "$1/bin/hlo-run" "$d/module.hlo" --manifest "$d/module.json" \
        --xla-kernels "$d" --mode kernels --skip-oversized --max-elements 16777216 \
        --report "$4/check/$2.tsv" > "$4/check/$2.log" 2>&1
      echo "$2: exit $?" >> "$4/check/status.txt"' _ "$dir" {} "$(left "$deadline")" "$results"
  echo "dumps checked: $(wc -l < "$results/check/status.txt" 2>/dev/null || echo 0)" |
    tee -a "$results/log.txt"

  # (b) Timing, one dump at a time (the device to itself).
  deadline=$(( $(date +%s) + part_b ))
  local per_dump=$(( part_b / (${#names[@]} > 0 ? ${#names[@]} : 1) ))
  [ "$per_dump" -lt 20 ] && per_dump=20
  for name in "${names[@]}"; do
    local remaining; remaining=$(left "$deadline")
    [ "$remaining" -le 1 ] && { echo "timing: out of time before $name" >> "$results/log.txt"; break; }
    local d="$dir/dumps/$name"
    limited "$(( per_dump < remaining ? per_dump : remaining ))" "$hlo_run" "$d/module.hlo" \
      --manifest "$d/module.json" --xla-kernels "$d" --time-only --warmup "$warmup" --iterations "$iterations" \
      --report "$results/perf/$name.tsv" > "$results/perf/$name.log" 2>&1
    echo "timing $name: exit $?" >> "$results/log.txt"
  done

  # (c) The GEMM bench.
  if [ -f "$dir/gemm/run.py" ]; then
    limited "$part_c" python3 "$dir/gemm/run.py" run "$dir/gemm" \
      --time-limit "$(( part_c > 20 ? part_c - 10 : 10 ))" --out "$results/gemm.tsv" \
      > "$results/gemm.log" 2>&1
    echo "GEMM bench: exit $?" >> "$results/log.txt"
  fi

  # (e) GEMM autotune: the candidates compiled at bundle time, one case
  # at a time; the winners merged into one tuning file.
  deadline=$(( $(date +%s) + part_e ))
  for case_dir in "$dir"/autotune/*/; do
    [ -f "$case_dir/candidates.tsv" ] || continue
    local remaining; remaining=$(left "$deadline")
    [ "$remaining" -le 1 ] && { echo "autotune: out of time before $(basename "$case_dir")" >> "$results/log.txt"; break; }
    limited "$remaining" "$hlo_run" "$case_dir/module.hlo" --autotune "$results/gemm-tuned.jsonl" \
      --autotune-candidates "$case_dir" --autotune-timeout 120 --warmup "$warmup" \
      --iterations "$iterations" >> "$results/autotune.log" 2>&1
    local status=$?
    echo "autotune $(basename "$case_dir"): exit $status" >> "$results/log.txt"
  done

  # (d) The summary.
  python3 "$dir/summary.py" "$results" > "$results/summary.md" 2> "$results/summary.err"
  echo "gpu-perf: $(( $(date +%s) - start ))s in all; $results/summary.md" | tee -a "$results/log.txt"
  cat "$results/summary.md"
}

dry_run() {
  [ $# -ge 1 ] || usage
  local dir="$1"; shift
  local glob='*' budget=120
  while [ $# -gt 0 ]; do
    case "$1" in
      --dumps) glob="$2"; shift 2 ;;
      --budget) budget="$2"; shift 2 ;;
      *) usage ;;
    esac
  done
  local root; root="$(cd "$(dirname "$0")/.." && pwd)"
  local build="${BUILD_DIR:-$root/build}"
  local cuda="$build/lib/libcuda-fake.so" cublas="$build/lib/libcublasLt-fake.so"
  [ -f "$cuda" ] && [ -f "$cublas" ] ||
    { echo "gpu-perf: build the stand-ins first ($cuda, $cublas)"; exit 2; }
  bundle "$dir" --no-check --ptx --dumps "$glob" --tune bf16_2048x2048x2048 --tune-limit 2 || exit 2
  HLO_RUN_LIBCUDA="$cuda" HLO_RUN_LIBCUBLASLT="$cublas" FAKE_CUBLASLT_NO_COMPUTE=1 \
    bash "$dir/gpu-perf.sh" run --budget "$budget" --jobs 2 --warmup 0 --iterations 1 \
    > "$dir/dry-run.log" 2>&1
  local failed=0
  grep -q '^gpu-perf: .*s in all' "$dir/dry-run.log" || { echo "FAIL: the run did not finish"; failed=1; }
  # The stand-in computes nothing: checks FAIL (exit 1); they must run.
  if grep -v -E ': exit [01]$' "$dir/results/check/status.txt" > /dev/null 2>&1; then
    echo "FAIL: a dump's check did not run: $(grep -v -E ': exit [01]$' \
      "$dir/results/check/status.txt" | head -3)"
    failed=1
  fi
  if grep '^timing .*: exit' "$dir/results/log.txt" | grep -v ': exit 0$' > /dev/null; then
    echo "FAIL: a dump's timing did not run: $(grep '^timing' "$dir/results/log.txt" | grep -v 'exit 0$')"
    failed=1
  fi
  local timed; timed=$(cat "$dir"/results/perf/*.tsv 2> /dev/null | awk -F'\t' '$1 != "module" && $9 != "-" && $9 != ""' | wc -l)
  [ "$timed" -gt 0 ] || { echo "FAIL: no kernel was timed beside XLA's"; failed=1; }
  [ -s "$dir/results/summary.md" ] || { echo "FAIL: no summary"; failed=1; }
  # The stand-in computes nothing: the winner's check fails (exit 1); the
  # candidates must be timed.
  grep -q '^autotune bf16_2048x2048x2048: exit [01]$' "$dir/results/log.txt" &&
    grep -q '(as compiled)' "$dir/results/autotune.log" ||
    { echo "FAIL: the GEMM autotune did not run: $(grep '^autotune' "$dir/results/log.txt")"; failed=1; }
  echo "gpu-perf dry run: $(ls "$dir"/dumps | wc -l) dumps, $timed kernels timed beside XLA's;" \
       "$( [ $failed -eq 0 ] && echo passed || echo FAILED) (log: $dir/dry-run.log)"
  return $failed
}

case "$command" in
  bundle) bundle "$@" ;;
  run) run "$@" ;;
  dry-run) dry_run "$@" ;;
  *) usage ;;
esac
