#!/usr/bin/env python3
"""A Triton matmul compiled ahead of time for sm_90a (no GPU needed), with the
static figures bench/gemm_side_by_side.py gives our GEMM kernels and XLA's:
registers and spills (ptxas -v on Triton's PTX), shared memory, the
tensor-core instruction mix and what its K loop does (wgmma per K step,
whether it waits for all wgmma groups, TMA loads, mbarrier waits). Triton's
Hopper matmul keeps wgmma groups in flight and pipelines its loads through
shared memory: the reference the GEMM issue's static checks compare with.

The kernel is a plain tiled matmul (C = A B, A M x K and B K x N row-major,
bf16 or f16 in, f32 accumulation, the input type out; or f8e4m3fn in, B
stored N x K as bench/gemm's 8-bit cases and cuBLASLt take it, bf16 out), one output tile per
program, compiled for one shape (--shape, the sizes constexpr, the buffers
16-byte aligned as XLA's are); Triton's compiler pipelines its K loop
(num_stages) and, on sm_90, lowers tl.dot to asynchronous wgmma.

  python3 -m venv build/triton-venv && build/triton-venv/bin/pip install triton
  build/triton-venv/bin/python3 bench/triton_matmul_aot.py [--tile 128x256x64]
      [--warps 8] [--stages 3 4] [--dtype bf16] [--ptx-dir DIR]

Prints one TSV row per (tile, stages) with the columns of
bench/gemm_side_by_side.py; with --ours MODULE.hlo ..., first a row per
kernel of ours for those modules (bench/gemm/modules/*.ours.hlo: the same
GEMMs), compiled by hlo-compile for sm_90a.
"""
import argparse, os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptx_static import compile_kernels, loop_mix, mix, spills, widest_load  # noqa: E402

import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402


@triton.jit
def tiled_matmul(a, b, c, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                 B_K_MINOR: tl.constexpr):
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BLOCK_N)
    row0 = (pid // tiles_n) * BLOCK_M
    col0 = (pid % tiles_n) * BLOCK_N
    rows = row0 + tl.arange(0, BLOCK_M)
    cols = col0 + tl.arange(0, BLOCK_N)
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a_tile = tl.load(a + rows[:, None] * K + (k0 + ks)[None, :])
        if B_K_MINOR:  # B stored N x K (8-bit wgmma reads B K-major only)
            b_tile = tl.load(b + cols[None, :] * K + (k0 + ks)[:, None])
        else:
            b_tile = tl.load(b + (k0 + ks)[:, None] * N + cols[None, :])
        acc = tl.dot(a_tile, b_tile, acc)
    tl.store(c + rows[:, None] * N + cols[None, :], acc.to(c.dtype.element_ty))


def ptxas_usage(ptx, ptxas):
    """(registers, spill bytes) as ptxas -v reports them for sm_90a."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "k.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        run = subprocess.run([ptxas, "-arch=sm_90a", "-v", path, "-o", os.devnull],
                             capture_output=True, text=True)
    text = run.stderr
    regs = re.search(r"Used (\d+) registers", text)
    spills = [int(x) for x in re.findall(r"(\d+) bytes spill (?:stores|loads)", text)]
    return (regs.group(1) if regs else "-"), str(sum(spills)) if spills else "-"


def our_rows(modules, hlo_compile):
    """One row per GEMM kernel of ours in `modules`, as hlo-compile makes
    them for sm_90a."""
    rows = []
    for module in modules:
        compiled = compile_kernels(hlo_compile, module)
        if compiled is None:
            continue
        kernels, usage, bodies = compiled
        for kernel in kernels:
            if "Gemm" not in kernel["emitter"]:
                continue
            fields = usage.get(kernel["name"], ["-"] * 6)
            body = bodies.get(kernel["name"], "")
            rows.append([os.path.basename(module).replace(".ours.hlo", "") + ":" + kernel["name"],
                         "hlo-compile", ",".join(map(str, kernel["block"])), fields[0],
                         spills(fields), fields[4], mix(body), widest_load(body),
                         loop_mix(body)])
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tile", action="append", help="MxNxK (default 128x256x64)")
    parser.add_argument("--shape", default="4096x4096x4096", help="MxNxK (default %(default)s)")
    parser.add_argument("--warps", type=int, default=8)
    parser.add_argument("--stages", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--dtype", choices=["bf16", "f16", "f8e4m3fn"], default="bf16")
    parser.add_argument("--ptx-dir", help="also write each kernel's PTX here")
    parser.add_argument("--ours", nargs="*", default=[], metavar="MODULE",
                        help="our kernels for these HLO modules first")
    parser.add_argument("--hlo-compile", default=os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build", "bin",
        "hlo-compile"))
    # Triton's own (newest) ptxas: its PTX may be newer than the toolkit's.
    bundled = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin")
    newest = [os.path.join(bundled, name) for name in ("ptxas-blackwell", "ptxas")
              if os.path.exists(os.path.join(bundled, name))]
    parser.add_argument("--ptxas", default=newest[0] if newest else "ptxas")
    args = parser.parse_args()
    element = {"bf16": "bf16", "f16": "fp16", "f8e4m3fn": "fp8e4nv"}[args.dtype]
    fp8 = args.dtype == "f8e4m3fn"
    signature = {"a": "*" + element, "b": "*" + element, "c": "*" + ("bf16" if fp8 else element),
                 "M": "constexpr", "N": "constexpr", "K": "constexpr",
                 "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "BLOCK_K": "constexpr",
                 "B_K_MINOR": "constexpr"}
    m, n, k = (int(x) for x in args.shape.split("x"))
    aligned = {(i,): [["tt.divisibility", 16]] for i in range(3)}
    print("\t".join(["kernel", "compiler", "block", "regs", "spills", "smem", "mix",
                     "load_bits", "k_loop"]))
    for row in our_rows(args.ours, args.hlo_compile):
        print("\t".join(row))
    for tile in args.tile or ["128x256x64"]:
        bm, bn, bk = (int(x) for x in tile.split("x"))
        for stages in args.stages:
            source = triton.compiler.ASTSource(
                fn=tiled_matmul, signature=signature, attrs=aligned,
                constexprs={"M": m, "N": n, "K": k, "BLOCK_M": bm, "BLOCK_N": bn,
                            "BLOCK_K": bk, "B_K_MINOR": fp8})
            compiled = triton.compile(
                source, target=GPUTarget("cuda", 90, 32),
                options={"num_warps": args.warps, "num_stages": stages})
            ptx = compiled.asm["ptx"]
            name = f"triton_matmul_{args.dtype}_{args.shape}_{tile}_s{stages}"
            if args.ptx_dir:
                os.makedirs(args.ptx_dir, exist_ok=True)
                with open(os.path.join(args.ptx_dir, name + ".ptx"), "w") as f:
                    f.write(ptx)
            regs, spills = ptxas_usage(ptx, args.ptxas)
            print("\t".join([name, "triton " + triton.__version__, f"{32 * args.warps},1,1",
                             regs, spills,
                             str(compiled.metadata.shared), mix(ptx), widest_load(ptx),
                             loop_mix(ptx)]))


if __name__ == "__main__":
    main()
