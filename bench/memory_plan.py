#!/usr/bin/env python3
"""Device memory of our plan beside XLA's, per dump (issue 55's table).

For each XLA dump (`corpus/dumps/<name>/module.hlo`, and
`tests/models/<name>/module.hlo`), compiled by us (-k: a kernel that fails
is left out), the bytes the manifest's plan allocates -- what hlo-run
allocates, all at once: parameters, outputs, constants, and the
temporaries with the manifest's shared allocations (`temp_shared`; each
on its own: `temp_separate`) -- beside XLA's peak from the dump's
`meta.json` (its compiled executable's memory analysis: argument + output
- alias + temp). Dumps without XLA's figures show `-`.

  bench/memory_plan.py [--build build] [--corpus ../shared/corpus] > bench/results/memory-plan.tsv
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fusion_pipeline import compile_module, temporary_bytes  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def plan_bytes(manifest):
    """Parameters, outputs and constants of the plan, by kind."""
    totals = {"parameter": 0, "output": 0, "constant": 0}
    for buffer in manifest.get("buffers", []):
        if buffer.get("kind") in totals:
            totals[buffer["kind"]] += buffer.get("bytes", 0)
    return totals


def xla_peak(meta_path):
    if not os.path.exists(meta_path):
        return None
    memory = json.load(open(meta_path)).get("memory")
    if not memory:
        return None
    return (memory["argument_size_in_bytes"] + memory["output_size_in_bytes"] -
            memory["alias_size_in_bytes"] + memory["temp_size_in_bytes"]), memory


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--corpus", default=os.path.join(ROOT, "../shared/corpus"))
    parser.add_argument("--timeout", type=int, default=600)
    parser.add_argument("--only", default="", help="dumps whose name contains this")
    args = parser.parse_args()
    hlo_compile = os.path.join(args.build, "bin/hlo-compile")
    dumps = []
    for base in (os.path.join(args.corpus, "dumps"), os.path.join(ROOT, "tests/models")):
        for name in sorted(os.listdir(base)):
            if os.path.exists(os.path.join(base, name, "module.hlo")) and args.only in name:
                dumps.append((name, os.path.join(base, name)))
    print("\t".join(["dump", "status", "parameters", "outputs", "constants", "temp_separate",
                     "temp_shared", "ours_total", "xla_arguments", "xla_outputs", "xla_alias",
                     "xla_temp", "xla_peak", "ours_over_xla"]))
    sys.stdout.flush()
    for name, directory in dumps:
        manifest, _, status = compile_module(hlo_compile, os.path.join(directory, "module.hlo"),
                                             args.timeout)
        xla = xla_peak(os.path.join(directory, "meta.json"))
        row = [name, status]
        if manifest is None:
            row += ["-"] * 6
            ours = None
        else:
            kinds = plan_bytes(manifest)
            separate, shared = temporary_bytes(manifest)
            ours = kinds["parameter"] + kinds["output"] + kinds["constant"] + shared
            row += [str(kinds["parameter"]), str(kinds["output"]), str(kinds["constant"]),
                    str(separate), str(shared), str(ours)]
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
