#!/usr/bin/env python3
"""Compares one GEMM output with another (ours with cuBLAS's), both .npy
files as hlo-run --save-dir writes them (bf16 as '<V2', f16 '<f2', f32
'<f4', f64 '<f8'). Owns the GEMM benchmark's cross-check at sizes the
reference interpreter cannot reach (bench/gemm/run.py calls it).

    compare_npy.py ACTUAL.npy EXPECTED.npy --type bf16 [--tolerance T]
                   [--max-samples N]

Two different summation orders (and, for f32, TF32 products on one side)
do not agree bit for bit, so the check is on the whole array: the relative
L2 error ||actual - expected|| / ||expected|| within the type's tolerance
(TOLERANCE), and no element finite on one side and not on the other.
With numpy every element is compared; without it (stdlib only) an evenly
spaced sample of --max-samples elements. Prints one line; exit 0 within
the tolerance, 1 outside it, 2 when the files cannot be compared.
"""
import argparse
import ast
import math
import struct
import sys

TOLERANCE = {"bf16": 1e-2, "f16": 5e-3, "f32": 5e-3, "f64": 1e-9}
FORMATS = {"f16": ("e", 2), "f32": ("f", 4), "f64": ("d", 8), "bf16": ("H", 2)}


def read_npy(path):
    """(descr, shape, raw element bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: not an .npy file")
    major = data[6]
    if major == 1:
        length, start = struct.unpack_from("<H", data, 8)[0], 10
    else:
        length, start = struct.unpack_from("<I", data, 8)[0], 12
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    if header.get("fortran_order"):
        raise ValueError(f"{path}: Fortran order")
    return header["descr"], tuple(header["shape"]), data[start + length:]


def expected_descr(kind):
    return {"bf16": ("<V2", "|V2"), "f16": ("<f2",), "f32": ("<f4",), "f64": ("<f8",)}[kind]


def decode(raw, kind, indices):
    """The elements at `indices` (None: all) as Python floats."""
    code, width = FORMATS[kind]
    count = len(raw) // width
    if indices is not None:
        raw = b"".join(raw[i * width:(i + 1) * width] for i in indices)
        count = len(indices)
    values = struct.unpack(f"<{count}{code}", raw)
    if kind == "bf16":
        values = struct.unpack(f"<{count}f", struct.pack(f"<{count}I", *(v << 16 for v in values)))
    return values


def compare_numpy(raw_a, raw_b, kind):
    import numpy as np
    if kind == "bf16":
        a = (np.frombuffer(raw_a, "<u2").astype(np.uint32) << 16).view(np.float32)
        b = (np.frombuffer(raw_b, "<u2").astype(np.uint32) << 16).view(np.float32)
    else:
        dtype = {"f16": "<f2", "f32": "<f4", "f64": "<f8"}[kind]
        a, b = np.frombuffer(raw_a, dtype), np.frombuffer(raw_b, dtype)
    a, b = a.astype(np.float64), b.astype(np.float64)
    finite_a, finite_b = np.isfinite(a), np.isfinite(b)
    odd = int(np.count_nonzero(finite_a != finite_b))
    both = finite_a & finite_b
    diff = a[both] - b[both]
    return (odd, float(np.sqrt(np.sum(diff * diff))), float(np.sqrt(np.sum(b[both] ** 2))),
            float(np.max(np.abs(diff))) if diff.size else 0.0,
            float(np.max(np.abs(b[both]))) if diff.size else 0.0, a.size, "all")


def compare_stdlib(raw_a, raw_b, kind, max_samples):
    width = FORMATS[kind][1]
    count = len(raw_a) // width
    step = max(1, count // max_samples)
    indices = range(0, count, step) if step > 1 else None
    a, b = decode(raw_a, kind, indices), decode(raw_b, kind, indices)
    odd, err2, ref2, max_abs, max_ref = 0, 0.0, 0.0, 0.0, 0.0
    for x, y in zip(a, b):
        fx, fy = math.isfinite(x), math.isfinite(y)
        if fx != fy:
            odd += 1
        elif fx:
            d = x - y
            err2 += d * d
            ref2 += y * y
            max_abs = max(max_abs, abs(d))
            max_ref = max(max_ref, abs(y))
    return (odd, math.sqrt(err2), math.sqrt(ref2), max_abs, max_ref, count,
            "all" if step == 1 else f"{len(a)} sampled")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("actual")
    parser.add_argument("expected")
    parser.add_argument("--type", required=True, choices=sorted(TOLERANCE))
    parser.add_argument("--tolerance", type=float)
    parser.add_argument("--max-samples", type=int, default=1 << 20)
    args = parser.parse_args()
    try:
        descr_a, shape_a, raw_a = read_npy(args.actual)
        descr_b, shape_b, raw_b = read_npy(args.expected)
    except (OSError, ValueError, SyntaxError) as error:
        print(f"cannot compare: {error}")
        return 2
    if shape_a != shape_b or descr_a != descr_b or descr_a not in expected_descr(args.type):
        print(f"cannot compare: {descr_a}{list(shape_a)} with {descr_b}{list(shape_b)} as {args.type}")
        return 2
    try:
        import numpy  # noqa: F401
        result = compare_numpy(raw_a, raw_b, args.type)
    except ImportError:
        result = compare_stdlib(raw_a, raw_b, args.type, args.max_samples)
    odd, err, ref, max_abs, max_ref, count, how = result
    relative = err / ref if ref > 0 else (0.0 if err == 0 else math.inf)
    tolerance = args.tolerance if args.tolerance is not None else TOLERANCE[args.type]
    ok = odd == 0 and relative <= tolerance
    print(f"{'OK' if ok else 'MISMATCH'} rel_l2 {relative:.2e} (tol {tolerance:g}), max_abs "
          f"{max_abs:.3g} (max |expected| {max_ref:.3g}), {odd} finite on one side only, "
          f"{count} elements ({how})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
