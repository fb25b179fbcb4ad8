#!/usr/bin/env python3
"""Compile time of each XLA dump against XLA's own (issue 14).

For every ../shared/corpus/dumps/<dump>/module.hlo: the wall time of
`hlo-compile module.hlo -w -o out.ptx` (best of --runs) beside XLA's
compile time of the same module (xla_compile_s.txt, measured on the same
kind of 2-core machine, in a process that had compiled it once before),
our time inside one batch process (`hlo-compile ... --output-dir -j 1`:
no process start or library loading, as XLA's figure), the kernel
launches and distinct kernels our manifest lists and the kernels in XLA's
xla_kernels.tsv. One row per dump, then totals.

  python3 bench/dumps-compile-time.py [--runs 1] [--dumps DIR] [--build build]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--dumps", default=os.path.join(ROOT, "..", "shared", "corpus", "dumps"))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("only", nargs="*", help="dump names (default: all)")
    args = parser.parse_args()
    compiler = os.path.join(args.build, "bin", "hlo-compile")
    dumps = sorted(d for d in os.listdir(args.dumps)
                   if os.path.isfile(os.path.join(args.dumps, d, "module.hlo")))
    if args.only:
        dumps = [d for d in dumps if d in args.only]
    print(f"{'dump':34} {'ours_s':>8} {'batch_s':>8} {'xla_s':>7} {'ratio':>6} {'batch_ratio':>11} "
          f"{'launches':>8} {'kernels':>7} {'xla_kernels':>11} {'library':>7}  status")
    ours_total = xla_total = batch_total = 0.0
    with tempfile.TemporaryDirectory() as work:
        # In-process times: one batch process, one input at a time.
        # The first input twice: its first compile warms the process up, as
        # XLA's figure is taken after a warm-up compile (the later line wins).
        inputs = [os.path.join(args.dumps, d, "module.hlo") for d in dumps]
        inputs = inputs[:1] + inputs
        batch = subprocess.run([compiler, "-w", *inputs, "--output-dir",
                                os.path.join(work, "batch"), "-j", "1"],
                               capture_output=True, text=True)
        in_process = {}
        for line in batch.stderr.splitlines():
            m = re.match(r"hlo-compile: (\S+)/module\.hlo -> .*, ([0-9.]+) s$", line)
            if m:
                in_process[os.path.basename(m.group(1))] = float(m.group(2))
        for dump in dumps:
            folder = os.path.join(args.dumps, dump)
            with open(os.path.join(folder, "xla_compile_s.txt")) as f:
                xla = float(f.read().split()[0])
            with open(os.path.join(folder, "xla_kernels.tsv")) as f:
                xla_kernels = max(0, sum(1 for line in f if line.strip()) - 1)
            out = os.path.join(work, dump + ".ptx")
            best, status = None, "ok"
            for _ in range(args.runs):
                start = time.monotonic()
                result = subprocess.run([compiler, "-w", os.path.join(folder, "module.hlo"),
                                         "-o", out], capture_output=True, text=True)
                took = time.monotonic() - start
                best = took if best is None else min(best, took)
                if result.returncode != 0:
                    status = "FAILED: " + result.stderr.strip().splitlines()[0][:80]
                    break
            launches = kernels = library = 0
            manifest = os.path.join(work, dump + ".ptx.json")
            if status == "ok" and os.path.exists(manifest):
                with open(manifest) as f:
                    data = json.load(f)
                launches = len(data.get("kernels", []))
                kernels = len({k["name"] for k in data.get("kernels", [])})
                library = len(data.get("not_emitted", []))
            inside = in_process.get(dump, float("nan"))
            ours_total += best
            xla_total += xla
            batch_total += inside
            print(f"{dump:34} {best:8.2f} {inside:8.2f} {xla:7.2f} {best / xla:6.2f} "
                  f"{inside / xla:11.2f} {launches:8d} {kernels:7d} {xla_kernels:11d} "
                  f"{library:7d}  {status}", flush=True)
    print(f"{'total':34} {ours_total:8.2f} {batch_total:8.2f} {xla_total:7.2f} "
          f"{ours_total / xla_total:6.2f} {batch_total / xla_total:11.2f}")


if __name__ == "__main__":
    sys.exit(main())
