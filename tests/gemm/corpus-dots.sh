#!/bin/bash
# Every distinct plain dot of the corpus (tests/gemm/corpus_dots.py: the
# unoptimized models and XLA's emitter tests) compiles for sm_80, sm_90 and sm_90a
# with ptxas reporting no spills in any kernel, and the ones of at most
# 2^26 multiply-adds run on the host against the interpreter. Dots the
# tensor-core emitter takes are GEMM kernels; the others (outer products,
# 8-bit floats) loop fusions.
#
#   tests/gemm/corpus-dots.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
corpus=${HLO_CORPUS_DIR:-$here/../../../shared/corpus}
ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
rm -rf "$work" && mkdir -p "$work"
python3 "$here/corpus_dots.py" "$corpus" "$work" $((1 << 26))

failures=0
for part in small large; do
  for arch in sm_80 sm_90 sm_90a; do
    "$build/bin/hlo-compile" -w --gpu-arch=$arch "$work/$part.hlo" \
      -o "$work/$part.$arch.ptx" --manifest "$work/$part.$arch.json"
    kernels=$(grep -c '^.visible .entry' "$work/$part.$arch.ptx")
    gemms=$(grep -c '"emitter": "kGemm/MmaSyncGemmFusion"' "$work/$part.$arch.json" || true)
    if [ -x "$ptxas" ]; then
      "$ptxas" -arch=$arch -v "$work/$part.$arch.ptx" -o /dev/null 2> "$work/$part.$arch.ptxas"
      clean=$(grep -c '0 bytes spill stores, 0 bytes spill loads' "$work/$part.$arch.ptxas" || true)
      echo "$part $arch: $kernels kernels ($gemms GEMM launches), $clean without spills"
      if [ "$clean" != "$kernels" ]; then
        echo "FAIL: $part $arch: kernels that spill:"
        awk '/Function properties for/ {name = $NF}
             /bytes spill/ && !/ 0 bytes spill stores, 0 bytes spill loads/ {print "  " name ": " $0}' \
          "$work/$part.$arch.ptxas"
        failures=$((failures + 1))
      fi
    else
      echo "$part $arch: $kernels kernels ($gemms GEMM launches); ptxas not found at $ptxas: not assembled"
    fi
  done
done

# On the host as sm_90 (mma.sync) and as sm_90a (wgmma where the tile
# allows).
for arch in sm_90 sm_90a; do
  "$build/bin/hlo-compile" -w --target=host --gpu-arch=$arch "$work/small.hlo" \
    -o "$work/small.$arch.so" --manifest "$work/small.$arch.host.json"
  if ! "$build/bin/hlo-run" "$work/small.hlo" --manifest "$work/small.$arch.host.json" \
      --mode module > "$work/small.$arch.run" 2>&1; then
    grep -v ' PASS$' "$work/small.$arch.run" | tail -20
    echo "FAIL: the host run of small.hlo as $arch"
    failures=$((failures + 1))
  fi
  passed=$(grep -c ' PASS$' "$work/small.$arch.run" || true)
  echo "host ($arch): $passed outputs match the interpreter"
done
[ "$failures" = 0 ] && echo PASS
exit $failures
