#!/usr/bin/env python3
"""XLA's device memory for the corpus dumps whose meta.json lacks it.

The JAX programs' dumps carry XLA's memory analysis in `meta.json`
(`memory`: argument, output, alias and temp bytes of the compiled
executable). The dumps compiled from HLO text (gemma, maxtext, torax,
gpu_hlo) do not: the reference tool compiles those through PJRT's C API,
which it does not ask. This script compiles each such dump's source again
with the reference tool (`xla-ref hlo --keep-dump`, both variants) and
reads XLA's buffer assignment (`*gpu_after_optimizations-buffer-assignment.txt`):
every allocation once, constants and thread-local ones aside -- entry
parameters (`argument`), live-out allocations that are not parameters
(`output`; those that are, `alias`), and the rest (`temp`) -- which is what
the memory analysis sums. `--check NAME` does the same for a JAX dump that
has both, to show the two agree.

  bench/xla_memory.py [--corpus ../shared/corpus] > bench/results/xla-memory.tsv
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALLOCATION = re.compile(r"^allocation (\d+): size (\d+)(.*):$")


def buffer_assignment_memory(path):
    """argument/output/alias/temp bytes from XLA's buffer assignment text."""
    memory = {"argument_size_in_bytes": 0, "output_size_in_bytes": 0,
              "alias_size_in_bytes": 0, "temp_size_in_bytes": 0}
    for line in open(path):
        match = ALLOCATION.match(line.rstrip())
        if not match:
            continue
        size, flags = int(match.group(2)), match.group(3)
        if "constant" in flags or "thread-local" in flags:
            continue
        parameter = re.search(r"\bparameter \d+", flags) is not None
        live_out = "maybe-live-out" in flags or "output shape" in flags
        if parameter:
            memory["argument_size_in_bytes"] += size
            if live_out:
                memory["alias_size_in_bytes"] += size
                memory["output_size_in_bytes"] += size
        elif live_out:
            memory["output_size_in_bytes"] += size
        else:
            memory["temp_size_in_bytes"] += size
    return memory


def run_reference(xla_ref, source, variant, out, jax_name=None):
    command = ([xla_ref, "jax", out, "--only", jax_name] if jax_name
               else [xla_ref, "hlo", out, source])
    command += ["--keep-dump", "--variants", variant]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    found = sorted(glob.glob(os.path.join(out, ".work", "*", "dump",
                                          "*gpu_after_optimizations-buffer-assignment.txt")))
    if not found:
        raise RuntimeError("no buffer assignment in " + out)
    # The entry module is the largest (a JAX dump has small helper modules).
    return buffer_assignment_memory(max(found, key=os.path.getsize))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=os.path.join(ROOT, "../shared/corpus"))
    parser.add_argument("--xla-ref", default=os.path.join(
        ROOT, "../shared/tools/xla-gpu-reference/xla-ref"))
    parser.add_argument("--only", default="", help="dumps whose name contains this")
    parser.add_argument("--check", default="",
                        help="a JAX dump with meta.json figures: print both")
    args = parser.parse_args()
    dumps_dir = os.path.join(args.corpus, "dumps")
    fields = ["argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes",
              "temp_size_in_bytes"]
    if args.check:
        meta = json.load(open(os.path.join(dumps_dir, args.check, "meta.json")))
        name, variant = args.check.rsplit(".", 1)
        with tempfile.TemporaryDirectory() as out:
            ours = run_reference(args.xla_ref, None, variant, out, jax_name=name)
        for field in fields:
            print(field, meta["memory"][field], ours[field], sep="\t")
        return 0
    print("\t".join(["dump", "source"] + fields))
    for dump in sorted(os.listdir(dumps_dir)):
        meta_path = os.path.join(dumps_dir, dump, "meta.json")
        if args.only not in dump or not os.path.exists(meta_path):
            continue
        meta = json.load(open(meta_path))
        if meta.get("memory") or meta.get("source", "").startswith("jax:"):
            continue
        source = os.path.normpath(os.path.join(dumps_dir, meta["source"]))
        with tempfile.TemporaryDirectory() as out:
            try:
                memory = run_reference(args.xla_ref, source, meta["variant"], out)
            except (RuntimeError, subprocess.CalledProcessError) as error:
                print(f"{dump}: {error}", file=sys.stderr)
                continue
        print("\t".join([dump, os.path.relpath(source, args.corpus)] +
                        [str(memory[field]) for field in fields]))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
