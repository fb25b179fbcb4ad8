#!/usr/bin/env python3
"""A static per-kernel time estimate of our kernels beside XLA's for the same fusion (no GPU needed), with a roofline chart per dump.

Owns: the estimate model below, the per-kernel table (TSV), its markdown
summary and the roofline PNGs of bench/results/. The compiling, the pairing
with XLA's kernels (by fusion name, sort launch, or structure) and the
widest-load reading are kernel_side_by_side.py's and hero_side_by_side.py's;
the HLO and PTX counting and the plots are in static_estimate_lib.py.

  bench/static_estimate.py [--build build | --hlo-compile BIN] [--cache DIR]
      [--tsv FILE] [--md FILE] [--png-dir DIR] [--dump NAME ...]
      [--measured REPORT.tsv ...]

Every kernel of every XLA dump (../shared/corpus/dumps/*.{default,native};
each dump compiled once with --resource-usage for sm_90a and cached under
--cache), beside XLA's kernel for the same fusion.

Work per kernel (the same for ours and XLA's: XLA's kernel takes exactly
our kernel's buffers):
  bytes  the manifest's parameter bytes (scratch ones left out), with two
         corrections that keep slices and in-place updates from counting
         buffers they never read: a loop/concatenate/transpose fusion reads
         at most one element of each input per output element (an input is
         counted at min(its bytes, output elements x its element size)); an
         in-place dynamic-update-slice or scatter reads and writes only its
         update (the input of the output's shape is left out, the rest
         counted twice: read and written).
  FLOPs  from the fusion in module.hlo: a dot 2*M*N*K (K the product of the
         lhs contracting dims, batch included in the output), a convolution
         2 x output elements x (filter elements / output features); every
         elementwise arithmetic, compare, select or transcendental op 1 FLOP
         per element of its shape (a transcendental is not weighted more,
         as in XLA's HloCostAnalysis' flop count); a reduce 1 FLOP per input
         element per op of its reducer; reduce-window output x window;
         nested fusions and calls counted through. Data movement (copy,
         transpose, slice, broadcast, convert, concatenate, pad, gather,
         dynamic slices, sort launches) counts 0.

The model (H100 SXM; a predictor, not a measurement): time = max of
  launch   LAUNCH_US (3 us): the floor of any launch;
  memory   bytes / (HBM x eff) + spill traffic / HBM, where
             HBM = 3.35 TB/s, and eff = min(1, bytes in flight / needed):
             bytes in flight = active SMs (min(132, blocks)) x resident
             threads per SM x global-load bytes per thread in flight;
             resident threads = min(blocks per SM allowed by registers
             (65536/SM, allocated per warp in 256s), threads (2048/SM, 32
             blocks/SM) and shared memory (228 KiB/SM, 1 KiB reserved per
             block), blocks / active SMs) x block threads; bytes per thread
             in flight = the sum of the widths of the kernel's static global
             loads (ld.global by .v4/.v2/scalar and element size, generic ld,
             cp.async), at most 64 B (a thread rarely has more in flight);
             needed = 132 x 12 KiB (Little's law: 3.35 TB/s x ~480 ns loaded
             latency). A kernel without global loads has eff 1.
             Spill traffic = ptxas' spill store+load bytes x grid threads
             (all of it to HBM: pessimistic);
  L2       GEMMs only: operand re-reads of the output tiles, M*N*K*batch x
             (1/tile_m + 1/tile_n) x element bytes, at L2_TBPS (6 TB/s, an
             assumption: H100 L2 microbenchmarks give 5.5-7): a tile's area
             is M*N*batch / blocks, its shape that of the fusion's
             output_tiles config where it has one, else square;
  compute  FLOPs / (peak x SM fraction), SM fraction = min(1, blocks/132):
             GEMMs at the dense tensor-core peak of the MMA their PTX uses
             (bf16/f16 989, tf32 494, fp8/int8 1979, f64 67 TFLOP/s), times
             MMA_SYNC_FRACTION (0.62) for mma.sync (wgmma reaches the peak);
             a GEMM without MMA instructions, and every other kernel, at
             67 TFLOP/s (FP32 non-tensor), FLOPs of f64 ops at 34 TFLOP/s.
The bound is the largest term: launch, memory (eff >= 0.5), latency
(memory term with eff < 0.5: too few bytes in flight to cover HBM latency),
l2, or compute. Reasons for a ratio over 1.10 name the factors where ours
is worse: occupancy (with registers, block, shared memory), blocks under
132 SMs, bytes in flight per thread (widest load, load count), spills,
mma.sync vs wgmma, tile traffic.

--measured REPORT.tsv (repeatable): rows from `hlo-run --report` (columns
by header name: module, kernel, us, and when present xla_kernel, xla_us,
status, xla_status) add achieved times, ratios and points. hlo-run names a
module by the manifest's module name (the same for both variants of a
model) or the dump's directory name: a module's rows are matched to the
dump whose kernel labels they share most.

matplotlib is optional (build/bench-venv: python3 -m venv build/bench-venv &&
build/bench-venv/bin/pip install matplotlib numpy); without it the TSV and
markdown are still written.
"""
import argparse
import collections
import csv
import math
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hero_side_by_side import ARCH, CORPUS, dump_xla_rows  # noqa: E402
from kernel_side_by_side import read_kernels, xla_kernel_for  # noqa: E402
import static_estimate_lib as lib  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# H100 SXM figures.
HBM = 3.35e12
L2_TBPS = 6.0e12
SMS = 132
THREADS_PER_SM, BLOCKS_PER_SM, REGS_PER_SM = 2048, 32, 65536
SMEM_PER_SM, SMEM_RESERVED = 228 * 1024, 1024
FP32, FP64 = 67e12, 34e12
TENSOR = {"bf16": 989e12, "f16": 989e12, "tf32": 494e12, "fp8": 1979e12, "int8": 1979e12,
          "f64": 67e12}
MMA_SYNC_FRACTION = 0.62
LAUNCH_US = 3.0
NEEDED_IN_FLIGHT = SMS * 12 * 1024
MAX_BYTES_PER_THREAD = 64


def threads_of(dims):
    return dims[0] * dims[1] * dims[2]


def occupancy(regs, threads, smem):
    """Blocks per SM and what limits them."""
    warps = max(1, -(-threads // 32))
    limits = {"threads": min(BLOCKS_PER_SM, THREADS_PER_SM // (warps * 32))}
    per_warp = -(-max(regs, 1) * 32 // 256) * 256
    limits["registers"] = (REGS_PER_SM // per_warp) // warps
    limits["smem"] = SMEM_PER_SM // (smem + SMEM_RESERVED)
    limiter = min(limits, key=lambda k: limits[k])
    return max(limits[limiter], 0), limiter


def estimate(side, work):
    """The model above for one side: side has grid, block, regs, spills,
    smem, mix (PTX instruction counts); work has bytes, flops, f64_flops,
    gemm (dims or None)."""
    blocks, threads = threads_of(side["grid"]), threads_of(side["block"])
    per_sm, limiter = occupancy(side["regs"], threads, side["smem"])
    active = min(SMS, blocks)
    resident_blocks = min(per_sm, -(-blocks // active)) if per_sm else 0
    occ = per_sm * threads / THREADS_PER_SM
    mix = side["mix"]
    per_thread = min(mix["load_bytes"], MAX_BYTES_PER_THREAD)
    in_flight = active * resident_blocks * threads * per_thread
    eff = 1.0 if mix["load_bytes"] == 0 else min(1.0, in_flight / NEEDED_IN_FLIGHT)
    terms = {"launch": LAUNCH_US * 1e-6}
    spill_bytes = side["spills"] * blocks * threads
    gemm = work["gemm"]
    if gemm:
        terms["memory"] = (work["bytes"] + spill_bytes) / HBM
        area = max(1.0, gemm["mn"] * gemm["batch"] / blocks)
        aspect = gemm["tile_aspect"] or 1.0
        tile_m, tile_n = math.sqrt(area * aspect), math.sqrt(area / aspect)
        terms["l2"] = (gemm["mn"] * gemm["k"] * gemm["batch"] *
                       (1 / tile_m + 1 / tile_n) * gemm["elt"] / L2_TBPS)
    else:
        terms["memory"] = work["bytes"] / (HBM * max(eff, 1e-3)) + spill_bytes / HBM
    fraction = min(1.0, blocks / SMS)
    tensor = mix["tensor"]
    if gemm and tensor:
        peak = TENSOR[tensor["type"]] * (1.0 if tensor["op"] == "wgmma" else MMA_SYNC_FRACTION)
        terms["compute"] = work["flops"] / (peak * fraction)
    else:
        terms["compute"] = ((work["flops"] - work["f64_flops"]) / FP32 +
                            work["f64_flops"] / FP64) / fraction
    bound = max(terms, key=lambda k: terms[k])
    us = terms[bound] * 1e6
    if bound == "memory" and not gemm and eff < 0.5:
        bound = "latency"
    return {"us": us, "bound": bound, "eff": eff, "occ": occ,
            "limiter": limiter, "per_sm": per_sm, "active": active, "per_thread": per_thread,
            "terms": terms}


def side_of(kernel_grid, block, regs, spills, smem, ptx):
    mix = lib.instruction_mix(ptx)
    return {"grid": [int(v) for v in kernel_grid.split(",")],
            "block": [int(v) for v in block.split(",")],
            "regs": int(regs or 0), "spills": int(spills or 0), "smem": int(smem or 0),
            "mix": mix}


def reasons(ours, xla, est, xest):
    """Why ours is predicted slower: each factor where ours is worse."""
    out = []
    if est["bound"] in ("memory", "latency") and est["eff"] < xest["eff"] * 0.95:
        if ours["regs"] != xla["regs"] or est["occ"] != xest["occ"]:
            if est["occ"] < xest["occ"]:
                out.append("registers %d vs %d, block %d vs %d, smem %d vs %d -> occupancy "
                           "%.0f%% vs %.0f%% (%s-limited)" % (
                               ours["regs"], xla["regs"], threads_of(ours["block"]),
                               threads_of(xla["block"]), ours["smem"], xla["smem"],
                               100 * est["occ"], 100 * xest["occ"], est["limiter"]))
        if est["active"] < xest["active"] or (
                threads_of(ours["grid"]) < threads_of(xla["grid"]) and est["active"] < SMS):
            out.append("grid %d blocks vs %d" % (threads_of(ours["grid"]),
                                                 threads_of(xla["grid"])))
        if est["per_thread"] < xest["per_thread"]:
            out.append("loads in flight %d vs %d B/thread (widest %d vs %d bits, %d vs %d "
                       "global loads)" % (est["per_thread"], xest["per_thread"],
                                          ours["mix"]["widest"], xla["mix"]["widest"],
                                          ours["mix"]["loads"], xla["mix"]["loads"]))
        out.append("bandwidth eff %.2g%% vs %.2g%%" % (100 * est["eff"], 100 * xest["eff"]))
    if ours["spills"] > xla["spills"]:
        out.append("spills %d B vs %d B" % (ours["spills"], xla["spills"]))
    ot, xt = ours["mix"]["tensor"], xla["mix"]["tensor"]
    if ot and xt and ot["op"] != xt["op"] and xt["op"] == "wgmma":
        out.append("%s vs wgmma" % ot["op"])
    if ot and xt and ot["type"] != xt["type"]:
        out.append("MMA %s vs %s" % (ot["type"], xt["type"]))
    if est["terms"].get("l2", 0) > 1.1 * xest["terms"].get("l2", 0):
        out.append("tile re-reads %.0f vs %.0f us (grid %d vs %d)" % (
            est["terms"]["l2"] * 1e6, xest["terms"]["l2"] * 1e6, threads_of(ours["grid"]),
            threads_of(xla["grid"])))
    if est["terms"]["compute"] > 1.1 * xest["terms"]["compute"] and est["bound"] == "compute":
        out.append("compute on %d vs %d SMs" % (est["active"], xest["active"]))
    return "; ".join(out) or "-"


def compile_dump(hlo_compile, dump, cache):
    """Our kernels of a dump, compiled once into cache."""
    module = os.path.join(CORPUS, "dumps", dump, "module.hlo")
    base = os.path.join(cache, dump)
    if not os.path.exists(base + ".json"):
        os.makedirs(cache, exist_ok=True)
        run = subprocess.run([hlo_compile, module, "-w", "-j", "1", "--gpu-arch", ARCH,
                              "-o", base + ".ptx", "--manifest", base + ".json",
                              "--resource-usage"], capture_output=True, text=True)
        with open(base + ".stderr", "w") as f:
            f.write(run.stderr)
        if run.returncode != 0:
            for path in (base + ".json", base + ".ptx"):
                if os.path.exists(path):
                    os.remove(path)
            lines = [l for l in run.stderr.splitlines() if "error" in l]
            return {"error": lines[0] if lines else run.stderr.strip()[:200]}
    with open(base + ".stderr") as f:
        stderr = f.read()
    return {"kernels": read_kernels(module, base + ".json", base + ".ptx", stderr)}


def launch_labels(kernels):
    """hlo-run's label of each launch (abi::launchLabel): the PTX name, with
    [hlo instruction] when an earlier launch runs it for another one."""
    labels = []
    for i, k in enumerate(kernels):
        clash = any(kernels[j]["name"] == k["name"] and kernels[j]["hlo"] != k["hlo"]
                    for j in range(i))
        labels.append("%s[%s]" % (k["name"], k["hlo"]) if clash else k["name"])
    return labels


def rows_of_dump(dump, result, measured):
    directory = os.path.join(CORPUS, "dumps", dump)
    xla = dump_xla_rows(directory)
    hlo = lib.HloModule(os.path.join(directory, "module.hlo"))
    kernels = result["kernels"]
    labels = launch_labels(kernels)
    times = measured.take(dump, result["module"], labels) if measured else {}
    ptx_cache, rows, unpaired = {}, [], 0
    for ours, label in zip(kernels, labels):
        theirs = xla_kernel_for(ours, xla, single=len(kernels) == 1)
        if not theirs or "regs" not in ours:
            unpaired += 1
            continue
        path = os.path.join(directory, theirs["ptx_file"])
        if path not in ptx_cache:
            ptx_cache[path] = open(path).read() if os.path.isfile(path) else ""
        spec = ours["spec"]
        our_side = side_of(ours["grid"], ours["block"], ours["regs"], ours["spills"],
                           ours["smem"] + spec.get("dynamic_shared_memory_bytes", 0),
                           ours["ptx"])
        xla_side = side_of(theirs["grid"], theirs["block"], theirs["registers"],
                           int(theirs["spill_stores"]) + int(theirs["spill_loads"]),
                           int(theirs["smem"]) + int(theirs["dyn_smem"] or 0),
                           ptx_cache[path])
        work = lib.kernel_work(hlo, ours["hlo"], spec, ours["emitter"])
        est, xest = estimate(our_side, work), estimate(xla_side, work)
        row = {"dump": dump, "kernel": label, "hlo": ours["hlo"],
               "xla_kernel": theirs["kernel"], "emitter": ours["emitter"],
               "bytes": work["bytes"], "param_bytes": work["param_bytes"],
               "flops": work["flops"], "f64_flops": work["f64_flops"],
               "flop_source": work["source"],
               "intensity": work["flops"] / work["bytes"] if work["bytes"] else 0.0,
               "nominal_intensity": work["nominal"] / work["bytes"] if work["bytes"] else 0.0,
               "bound": est["bound"], "est_us": est["us"], "xla_bound": xest["bound"],
               "xla_est_us": xest["us"], "ratio": est["us"] / xest["us"],
               "reasons": reasons(our_side, xla_side, est, xest) if
               est["us"] > 1.10 * xest["us"] else ""}
        for prefix, side, e in (("", our_side, est), ("xla_", xla_side, xest)):
            mix = side["mix"]
            row.update({prefix + "grid": ",".join(map(str, side["grid"])),
                        prefix + "block": ",".join(map(str, side["block"])),
                        prefix + "regs": side["regs"], prefix + "spills": side["spills"],
                        prefix + "smem": side["smem"], prefix + "occ": e["occ"],
                        prefix + "bw_eff": e["eff"], prefix + "ld_bits": mix["widest"],
                        prefix + "ld_global": lib.width_string(mix["ld"]),
                        prefix + "st_global": lib.width_string(mix["st"]),
                        prefix + "fp_fma_mul_add": "%d/%d/%d" % (mix["fma"], mix["mul"],
                                                                 mix["add"]),
                        prefix + "tensor": lib.tensor_string(mix),
                        prefix + "shfl": mix["shfl"], prefix + "bar": mix["bar"]})
        if measured:
            m = times[label].pop(0) if times.get(label) else {}
            row.update(measured.columns(m, work))
        rows.append(row)
    return rows, unpaired


class Measured:
    """hlo-run --report rows, matched to dumps by module name and kernel labels."""

    def __init__(self, paths):
        self.blocks = []  # [module, [(label, row)]]: one hlo-run run each
        for path in paths:
            with open(path) as f:
                reader = csv.reader(f, delimiter="\t")
                header = [lib.key(h) for h in next(reader)]
                current = None
                for values in reader:
                    if values and lib.key(values[0]) == "module":  # a repeated header
                        continue
                    row = dict(zip(header, values))
                    module, label = row.get("module", ""), row.get("kernel", "")
                    # A run starts at the manifest's first kernel again.
                    if current is None or current[0] != module or label == current[1][0][0]:
                        current = [module, []]
                        self.blocks.append(current)
                    current[1].append((label, row))

    def take(self, dump, module, labels):
        """The best-matching run's rows for this dump (label -> rows in
        launch order), consumed."""
        best, score = None, 0
        for block in self.blocks:
            if block[0] not in (dump, module, os.path.splitext(dump)[0]):
                continue
            common = len(set(labels) & {label for label, _ in block[1]})
            if common > score:
                best, score = block, common
        if best is None:
            return {}
        self.blocks.remove(best)
        rows = collections.defaultdict(list)
        for label, row in best[1]:
            rows[label].append(row)
        return rows

    @staticmethod
    def columns(row, work):
        def number(name):
            try:
                return float(row.get(name, ""))
            except ValueError:
                return None
        us, xus = number("us"), number("xlaus")
        out = {"meas_us": us, "meas_status": row.get("status", ""),
               "xla_meas_us": xus, "xla_meas_status": row.get("xlastatus", ""),
               "meas_ratio": us / xus if us and xus else None}
        for prefix, t in (("", us), ("xla_", xus)):
            out[prefix + "meas_gbs"] = work["bytes"] / t / 1e3 if t else None
            out[prefix + "meas_tflops"] = work["flops"] / t / 1e6 if t else None
        return out


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--hlo-compile", help="the compiler (default BUILD/bin/hlo-compile)")
    parser.add_argument("--cache", default="/tmp/hlo-static-estimate",
                        help="our compiles of the dumps, kept (default %(default)s)")
    parser.add_argument("--dump", action="append", help="only these dumps (repeatable)")
    parser.add_argument("--measured", action="append", default=[],
                        help="hlo-run --report TSV (repeatable)")
    parser.add_argument("--tsv", default=os.path.join(
        ROOT, "bench", "results", "static-estimate-2026-12-06.tsv"))
    parser.add_argument("--md", help="markdown summary (default: the TSV's name, .md)")
    parser.add_argument("--png-dir", default=os.path.join(ROOT, "bench", "results", "roofline"))
    parser.add_argument("--no-png", action="store_true")
    args = parser.parse_args()
    started = time.time()
    hlo_compile = args.hlo_compile or os.path.join(args.build, "bin", "hlo-compile")
    dumps_dir = os.path.join(CORPUS, "dumps")
    dumps = args.dump or sorted(d for d in os.listdir(dumps_dir)
                                if os.path.splitext(d)[1] in (".default", ".native"))
    measured = Measured(args.measured) if args.measured else None

    rows, failures, counts = [], [], {}
    compiled = sum(1 for d in dumps if not os.path.exists(os.path.join(args.cache, d + ".json")))
    for dump in dumps:
        if not os.path.exists(os.path.join(args.cache, dump + ".json")) and \
                not os.access(hlo_compile, os.X_OK):
            sys.exit("static_estimate: build hlo-compile first (%s)" % hlo_compile)
        result = compile_dump(hlo_compile, dump, args.cache)
        if "error" in result:
            failures.append((dump, result["error"]))
            continue
        result["module"] = lib.manifest_module(os.path.join(args.cache, dump + ".json"))
        dump_rows, unpaired = rows_of_dump(dump, result, measured)
        counts[dump] = (len(result["kernels"]), len(dump_rows), unpaired)
        rows += dump_rows
        print("%-34s kernels %4d paired %4d" % (dump, len(result["kernels"]), len(dump_rows)),
              file=sys.stderr)

    md = args.md or os.path.splitext(args.tsv)[0] + ".md"
    columns = lib.write_tsv(args.tsv, rows)
    if not args.no_png:
        message = lib.plot_rooflines(rows, args.png_dir, model_constants())
        if message:
            print(message, file=sys.stderr)
    python = sys.executable if sys.executable.startswith(ROOT) else "python3"
    command = " ".join([os.path.relpath(python, ROOT) if python != "python3" else python,
                        os.path.relpath(os.path.abspath(sys.argv[0]), ROOT)] + [
        os.path.relpath(a, ROOT) if os.path.isabs(a) and a.startswith(ROOT) else a
        for a in sys.argv[1:]])
    lib.write_markdown(md, rows, counts, failures, command, time.time() - started, columns,
                       bool(measured), compiled, model_constants())
    print("static_estimate: %d kernels paired over %d dumps; wrote %s, %s (%.0f s)" % (
        len(rows), len(counts), args.tsv, md, time.time() - started), file=sys.stderr)
    return 1 if failures else 0


def model_constants():
    return {"hbm": HBM, "l2": L2_TBPS, "fp32": FP32, "fp64": FP64, "tensor": TENSOR,
            "mma_sync": MMA_SYNC_FRACTION, "launch_us": LAUNCH_US}


if __name__ == "__main__":
    sys.exit(main())
