#!/usr/bin/env python3
"""Compile time of each XLA dump against XLA's own (issue 14).

For every ../shared/corpus/dumps/<dump>/module.hlo: the wall time of
`hlo-compile module.hlo -w -o out.ptx` (best of --runs) beside XLA's
compile time of the same module (xla_compile_s.txt, measured on the same
kind of 2-core machine), the kernel launches our manifest lists and the
kernels in XLA's xla_kernels.tsv. One row per dump, then totals.

  python3 bench/dumps-compile-time.py [--runs 1] [--dumps DIR] [--build build]
"""
import argparse
import json
import os
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
    print(f"{'dump':34} {'ours_s':>8} {'xla_s':>7} {'ratio':>6} {'launches':>8} "
          f"{'xla_kernels':>11} {'library':>7}  status")
    ours_total = xla_total = 0.0
    with tempfile.TemporaryDirectory() as work:
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
            launches = library = 0
            manifest = os.path.join(work, dump + ".json")
            if status == "ok" and os.path.exists(manifest):
                with open(manifest) as f:
                    data = json.load(f)
                launches = len(data.get("kernels", []))
                library = len(data.get("not_emitted", []))
            ours_total += best
            xla_total += xla
            print(f"{dump:34} {best:8.2f} {xla:7.2f} {best / xla:6.2f} {launches:8d} "
                  f"{xla_kernels:11d} {library:7d}  {status}", flush=True)
    print(f"{'total':34} {ours_total:8.2f} {xla_total:7.2f} {ours_total / xla_total:6.2f}")


if __name__ == "__main__":
    sys.exit(main())
