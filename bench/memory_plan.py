#!/usr/bin/env python3
"""Device memory of our plan beside XLA's, per dump (issue 55's table).

For each XLA dump (`corpus/dumps/<name>/module.hlo`, and
`tests/models/<name>/module.hlo`), compiled by us (-k: a kernel that fails
is left out), what hlo-run allocates: the module's parameters, its
constants, and the manifest's memory plan (`allocations`: outputs and every
temporary, loop state and branch parameter, placed by live range). Ours
is parameters + plan (`ours`; constants beside it, as XLA keeps them in
the executable), against XLA's peak: argument + output - alias + temp from
the dump's `meta.json` (its compiled executable's memory analysis), or for
the dumps without it from `--xla-memory` (bench/xla_memory.py's table, read
from XLA's buffer assignment). `temp_separate`: our temporaries each in
memory of its own, for scale.

  bench/memory_plan.py [--build build] [--corpus ../shared/corpus] \
      [--xla-memory bench/results/xla-memory.tsv] > bench/results/memory-plan.tsv
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fusion_pipeline import compile_module, temporary_bytes  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def plan_bytes(manifest):
    """Parameters, outputs and constants by kind, and the plan's allocations."""
    totals = {"parameter": 0, "output": 0, "constant": 0}
    for buffer in manifest.get("buffers", []):
        if buffer.get("kind") in totals:
            totals[buffer["kind"]] += buffer.get("bytes", 0)
    totals["plan"] = sum(a["bytes"] for a in manifest.get("allocations", [])
                         if "parameter" not in a)
    return totals


def peak_of(memory):
    return (memory["argument_size_in_bytes"] + memory["output_size_in_bytes"] -
            memory["alias_size_in_bytes"] + memory["temp_size_in_bytes"])


def xla_peak(meta_path, fallback):
    """XLA's peak and figures: from meta.json, else the --xla-memory row."""
    memory = None
    if os.path.exists(meta_path):
        memory = json.load(open(meta_path)).get("memory")
    if not memory:
        memory = fallback
    if not memory:
        return None
    return peak_of(memory), memory


def read_xla_memory(path):
    rows = {}
    if path and os.path.exists(path):
        lines = open(path).read().splitlines()
        header = lines[0].split("\t")
        for line in lines[1:]:
            row = dict(zip(header, line.split("\t")))
            rows[row["dump"]] = {k: int(v) for k, v in row.items() if k.endswith("_in_bytes")}
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--corpus", default=os.path.join(ROOT, "../shared/corpus"))
    parser.add_argument("--timeout", type=int, default=600)
    parser.add_argument("--only", default="", help="dumps whose name contains this")
    parser.add_argument("--xla-memory", default="",
                        help="bench/xla_memory.py's table, for dumps without meta.json figures")
    args = parser.parse_args()
    hlo_compile = os.path.join(args.build, "bin/hlo-compile")
    fallback = read_xla_memory(args.xla_memory)
    dumps = []
    for base in (os.path.join(args.corpus, "dumps"), os.path.join(ROOT, "tests/models")):
        for name in sorted(os.listdir(base)):
            if os.path.exists(os.path.join(base, name, "module.hlo")) and args.only in name:
                dumps.append((name, os.path.join(base, name)))
    print("\t".join(["dump", "status", "parameters", "outputs", "constants", "temp_separate",
                     "plan", "ours", "xla_arguments", "xla_outputs", "xla_alias",
                     "xla_temp", "xla_peak", "ours_over_xla"]))
    sys.stdout.flush()
    for name, directory in dumps:
        manifest, _, status = compile_module(hlo_compile, os.path.join(directory, "module.hlo"),
                                             args.timeout)
        xla = xla_peak(os.path.join(directory, "meta.json"), fallback.get(name))
        row = [name, status]
        if manifest is None:
            row += ["-"] * 6
            ours = None
        else:
            kinds = plan_bytes(manifest)
            separate, _ = temporary_bytes(manifest)
            ours = kinds["parameter"] + kinds["plan"]
            row += [str(kinds["parameter"]), str(kinds["output"]), str(kinds["constant"]),
                    str(separate), str(kinds["plan"]), str(ours)]
        if xla is None:
            row += ["-"] * 6
        else:
            peak, memory = xla
            row += [str(memory["argument_size_in_bytes"]), str(memory["output_size_in_bytes"]),
                    str(memory["alias_size_in_bytes"]), str(memory["temp_size_in_bytes"]),
                    str(peak), "%.2f" % (ours / peak) if ours is not None and peak else "-"]
        print("\t".join(row))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
