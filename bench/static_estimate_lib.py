"""static_estimate.py's counting and writing: the work of a fusion from module.hlo (bytes, FLOPs, GEMM shape), the instruction mix of a kernel's PTX, and the TSV, markdown and roofline PNGs.

Owns nothing of the model itself (static_estimate.py's docstring and
estimate()); everything here is reading and presenting.
"""
import collections
import json
import math
import os
import re

DTYPE_BYTES = {"pred": 1, "s4": 0.5, "u4": 0.5, "s8": 1, "u8": 1, "s16": 2, "u16": 2,
               "f16": 2, "bf16": 2, "s32": 4, "u32": 4, "f32": 4, "s64": 8, "u64": 8,
               "f64": 8, "c64": 8, "c128": 16}
# One FLOP per element each (transcendentals included, as HloCostAnalysis' flop count).
ARITH = set("""add subtract multiply divide maximum minimum negate abs remainder power atan2
compare select clamp and or xor not sign floor ceil round-nearest-afz round-nearest-even
exponential exponential-minus-one log log-plus-one tanh logistic sqrt rsqrt cbrt sine cosine
tan erf shift-left shift-right-logical shift-right-arithmetic is-finite popcnt clz""".split())

HEADER_RE = re.compile(r"^(?:ENTRY\s+)?%?([\w.\-]+)\s+\(.*\)\s*->.*\{\s*$")
INSTR_RE = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=\s*")
ARRAY_RE = re.compile(r"([a-z]+\d*[a-z0-9]*)\[([^\]]*)\]")


def dtype_bytes(name):
    if name.startswith("f8"):
        return 1
    return DTYPE_BYTES.get(name, 4)


def parse_shape(text):
    """[(dtype, [dims])] of an array or tuple shape."""
    return [(m.group(1), [int(d.replace("<=", "")) for d in m.group(2).split(",") if d.strip()])
            for m in ARRAY_RE.finditer(text)]


def elements(shape):
    return sum(math.prod(dims) for _, dims in shape)


def closing(text, start):
    """The index after the parenthesis that closes text[start] == '('."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


class HloModule:
    """The instructions of an HLO text module: name -> shape, op, operands, attributes."""

    def __init__(self, path):
        self.instructions, self.computations = {}, collections.defaultdict(list)
        self.flops_cache = {}
        current = None
        with open(path) as f:
            for line in f:
                line = line.rstrip()
                header = HEADER_RE.match(line)
                if header:
                    current = header.group(1)
                    continue
                if line.startswith("}"):
                    current = None
                    continue
                match = INSTR_RE.match(line)
                if not match or current is None:
                    continue
                rest = line[match.end():]
                if rest.startswith("("):
                    end = closing(rest, 0)
                else:
                    end = rest.find(" ")
                shape, rest = rest[:end], rest[end:].lstrip()
                op = re.match(r"([\w\-]+)\(", rest)
                if not op:
                    continue
                args_end = closing(rest, op.end() - 1)
                operands = re.findall(r"%([\w.\-]+)", rest[op.end():args_end - 1])
                attrs = re.sub(r", metadata=\{.*", "", rest[args_end:])
                self.instructions[match.group(1)] = {
                    "shape": parse_shape(shape), "op": op.group(1), "operands": operands,
                    "attrs": attrs, "raw": rest[args_end:],
                    "args": rest[op.end():args_end - 1]}
                self.computations[current].append(match.group(1))

    def attr(self, instr, name):
        m = re.search(r"\b%s=\{?%%?([^},\s]*)" % re.escape(name), instr["attrs"])
        return m.group(1) if m else None

    def dims_attr(self, instr, name):
        m = re.search(r"\b%s=\{([\d,]*)\}" % re.escape(name), instr["attrs"])
        return [int(v) for v in m.group(1).split(",") if v] if m else []

    def shape_of(self, name):
        instr = self.instructions.get(name)
        return instr["shape"] if instr else []

    def parameter_reads(self, computation):
        """Per parameter number of a fused computation, the elements it
        reads when every use is a slice, dynamic-slice or gather (through
        bitcasts, reshapes and converts; as the operand a dynamic-update-slice
        updates in place it reads none); None where it is read whole."""
        names = self.computations.get(computation, [])
        users = collections.defaultdict(list)
        for name in names:
            for position, operand in enumerate(self.instructions[name]["operands"]):
                users[operand].append((name, position))

        def read(name, depth=0):
            total = 0
            for user, position in users.get(name, []):
                instr = self.instructions[user]
                if instr["op"] in ("bitcast", "reshape", "convert") and depth < 8:
                    sub = read(user, depth + 1)
                    if sub is None:
                        return None
                    total += sub
                elif instr["op"] in ("slice", "dynamic-slice", "gather") and position == 0:
                    total += elements(instr["shape"])
                elif instr["op"] == "dynamic-update-slice" and position == 0:
                    continue
                else:
                    return None
            return total

        reads = {}
        for name in names:
            instr = self.instructions[name]
            if instr["op"] == "parameter" and instr["args"].strip().isdigit():
                reads[int(instr["args"])] = (elements(instr["shape"]), read(name))
        return reads

    def computation_flops(self, computation, depth=0):
        """(flops, f64 flops, [dots], convolutions) of a computation, called ones included."""
        if computation in self.flops_cache:
            return self.flops_cache[computation]
        flops, f64, dots = 0, 0, []
        for name in self.computations.get(computation, []):
            instr = self.instructions[name]
            op, shape = instr["op"], instr["shape"]
            count = 0
            if op in ("fusion", "call") and depth < 8:
                called = self.attr(instr, "calls") or self.attr(instr, "to_apply")
                sub = self.computation_flops(called, depth + 1) if called else (0, 0, [])
                flops, f64, dots = flops + sub[0], f64 + sub[1], dots + sub[2]
                continue
            if op == "dot":
                lhs = self.shape_of(instr["operands"][0]) if instr["operands"] else []
                lhs_dims = lhs[0][1] if lhs else []
                k = math.prod(lhs_dims[d] for d in self.dims_attr(instr, "lhs_contracting_dims")
                              if d < len(lhs_dims))
                batch = math.prod(lhs_dims[d] for d in self.dims_attr(instr, "lhs_batch_dims")
                                  if d < len(lhs_dims))
                out = elements(shape)
                count = 2 * out * k
                dots.append({"m_n": out // max(batch, 1), "k": k, "batch": batch,
                             "elt": dtype_bytes(lhs[0][0]) if lhs else 2, "flops": count})
            elif op == "convolution":
                rhs = self.shape_of(instr["operands"][1]) if len(instr["operands"]) > 1 else []
                labels = re.search(r"dim_labels=\w+_(\w+)->", instr["attrs"])
                if rhs and labels and "o" in labels.group(1):
                    features = rhs[0][1][labels.group(1).index("o")]
                    count = 2 * elements(shape) * math.prod(rhs[0][1]) // max(features, 1)
            elif op == "reduce":
                half = instr["operands"][:max(1, len(instr["operands"]) // 2)]
                reducer = self.attr(instr, "to_apply")
                ops = sum(1 for n in self.computations.get(reducer, [])
                          if self.instructions[n]["op"] in ARITH) or 1
                count = ops * sum(elements(self.shape_of(n)) for n in half)
            elif op == "reduce-window":
                window = re.search(r"window=\{size=([\dx]+)", instr["attrs"])
                count = elements(shape) * (math.prod(int(v) for v in window.group(1).split("x"))
                                           if window else 1)
            elif op in ("map", "scatter", "select-and-scatter"):
                count = elements(self.shape_of(instr["operands"][-1])) if op != "map" else \
                    elements(shape)
            elif op in ARITH:
                count = elements(shape)
            flops += count
            if shape and shape[0][0] in ("f64", "c128"):
                f64 += count
        self.flops_cache[computation] = (flops, f64, dots)
        return self.flops_cache[computation]


def tile_aspect(instr):
    """tile_m / tile_n of a GEMM fusion's output_tiles config, or None."""
    m = re.search(r'"output_tiles":\[\{"sizes":\[([^\]]*)\]', instr["raw"]) if instr else None
    if not m:
        return None
    sizes = [int(v.strip('"')) for v in m.group(1).split(",") if v.strip('"').isdigit()]
    return sizes[-2] / sizes[-1] if len(sizes) >= 2 and sizes[-1] else None


def kernel_work(hlo, fusion, spec, emitter):
    """bytes, flops, f64 flops, GEMM shape and the nominal flops (1 per
    output element) of one launch; see static_estimate.py."""
    params = [p for p in spec["parameters"] if p.get("binds") != "scratch"]
    param_bytes = sum(p["bytes"] for p in params)
    outs = [p for p in params if p["direction"] == "out"]
    ins = [p for p in params if p["direction"] == "in"]
    out_elements = sum(math.prod(p["shape"]) for p in outs)
    out_shapes = {(tuple(p["shape"]), p["element_type"]) for p in outs}
    instr = hlo.instructions.get(fusion)
    called = hlo.attr(instr, "calls") if instr else None
    reads = hlo.parameter_reads(called) if called and instr["op"] == "fusion" else {}
    for i, p in enumerate(ins):
        whole, read = reads.get(i, (None, None))
        if read is not None and whole == math.prod(p["shape"]):
            p = ins[i] = dict(p)
            p["bytes"] = min(p["bytes"], int(read * dtype_bytes(p["element_type"])))
    if emitter.startswith(("kLoop/InPlaceDynamicUpdateSlice", "kScatter/")):
        update = sum(p["bytes"] for p in ins
                     if (tuple(p["shape"]), p["element_type"]) not in out_shapes)
        moved = 2 * update if update else param_bytes
    elif emitter.startswith(("kLoop/", "kConcatenate/", "kTranspose/")):
        moved = sum(p["bytes"] for p in outs) + sum(
            min(p["bytes"], out_elements * dtype_bytes(p["element_type"])) for p in ins)
    else:
        moved = sum(p["bytes"] for p in ins + outs)
    flops, f64, dots = 0, 0, []
    if instr:
        if called:
            flops, f64, dots = hlo.computation_flops(called)
        elif instr["op"] in ARITH or instr["op"] in ("dot", "reduce"):
            flops = elements(instr["shape"])
    gemm = None
    if dots and emitter.startswith("kGemm/"):
        dot = max(dots, key=lambda d: d["flops"])
        gemm = {"mn": dot["m_n"], "k": dot["k"], "batch": dot["batch"], "elt": dot["elt"],
                "tile_aspect": tile_aspect(instr)}
    source = "dot" if dots else ("hlo" if flops else "none")
    return {"bytes": max(moved, 1), "param_bytes": param_bytes, "flops": flops,
            "f64_flops": f64, "gemm": gemm, "source": source,
            "nominal": flops or max(out_elements, 1)}


OPCODE_RE = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][\w.:]*)")
FLOAT_RE = re.compile(r"\.(f16|f32|f64|bf16|f16x2|bf16x2)$")
NOT_GLOBAL = ("param", "shared", "local", "const", "shared::cta", "shared::cluster")


def tensor_type(token):
    for marker, kind in ((".bf16", "bf16"), (".f16", "f16"), (".tf32", "tf32"),
                         (".e4m3", "fp8"), (".e5m2", "fp8"), (".s8", "int8"), (".u8", "int8"),
                         (".s4", "int8"), (".f64", "f64")):
        if marker in token:
            return kind
    return "bf16"


def instruction_mix(ptx):
    """Static counts of a kernel's PTX: global loads and stores by width
    (bits per thread), float fma/mul/add, MMAs, shuffles, barriers."""
    mix = {"ld": collections.Counter(), "st": collections.Counter(), "fma": 0, "mul": 0,
           "add": 0, "shfl": 0, "bar": 0, "tensor": None, "load_bytes": 0, "loads": 0,
           "widest": 0}
    tensor = collections.Counter()
    # Triton writes several statements on a line ("mov ...; ld.global ...;").
    for line in re.split(r"[;\n]", ptx):
        m = OPCODE_RE.match(line)
        if not m:
            continue
        token = m.group(1)
        parts = token.split(".")
        base = parts[0]
        if base in ("ld", "st") and len(parts) > 1 and parts[1] not in NOT_GLOBAL:
            lanes = next((int(p[1:]) for p in parts if re.fullmatch(r"v\d", p)), 1)
            bits = re.search(r"(\d+)$", parts[-1])
            width = lanes * int(bits.group(1)) if bits else 32
            mix[base][width] += 1
            if base == "ld":
                mix["load_bytes"] += width // 8
                mix["loads"] += 1
                mix["widest"] = max(mix["widest"], width)
        elif token.startswith("cp.async.") and ".global" in token:
            size = re.search(r",\s*(\d+)\s*(?:,|$)", line)
            width = 8 * (int(size.group(1)) if size and "bulk" not in token else 16)
            mix["ld"][width] += 1
            mix["load_bytes"] += width // 8
            mix["loads"] += 1
            mix["widest"] = max(mix["widest"], width)
        elif base in ("fma", "mul", "add", "sub") and FLOAT_RE.search(token):
            mix["add" if base == "sub" else base] += 1
        elif token.startswith("mma.sync"):
            tensor[("mma.sync", tensor_type(token))] += 1
        elif token.startswith("wgmma.mma_async"):
            tensor[("wgmma", tensor_type(token))] += 1
        elif base == "shfl":
            mix["shfl"] += 1
        elif base in ("bar", "barrier") and "warp" not in token:
            mix["bar"] += 1
    if tensor:
        # wgmma where the kernel has any (its main loop), else the most used MMA.
        (op, kind), count = max(tensor.items(), key=lambda t: (t[0][0] == "wgmma", t[1]))
        mix["tensor"] = {"op": op, "type": kind, "count": count}
    return mix


def width_string(counter):
    return " ".join("%dx%d" % (w, counter[w]) for w in sorted(counter, reverse=True)) or "-"


def tensor_string(mix):
    t = mix["tensor"]
    return "%s.%s x%d" % (t["op"], t["type"], t["count"]) if t else "-"


def key(name):
    """A report header, normalized: "GB/s" -> "gbs", "xla_us" -> "xlaus"."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def manifest_module(path):
    with open(path) as f:
        return json.load(f).get("module", "")


COLUMNS = ["dump", "kernel", "hlo", "xla_kernel", "emitter", "bytes", "param_bytes", "flops",
           "flop_source", "intensity", "bound", "est_us", "xla_bound", "xla_est_us", "ratio"]
SIDE = ["grid", "block", "regs", "spills", "smem", "occ", "bw_eff", "ld_bits", "ld_global",
        "st_global", "fp_fma_mul_add", "tensor", "shfl", "bar"]
MEASURED = ["meas_us", "xla_meas_us", "meas_ratio", "meas_status", "xla_meas_status",
            "meas_gbs", "xla_meas_gbs", "meas_tflops", "xla_meas_tflops"]


def fmt(value):
    if value is None:
        return "-"
    if isinstance(value, float):
        if value == 0:
            return "0"
        return "%.3g" % value if abs(value) < 1000 else "%.0f" % value
    return str(value)


def write_tsv(path, rows):
    columns = COLUMNS + [p + c for c in SIDE for p in ("", "xla_")]
    if rows and "meas_us" in rows[0]:
        columns += MEASURED
    columns.append("reasons")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write("\t".join(columns) + "\n")
        for row in rows:
            f.write("\t".join(fmt(row.get(c)) for c in columns) + "\n")
    return columns


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def write_markdown(path, rows, counts, failures, command, seconds, columns, measured, compiled,
                   constants):
    out = []
    w = out.append
    ratios = [r["ratio"] for r in rows]
    w("# Static per-kernel estimate: our kernels beside XLA's (H100 SXM model)\n")
    w("Written by `%s` (%.0f s on 2 shared cores, %s, the charts included), "
      "hlo-compile for sm_90a. A prediction from static figures, not a measurement; "
      "the model is in `bench/static_estimate.py`'s docstring.\n" % (
          command, seconds, "compiling %d dumps serially" % compiled if compiled else
          "the dumps' compiles cached"))
    w("Kernels: %d of ours over %d dumps, %d beside an XLA kernel (a launch of one kernel "
      "for several fusions counts once per fusion; %d not paired: no XLA kernel for the "
      "fusion, or no ptxas figures).%s\n" % (
          sum(c[0] for c in counts.values()), len(counts), len(rows),
          sum(c[2] for c in counts.values()),
          " Not compiled: " + ", ".join(d for d, _ in failures) + "." if failures else ""))
    total, xtotal = sum(r["est_us"] for r in rows), sum(r["xla_est_us"] for r in rows)
    w("**Estimated ours / XLA: geomean %.3f over %d kernels; summed estimates %.0f us vs "
      "%.0f us (%.3f).** Ours predicted slower by more than 10%%: %d kernels; faster by "
      "more than 10%%: %d.\n" % (geomean(ratios), len(rows), total, xtotal,
                                 total / xtotal if xtotal else float("nan"),
                                 sum(1 for v in ratios if v > 1.1),
                                 sum(1 for v in ratios if v < 1 / 1.1)))
    above = [r for r in rows if r["bound"] != "launch" or r["xla_bound"] != "launch"]
    w("Above the launch floor on at least one side: %d kernels, geomean %.3f (the other %d "
      "are predicted at the %.0f us floor on both sides).\n" % (
          len(above), geomean(r["ratio"] for r in above), len(rows) - len(above),
          constants["launch_us"]))
    w("Model figures: HBM %.2f TB/s, L2 %.1f TB/s (assumed), FP32 %.0f / FP64 %.0f TFLOP/s, "
      "tensor %s TFLOP/s, mma.sync at %.0f%% of the tensor peak, launch floor %.0f us.\n" % (
          constants["hbm"] / 1e12, constants["l2"] / 1e12, constants["fp32"] / 1e12,
          constants["fp64"] / 1e12,
          ", ".join("%s %.0f" % (k, v / 1e12) for k, v in constants["tensor"].items()),
          100 * constants["mma_sync"], constants["launch_us"]))
    w("## Per dump\n")
    w("| dump | kernels | paired | geomean ours/XLA | sum ours us | sum XLA us | >10%% slower "
      "| >10%% faster |%s" % (" measured geomean | measured pairs |" if measured else ""))
    w("|---|---:|---:|---:|---:|---:|---:|---:|%s" % ("---:|---:|" if measured else ""))
    by_dump = collections.defaultdict(list)
    for r in rows:
        by_dump[r["dump"]].append(r)
    for dump in sorted(counts):
        rs = by_dump.get(dump, [])
        line = "| %s | %d | %d | %.3f | %.0f | %.0f | %d | %d |" % (
            dump, counts[dump][0], len(rs), geomean(r["ratio"] for r in rs),
            sum(r["est_us"] for r in rs), sum(r["xla_est_us"] for r in rs),
            sum(1 for r in rs if r["ratio"] > 1.1), sum(1 for r in rs if r["ratio"] < 1 / 1.1))
        if measured:
            m = [r["meas_ratio"] for r in rs if r.get("meas_ratio")]
            line += " %s | %d |" % ("%.3f" % geomean(m) if m else "-", len(m))
        w(line)
    w("\n## Per emitter\n")
    w("| emitter | paired | geomean | >10% slower | bounds (ours) |")
    w("|---|---:|---:|---:|---|")
    by_emitter = collections.defaultdict(list)
    for r in rows:
        by_emitter[r["emitter"]].append(r)
    for emitter in sorted(by_emitter):
        rs = by_emitter[emitter]
        bounds = collections.Counter(r["bound"] for r in rs)
        w("| %s | %d | %.3f | %d | %s |" % (
            emitter, len(rs), geomean(r["ratio"] for r in rs),
            sum(1 for r in rs if r["ratio"] > 1.1),
            ", ".join("%s %d" % kv for kv in bounds.most_common())))
    slower = sorted((r for r in rows if r["ratio"] > 1.1), key=lambda r: -r["ratio"])
    # One line per kernel of ours (fusions that launch one kernel, same figures).
    groups = collections.OrderedDict()
    for r in slower:
        group = (r["dump"], r["kernel"].split("[")[0], "%.3f" % r["ratio"], r["reasons"])
        groups.setdefault(group, []).append(r)
    w("\n## Predicted slower than XLA's by more than 10%% (%d kernels, %d distinct), worst "
      "first\n" % (len(slower), len(groups)))
    w("Fusions that launch one kernel with the same figures share a line (x N). The default "
      "and native variant of a model share most non-GEMM kernels: a kernel can appear once "
      "per variant.\n")
    w("| dump | kernel | emitter | bound | ours us | XLA us | ratio | reasons |")
    w("|---|---|---|---|---:|---:|---:|---|")
    for (dump, name, _, _), rs in groups.items():
        r = rs[0]
        w("| %s | %s%s | %s | %s | %.1f | %.1f | %.2f | %s |" % (
            dump, name, " (x%d)" % len(rs) if len(rs) > 1 else "",
            r["emitter"].split("/")[-1], r["bound"], r["est_us"], r["xla_est_us"], r["ratio"],
            r["reasons"]))
    if measured:
        both = [r for r in rows if r.get("meas_ratio")]
        w("\n## Measured (hlo-run --report)\n")
        w("%d kernels with our time, %d with XLA's beside it. Geomean measured ours/XLA "
          "%.3f; over the same kernels the estimate says %.3f; geomean measured/estimated "
          "ours %.2f.\n" % (
              sum(1 for r in rows if r.get("meas_us")), len(both),
              geomean(r["meas_ratio"] for r in both), geomean(r["ratio"] for r in both),
              geomean(r["meas_us"] / r["est_us"] for r in rows if r.get("meas_us"))))
    w("\n## Caveats\n")
    w("- Static counts: loads in flight are counted in the PTX; ptxas can unroll a loop "
      "further (more in flight than counted) and a branchy kernel counts loads of paths "
      "it does not take (capped at 64 B per thread).\n"
      "- Bytes and FLOPs are the same for both sides by construction, so the ratio comes "
      "only from the launch shape, registers, shared memory, loads, spills and MMA "
      "instructions; ratios near 1 are expected where kernel_side_by_side finds the same "
      "figures.\n"
      "- GEMMs of the default dumps use XLA's un-autotuned Triton configs (mostly 8x16 or "
      "16x8 tiles, 2 warps; see the dumps' README), which both sides follow by default: "
      "their estimates are dominated by the L2 tile re-read term and by the "
      "assumed L2 bandwidth; they are no GEMM performance reference.\n"
      "- FLOPs count integer ops (RNG bit mixing) and transcendentals as 1; the handful of "
      "compute-bound elementwise kernels are RNG or divide chains.\n"
      "- Launch floor: most small kernels are at the %.0f us floor on both sides, which "
      "pulls the geomean toward 1.\n" % constants["launch_us"])
    w("\n## Roofline charts\n")
    w("`roofline/<dump>.png`: x = FLOP per byte moved (log), y = TFLOP/s (log), the HBM "
      "roof (and the L2 roof where the dump has GEMMs) and the compute ceilings that apply "
      "(FP32, FP64 where the dump computes in f64, the tensor-core peak of the MMA types "
      "used and its mma.sync fraction). Each kernel is a circle (ours) and a triangle "
      "(XLA's) joined by a thin line: both move the same bytes and FLOPs, so the pair "
      "stands on one vertical and the gap is the predicted ratio. Kernels with no "
      "arithmetic in their fusion (copies, transposes, slices, concatenates, in-place "
      "updates, sort launches) are drawn hollow at a nominal 1 FLOP per output "
      "element, so that they sit on the memory slope where their bandwidth can be read. "
      "After a GPU run (--measured), stars (ours) and crosses (XLA's) are the achieved "
      "points.\n")
    w("## Columns of the TSV\n")
    w("`%s`. bytes: the work model's bytes (param_bytes: the manifest's); intensity: "
      "flops/bytes; occ: resident threads / 2048 per SM; bw_eff: the share of HBM "
      "bandwidth the bytes in flight predict; ld_global/st_global: static global "
      "loads/stores as bits-per-thread x count (128 = v4.b32); fp_fma_mul_add: static float "
      "fma/mul/add(+sub); tensor: the MMA instruction and its static count.\n" %
      "`, `".join(columns))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def plot_rooflines(rows, directory, constants):
    """One PNG per dump; a message instead when matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return ("static_estimate: matplotlib is not installed: no roofline PNGs (the TSV and "
                "markdown are written). python3 -m venv build/bench-venv && "
                "build/bench-venv/bin/pip install matplotlib numpy, then run with "
                "build/bench-venv/bin/python3.")
    os.makedirs(directory, exist_ok=True)
    by_dump = collections.defaultdict(list)
    for r in rows:
        by_dump[r["dump"]].append(r)
    hbm, l2 = constants["hbm"] / 1e12, constants["l2"] / 1e12
    for dump, rs in sorted(by_dump.items()):
        fig, ax = plt.subplots(figsize=(9, 6), dpi=100)
        xs = [r["intensity"] or r["nominal_intensity"] for r in rs]
        lo, hi = min(xs + [0.05]) / 2, max(xs + [2000]) * 2
        grid = [lo * (hi / lo) ** (i / 100) for i in range(101)]
        ceilings = [("FP32 %.0f" % (constants["fp32"] / 1e12), constants["fp32"] / 1e12, "k")]
        if any(r.get("f64_flops") for r in rs):
            ceilings.append(("FP64 %.0f" % (constants["fp64"] / 1e12),
                             constants["fp64"] / 1e12, "gray"))
        kinds = {t.split(" ")[0].split(".")[-1] for r in rs for t in (r["tensor"],
                                                                      r["xla_tensor"])
                 if t != "-"}
        for kind in sorted(kinds):
            peak = constants["tensor"].get(kind, 0) / 1e12
            if peak:
                ceilings.append(("%s tensor %.0f" % (kind, peak), peak, "tab:green"))
                ceilings.append(("%s mma.sync %.0f" % (kind, peak * constants["mma_sync"]),
                                 peak * constants["mma_sync"], "tab:olive"))
        top = max(c[1] for c in ceilings)
        ax.plot(grid, [min(hbm * x, top) for x in grid], color="tab:red", lw=1.2,
                label="HBM %.2f TB/s" % hbm)
        if any(r["emitter"].startswith("kGemm/") for r in rs):
            ax.plot(grid, [min(l2 * x, top) for x in grid], color="tab:red", lw=0.8, ls=":",
                    label="L2 %.0f TB/s (assumed)" % l2)
        for i, (label, peak, color) in enumerate(ceilings):
            ax.plot([peak / hbm, hi], [peak, peak], color=color, lw=0.9,
                    ls="--" if "mma.sync" in label else "-")
            # Staggered, so that ceilings of one height keep readable labels.
            ax.text(hi / 4 ** i, peak, label, fontsize=7, ha="right", va="bottom", color=color)
        points = collections.defaultdict(lambda: ([], []))  # (side, hollow) -> xs, ys
        segments, low = [], top
        for r, x in zip(rs, xs):
            flops = r["flops"] or r["nominal_intensity"] * r["bytes"]
            hollow = not r["flops"]
            ys = []
            for key in ("est_us", "xla_est_us", "meas_us", "xla_meas_us"):
                if r.get(key):
                    y = flops / r[key] / 1e6
                    points[(key, hollow)][0].append(x)
                    points[(key, hollow)][1].append(y)
                    ys.append(y)
                    low = min(low, y)
            segments.append([(x, min(ys)), (x, max(ys))])
        from matplotlib.collections import LineCollection
        ax.add_collection(LineCollection(segments, colors="0.6", linewidths=0.5, zorder=1))
        styles = {"est_us": ("o", "tab:blue", 12, 3), "xla_est_us": ("^", "tab:orange", 34, 2),
                  "meas_us": ("*", "navy", 30, 4), "xla_meas_us": ("x", "darkorange", 24, 4)}
        for (key, hollow), (px, py) in sorted(points.items()):
            marker, color, size, z = styles[key]
            filled = marker in "x*" or not hollow
            ax.scatter(px, py, s=size, marker=marker, zorder=z, linewidths=0.8,
                       facecolors=color if filled else "none",
                       edgecolors=color if marker != "x" else None,
                       color=color if marker == "x" else None)
        handles = [
            plt.Line2D([], [], color="tab:blue", marker="o", ls="", label="ours (estimate)"),
            plt.Line2D([], [], color="tab:orange", marker="^", ls="", label="XLA (estimate)"),
            plt.Line2D([], [], color="tab:blue", marker="o", ls="", mfc="none",
                       label="no FLOPs: at 1 FLOP/output element")]
        if any(r.get("meas_us") for r in rs):
            handles += [plt.Line2D([], [], color="navy", marker="*", ls="", label="ours measured"),
                        plt.Line2D([], [], color="darkorange", marker="x", ls="",
                                   label="XLA measured")]
        ax.legend(handles=ax.get_legend_handles_labels()[0] + handles, fontsize=7,
                  loc="upper left")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, hi)
        ax.set_ylim(low / 2, top * 2)
        ax.set_xlabel("arithmetic intensity (FLOP/byte)")
        ax.set_ylabel("attainable TFLOP/s (estimate)")
        ax.set_title("%s: %d kernels, est. ours/XLA geomean %.3f (H100 SXM model)" % (
            dump, len(rs), geomean(r["ratio"] for r in rs)), fontsize=10)
        ax.grid(True, which="major", lw=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(directory, dump + ".png"))
        plt.close(fig)
    return ""
