#!/usr/bin/env python3
"""Every kernel we launch beside XLA's kernel for the same fusion, statically (no GPU needed).

Where hero_side_by_side.py compiles hero kernels one at a time, this
compiles each module whole, once (hlo-compile --resource-usage for sm_90a,
like XLA's dumps), and lists every kernel of its manifest:

  - the corpus dumps (../shared/corpus/dumps): every kernel of the native
    variant, and the block-level (Triton normalization) kernels of the
    default variant, paired with XLA's kernel of the same fusion from the
    xla_kernels.tsv and xla_ptx/ beside each dump (fusions XLA compiled into
    one kernel listed under another's name are paired by structure);
  - the corpus emitter-test modules (../shared/corpus/xla), paired with
    XLA's kernels from shared/tools/xla-gpu-reference (`xla-ref hlo`, run
    once into --xla-cache): by fusion name, else the only kernel of each.

  bench/kernel_side_by_side.py [--build build] [--tsv FILE] [--dumps-only]
      [--corpus-only] [--jobs N]
  bench/kernel_side_by_side.py --from-tsv FILE     (the summary of a saved table)

Per kernel: grid, block, registers, spills, shared memory and the widest
global load (128 = v4.b32), ours then XLA's. The summary, per emitter:
kernels beside an XLA kernel, same grid and block, registers <= XLA's and
within 10%, spills where XLA has none, same widest load. Then each
difference: grid or block not XLA's, spills where XLA has none, registers
over 110% of XLA's.
"""
import argparse
import collections
import concurrent.futures
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hero_side_by_side import (CORPUS, ARCH, dump_xla_rows, widest_load,  # noqa: E402
                               xla_rows)


HEADER = ["source", "kernel", "emitter", "grid", "block", "regs", "spills", "smem", "ld_bits",
          "xla_grid", "xla_block", "xla_regs", "xla_spills", "xla_smem", "xla_ld_bits"]


def ptx_entries(ptx_text):
    """Each .entry's text by kernel name."""
    entries = {}
    starts = [(m.start(), m.group(1)) for m in
              re.finditer(r"^\.(?:visible )?\.entry (\w+)\(", ptx_text, re.M)]
    for i, (start, name) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(ptx_text)
        entries[name] = ptx_text[start:end]
    return entries


def sort_kernel_names(module_path):
    """Per fusion with a sort, the name XLA gives its kernel: the sort
    instruction's (`sort.14.1` -> `sort_14_1`; launch K is `sort_14_1__K`)."""
    calls, sorts, current = {}, {}, None
    with open(module_path) as f:
        for line in f:
            header = re.match(r"^%?(\S+) \(.*\) -> .*\{\s*$", line)
            if header:
                current = header.group(1)
                continue
            sort = re.match(r"^\s*(?:ROOT )?%?(\S+) = .* sort\(", line)
            if sort and current:
                sorts[current] = sort.group(1).replace(".", "_").replace("-", "_")
            call = re.match(r"^\s*(?:ROOT )?%?(\S+) = .* fusion\(.*calls=%?([\w.\-]+)", line)
            if call:
                calls[call.group(1)] = call.group(2)
    return {fusion: sorts[computation] for fusion, computation in calls.items()
            if computation in sorts}


def compile_module(hlo_compile, module):
    """Our kernels of one module: [{name, hlo, emitter, grid, block, regs, spills, smem, bits}]."""
    with tempfile.TemporaryDirectory() as work:
        ptx, manifest = os.path.join(work, "m.ptx"), os.path.join(work, "m.json")
        run = subprocess.run([hlo_compile, module, "-w", "--gpu-arch", ARCH, "-o", ptx,
                              "--manifest", manifest, "--resource-usage"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            lines = [l for l in run.stderr.splitlines() if "error" in l]
            return {"error": lines[0] if lines else run.stderr.strip()[:200]}
        return {"kernels": read_kernels(module, manifest, ptx, run.stderr)}


def resource_usage(stderr):
    """ptxas's figures per kernel from hlo-compile --resource-usage's stderr."""
    usage = {}
    for line in stderr.splitlines():
        fields = line.split()
        if len(fields) == 7 and fields[1].isdigit():
            usage[fields[0]] = {"regs": int(fields[1]),
                                "spills": int(fields[2]) + int(fields[3]),
                                "smem": int(fields[5])}
    return usage


def read_kernels(module, manifest, ptx, stderr):
    """The kernels of one compile (its manifest, PTX and --resource-usage
    stderr), each with its manifest entry ("spec") and PTX text ("ptx")."""
    usage = resource_usage(stderr)
    with open(manifest) as f:
        kernels = json.load(f)["kernels"]
    with open(ptx) as f:
        entries = ptx_entries(f.read())
    sort_names = sort_kernel_names(module)
    return [{"name": k["name"], "hlo": k.get("hlo_instruction", k["name"]),
             "xla_name": sort_names.get(k.get("hlo_instruction"), "") +
             ("__%d" % k["launch_index"] if k.get("launch_index") else "")
             if k.get("hlo_instruction") in sort_names else "",
             "emitter": k["emitter"],
             "grid": "%d,%d,%d" % tuple(k["grid"]),
             "block": "%d,%d,%d" % tuple(k["block"]),
             "bits": widest_load(entries.get(k["name"], "")),
             "spec": k, "ptx": entries.get(k["name"], ""),
             **usage.get(k["name"], {})} for k in kernels]


def dump_jobs(dumps):
    jobs = []  # (source, module, xla rows by fusion, emitter filter)
    for name in sorted(os.listdir(dumps)):
        variant = os.path.splitext(name)[1]
        if variant not in (".native", ".default"):
            continue
        module = os.path.join(dumps, name, "module.hlo")
        xla = dump_xla_rows(os.path.join(dumps, name))
        keep = None if variant == ".native" else "kBlockLevel/"
        jobs.append((name, module, xla, keep))
    return jobs


def corpus_jobs(cache):
    """The emitter-test modules, with XLA's kernels for each: xla-ref runs
    on copies named <category>~<name>.hlo (names repeat across categories),
    eight at a time (XLA aborts on a few test modules, and takes the rest
    of its batch with it)."""
    tool = os.path.join(os.path.dirname(CORPUS), "tools", "xla-gpu-reference", "xla-ref")
    with open(os.path.join(CORPUS, "xla", "INDEX.tsv")) as f:
        next(f)
        modules = [line.split("\t")[0] for line in f if line.strip()]
    flat = {m: m[:-4].replace("/", "~") for m in modules}
    missing = [m for m in modules if not os.path.exists(os.path.join(cache, flat[m] + ".native"))]
    if missing and os.path.exists(tool):
        subprocess.run([tool, "setup"], capture_output=True)
        with tempfile.TemporaryDirectory() as copies:
            paths = []
            for m in missing:
                paths.append(os.path.join(copies, flat[m] + ".hlo"))
                with open(os.path.join(CORPUS, "xla", m)) as src, open(paths[-1], "w") as dst:
                    dst.write(src.read())
            for i in range(0, len(paths), 8):
                subprocess.run([tool, "hlo", cache] + paths[i:i + 8], capture_output=True)
    return [(m, os.path.join(CORPUS, "xla", m),
             xla_rows(os.path.join(cache, flat[m] + ".native")), None) for m in modules]


# The word XLA's kernel name carries for each of our emitters (XLA names a
# fusion after its hero): a corpus module's only kernel is paired with
# XLA's only kernel when the two are the same kind. GEMMs are never paired
# there: XLA's native variant runs them in cuBLAS.
HERO_WORDS = {"kReduction/": "reduce", "kTranspose/": "transpose",
              "kConcatenate/": "concatenate", "kScatter/": "scatter", "kSort/": "sort",
              "kLoop/InPlaceDynamicUpdateSliceFusion": "dynamic_update_slice", "kLoop/": "",
              "kBlockLevel/": None, "kGemm/": None}


def xla_kernel_for(ours, xla, single):
    theirs = (xla.get(ours["xla_name"]) if ours.get("xla_name") else None) or \
        xla.get(ours["hlo"]) or xla.get(ours["name"])
    if theirs is None and single and len(xla) == 1:
        word = next((w for prefix, w in HERO_WORDS.items()
                     if ours["emitter"].startswith(prefix)), None)
        candidate = next(iter(xla.values()))
        name = candidate["hlo"] or candidate["kernel"]
        if word is not None and word in name.replace("-", "_"):
            theirs = candidate
    return theirs


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "build"))
    parser.add_argument("--dumps-only", action="store_true")
    parser.add_argument("--corpus-only", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--tsv", help="also write every row as TSV here")
    parser.add_argument("--from-tsv", help="only summarize a table written by --tsv before")
    parser.add_argument("--xla-cache", default=os.path.join(tempfile.gettempdir(),
                                                            "hlo-bench-xla-reference-flat"))
    args = parser.parse_args()
    if args.from_tsv:
        with open(args.from_tsv) as f:
            table = []
            for row in csv.DictReader(f, delimiter="\t"):
                values = [row[h] for h in HEADER]
                table.append([int(v) if v.isdigit() else v for v in values])
        summarize(table, [])
        return 0
    hlo_compile = os.path.join(args.build, "bin", "hlo-compile")
    if not os.access(hlo_compile, os.X_OK):
        sys.exit("kernel_side_by_side: build hlo-compile first (%s)" % hlo_compile)

    jobs = []
    if not args.corpus_only:
        jobs += dump_jobs(os.path.join(CORPUS, "dumps"))
    if not args.dumps_only:
        jobs += corpus_jobs(args.xla_cache)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda j: compile_module(hlo_compile, j[1]), jobs))

    header = HEADER
    table, failures = [], []
    for (source, _, xla, keep), result in zip(jobs, results):
        if "error" in result:
            failures.append((source, result["error"]))
            continue
        kernels = [k for k in result["kernels"] if not keep or k["emitter"].startswith(keep)]
        for ours in kernels:
            theirs = xla_kernel_for(ours, xla, single=len(result["kernels"]) == 1)
            row = [source, ours["hlo"], ours["emitter"], ours["grid"], ours["block"],
                   ours.get("regs", "-"), ours.get("spills", "-"), ours.get("smem", "-"),
                   ours["bits"]]
            if theirs:
                row += [theirs["grid"], theirs["block"], int(theirs["registers"]),
                        int(theirs["spill_stores"]) + int(theirs["spill_loads"]),
                        int(theirs["smem"]), theirs["bits"]]
            else:
                row += ["-"] * 6
            table.append(row)

    if args.tsv:
        with open(args.tsv, "w") as f:
            f.write("\t".join(header) + "\n")
            for row in table:
                f.write("\t".join(str(v) for v in row) + "\n")

    summarize(table, failures)
    return 0


def summarize(table, failures):
    by_emitter = collections.defaultdict(list)
    for row in table:
        by_emitter[row[2]].append(row)
    print("%-40s %7s %7s %9s %8s %8s %12s %9s" % ("emitter", "kernels", "paired", "grid+blk",
                                                 "regs<=", "regs10%", "spills(new)", "ld_bits="))
    differences = []
    totals = collections.Counter()
    for emitter in sorted(by_emitter):
        rows = by_emitter[emitter]
        paired = [r for r in rows if r[9] != "-" and r[5] != "-"]
        counts = collections.Counter()
        counts["kernels"] = len(rows)
        counts["paired"] = len(paired)
        for r in paired:
            same = r[3] == r[9] and r[4] == r[10]
            counts["grid"] += same
            counts["fewer"] += r[5] <= r[11]
            counts["within"] += r[5] <= 1.1 * r[11]
            new_spills = r[6] > 0 and r[12] == 0
            counts["spills"] += new_spills
            counts["bits"] += r[8] == r[14]
            reasons = []
            if not same:
                reasons.append("grid %s block %s vs %s %s" % (r[3], r[4], r[9], r[10]))
            if new_spills:
                reasons.append("spills %d B (XLA none)" % r[6])
            if r[5] > 1.1 * r[11]:
                reasons.append("registers %d vs %d" % (r[5], r[11]))
            if reasons:
                differences.append((r[0], r[1], emitter, "; ".join(reasons)))
        totals.update(counts)
        print("%-40s %7d %7d %9d %8d %8d %12d %9d" % (
            emitter, counts["kernels"], counts["paired"], counts["grid"], counts["fewer"],
            counts["within"], counts["spills"], counts["bits"]))
    print("%-40s %7d %7d %9d %8d %8d %12d %9d" % (
        "all", totals["kernels"], totals["paired"], totals["grid"], totals["fewer"],
        totals["within"], totals["spills"], totals["bits"]))
    print("\nnot compiled: %d" % len(failures))
    for source, error in failures:
        print("NOT COMPILED %s: %s" % (source, error))
    print("\ndifferences (%d):" % len(differences))
    for difference in differences:
        print("  %s %s [%s]: %s" % difference)


if __name__ == "__main__":
    sys.exit(main())
