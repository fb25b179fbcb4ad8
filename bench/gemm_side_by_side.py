#!/usr/bin/env python3
"""Our tensor-core GEMM kernels against XLA's Triton kernels for the same
fusions, statically (no GPU needed): for every GEMM fusion of the corpus's
XLA dumps (`../shared/corpus/dumps/*/module.hlo`, each with XLA's kernels in
`xla_kernels.tsv` and `xla_ptx/`), grid, block, registers, spills, shared
memory, the tensor-core instruction mix (mma.sync / wgmma / ldmatrix /
cp.async counts in the PTX) and the widest global load (bits) of ours beside
XLA's, and what the K loop does (the body of each PTX loop, a label up to
a branch back to it): its wgmma and mma.sync instructions, whether it waits
for all wgmma groups (`wgmma.wait_group 0`: no tensor-core work overlaps
the next K step), its TMA loads (`cp.async.bulk.tensor`), mbarrier waits
and cp.async copies. One row per distinct kernel of ours.

Ours are compiled for sm_90a (XLA's dumps are for the H100: its wgmma
kernels need the `a` features), or the architecture given.

  bench/gemm_side_by_side.py [HLO_COMPILE] [CORPUS] [ARCH] > bench/results/gemm_side_by_side.tsv
"""
import csv, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptx_static import compile_kernels, loop_mix, mix, spills, widest_load  # noqa: E402

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
hlo_compile = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build/bin/hlo-compile")
corpus = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "../shared/corpus")
arch = sys.argv[3] if len(sys.argv) > 3 else "sm_90a"

print("\t".join(["dump", "kernel", "grid", "block", "regs", "spills", "smem", "mix", "load_bits",
                 "k_loop", "xla_grid", "xla_block", "xla_regs", "xla_spills", "xla_smem",
                 "xla_mix", "xla_load_bits", "xla_k_loop"]))
dumps_dir = os.path.join(corpus, "dumps")
for dump in sorted(os.listdir(dumps_dir)):
    module = os.path.join(dumps_dir, dump, "module.hlo")
    if not os.path.exists(module):
        continue
    compiled = compile_kernels(hlo_compile, module, arch)
    if compiled is None:
        continue
    kernels, usage, ours = compiled
    xla = {}
    with open(os.path.join(dumps_dir, dump, "xla_kernels.tsv")) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            xla[row["hlo"]] = row
    seen = set()
    for kernel in kernels:
        if "Gemm" not in kernel["emitter"] or kernel["name"] in seen:
            continue
        seen.add(kernel["name"])
        fields = usage.get(kernel["name"], ["-"] * 6)
        row = [dump, kernel["name"], ",".join(map(str, kernel["grid"])),
               ",".join(map(str, kernel["block"])), fields[0], spills(fields), fields[4],
               mix(ours.get(kernel["name"], "")), widest_load(ours.get(kernel["name"], "")),
               loop_mix(ours.get(kernel["name"], ""))]
        x = xla.get(kernel["hlo_instruction"])
        if x:
            xptx_path = os.path.join(dumps_dir, dump, x["ptx_file"])
            xptx = open(xptx_path).read() if os.path.exists(xptx_path) else ""
            row += [x["grid"], x["block"], x["registers"],
                    str(int(x["spill_stores"]) + int(x["spill_loads"])),
                    str(int(x["smem"]) + int(x["dyn_smem"] or 0)), mix(xptx), widest_load(xptx),
                    loop_mix(xptx)]
        else:
            row += ["-"] * 8
        print("\t".join(row))
