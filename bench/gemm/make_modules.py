#!/usr/bin/env python3
"""Writes the GEMM benchmark's modules: for every case, two HLO modules with
the same entry parameters (names, shapes, types, layouts, so that one
--seed gives both the same inputs):

  modules/<case>.ours.hlo    the product as XLA's Triton GEMM fusion
                             (kind=kCustom, "__triton_gemm", no tile config:
                             the GEMM emitter picks its own tiles, the same
                             kernel as for a plain dot)
  modules/<case>.cublas.hlo  the same product as XLA's cuBLASLt custom call
                             (`__cublas$lt$matmul`, or `__cublas$lt$matmul$f8`
                             with its scales), its s8 workspace and the
                             get-tuple-element, as XLA's native dumps write
                             them (../shared/corpus/dumps/*.native)

and `cases.tsv` (one row per case, read by run.py), and the case table of
README.md (between its `<!-- cases -->` markers). Stdlib only.

Cases: bf16, f16, f32 (default precision: TF32 on tensor cores, as XLA runs
it) and f8e4m3fn x f8e4m3fn -> bf16 with f32 scales, at the shapes of
CORE_SHAPES; then the distinct GEMMs (batch, M, N, K, operand and result
types) of the corpus's default dumps (every dot of
`dumps/*.default/module.hlo`: XLA's Triton GEMM fusions), written in one
canonical layout (lhs [B,]M,K and rhs [B,]K,N row-major, result row-major);
a corpus GEMM equal to a core case is only noted as one of its sources.

    python3 bench/gemm/make_modules.py [--corpus DIR]
"""
import argparse
import collections
import glob
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import run as cost_model  # noqa: E402  (estimate_case_seconds, the tiers' limits)

CORE_SHAPES = [(4096, 4096, 4096), (8192, 8192, 1024), (2048, 2048, 2048),
               (4096, 32000, 2048), (1, 4096, 4096), (16384, 1024, 1024)]
CORE_TYPES = ["bf16", "f16", "f32", "f8e4m3fn"]
WORKSPACE = 4194304  # XLA's cuBLASLt workspace on Hopper (the dumps' s8[4194304])


def shape_text(dtype, dims):
    if not dims:
        return f"{dtype}[]"
    layout = ",".join(str(d) for d in reversed(range(len(dims))))
    return f"{dtype}[{','.join(map(str, dims))}]{{{layout}}}"


def bare_shape(dtype, dims):
    return f"{dtype}[{','.join(map(str, dims))}]"


class Case:
    def __init__(self, name, group, dtype, out_type, batch, m, n, k, sources=""):
        self.name, self.group, self.dtype, self.out_type = name, group, dtype, out_type
        self.batch, self.m, self.n, self.k, self.sources = batch, m, n, k, sources
        self.occurrences = 0

    @property
    def fp8(self):
        return self.dtype.startswith("f8")

    def lead(self):
        return [self.batch] if self.batch > 1 else []

    def params(self):
        """(name, dtype, dims) of the entry parameters, shared by both modules."""
        lead = self.lead()
        if self.fp8:  # cuBLASLt's FP8 form: b is [N,K] (K minor), f32 scales
            return [("a", self.dtype, lead + [self.m, self.k]),
                    ("b", self.dtype, lead + [self.n, self.k]),
                    ("a_scale", "f32", []), ("b_scale", "f32", [])]
        return [("a", self.dtype, lead + [self.m, self.k]),
                ("b", self.dtype, lead + [self.k, self.n])]

    def out_dims(self):
        return self.lead() + [self.m, self.n]

    def dims(self):
        """lhs/rhs contracting and batch dimensions."""
        b = 1 if self.batch > 1 else 0
        rhs_k = b + 1 if self.fp8 else b
        return ([b + 1], [rhs_k], [0] if b else [], [0] if b else [])

    def header(self, suffix, is_scheduled):
        params = ", ".join(shape_text(t, d) for _, t, d in self.params())
        layout = f"entry_computation_layout={{({params})->{shape_text(self.out_type, self.out_dims())}}}"
        scheduled = "is_scheduled=true, " if is_scheduled else ""
        return f"HloModule gemm_{self.name}_{suffix}, {scheduled}{layout}\n"

    def signature(self):
        params = ", ".join(f"{n}: {bare_shape(t, d)}" for n, t, d in self.params())
        return f"({params}) -> {bare_shape(self.out_type, self.out_dims())}"

    def param_lines(self):
        return [f"  %{n} = {shape_text(t, d)} parameter({i})"
                for i, (n, t, d) in enumerate(self.params())]


def dims_attr(name, values):
    return f"{name}={{{','.join(map(str, values))}}}"


def ours_module(case):
    """XLA's Triton GEMM fusion of the dot (and, for f8, its scaling epilogue)."""
    lc, rc, lb, rb = case.dims()
    out = case.out_dims()
    acc = "f32" if case.fp8 else case.out_type
    dot_attrs = ", ".join(a for a in [dims_attr("lhs_batch_dims", lb) if lb else "",
                                      dims_attr("lhs_contracting_dims", lc),
                                      dims_attr("rhs_batch_dims", rb) if rb else "",
                                      dims_attr("rhs_contracting_dims", rc)] if a)
    params = case.params()
    body = [f"  %p{i} = {shape_text(t, d)} parameter({i})" for i, (_, t, d) in enumerate(params)]
    fused_sig = ", ".join(f"p{i}: {bare_shape(t, d)}" for i, (_, t, d) in enumerate(params))
    root = "ROOT " if not case.fp8 else ""
    body.append(f"  {root}%dot = {shape_text(acc, out)} dot(%p0, %p1), {dot_attrs}")
    if case.fp8:
        # D = bf16(a_scale * b_scale * (a . b^T)), as the custom call computes it.
        body += [f"  %scale = f32[] multiply(%p2, %p3)",
                 f"  %broadcast = {shape_text('f32', out)} broadcast(%scale), dimensions={{}}",
                 f"  %scaled = {shape_text('f32', out)} multiply(%dot, %broadcast)",
                 f"  ROOT %convert = {shape_text(case.out_type, out)} convert(%scaled)"]
    operands = ", ".join(f"%{n}" for n, _, _ in params)
    return "".join([
        case.header("ours", False),
        f"\n// {describe(case)}: our GEMM emitter's kernel (an XLA Triton GEMM fusion\n"
        f"// without a tile config: the emitter's own tiles). bench/gemm/make_modules.py\n\n",
        f"%gemm_computation ({fused_sig}) -> {bare_shape(case.out_type, out)} {{\n",
        "\n".join(body), "\n}\n\n",
        f"ENTRY %main {case.signature()} {{\n",
        "\n".join(case.param_lines()), "\n",
        f"  ROOT %gemm_fusion = {shape_text(case.out_type, out)} fusion({operands}), kind=kCustom, "
        f"calls=%gemm_computation, backend_config={{\"fusion_backend_config\":{{\"kind\":\"__triton_gemm\"}}}}\n",
        "}\n"])


def gemm_backend_config(case, lc, rc, lb, rb, lhs_stride, rhs_stride):
    """gemm_backend_config in the field order XLA's dumps write it."""
    strings = lambda values: [str(v) for v in values]  # noqa: E731
    config = {
        "operation_queue_id": "0",
        "gemm_backend_config": {
            "selected_algorithm": "0", "alpha_real": 1, "beta": 0,
            "dot_dimension_numbers": {
                "lhs_contracting_dimensions": strings(lc), "rhs_contracting_dimensions": strings(rc),
                "lhs_batch_dimensions": strings(lb), "rhs_batch_dimensions": strings(rb)},
            "alpha_imag": 0,
            "precision_config": {"operand_precision": ["DEFAULT", "DEFAULT"], "algorithm": "ALG_UNSET"},
            "epilogue": "DEFAULT", "lhs_stride": str(lhs_stride), "rhs_stride": str(rhs_stride),
            "grad_x": False, "grad_y": False, "damax_output": False,
            "autotune_workspace_size": str(WORKSPACE), "scale_mode": 1 if case.fp8 else 0},
        "force_earliest_schedule": False, "reification_cost": [],
        "device_type": "DEVICE_TYPE_INVALID"}
    return json.dumps(config, separators=(",", ":"))


def cublas_module(case):
    """XLA's cuBLASLt call for the product. For f8, XLA pads the non-batch
    dimensions to multiples of 16 (PadShapeToMultipleOf16) and slices the
    result: a pad fusion before the call and a slice fusion after it."""
    lc, rc, lb, rb = case.dims()
    lead = case.lead()
    m_call = -(-case.m // 16) * 16 if case.fp8 else case.m
    padded = m_call != case.m
    if case.fp8 and (case.n % 16 or case.k % 16):
        raise SystemExit(f"{case.name}: an f8 case needs N and K multiples of 16")
    call_out = lead + [m_call, case.n]
    target = "__cublas$lt$matmul$f8" if case.fp8 else "__cublas$lt$matmul"
    config = gemm_backend_config(case, lc, rc, lb, rb, m_call * case.k, case.k * case.n)
    lines, computations = case.param_lines(), []
    operands = [n for n, _, _ in case.params()]
    if padded:
        a_dims, pad_dims = lead + [case.m, case.k], lead + [m_call, case.k]
        padding = "x".join(["0_0"] * len(lead) + [f"0_{m_call - case.m}", "0_0"])
        computations.append(
            f"%fused_pad (param_0: {bare_shape(case.dtype, a_dims)}) -> {bare_shape(case.dtype, pad_dims)} {{\n"
            f"  %param_0 = {shape_text(case.dtype, a_dims)} parameter(0)\n"
            f"  %constant = {case.dtype}[] constant(0)\n"
            f"  ROOT %pad = {shape_text(case.dtype, pad_dims)} pad(%param_0, %constant), padding={padding}\n"
            "}\n")
        lines.append(f"  %pad_fusion = {shape_text(case.dtype, pad_dims)} fusion(%a), kind=kLoop, calls=%fused_pad")
        operands[0] = "pad_fusion"
    call_type = f"({shape_text(case.out_type, call_out)}, s8[{WORKSPACE}]{{0}})"
    name = "cublas-gemm" if case.fp8 else "cublas-lt-matmul"
    lines.append(f"  %{name} = {call_type} custom-call({', '.join('%' + o for o in operands)}), "
                 f"custom_call_target=\"{target}\", backend_config={config}")
    out = case.out_dims()
    if padded:
        ranges = ", ".join([f"[0:{d}]" for d in lead] + [f"[0:{case.m}]", f"[0:{case.n}]"])
        computations.append(
            f"%fused_slice (param_0: {bare_shape(case.out_type, call_out)}) -> {bare_shape(case.out_type, out)} {{\n"
            f"  %param_0 = {shape_text(case.out_type, call_out)} parameter(0)\n"
            f"  ROOT %slice = {shape_text(case.out_type, out)} slice(%param_0), slice={{{ranges}}}\n"
            "}\n")
        lines.append(f"  %get-tuple-element = {shape_text(case.out_type, call_out)} get-tuple-element(%{name}), index=0")
        lines.append(f"  ROOT %slice_fusion = {shape_text(case.out_type, out)} fusion(%get-tuple-element), "
                     "kind=kLoop, calls=%fused_slice")
    else:
        lines.append(f"  ROOT %get-tuple-element = {shape_text(case.out_type, out)} get-tuple-element(%{name}), index=0")
    return "".join([
        case.header("cublas", True),
        f"\n// {describe(case)}: XLA's cuBLASLt call (as in its native dumps), run by\n"
        f"// hlo-run through cuBLASLt. bench/gemm/make_modules.py\n\n",
        "\n".join(computations) + ("\n" if computations else ""),
        f"ENTRY %main {case.signature()} {{\n", "\n".join(lines), "\n}\n"])


def describe(case):
    batch = f"{case.batch} x " if case.batch > 1 else ""
    scales = " (f32 scales)" if case.fp8 else ""
    return (f"{batch}{case.m}x{case.n}x{case.k} (MxNxK) {case.dtype} x {case.dtype} -> "
            f"{case.out_type}{scales}")


# --- The corpus's GEMMs ----------------------------------------------------

INSTRUCTION = re.compile(r"^\s*(?:ROOT )?%(\S+) = (\w+)\[([\d,]*)\](?:\{[^}]*\})? ([\w-]+)\(([^)]*)\)(.*)$")


def dims_list(rest, key):
    found = re.search(key + r"=\{([\d,]*)\}", rest)
    return [int(x) for x in found.group(1).split(",") if x] if found else []


def corpus_gemms(corpus):
    """{(batch, m, n, k, lhs, rhs, out): Counter of dump names}."""
    gemms = collections.defaultdict(collections.Counter)
    for path in sorted(glob.glob(os.path.join(corpus, "dumps", "*.default", "module.hlo"))):
        dump = os.path.basename(os.path.dirname(path)).rsplit(".", 1)[0]
        shapes = {}
        with open(path) as f:
            for line in f:
                m = INSTRUCTION.match(line)
                if not m:
                    continue
                name, dtype, dims, opcode, args, rest = m.groups()
                shapes[name] = (dtype, [int(d) for d in dims.split(",") if d])
                if opcode != "dot":
                    continue
                lhs, rhs = (a.strip().lstrip("%") for a in args.split(","))
                (lt, ls), (rt, rs) = shapes[lhs], shapes[rhs]
                lc, rc = dims_list(rest, "lhs_contracting_dims"), dims_list(rest, "rhs_contracting_dims")
                lb, rb = dims_list(rest, "lhs_batch_dims"), dims_list(rest, "rhs_batch_dims")
                free = lambda s, used: [s[i] for i in range(len(s)) if i not in used]  # noqa: E731
                key = (math.prod(ls[i] for i in lb), math.prod(free(ls, lc + lb)),
                       math.prod(free(rs, rc + rb)), math.prod(ls[i] for i in lc), lt, rt, dtype)
                gemms[key][dump] += 1
    return gemms


def build_cases(corpus):
    cases = []
    for dtype in CORE_TYPES:
        out_type = "bf16" if dtype.startswith("f8") else dtype
        for m, n, k in CORE_SHAPES:
            cases.append(Case(f"{dtype}_{m}x{n}x{k}", "core", dtype, out_type, 1, m, n, k))
    by_key = {(c.batch, c.m, c.n, c.k, c.dtype, c.dtype, c.out_type): c for c in cases}
    skipped = []
    for key, dumps in sorted(corpus_gemms(corpus).items()):
        batch, m, n, k, lt, rt, out_type = key
        sources = ", ".join(f"{d} x{c}" if c > 1 else d for d, c in sorted(dumps.items()))
        if key in by_key:
            by_key[key].sources = sources
            continue
        if lt != rt:
            skipped.append(f"{key}: mixed operand types")
            continue
        lead = f"{batch}x" if batch > 1 else ""
        name = f"corpus_{lt}-{out_type}_{lead}{m}x{n}x{k}"
        cases.append(Case(name, "corpus", lt, out_type, batch, m, n, k, sources))
        cases[-1].occurrences = sum(dumps.values())
    for line in skipped:
        print(f"make_modules: skipped {line}", file=sys.stderr)
    return cases


def assign_tiers(cases):
    """default: every core case, then the corpus's GEMMs in the order of the
    FLOPs the dumps spend in them (occurrences x FLOPs) while the tier's
    estimate stays within run.py's DEFAULT_BUDGET_SECONDS; extra: the other
    corpus GEMMs; large: those over run.py's per-case limits (is_large)."""
    tiers, budget = {}, cost_model.DEFAULT_BUDGET_SECONDS
    for case in cases:
        if case.group == "core":
            tiers[case.name] = "default"
            budget -= cost_model.estimate_case_seconds(case_row(case))
    corpus = [c for c in cases if c.group == "corpus"]
    corpus.sort(key=lambda c: -c.occurrences * 2 * c.batch * c.m * c.n * c.k)
    for case in corpus:
        row = case_row(case)
        if cost_model.is_large(row):
            tiers[case.name] = "large"
        elif cost_model.estimate_case_seconds(row) <= budget:
            tiers[case.name] = "default"
            budget -= cost_model.estimate_case_seconds(row)
        else:
            tiers[case.name] = "extra"
    return tiers


def write_readme_table(cases, tiers):
    path = os.path.join(HERE, "README.md")
    with open(path) as f:
        text = f.read()
    begin, end = "<!-- cases -->", "<!-- /cases -->"
    if begin not in text or end not in text:
        raise SystemExit(f"{path}: no {begin} ... {end} markers")
    rows = ["| case | group | types | batch | M | N | K | GFLOP | tier | est. s | corpus dumps |",
            "|---|---|---|---:|---:|---:|---:|---:|---|---:|---|"]
    for case in cases:
        flops = 2 * case.batch * case.m * case.n * case.k
        rows.append(f"| {case.name} | {case.group} | {case.dtype}->{case.out_type} | {case.batch} | "
                    f"{case.m} | {case.n} | {case.k} | {flops / 1e9:.3g} | {tiers[case.name]} | "
                    f"{cost_model.estimate_case_seconds(case_row(case)):.1f} | {case.sources or '-'} |")
    table = "\n".join(rows)
    text = text[:text.index(begin) + len(begin)] + "\n" + table + "\n" + text[text.index(end):]
    with open(path, "w") as f:
        f.write(text)


def case_row(case):
    return {"case": case.name, "group": case.group, "dtype": case.dtype, "out_type": case.out_type,
            "batch": case.batch, "M": case.m, "N": case.n, "K": case.k}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    args = parser.parse_args()
    cases = build_cases(args.corpus)
    modules = os.path.join(HERE, "modules")
    os.makedirs(modules, exist_ok=True)
    for stale in glob.glob(os.path.join(modules, "*.hlo")):
        os.remove(stale)
    for case in cases:
        with open(os.path.join(modules, f"{case.name}.ours.hlo"), "w") as f:
            f.write(ours_module(case))
        with open(os.path.join(modules, f"{case.name}.cublas.hlo"), "w") as f:
            f.write(cublas_module(case))
    tiers = assign_tiers(cases)
    # Core cases first, then the corpus's by tier and weight: a bundle of
    # several tiers run under --time-limit runs them in this order.
    rank = {"default": 0, "extra": 1, "large": 2}
    cases.sort(key=lambda c: (c.group != "core", rank[tiers[c.name]],
                              -c.occurrences * 2 * c.batch * c.m * c.n * c.k))
    with open(os.path.join(HERE, "cases.tsv"), "w") as f:
        f.write("case\tgroup\tdtype\tout_type\tbatch\tM\tN\tK\ttier\tsources\n")
        for case in cases:
            f.write(f"{case.name}\t{case.group}\t{case.dtype}\t{case.out_type}\t{case.batch}\t"
                    f"{case.m}\t{case.n}\t{case.k}\t{tiers[case.name]}\t{case.sources or '-'}\n")
    write_readme_table(cases, tiers)
    counts = collections.Counter(tiers.values())
    default = [c for c in cases if tiers[c.name] == "default"]
    seconds = sum(cost_model.estimate_case_seconds(case_row(c)) for c in default)
    print(f"make_modules: {len(cases)} cases ({sum(c.group == 'core' for c in cases)} core, "
          f"{sum(c.group == 'corpus' for c in cases)} from the corpus); tiers: "
          f"{dict(counts)}; the default tier's estimate: {seconds:.0f} device seconds")


if __name__ == "__main__":
    main()
