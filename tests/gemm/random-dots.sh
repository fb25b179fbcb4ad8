#!/bin/bash
# Random dots (tests/gemm/random_dots.py, fixed seeds) against the
# interpreter on the host (the first seed as sm_90: mma.sync, the second
# as sm_90a: wgmma where the tile allows), and for sm_80, sm_90 and sm_90a
# through ptxas with no kernel spilling and no wgmma serialized by ptxas:
# the shapes, layouts and types no
# hand-written test lists. Every dot must be a GEMM kernel. Without ptxas
# the PTX is written but not assembled, and a SKIPPED line says so
# (scripts/test.sh's summary lists it).
#
#   tests/gemm/random-dots.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
rm -rf "$work" && mkdir -p "$work"
failures=0
if [ ! -x "$ptxas" ]; then
  echo "SKIPPED: gemm.random-dots: the sm_80/sm_90/sm_90a PTX not assembled (no spill check): no ptxas at $ptxas"
fi
for seed in 960003 960004; do
  module=$work/dots$seed.hlo
  python3 "$here/random_dots.py" $seed > "$module"
  host_arch=sm_90
  [ $seed = 960004 ] && host_arch=sm_90a
  "$build/bin/hlo-compile" -w --target=host --gpu-arch=$host_arch "$module" -o "$work/$seed.so" \
    --manifest "$work/$seed.host.json"
  if ! "$build/bin/hlo-run" "$module" --manifest "$work/$seed.host.json" --mode module \
      > "$work/$seed.run" 2>&1; then
    grep -v ' PASS$' "$work/$seed.run" | tail -20
    echo "FAIL: seed $seed on the host"
    failures=$((failures + 1))
  fi
  gemms=$(grep -c 'kGemm/MmaSyncGemmFusion' "$work/$seed.run" || true)
  passed=$(grep -c ' PASS$' "$work/$seed.run" || true)
  echo "seed $seed ($host_arch): $gemms GEMM kernels, $passed outputs match the interpreter"
  if [ "$gemms" != 40 ]; then
    echo "FAIL: seed $seed: $gemms of 40 dots are GEMM kernels"
    failures=$((failures + 1))
  fi
  for arch in sm_80 sm_90 sm_90a; do
    "$build/bin/hlo-compile" -w --gpu-arch=$arch "$module" -o "$work/$seed.$arch.ptx"
    [ -x "$ptxas" ] || continue
    "$ptxas" -arch=$arch -v "$work/$seed.$arch.ptx" -o /dev/null 2> "$work/$seed.$arch.ptxas"
    spilling=$(awk '/Function properties for/ {name = $NF}
                    /bytes spill/ && !/ 0 bytes spill stores, 0 bytes spill loads/ {print "  " name ": " $0}' \
               "$work/$seed.$arch.ptxas")
    if [ -n "$spilling" ]; then
      echo "FAIL: seed $seed $arch: kernels that spill:"
      echo "$spilling"
      failures=$((failures + 1))
    fi
    # ptxas serializes wgmma it cannot prove safe to keep in flight
    # (accumulators touched between issue and wait, a wait it must add):
    # that undoes the in-flight K loop.
    if grep -q 'wgmma.mma_async instructions are serialized' "$work/$seed.$arch.ptxas"; then
      echo "FAIL: seed $seed $arch: ptxas serialized wgmma:"
      grep -B1 'serialized' "$work/$seed.$arch.ptxas" | head -10
      failures=$((failures + 1))
    fi
  done
done
[ "$failures" = 0 ] && echo PASS
exit $failures
