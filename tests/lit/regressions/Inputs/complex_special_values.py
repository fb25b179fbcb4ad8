#!/usr/bin/env python3
"""Every complex elementwise op on every pair of special parts (zeros of
both signs, +-1, +-inf, NaN, values whose exponentials overflow the element
type, tiny and moderate values), for c64 and c128: each module is compiled
for the host and its kernels are checked in module mode against the
interpreter (PASS/FAIL per output line, as hlo-run prints them). Also
writes the interpreter's values for a few inputs that decide a formula.

  complex_special_values.py --hlo-compile BIN --hlo-run BIN --out DIR

Standard library only: the inputs are written as .npy by hand.
"""
import argparse
import os
import struct
import subprocess
import sys

INF = float("inf")
NAN = float("nan")
UNARY = ["exponential", "log", "sqrt", "rsqrt", "tanh", "exponential-minus-one",
         "log-plus-one", "sine", "cosine", "tan", "abs", "sign", "logistic"]
BINARY = ["divide", "power", "multiply", "add", "subtract"]


def parts(big):
    return [0.0, -0.0, 1.0, -1.0, INF, -INF, NAN, big, -big, 1 / big, 100.0, -100.0, 0.5]


def write_npy(path, values, complex_type):
    descr, fmt = ("<c8", "<ff") if complex_type == "c64" else ("<c16", "<dd")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, len(values))
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        for value in values:
            f.write(struct.pack(fmt, value.real, value.imag))


def module(name, complex_type, real_type, params, results):
    """An entry with `params` (names) of complex_type[n] and one root tuple
    of `results`: (name, opcode, operand names)."""
    n = params[1]
    shape = lambda op: "%s[%d]" % (real_type if op == "abs" else complex_type, n)
    lines = ["HloModule %s" % name, "",
             "ENTRY %%main (%s) -> (%s) {" % (
                 ", ".join("%s: %s[%d]" % (p, complex_type, n) for p in params[0]),
                 ", ".join(shape(op) for _, op, _ in results))]
    for i, p in enumerate(params[0]):
        lines.append("  %%%s = %s[%d]{0} parameter(%d)" % (p, complex_type, n, i))
    for result, op, operands in results:
        lines.append("  %%%s = %s{0} %s(%s)" % (result, shape(op), op,
                                                ", ".join("%" + o for o in operands)))
    lines.append("  ROOT %%t = (%s) tuple(%s)" % (
        ", ".join(shape(op) + "{0}" for _, op, _ in results),
        ", ".join("%" + r for r, _, _ in results)))
    lines.append("}")
    return "\n".join(lines) + "\n"


def run(cmd):
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return out.returncode, out.stdout


def check(args, name, text, inputs, label):
    hlo = os.path.join(args.out, name + ".hlo")
    with open(hlo, "w") as f:
        f.write(text)
    manifest = os.path.join(args.out, name + ".json")
    rc, out = run([args.hlo_compile, "-w", "--target=host", hlo, "-o",
                   os.path.join(args.out, name + ".so"), "--manifest", manifest])
    if rc != 0:
        print("%s: compile error\n%s" % (name, out))
        return
    cmd = [args.hlo_run, hlo, "--manifest", manifest, "--mode", "module"]
    for i, path in enumerate(inputs):
        cmd += ["--input", "%d=%s" % (i, path)]
    rc, out = run(cmd)
    outputs = [line for line in out.splitlines() if line.strip().startswith("output ")]
    for line, op in zip(outputs, label):
        print("%s %s: %s" % (name, op, line.split()[-1]))
    if len(outputs) != len(label):
        print("%s: run error (exit %d)\n%s" % (name, rc, out))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hlo-compile", required=True)
    parser.add_argument("--hlo-run", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for complex_type, real_type, big in (("c64", "f32", 1e30), ("c128", "f64", 1e300)):
        values = [complex(a, b) for a in parts(big) for b in parts(big)]
        z = os.path.join(args.out, "z_%s.npy" % complex_type)
        write_npy(z, values, complex_type)
        results = [("r%d" % i, op, ["z"]) for i, op in enumerate(UNARY)]
        check(args, "unary_" + complex_type,
              module("unary", complex_type, real_type, (["z"], len(values)), results), [z],
              UNARY)
        lhs = [x for x in values for _ in values]
        rhs = [y for _ in values for y in values]
        a, b = (os.path.join(args.out, "%s_%s.npy" % (p, complex_type)) for p in "ab")
        write_npy(a, lhs, complex_type)
        write_npy(b, rhs, complex_type)
        results = [("r%d" % i, op, ["a", "b"]) for i, op in enumerate(BINARY)]
        check(args, "binary_" + complex_type,
              module("binary", complex_type, real_type, (["a", "b"], len(lhs)), results), [a, b],
              BINARY)
    return 0


if __name__ == "__main__":
    sys.exit(main())
