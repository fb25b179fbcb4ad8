#!/usr/bin/env python3
"""Which of our plan's buffers live longer than XLA's: a manifest's live
set at its peak beside XLA's buffers live at the same instruction.

XLA writes, with a dump (`xla-ref ... --keep-dump`, under
.work/*/dump/), its flattened schedule and each value's live range
(`*after_optimizations-live-range.txt`) and where each value is
(`*after_optimizations-buffer-assignment.txt`). This script walks our
manifest as bench/plan_live_peak.py does, finds the tick where our
buffers' exact bytes peak and the instruction there, and lists each of
our buffers live at it as:

  both      XLA has one of its values live at that instruction too;
  ours      XLA has its values, but none live there (ours lives longer,
            or XLA keeps it in a buffer that is another value's);
  unnamed   none of its names is a value of XLA's (an internal buffer).

It prints the bytes of each class, XLA's own bytes live there (outputs
and temporaries, each slice of an allocation once), and the largest
`ours` buffers with both live ranges in instructions.

  bench/plan_vs_xla_live.py MANIFEST.json XLA_DUMP_DIR [--top N]
"""
import argparse
import glob
import json
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plan_live_peak import ProgramWalk, placed_buffers  # noqa: E402

VALUE = re.compile(r"^ value: <\d+ (\S+)(?: \(phi\))? @\d+> \(size=(\d+),offset=(\d+)\)")
ALLOCATION = re.compile(r"^allocation (\d+): size (\d+)(.*):$")


def xla_file(directory, suffix):
    found = sorted(glob.glob(os.path.join(directory, "*after_optimizations-" + suffix)))
    if not found:
        sys.exit(f"no *after_optimizations-{suffix} in {directory}")
    return max(found, key=os.path.getsize)


def read_live_ranges(path):
    sequence, ranges, section = {}, {}, None
    for line in open(path):
        stripped = line.strip()
        if stripped in ("InstructionSequence:", "BufferLiveRange:"):
            section = stripped
            continue
        if line.startswith("  ") and not line.startswith("    "):
            section = None
            continue
        if section == "InstructionSequence:":
            tick, name = stripped.split(":", 1)
            sequence.setdefault(name, int(tick))
        elif section == "BufferLiveRange:":
            name, span = stripped.rsplit(":", 1)
            first, last = span.split("-")
            ranges[name.replace("{}", "")] = (int(first), int(last))
    return sequence, ranges


def read_assignment(path):
    """value -> (allocation, offset, size, kind)."""
    values, allocation, kind = {}, None, None
    for line in open(path):
        match = ALLOCATION.match(line.rstrip())
        if match:
            allocation, flags = int(match.group(1)), match.group(3)
            kind = ("constant" if "constant" in flags else
                    "thread-local" if "thread-local" in flags else
                    "parameter" if re.search(r"\bparameter \d+", flags) else
                    "output" if "maybe-live-out" in flags or "output shape" in flags else
                    "temp")
            continue
        match = VALUE.match(line)
        if match and allocation is not None:
            values[match.group(1).replace("{}", "")] = (
                allocation, int(match.group(3)), int(match.group(2)), kind)
    return values


def xla_names(name):
    """Our plan name "a#1#2" as XLA's value name "a{1,2}"."""
    if name.startswith("<"):
        return []
    parts = name.split("#")
    return [parts[0] + ("{" + ",".join(parts[1:]) + "}" if len(parts) > 1 else "")]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("manifest")
    parser.add_argument("xla_dump")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    manifest = json.load(open(args.manifest))
    sequence, ranges = read_live_ranges(xla_file(args.xla_dump, "live-range.txt"))
    assignment = read_assignment(xla_file(args.xla_dump, "buffer-assignment.txt"))

    walk = ProgramWalk(manifest)
    entries = [(entry, walk.span(entry)) for entry in placed_buffers(manifest)]
    events = defaultdict(int)
    for entry, (first, last) in entries:
        events[first] += entry["bytes"]
        events[last + 1] -= entry["bytes"]
    current = peak = peak_tick = 0
    for tick in sorted(events):
        current += events[tick]
        if current > peak:
            peak, peak_tick = current, tick
    tick = peak_tick
    while tick > 0 and walk.instruction_at[tick] not in sequence:
        tick -= 1
    instruction = walk.instruction_at[tick]
    xla_tick = sequence.get(instruction)
    print(f"our peak: {peak} bytes (exact) at tick {peak_tick} of {walk.last}, "
          f"instruction {instruction or '-'}; XLA's tick for it: {xla_tick}")
    if xla_tick is None:
        return 1

    classes = defaultdict(int)
    longer = []
    by_slice = defaultdict(list)  # XLA's (allocation, offset) -> our live buffers there
    for entry, (first, last) in entries:
        if not first <= peak_tick <= last:
            continue
        names = [x for name in entry["names"] for x in xla_names(name)]
        known = [x for x in names if x in ranges]
        if not known:
            classes["unnamed" if not any(n.startswith("<") for n in entry["names"])
                    else "outputs"] += entry["bytes"]
            continue
        if any(ranges[x][0] <= xla_tick <= ranges[x][1] for x in known):
            classes["both"] += entry["bytes"]
            where = next((assignment[x] for x in known if x in assignment and
                          ranges[x][0] <= xla_tick <= ranges[x][1]), None)
            if where:
                by_slice[(where[0], where[1], where[3])].append(entry)
            continue
        classes["ours"] += entry["bytes"]
        ours_span = (walk.instruction_at[first] or "start", walk.instruction_at[last] or "end")
        xla_spans = ", ".join(f"{x} {ranges[x][0]}-{ranges[x][1]}"
                              f" ({assignment.get(x, ('', '', '', '?'))[3]})" for x in known[:3])
        longer.append((entry["bytes"], "/".join(entry["names"][:3]), ours_span, xla_spans))

    live_slices = {}
    for name, (first, last) in ranges.items():
        where = assignment.get(name)
        if where and where[3] in ("temp", "output") and first <= xla_tick <= last:
            live_slices[(where[0], where[1])] = max(live_slices.get((where[0], where[1]), 0),
                                                     where[2])
    print(f"XLA live there (outputs and temporaries, exact): {sum(live_slices.values())} bytes")
    for name in ("both", "ours", "outputs", "unnamed"):
        print(f"  ours, {name:8s} {classes[name]:>12d} bytes")
    shared = [(sum(e["bytes"] for e in group) - max(e["bytes"] for e in group), key, group)
              for key, group in by_slice.items() if len(group) > 1]
    shared.sort(key=lambda item: -item[0])
    print(f"XLA's slices holding two or more of our live buffers: {len(shared)}, "
          f"{sum(item[0] for item in shared)} bytes more in ours")
    for extra, (allocation, offset, kind), group in shared[:args.top]:
        print(f"  +{extra:>9d}  XLA allocation {allocation} ({kind}) at {offset}: " +
              "; ".join("/".join(e["names"][:3]) + f" ({e['bytes']})" for e in group))
    longer.sort(reverse=True)
    print(f"largest of ours live there and not in XLA (bytes, names, our span, XLA's):")
    for size, names, span, xla_spans in longer[:args.top]:
        print(f"  {size:>10d}  {names}  ours {span[0]} .. {span[1]}  XLA {xla_spans}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
