#!/bin/bash
# bench/gemm_cluster_static.sh MODULE...: static figures of the sm_90a GEMM
# kernels of each module built alone and in clusters of two
# (--gemm-cluster=1|2), as a TSV on stdout: grid, tile, registers, spills,
# shared memory (ptxas -v via --resource-usage), the TMA boxes a block
# issues per K tile (and how many of them multicast), mapa and cluster
# barrier counts in the PTX, and the bytes a block reads from L2 per K
# tile. Run from the repository root after a build; no GPU needed.
set -e
out=$(mktemp -d)
printf 'module\tcluster\tgrid\ttile\tstages\tregs\tspills\tsmem_bytes\ta_boxes_per_k_tile\tb_boxes_per_k_tile\tb_boxes_multicast\tmapa\tbarrier_cluster\tl2_bytes_per_block_per_k_tile\n'
for m in "$@"; do
  name=$(basename "$m" .ours.hlo)
  for c in 1 2; do
    build/bin/hlo-compile -w --gpu-arch=sm_90a --gemm-cluster=$c --resource-usage "$m" -o $out/k.ptx --manifest $out/k.json > $out/usage.txt 2>&1
    read regs stores loads <<< $(awk '/^gemm_fusion /{print $2, $3, $4}' $out/usage.txt)
    smem=$(awk '/^gemm_fusion /{print $NF}' $out/usage.txt)
    grid=$(grep -o '"grid": \[[0-9]*' $out/k.json | head -1 | grep -o '[0-9]*$')
    tile=$(grep -o '"tile": \[[0-9, ]*\]' $out/k.json | head -1 | grep -o '[0-9][0-9, ]*' | tr -d ' ' | tr ',' 'x')
    stages=$(grep -o '"stages": [0-9]*' $out/k.json | head -1 | grep -o '[0-9]*$')
    own=$(grep -c 'complete_tx::bytes \[' $out/k.ptx || true)
    multi=$(grep -c 'multicast::cluster' $out/k.ptx || true)
    mapa=$(grep -c 'mapa.shared::cluster' $out/k.ptx || true)
    bc=$(grep -c 'barrier.cluster.arrive' $out/k.ptx || true)
    IFS=x read bm bn bk <<< "$tile"
    # A's boxes a K tile: one K-minor, its 64-row atoms M-minor. The PTX
    # counts divided by the A loads' count over A's boxes (the K loop's
    # unrolling).
    if grep -q 'a:m' $out/k.json; then abox=$((bm / 64)); else abox=1; fi
    if [ "$c" = 2 ]; then unroll=$((own / abox)); bown=0; bmulti=$((multi / unroll));
    else
      if grep -q 'b:n' $out/k.json; then bbox=$((bn / 64)); else bbox=1; fi
      unroll=$(( own / (abox + bbox) ))
    fi
    l2=$(( (bm + bn / c) * bk * 2 ))
    bissued=$(( (own + multi) / unroll - abox ))
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$c" "$grid" "$tile" "$stages" "$regs" "$((stores + loads))" "$smem" "$abox" "$bissued" "$((multi / unroll))" "$mapa" "$bc" "$l2"
  done
done
rm -rf $out
