#!/usr/bin/env python3
"""One row per kernel from a GPU check's logs (scripts/gpu-check.sh run).

Reads DIR/modules/*/run.log (hlo-run's output: kernel headers, checked
outputs, `GPU time` lines) and DIR/xla-times.tsv when present, so a run
cut off before its report was assembled still gives its table. Prints TSV:
module, kernel, emitter, grid, block, status, us, GB/s, % of copy, and
XLA's time for the whole module (us, JAX on the same GPU).

  bench/gpu-check-table.py DIR > bench/results/TABLE.tsv
"""
import os
import re
import sys

HEADER = re.compile(r"^(\S.*) \((k\w+/\w+)\): grid \[(\d+), (\d+), (\d+)\], block \[(\d+), (\d+), (\d+)\]")
OUTPUT = re.compile(r"^\s+output \d+ .*\s(PASS|FAIL)$")
TIME = re.compile(r"^\s+GPU time (\S+) us .*?, (\S+) GB/s over \S+ MB; device copy \S+ GB/s: (\S+)% of copy")
TIMING = re.compile(r"^timing (\S.*)$")


def rows_of(log):
    kernels, current = {}, None
    for line in open(log, errors="replace"):
        line = line.rstrip("\n")
        if m := HEADER.match(line):
            name = m.group(1)
            kernels.setdefault(name, {"emitter": m.group(2), "grid": "x".join(m.group(3, 4, 5)),
                                      "block": "x".join(m.group(6, 7, 8)), "status": "-",
                                      "us": "-", "gbps": "-", "copy": "-"})
            current = name
        elif (m := TIMING.match(line)) and m.group(1) in kernels:
            current = m.group(1)
        elif (m := OUTPUT.match(line)) and current:
            if kernels[current]["status"] != "FAIL":
                kernels[current]["status"] = m.group(1)
        elif (m := TIME.match(line)) and current:
            kernels[current].update(us=m.group(1), gbps=m.group(2), copy=m.group(3))
    return kernels


def main():
    directory = sys.argv[1]
    xla = {}
    times = os.path.join(directory, "xla-times.tsv")
    if os.path.exists(times):
        for line in open(times):
            path, value = line.rstrip("\n").split("\t")
            xla[os.path.basename(os.path.dirname(path))] = value
    print("module\tkernel\temitter\tgrid\tblock\tstatus\tus\tGB/s\t%_of_copy\txla_module_us")
    modules = os.path.join(directory, "modules")
    for module in sorted(os.listdir(modules)):
        log = os.path.join(modules, module, "run.log")
        if not os.path.exists(log):
            continue
        for name, row in rows_of(log).items():
            print("\t".join([module, name, row["emitter"], row["grid"], row["block"],
                             row["status"], row["us"], row["gbps"], row["copy"],
                             xla.get(module, "-")]))


if __name__ == "__main__":
    main()
