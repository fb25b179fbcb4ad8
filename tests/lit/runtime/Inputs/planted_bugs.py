#!/usr/bin/env python3
"""Planted bugs must fail: hlo-run's bounds checked against wrong answers.

For each GEMM kind (bf16, f16, f32 as TF32, f8e4m3fn, s8) this compiles a
GEMM fusion for the host and runs it in module mode against references
(`hlo-run --reference`) that compute what a buggy kernel would: the
right product (must PASS, the kernel's f32 sums beside the interpreter's),
one K step of 16 dropped, two K tiles of B swapped against A's, the last
row of a ragged tile missing, and two rows of one warp's fragment
swapped (each must FAIL). Then the same for a module (a dot, then a
softmax, then a bf16 result), and an RMSNorm + SwiGLU block checked
against GELU and against a 1.25x scaled output.

Prints one line per case, `<kind> <case>: PASS|FAIL`, for FileCheck.
"""
import argparse
import os
import subprocess
import sys

M, K, N = 40, 256, 48


def zero(t):
    if t.startswith("s") or t.startswith("u"):
        return f"{t}[] constant(0)"
    return f"{t}[] constant(0)"


def gemm_body(kind, a, b, out):
    """(instructions, root) computing bug `kind` of dot(a, b) as plain HLO."""
    ta, tb, tout = a, b, out
    lines = []
    lhs, rhs = "a", "b"
    if kind == "missing-k-step":
        lines += [
            f"ki = s32[{M},{K}] iota(), iota_dimension=1",
            f"c16 = s32[{M},{K}] broadcast(s32[] constant(16)), dimensions={{}}",
            f"c32 = s32[{M},{K}] broadcast(s32[] constant(32)), dimensions={{}}",
            f"ge = pred[{M},{K}] compare(ki, c16), direction=GE",
            f"lt = pred[{M},{K}] compare(ki, c32), direction=LT",
            f"in = pred[{M},{K}] and(ge, lt)",
            f"za = {ta}[{M},{K}] broadcast({zero(ta)}), dimensions={{}}",
            f"a2 = {ta}[{M},{K}] select(in, za, a)",
        ]
        lhs = "a2"
    if kind == "swapped-k-tiles":
        lines += [
            f"b0 = {tb}[16,{N}] slice(b), slice={{[0:16], [0:{N}]}}",
            f"b1 = {tb}[16,{N}] slice(b), slice={{[16:32], [0:{N}]}}",
            f"br = {tb}[{K - 32},{N}] slice(b), slice={{[32:{K}], [0:{N}]}}",
            f"b2 = {tb}[{K},{N}] concatenate(b1, b0, br), dimensions={{0}}",
        ]
        rhs = "b2"
    lines.append(f"d = {tout}[{M},{N}] dot({lhs}, {rhs}), lhs_contracting_dims={{1}}, "
                 "rhs_contracting_dims={0}")
    root = "d"
    if kind == "missing-last-row":
        lines += [
            f"ri = s32[{M},{N}] iota(), iota_dimension=0",
            f"cl = s32[{M},{N}] broadcast(s32[] constant({M - 1})), dimensions={{}}",
            f"last = pred[{M},{N}] compare(ri, cl), direction=EQ",
            f"zd = {tout}[{M},{N}] broadcast({zero(tout)}), dimensions={{}}",
            f"r = {tout}[{M},{N}] select(last, zd, d)",
        ]
        root = "r"
    if kind == "swapped-fragment-rows":
        # Rows 0 and 8 of the first 16-row tile (one mma fragment's two
        # row halves), in the first 8 columns.
        lines += [
            f"top = {tout}[16,{N}] slice(d), slice={{[0:16], [0:{N}]}}",
            f"rest = {tout}[{M - 16},{N}] slice(d), slice={{[16:{M}], [0:{N}]}}",
            f"q = {tout}[16,8] slice(top), slice={{[0:16], [0:8]}}",
            f"qr = {tout}[16,{N - 8}] slice(top), slice={{[0:16], [8:{N}]}}",
            f"q0 = {tout}[1,8] slice(q), slice={{[0:1], [0:8]}}",
            f"q1 = {tout}[7,8] slice(q), slice={{[1:8], [0:8]}}",
            f"q8 = {tout}[1,8] slice(q), slice={{[8:9], [0:8]}}",
            f"q9 = {tout}[7,8] slice(q), slice={{[9:16], [0:8]}}",
            f"qs = {tout}[16,8] concatenate(q8, q1, q0, q9), dimensions={{0}}",
            f"top2 = {tout}[16,{N}] concatenate(qs, qr), dimensions={{1}}",
            f"r = {tout}[{M},{N}] concatenate(top2, rest), dimensions={{0}}",
        ]
        root = "r"
    return lines, root


def gemm_module(name, ta, tb, tout):
    """The compiled module: the dot as a Triton GEMM fusion, XLA's tile."""
    config = ('{"fusion_backend_config":{"kind":"__triton_gemm","block_level_fusion_config":'
              '{"num_warps":"2","output_tiles":[{"sizes":["16","16"]}],"num_ctas":1,'
              '"num_stages":1}}}')
    return f"""HloModule {name}

gemm {{
  a = {ta}[{M},{K}]{{1,0}} parameter(0)
  b = {tb}[{K},{N}]{{1,0}} parameter(1)
  ROOT d = {tout}[{M},{N}]{{1,0}} dot(a, b), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
}}

ENTRY main {{
  a = {ta}[{M},{K}]{{1,0}} parameter(0)
  b = {tb}[{K},{N}]{{1,0}} parameter(1)
  ROOT f = {tout}[{M},{N}]{{1,0}} fusion(a, b), kind=kCustom, calls=gemm, backend_config={config}
}}
"""


def reference_module(name, ta, tb, tout, kind):
    lines, root = gemm_body(kind, ta, tb, tout)
    lines = [("ROOT " + line) if line.startswith(root + " = ") else line for line in lines]
    body = "\n  ".join([f"a = {ta}[{M},{K}] parameter(0)", f"b = {tb}[{K},{N}] parameter(1)"]
                       + lines)
    return f"HloModule {name}\n\nENTRY main {{\n  {body}\n}}\n"


SOFTMAX = """HloModule gemm_softmax

max {{
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT m = f32[] maximum(x, y)
}}

add {{
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}}

ENTRY main {{
  x = bf16[64,128]{{1,0}} parameter(0)
  w = bf16[128,96]{{1,0}} parameter(1)
  {lhs}
  d = f32[64,96]{{1,0}} dot({lhs_name}, w), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
  quarter = f32[64,96]{{1,0}} broadcast(f32[] constant(0.25)), dimensions={{}}
  s = f32[64,96]{{1,0}} multiply(d, quarter)
  ninf = f32[] constant(-inf)
  mx = f32[64]{{0}} reduce(s, ninf), dimensions={{1}}, to_apply=max
  mb = f32[64,96]{{1,0}} broadcast(mx), dimensions={{0}}
  sub = f32[64,96]{{1,0}} subtract(s, mb)
  e = f32[64,96]{{1,0}} exponential(sub)
  z = f32[] constant(0)
  sm = f32[64]{{0}} reduce(e, z), dimensions={{1}}, to_apply=add
  sb = f32[64,96]{{1,0}} broadcast(sm), dimensions={{0}}
  p = f32[64,96]{{1,0}} divide(e, sb)
  ROOT o = bf16[64,96]{{1,0}} convert(p)
}}
"""

SOFTMAX_MISSING_K = """ki = s32[64,128] iota(), iota_dimension=1
  c16 = s32[64,128] broadcast(s32[] constant(16)), dimensions={}
  c32 = s32[64,128] broadcast(s32[] constant(32)), dimensions={}
  ge = pred[64,128] compare(ki, c16), direction=GE
  lt = pred[64,128] compare(ki, c32), direction=LT
  in = pred[64,128] and(ge, lt)
  zx = bf16[64,128] broadcast(bf16[] constant(0)), dimensions={}
  x2 = bf16[64,128] select(in, zx, x)"""

RMSNORM = """HloModule rmsnorm_swiglu

add {{
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}}

ENTRY main {{
  h = f32[32,256]{{1,0}} parameter(0)
  g = f32[256]{{0}} parameter(1)
  wu = f32[256,128]{{1,0}} parameter(2)
  wg = f32[256,128]{{1,0}} parameter(3)
  sq = f32[32,256]{{1,0}} multiply(h, h)
  z = f32[] constant(0)
  ss = f32[32]{{0}} reduce(sq, z), dimensions={{1}}, to_apply=add
  inv = f32[32]{{0}} broadcast(f32[] constant(0.00390625)), dimensions={{}}
  ms = f32[32]{{0}} multiply(ss, inv)
  eps = f32[32]{{0}} broadcast(f32[] constant(1e-6)), dimensions={{}}
  mse = f32[32]{{0}} add(ms, eps)
  r = f32[32]{{0}} rsqrt(mse)
  rb = f32[32,256]{{1,0}} broadcast(r), dimensions={{0}}
  n = f32[32,256]{{1,0}} multiply(h, rb)
  gb = f32[32,256]{{1,0}} broadcast(g), dimensions={{1}}
  ng = f32[32,256]{{1,0}} multiply(n, gb)
  u = f32[32,128]{{1,0}} dot(ng, wu), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
  v = f32[32,128]{{1,0}} dot(ng, wg), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
  {activation}
  ROOT o = f32[32,128]{{1,0}} multiply(act, u)
}}
"""

SILU = """sig = f32[32,128]{1,0} logistic(v)
  act = f32[32,128]{1,0} multiply(v, sig)"""
GELU = """c = f32[32,128]{1,0} broadcast(f32[] constant(0.7978845608)), dimensions={}
  vc = f32[32,128]{1,0} multiply(v, c)
  t = f32[32,128]{1,0} tanh(vc)
  one = f32[32,128]{1,0} broadcast(f32[] constant(1)), dimensions={}
  t1 = f32[32,128]{1,0} add(t, one)
  half = f32[32,128]{1,0} broadcast(f32[] constant(0.5)), dimensions={}
  vh = f32[32,128]{1,0} multiply(v, half)
  act = f32[32,128]{1,0} multiply(vh, t1)"""
SILU_SCALED = """sig = f32[32,128]{1,0} logistic(v)
  act0 = f32[32,128]{1,0} multiply(v, sig)
  k = f32[32,128]{1,0} broadcast(f32[] constant(1.25)), dimensions={}
  act = f32[32,128]{1,0} multiply(act0, k)"""


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def check(args, label, module_path, reference_text, out):
    ref = os.path.join(out, label.replace(" ", "_") + ".ref.hlo")
    with open(ref, "w") as f:
        f.write(reference_text)
    manifest = module_path + ".json"
    result = run([args.hlo_run, module_path, "--manifest", manifest, "--mode", "module",
                  "--reference", ref])
    verdict = {0: "PASS", 1: "FAIL"}.get(result.returncode, f"ERROR {result.returncode}")
    if verdict.startswith("ERROR") or args.verbose:
        sys.stdout.write(result.stdout)
    bounds = [line.strip() for line in result.stdout.splitlines() if "outside (" in line]
    print(f"{label}: {verdict}  [{bounds[0] if bounds else ''}]")


def compile_module(args, name, text, out, extra=()):
    path = os.path.join(out, name + ".hlo")
    with open(path, "w") as f:
        f.write(text)
    result = run([args.hlo_compile, "-w", "--target=host", path, "-o",
                  os.path.join(out, name + ".so"), "--manifest", path + ".json", *extra])
    if result.returncode != 0:
        print(f"{name}: compile error\n{result.stdout}")
        return None
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hlo-compile", required=True)
    parser.add_argument("--hlo-run", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    kinds = [("bf16", "bf16", "bf16", "bf16"), ("f16", "f16", "f16", "f16"),
             ("tf32", "f32", "f32", "f32"), ("fp8", "f8e4m3fn", "f8e4m3fn", "bf16"),
             ("fp8-out", "f8e4m3fn", "f8e4m3fn", "f8e4m3fn"), ("s8", "s8", "s8", "s32")]
    cases = ["right", "missing-k-step", "swapped-k-tiles", "missing-last-row",
             "swapped-fragment-rows"]
    for name, ta, tb, tout in kinds:
        path = compile_module(args, name, gemm_module(name, ta, tb, tout), args.out)
        if not path:
            continue
        for case in cases:
            check(args, f"{name} {case}", path,
                  reference_module(name, ta, tb, tout, case), args.out)
    # A module: dot, softmax, bf16 (through the HLO pipeline's fusion).
    path = compile_module(args, "gemm_softmax", SOFTMAX.format(lhs="", lhs_name="x"), args.out)
    if path:
        check(args, "gemm_softmax right", path, SOFTMAX.format(lhs="", lhs_name="x"), args.out)
        check(args, "gemm_softmax missing-k-step", path,
              SOFTMAX.format(lhs=SOFTMAX_MISSING_K, lhs_name="x2"), args.out)
    path = compile_module(args, "rmsnorm_swiglu", RMSNORM.format(activation=SILU), args.out)
    if path:
        check(args, "rmsnorm_swiglu right", path, RMSNORM.format(activation=SILU), args.out)
        check(args, "rmsnorm_swiglu gelu", path, RMSNORM.format(activation=GELU), args.out)
        check(args, "rmsnorm_swiglu scaled", path, RMSNORM.format(activation=SILU_SCALED),
              args.out)


if __name__ == "__main__":
    main()
