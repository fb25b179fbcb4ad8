#!/usr/bin/env python3
"""Every distinct plain `dot` of the corpus as standalone modules.

Scans the unoptimized models (`corpus/models/*.hlo`, `corpus/models/jax/*.hlo`)
and XLA's emitter tests (`corpus/xla/*/*.hlo`) for dot instructions, keeps
one of each (operand and result shapes with layouts, dimension numbers,
precision), and writes them as two modules under OUT_DIR, each dot a kernel
of its own with its operands as parameters:

  small.hlo  the dots of at most BUDGET multiply-adds: compiled for the
             GPU and run on the host against the interpreter;
  large.hlo  the others: compiled for the GPU only (the host would take
             minutes on each);
  dots.tsv   one line per dot: its kernel, source file, multiply-adds.

  corpus_dots.py CORPUS_DIR OUT_DIR [BUDGET]
"""
import glob
import os
import re
import sys

SHAPE = r"[a-z0-9]+\[[0-9,]*\](?:\{[0-9,]*\})?"
INSTRUCTION = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=\s*(" + SHAPE + r")\s+(\w[\w\-]*)\((.*)$")


def dims(shape):
    inside = re.search(r"\[([0-9,]*)\]", shape).group(1)
    return [int(d) for d in inside.split(",") if d]


def attribute(text, name):
    match = re.search(name + r"=\{([0-9,]*)\}", text)
    return [int(d) for d in match.group(1).split(",") if d] if match else []


def dots_of(path):
    """(lhs shape, rhs shape, result shape, attributes) of each dot in `path`."""
    shapes = {}
    text = open(path, encoding="utf-8", errors="replace").read()
    # An instruction may go on over lines that end in a comma.
    text = re.sub(r",[ \t]*\n\s*", ", ", text)
    for line in text.splitlines():
        if re.match(r"^\s*(ENTRY\s+)?%?[\w.\-]+\s.*\{\s*$", line) and "=" not in line.split("{")[0]:
            shapes = {}  # a new computation: names are scoped to it
        match = INSTRUCTION.match(line)
        if not match:
            continue
        name, shape, opcode, rest = match.groups()
        shapes[name] = shape
        if opcode != "dot":
            continue
        operands = re.match(r"\s*%?([\w.\-]+)\s*,\s*%?([\w.\-]+)\s*\)\s*,?(.*)$", rest)
        if not operands or operands.group(1) not in shapes or operands.group(2) not in shapes:
            continue
        text = operands.group(3)
        kept = [m.group(0) for m in re.finditer(
            r"(lhs_batch_dims|rhs_batch_dims|lhs_contracting_dims|rhs_contracting_dims)=\{[0-9,]*\}"
            r"|operand_precision=\{[a-zA-Z,]*\}|algorithm=\w+", text)]
        yield shapes[operands.group(1)], shapes[operands.group(2)], shape, ", ".join(kept)


def multiply_adds(lhs, result, attrs):
    count = 1
    for d in dims(result):
        count *= d
    for d in attribute(attrs, "lhs_contracting_dims"):
        count *= dims(lhs)[d]
    return count


def module(name, dots):
    lines = [f"HloModule {name}", "", "ENTRY %main {"]
    results = []
    for i, (kernel, (lhs, rhs, result, attrs)) in enumerate(dots):
        lines.append(f"  %lhs.{i} = {lhs} parameter({2 * i})")
        lines.append(f"  %rhs.{i} = {rhs} parameter({2 * i + 1})")
        lines.append(f"  %{kernel} = {result} dot(%lhs.{i}, %rhs.{i}), {attrs}")
        results.append((kernel, result))
    shapes = ", ".join(shape for _, shape in results)
    operands = ", ".join("%" + kernel for kernel, _ in results)
    lines.append(f"  ROOT %result = ({shapes}) tuple({operands})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv):
    corpus, out = argv[1], argv[2]
    budget = int(argv[3]) if len(argv) > 3 else 1 << 27
    files = sorted(glob.glob(os.path.join(corpus, "models", "*.hlo")) +
                   glob.glob(os.path.join(corpus, "models", "jax", "*.hlo")) +
                   glob.glob(os.path.join(corpus, "xla", "*", "*.hlo")))
    seen, small, large, table = set(), [], [], []
    for path in files:
        for dot in dots_of(path):
            if dot in seen:
                continue
            seen.add(dot)
            kernel = f"dot_{len(seen)}"
            macs = multiply_adds(dot[0], dot[2], dot[3])
            (small if macs <= budget else large).append((kernel, dot))
            table.append(f"{kernel}\t{os.path.relpath(path, corpus)}\t{macs}")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "small.hlo"), "w") as f:
        f.write(module("corpus_dots_small", small))
    with open(os.path.join(out, "large.hlo"), "w") as f:
        f.write(module("corpus_dots_large", large))
    with open(os.path.join(out, "dots.tsv"), "w") as f:
        f.write("kernel\tsource\tmultiply_adds\n" + "\n".join(table) + "\n")
    print(f"{len(seen)} distinct dots: {len(small)} run on the host, {len(large)} compiled only")


if __name__ == "__main__":
    main(sys.argv)
