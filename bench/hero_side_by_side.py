#!/usr/bin/env python3
"""Our hero kernels (reductions, transposes, concatenates, in-place updates, scatters, sorts) against XLA's, statically (no GPU needed).

For every reduction, transpose, concatenate, in-place dynamic-update-slice,
scatter and sort module the compiler claims in the corpus
and every such kernel of XLA's own H100 dumps (../shared/corpus/dumps/*.native),
compiles the kernel with hlo-compile (--kernel NAME --resource-usage, for
sm_90a like XLA's dumps) and prints one row per kernel beside XLA's kernel
for the same fusion:

  source  kernel  variant  grid  block  | ours: regs spills smem ld-bits
                                        | xla:  grid block regs spills smem ld-bits

where ld-bits is the widest global load in the PTX (128 = v4.b32). XLA's
figures for the dumps come from the xla_kernels.tsv and xla_ptx/ beside
each dump (XLA compiles fusions of one structure into one kernel, listed
under one of their names: the others are paired with it by structure); for
the corpus modules from shared/tools/xla-gpu-reference
(`xla-ref hlo`), run once into --xla-cache (XLA re-fuses some test modules:
their rows pair our kernel with XLA's kernel of that hero op in that
module).

  bench/hero_side_by_side.py [--build build] [--corpus-only|--dumps-only]
      [--kind reduction|transpose|concatenate|dus|scatter|sort|normalization] [--jobs N] [--tsv FILE]

The summary counts kernels without spills, with registers within 10% of
XLA's, and with the same widest load.
"""
import argparse
import concurrent.futures
import csv
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
CORPUS = os.environ.get("HLO_CORPUS_DIR", os.path.join(SHARED, "corpus"))
ARCH = "sm_90a"


# What each hero's kernels are called in the manifest, and the HLO op that
# names XLA's kernel for it in a corpus module.
HERO_EMITTERS = ("kReduction/", "kTranspose/", "kConcatenate/",
                 "kLoop/InPlaceDynamicUpdateSliceFusion", "kScatter/", "kSort/", "kBlockLevel/")
HERO_KINDS = {"reduction": "kReduction/", "transpose": "kTranspose/",
              "concatenate": "kConcatenate/", "dus": "kLoop/InPlaceDynamicUpdateSliceFusion",
              "scatter": "kScatter/", "sort": "kSort/", "normalization": "kBlockLevel/"}
XLA_HERO_OPS = {"reduction": "reduce", "transpose": "transpose", "concatenate": "concatenate",
                "dus": "dynamic-update-slice", "scatter": "scatter", "sort": "sort",
                "normalization": "reduce"}


def hero_kind(emitter):
    # The fusion analysis names a sort "kSort" (no variant); the manifest
    # "kSort/SortingNetwork".
    return next((k for k, prefix in HERO_KINDS.items() if (emitter + "/").startswith(prefix)),
                None)


def widest_load(ptx_text):
    widest = 0
    for match in re.finditer(r"\bld\.global(?:\.[a-z]+)*?(?:\.v(\d))?\.[bfsu](\d+)\b", ptx_text):
        lanes = int(match.group(1) or 1)
        widest = max(widest, lanes * int(match.group(2)))
    return widest


def compile_kernel(hlo_compile, module, kernel):
    """Our figures for one kernel: (emitter, grid, block, usage dict, load bits) or an error."""
    with tempfile.TemporaryDirectory() as work:
        ptx = os.path.join(work, "k.ptx")
        manifest = os.path.join(work, "k.json")
        command = [hlo_compile, module, "-w", "--gpu-arch", ARCH, "-o", ptx,
                   "--manifest", manifest, "--resource-usage"]
        if kernel:
            command += ["--kernel", kernel]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            lines = [l for l in run.stderr.splitlines() if "error" in l]
            return {"error": lines[0] if lines else run.stderr.strip()[:200]}
        usage = {}
        rows = run.stderr.splitlines()
        header = next((i for i, l in enumerate(rows) if l.startswith("kernel ")), None)
        for line in rows[header + 1:] if header is not None else []:
            fields = line.split()
            if len(fields) == 7:
                usage[fields[0]] = {"regs": int(fields[1]), "spills": int(fields[2]) + int(fields[3]),
                                    "smem": int(fields[5])}
        import json
        with open(manifest) as f:
            kernels = json.load(f)["kernels"]
        with open(ptx) as f:
            bits = widest_load(f.read())
        result = []
        for k in kernels:
            if not k["emitter"].startswith(HERO_EMITTERS):
                continue
            result.append({"name": k["name"], "emitter": k["emitter"].split("/")[-1],
                           "kind": hero_kind(k["emitter"]),
                           "grid": "%d,%d,%d" % tuple(k["grid"]),
                           "block": "%d,%d,%d" % tuple(k["block"]),
                           "launch": k.get("launch_index", 0),
                           "bits": bits, **usage.get(k["name"], {})})
        return {"kernels": result}


def xla_rows(directory):
    """XLA's kernels.tsv rows of one dump or reference run, by HLO fusion name."""
    rows = {}
    path = os.path.join(directory, "xla_kernels.tsv")
    if not os.path.exists(path):
        return rows
    with open(path) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            ptx_path = os.path.join(directory, row["ptx_file"])
            bits = 0
            if row["ptx_file"] and os.path.isfile(ptx_path):
                with open(ptx_path) as p:
                    bits = widest_load(p.read())
            row["bits"] = bits
            # XLA's sort kernels name no fusion: by kernel name
            # ("sort_14_1", then "sort_14_1__K" for launch K).
            rows[row["hlo"] or row["kernel"]] = row
    return rows


def fusion_fingerprints(module_path):
    """Each fusion's structure (its fused computation with names, metadata
    and backend configs taken out), by fusion name: XLA launches one kernel
    for all fusions of one structure and lists it under one of their names."""
    computations, fusions = {}, {}
    current, body = None, []
    with open(module_path) as f:
        for line in f:
            header = re.match(r"^%?(\S+) \(.*\) -> .*\{\s*$", line)
            if header:
                current, body = header.group(1), []
                continue
            if current and line.startswith("}"):
                computations[current] = body
                current = None
                continue
            if current is not None:
                body.append(line)
            call = re.match(r"^\s*(?:ROOT )?%?(\S+) = .* fusion\(.*calls=%?([\w.\-]+)", line)
            if call:
                fusions[call.group(1)] = call.group(2)
    def canonical(computation, depth=0):
        names = {}
        lines = []
        for line in computations.get(computation, []):
            line = re.sub(r", (metadata|backend_config|sharding|frontend_attributes)=\{.*", "",
                          line)
            # Called computations (reducers) by their own structure.
            if depth < 2:
                line = re.sub(r"(to_apply|calls)=%?([\w.\-]+)",
                              lambda m: m.group(1) + "={" + canonical(m.group(2), depth + 1) + "}",
                              line)
            line = re.sub(r"%[\w.\-]+", lambda m: names.setdefault(m.group(0), "v%d" % len(names)),
                          line)
            lines.append(line.strip())
        return "; ".join(lines)

    fingerprints = {}
    for fusion, computation in fusions.items():
        fingerprints[fusion] = canonical(computation)
    return fingerprints


def dump_xla_rows(directory):
    """XLA's kernels of a dump by fusion name, with the fusions XLA compiled
    into a kernel listed under another fusion's name found through their
    common structure."""
    xla = xla_rows(directory)
    fingerprints = fusion_fingerprints(os.path.join(directory, "module.hlo"))
    kernel_of = {fingerprints[hlo]: row for hlo, row in xla.items() if hlo in fingerprints}
    for fusion, fingerprint in fingerprints.items():
        if fusion not in xla and fingerprint in kernel_of:
            xla[fusion] = kernel_of[fingerprint]
    return xla


def corpus_modules():
    modules = []
    with open(os.path.join(CORPUS, "xla", "INDEX.tsv")) as f:
        next(f)
        for line in f:
            name, category = line.split("\t")[:2]
            if (category.startswith("reduce_") or category in ("transpose", "concatenate",
                                                               "dynamic_update_slice",
                                                               "scatter")):
                modules.append(name)
    with open(os.path.join(ROOT, "tests", "claimed-modules.txt")) as f:
        modules += [l.strip() for l in f if l.strip() and not l.startswith("#")]
    return modules


def run_xla_reference(modules, cache):
    """XLA's kernels for corpus modules (xla-ref hlo), once per cache dir."""
    tool = os.path.join(SHARED, "tools", "xla-gpu-reference", "xla-ref")
    missing = [m for m in modules
               if not os.path.exists(os.path.join(cache, os.path.basename(m)[:-4] + ".native"))]
    if missing and os.path.exists(tool):
        subprocess.run([tool, "setup"], capture_output=True)
        subprocess.run([tool, "hlo", cache] + [os.path.join(CORPUS, "xla", m) for m in missing],
                       capture_output=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--corpus-only", action="store_true")
    parser.add_argument("--dumps-only", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--tsv", help="also write the table as TSV here")
    parser.add_argument("--kind", choices=list(HERO_KINDS),
                        help="only this hero's kernels (default: both)")
    parser.add_argument("--xla-cache", default=os.path.join(tempfile.gettempdir(),
                                                            "hlo-bench-xla-reference"))
    args = parser.parse_args()
    hlo_compile = os.path.join(args.build, "bin", "hlo-compile")
    if not os.access(hlo_compile, os.X_OK):
        sys.exit("hero_side_by_side: build hlo-compile first (%s)" % hlo_compile)
    kinds = [args.kind] if args.kind else list(HERO_KINDS)

    jobs = []  # (source, module path, kernel or None, xla rows, xla key or None)
    if not args.dumps_only:
        modules = corpus_modules()
        run_xla_reference(modules, args.xla_cache)
        for module in modules:
            xla = xla_rows(os.path.join(args.xla_cache, os.path.basename(module)[:-4] + ".native"))
            jobs.append(("corpus", os.path.join(CORPUS, "xla", module), None, xla, None, module))
    if not args.corpus_only:
        dumps = os.path.join(CORPUS, "dumps")
        # Block-level normalization fusions are XLA's Triton kernels: in the
        # default dumps; every other hero in the native (no Triton) ones.
        variants = set()
        for kind in kinds:
            variants.add(".default" if kind == "normalization" else ".native")
        for name in sorted(os.listdir(dumps)):
            if os.path.splitext(name)[1] not in variants:
                continue
            module = os.path.join(dumps, name, "module.hlo")
            analysis = subprocess.run([hlo_compile, "--emit=fusion-analysis", module],
                                      capture_output=True, text=True).stdout
            xla = dump_xla_rows(os.path.join(dumps, name))
            lines = analysis.splitlines()
            for i, line in enumerate(lines):
                match = re.match(r"^(\S+): (k[A-Za-z]+(?:/[A-Za-z]+)?)\s*$", line)
                if match and hero_kind(match.group(2)) in kinds:
                    key = match.group(1)
                    root = re.match(r"^\s+root %(\S+):", lines[i + 1]) if i + 1 < len(lines) else None
                    if hero_kind(match.group(2)) == "sort" and root:
                        key = ("sort", root.group(1).replace(".", "_"))
                    jobs.append((os.path.splitext(name)[0], module, match.group(1), xla, key,
                                 match.group(1)))

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda j: compile_kernel(hlo_compile, j[1], j[2]), jobs))

    header = ["source", "kernel", "variant", "grid", "block", "regs", "spills", "smem",
              "ld_bits", "xla_grid", "xla_block", "xla_regs", "xla_spills", "xla_smem",
              "xla_ld_bits"]
    table = []
    failures = []
    for job, result in zip(jobs, results):
        source, _, _, xla, key, label = job
        if "error" in result:
            failures.append((source, label, result["error"]))
            continue
        for ours in result["kernels"]:
            if isinstance(key, tuple):  # a sort: XLA's kernel for the same launch
                launch = ours["launch"]
                theirs = xla.get(key[1] + ("__%d" % launch if launch else ""))
            else:
                theirs = xla.get(key) if key else None
            if ours["kind"] not in kinds:
                continue
            if theirs is None and not key:  # corpus: XLA's hero kernel of the module
                op = XLA_HERO_OPS[ours["kind"]]
                candidates = [r for r in xla.values() if op in r["hlo"]]
                theirs = candidates[0] if len(candidates) == 1 else None
            # A kernel of several launches: a row per launch, named.
            several = len(result["kernels"]) > 1
            row = [source, label + ":" + ours["name"] if several or not key else label,
                   ours["emitter"],
                   ours["grid"], ours["block"], ours.get("regs", ""), ours.get("spills", ""),
                   ours.get("smem", ""), ours["bits"]]
            if theirs:
                row += [theirs["grid"], theirs["block"], theirs["registers"],
                        int(theirs["spill_stores"]) + int(theirs["spill_loads"]), theirs["smem"],
                        theirs["bits"]]
            else:
                row += ["-"] * 6
            table.append(row)

    widths = [max(len(str(r[i])) for r in table + [header]) for i in range(len(header))]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for row in table:
        print("  ".join(str(v).ljust(w) for v, w in zip(row, widths)))
    if args.tsv:
        with open(args.tsv, "w") as f:
            f.write("\t".join(header) + "\n")
            for row in table:
                f.write("\t".join(str(v) for v in row) + "\n")

    compared = [r for r in table if r[11] != "-"]
    no_spills = sum(1 for r in table if r[6] == 0)
    within = sum(1 for r in compared if int(r[5]) <= 1.1 * int(r[11]))
    fewer = sum(1 for r in compared if int(r[5]) <= int(r[11]))
    same_grid = sum(1 for r in compared if r[3] == r[9] and r[4] == r[10])
    same_bits = sum(1 for r in compared if int(r[8]) == int(r[14]))
    print()
    print("kernels: %d (%d beside an XLA kernel); not compiled: %d" %
          (len(table), len(compared), len(failures)))
    print("no spills: %d of %d" % (no_spills, len(table)))
    if compared:
        print("registers <= XLA's: %d, within 10%% of XLA's: %d of %d" %
              (fewer, within, len(compared)))
        print("same grid and block: %d of %d; same widest load: %d of %d" %
              (same_grid, len(compared), same_bits, len(compared)))
    for source, label, error in failures:
        print("NOT COMPILED %s %s: %s" % (source, label, error))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
