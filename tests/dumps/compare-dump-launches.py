#!/usr/bin/env python3
"""Our kernels of one XLA dump against XLA's (issue 14).

Reads the manifest `hlo-compile DUMP/module.hlo --manifest M.json` wrote and
DUMP/xla_kernels.tsv (one row per kernel XLA compiled: deduplicated, so one
row stands for every fusion with the same code), and pairs each XLA kernel
with our launches of the same HLO fusion (XLA names a kernel after its
fusion: `.` and `-` become `_`, launches of a sort get `__N`). Per fusion
the grids and blocks of all launches must be equal, as multisets.

Every difference must be pinned in tests/dumps/launch-differences.tsv
(dump, fusion, the launches of both sides as `ours G/B ... xla G/B ...`,
reason) with exactly the grids and blocks seen, so that any change of a
pinned fusion's launches fails too, and every pinned difference must
still be one, so the list stays exact. The kernel counts (our distinct
kernel functions, XLA's rows) must be those pinned on the dump's
`#kernels` line. --report prints the pin lines of what it sees.

  compare-dump-launches.py DUMP_DIR MANIFEST.json [--pins FILE] [--report]
"""
import argparse
import collections
import json
import os
import re
import sys


def kernel_stem(name):
    return re.sub(r"__\d+$", "", name)


def symbol(name):
    return re.sub(r"[.\-]", "_", name)


def xla_launches(dump, module_text):
    """fusion name -> sorted [(grid, block)], from xla_kernels.tsv."""
    # Sort kernels are named after the sort inside the fused computation.
    inner_to_fusion = {}
    computation = None
    calls = collections.defaultdict(list)
    for line in module_text.splitlines():
        m = re.match(r"^(?:ENTRY )?%(\S+) ", line)
        if m and line.rstrip().endswith("{"):
            computation = m.group(1)
            continue
        m = re.match(r"^\s*(?:ROOT )?%(\S+) = .*? (\w[\w-]*)\(", line)
        if not m:
            continue
        name, opcode = m.group(1), m.group(2)
        inner_to_fusion.setdefault(computation, []).append(name)
        c = re.search(r"calls=%([\w.\-]+)", line)
        if opcode == "fusion" and c:
            calls[c.group(1)].append(name)
    # A fusion's own name first, then the instructions of what it calls.
    by_symbol = {symbol(f): f for fusions in calls.values() for f in fusions}
    for computation_name, names in inner_to_fusion.items():
        for fusion in calls.get(computation_name, []):
            for name in names:
                by_symbol.setdefault(symbol(name), fusion)
    launches = collections.defaultdict(list)
    with open(os.path.join(dump, "xla_kernels.tsv")) as tsv:
        header = tsv.readline().rstrip("\n").split("\t")
        for line in tsv:
            row = dict(zip(header, line.rstrip("\n").split("\t")))
            hlo = row["hlo"] or by_symbol.get(kernel_stem(row["kernel"]), row["kernel"])
            launches[hlo].append((row["grid"], row["block"]))
    return launches


def launch_text(launches):
    """`G/B G/B ...` (grid/block of each launch, sorted), or `none`."""
    return " ".join(f"{grid}/{block}" for grid, block in sorted(launches)) or "none"


def our_launches(manifest):
    launches = collections.defaultdict(list)
    for kernel in manifest["kernels"]:
        dims = (",".join(map(str, kernel["grid"])), ",".join(map(str, kernel["block"])))
        launches[kernel["hlo_instruction"]].append(dims)
    return launches


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dump")
    parser.add_argument("manifest")
    parser.add_argument("--pins", default=os.path.join(os.path.dirname(__file__),
                                                       "launch-differences.tsv"))
    parser.add_argument("--report", action="store_true",
                        help="print every difference as a pin line, assert nothing")
    args = parser.parse_args()
    name = os.path.basename(os.path.normpath(args.dump))
    with open(os.path.join(args.dump, "module.hlo")) as f:
        xla = xla_launches(args.dump, f.read())
    with open(args.manifest) as f:
        manifest = json.load(f)
    ours = our_launches(manifest)
    our_kernels = len({k["name"] for k in manifest["kernels"]})
    xla_kernels = sum(len(v) for v in xla.values())

    library = {entry["name"] for entry in manifest.get("not_emitted", [])}
    differences = {}  # fusion -> (what, "ours G/B... xla G/B...")
    equal = listed = 0

    def differ(fusion, what):
        differences[fusion] = (what, f"ours {launch_text(ours.get(fusion, []))} "
                                     f"xla {launch_text(xla.get(fusion, []))}")
    for fusion, dims in sorted(xla.items()):
        # XLA's row stands for every fusion with its code; ours lists each.
        mine = ours.get(fusion)
        if mine is None and fusion in library:
            listed += 1  # a Triton GEMM or custom kernel: a listed library call
        elif mine is None:
            differ(fusion, "XLA kernel, no launch of ours")
        elif sorted(set(mine)) != sorted(set(dims)) or (
                len(dims) > 1 and sorted(mine) != sorted(dims)):
            differ(fusion, "grid/block")
        else:
            equal += 1
    # Our kernels none of whose launches is an XLA kernel's fusion: kernels
    # XLA does not launch (a copy it runs as a memcpy) or does not split.
    runs = collections.defaultdict(set)
    for kernel in manifest["kernels"]:
        runs[kernel["name"]].add(kernel["hlo_instruction"])
    for function, instructions in sorted(runs.items()):
        if not instructions & set(xla):
            differ(min(instructions), "our kernel, no XLA kernel")
    pins, counts = {}, None
    if os.path.exists(args.pins):
        with open(args.pins) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                fields = line.rstrip("\n").split("\t")
                if fields[0] != name:
                    continue
                if fields[1] == "#kernels":
                    counts = fields[2]
                else:
                    # The launches, exactly (None: a pin without them, which fails).
                    pins[fields[1]] = fields[2] if len(fields) > 3 else None
    count_text = f"ours {our_kernels} xla {xla_kernels}"
    print(f"{name}: {len(xla)} XLA fusions with kernels, {equal} with equal grid and block, "
          f"{listed} run by libraries (listed), {len(differences)} different; "
          f"kernels {count_text}; {len(library)} library calls listed")
    if args.report:
        print(f"{name}\t#kernels\t{count_text}")
        for fusion, (what, launches) in sorted(differences.items()):
            print(f"{name}\t{fusion}\t{launches}\t{what}")
        return 0
    failures = []
    for fusion, (what, launches) in sorted(differences.items()):
        if fusion not in pins:
            failures.append(f"not pinned: {fusion}: {what}: {launches}")
        elif pins[fusion] is None:
            failures.append(f"pinned without its launches (dump, fusion, launches, reason): "
                            f"{fusion}: {what}: {launches}")
        elif pins[fusion] != launches:
            failures.append(f"pinned launches changed: {fusion}: {what}: {launches}, "
                            f"pinned: {pins[fusion]}")
    for fusion in sorted(pins):
        if fusion not in differences:
            failures.append(f"pinned, but now equal (remove the pin): {fusion}")
    if counts != count_text:
        failures.append(f"kernel counts: {count_text}, pinned: {counts}")
    for failure in failures:
        print("FAIL " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
