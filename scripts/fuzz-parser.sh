#!/usr/bin/env bash
# Builds the libFuzzer target for the HLO parser with clang and runs it.
#   scripts/fuzz-parser.sh [SECONDS]   (default 600)
# Seeds: every .hlo of ../shared/corpus. Crashes land in fuzz-out/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
corpus_dir="${HLO_CORPUS_DIR:-$(pwd)/../shared/corpus}"
command -v clang++-14 >/dev/null || {
  echo "fuzz-parser: needs clang++-14 and libclang-rt-14-dev" >&2; exit 1; }
cmake -S . -B build-fuzz -G Ninja -DHLO_ENABLE_FUZZERS=ON \
  -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz --target hlo-parser-fuzzer
mkdir -p fuzz-out/corpus fuzz-out/artifacts
if [ -d "$corpus_dir" ]; then
  find "$corpus_dir" -name '*.hlo' -size -64k -exec cp {} fuzz-out/corpus/ \;
fi
exec build-fuzz/bin/hlo-parser-fuzzer fuzz-out/corpus \
  -artifact_prefix=fuzz-out/artifacts/ -max_total_time="$seconds" \
  -max_len=65536 -print_final_stats=1
