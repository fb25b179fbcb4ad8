#!/usr/bin/env python3
"""The 8-/4-bit float conversion sweep (issue 28): every type, f32 inputs
from every bit-pattern class, checked against ml_dtypes.

  conversion_sweep.py generate DIR   DIR/<type>.hlo, DIR/x.npy
  conversion_sweep.py compare DIR TYPE OUT
      OUT holds `hlo-run --interpret --output-dir` of DIR/<type>.hlo:
      output_0 the type's bits of convert(x), output_1 the f32 bits of
      the round trip, output_2 the f32 bits of every encoding of the type.
      Each is compared with ml_dtypes bit for bit, NaN for NaN (the bits
      of a NaN a conversion makes are not specified). Exit 1 on a
      difference.

The inputs: signed zeros, infinities, quiet and signalling NaNs with
payloads, f32 subnormals; for every type, each representable magnitude,
the midpoints between neighbours (and past the largest) and the f32 values
one ulp either side of each; the e8m0 rounding points 1.5 * 2^k; random
bit patterns.
"""
import sys

import ml_dtypes
import numpy as np

TYPES = {
    'f8e4m3fn': ml_dtypes.float8_e4m3fn,
    'f8e5m2': ml_dtypes.float8_e5m2,
    'f8e4m3fnuz': ml_dtypes.float8_e4m3fnuz,
    'f8e5m2fnuz': ml_dtypes.float8_e5m2fnuz,
    'f8e4m3b11fnuz': ml_dtypes.float8_e4m3b11fnuz,
    'f8e3m4': ml_dtypes.float8_e3m4,
    'f8e4m3': ml_dtypes.float8_e4m3,
    'f8e8m0fnu': ml_dtypes.float8_e8m0fnu,
    'f4e2m1fn': ml_dtypes.float4_e2m1fn,
}


def width(name):
    return 4 if name.startswith('f4') else 8


def all_values(dtype, bits):
    return np.arange(1 << bits, dtype=np.uint8).view(dtype).astype(np.float32)


def inputs():
    f32 = np.float32
    specials = np.array([0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                         0xffc00000, 0x7f800001, 0xff800001, 0x7fa00000, 0x7fffffff,
                         0x7fe00000, 0x7f900000, 0x00000001, 0x80000001, 0x007fffff,
                         0x00400000, 0x00600000, 0x005fffff, 0x00600001, 0x00800000,
                         0x7f7fffff, 0xff7fffff], dtype=np.uint32).view(f32)
    points = [specials]
    for name, dtype in TYPES.items():
        values = all_values(dtype, width(name))
        magnitudes = np.unique(np.abs(values[np.isfinite(values)]).astype(np.float64))
        step = np.diff(magnitudes)
        # Past the largest: a step beyond, half a step, and far beyond.
        top = magnitudes[-1]
        extra = np.array([top + step[-1] / 2, top + step[-1], top * 4])
        midpoints = np.concatenate([magnitudes[:-1] + step / 2, extra, [magnitudes[0] / 2]])
        grid = np.concatenate([magnitudes, midpoints]).astype(f32)
        neighbours = np.concatenate([grid, np.nextafter(grid, f32(np.inf)),
                                     np.nextafter(grid, f32(0))])
        points += [neighbours, -neighbours]
    k = np.arange(-149, 128, dtype=np.float64)
    e8m0 = (1.5 * np.exp2(k)).astype(f32)
    e8m0 = np.concatenate([e8m0, np.nextafter(e8m0, f32(0)), np.nextafter(e8m0, f32(np.inf)),
                           np.exp2(k).astype(f32)])
    points += [e8m0, -e8m0]
    rng = np.random.default_rng(28)
    points.append(rng.integers(0, 1 << 32, 30000, dtype=np.uint64).astype(np.uint32).view(f32))
    x = np.concatenate([p.astype(f32) for p in points])
    # Unique bit patterns, in a fixed order.
    return np.unique(x.view(np.uint32)).view(f32)


MODULE = """HloModule convert_{name}

// {name}: every f32 input converted, its bits, and back; every encoding
// decoded.
to_small {{
  x = f32[{n}]{{0}} parameter(0)
  t = {name}[{n}]{{0}} convert(x)
{bits}
  back = f32[{n}]{{0}} convert(t)
  backbits = u32[{n}]{{0}} bitcast-convert(back)
  ROOT r = (u8[{n}]{{0}}, u32[{n}]{{0}}) tuple(bits, backbits)
}}

from_small {{
  codes = u{w}[{count}]{{0}} iota(), iota_dimension=0
  t = {name}[{count}]{{0}} bitcast-convert(codes)
  f = f32[{count}]{{0}} convert(t)
  ROOT fb = u32[{count}]{{0}} bitcast-convert(f)
}}

ENTRY main {{
  x = f32[{n}]{{0}} parameter(0)
  to = (u8[{n}]{{0}}, u32[{n}]{{0}}) fusion(x), kind=kLoop, calls=to_small
  from = u32[{count}]{{0}} fusion(), kind=kLoop, calls=from_small
  bits = u8[{n}]{{0}} get-tuple-element(to), index=0
  back = u32[{n}]{{0}} get-tuple-element(to), index=1
  ROOT r = (u8[{n}]{{0}}, u32[{n}]{{0}}, u32[{count}]{{0}}) tuple(bits, back, from)
}}
"""


def generate(out):
    x = inputs()
    np.save('%s/x.npy' % out, x)
    for name in TYPES:
        w = width(name)
        if w == 8:
            bits = '  bits = u8[{n}]{{0}} bitcast-convert(t)'
        else:
            bits = ('  nibbles = u4[{n}]{{0}} bitcast-convert(t)\n'
                    '  bits = u8[{n}]{{0}} convert(nibbles)')
        text = MODULE.format(name=name, n=len(x), w=w, count=1 << w,
                             bits=bits.format(n=len(x)))
        with open('%s/%s.hlo' % (out, name), 'w') as f:
            f.write(text)
    print('%d inputs, %d types' % (len(x), len(TYPES)))


def nan_of(name, codes):
    dtype = TYPES[name]
    return np.isnan(codes.astype(np.uint8).view(dtype).astype(np.float32))


def compare(out, name, results):
    dtype = TYPES[name]
    x = np.load('%s/x.npy' % out)
    bits = np.load('%s/output_0.npy' % results)
    back = np.load('%s/output_1.npy' % results).view(np.float32)
    decoded = np.load('%s/output_2.npy' % results).view(np.float32)
    failures = 0

    expected_bits = x.astype(dtype).view(np.uint8)
    if name == 'f4e2m1fn':
        # No NaN: XLA converts every NaN to -0 (ml_dtypes gives +0 for -NaN).
        expected_bits = np.where(np.isnan(x), np.uint8(8), expected_bits)
    both_nan = nan_of(name, bits) & nan_of(name, expected_bits)
    wrong = (bits != expected_bits) & ~both_nan
    for i in np.flatnonzero(wrong)[:10]:
        print('%s: f32 0x%08x (%r) -> 0x%02x, ml_dtypes 0x%02x'
              % (name, x.view(np.uint32)[i], float(x[i]), bits[i], expected_bits[i]))
    failures += int(wrong.sum())

    expected_back = expected_bits.view(dtype).astype(np.float32)
    wrong = (back.view(np.uint32) != expected_back.view(np.uint32)) & \
        ~(np.isnan(back) & np.isnan(expected_back))
    for i in np.flatnonzero(wrong)[:10]:
        print('%s: round trip of f32 0x%08x -> 0x%08x, ml_dtypes 0x%08x'
              % (name, x.view(np.uint32)[i], back.view(np.uint32)[i],
                 expected_back.view(np.uint32)[i]))
    failures += int(wrong.sum())

    expected_decoded = all_values(dtype, width(name))
    wrong = (decoded.view(np.uint32) != expected_decoded.view(np.uint32)) & \
        ~(np.isnan(decoded) & np.isnan(expected_decoded))
    for i in np.flatnonzero(wrong)[:10]:
        print('%s: 0x%02x -> f32 0x%08x, ml_dtypes 0x%08x'
              % (name, i, decoded.view(np.uint32)[i], expected_decoded.view(np.uint32)[i]))
    failures += int(wrong.sum())
    print('%s: %d inputs, %d encodings: %s' % (name, len(x), len(decoded),
                                              'PASS' if not failures else
                                              '%d differences FAIL' % failures))
    return failures == 0


def main():
    if sys.argv[1] == 'generate':
        generate(sys.argv[2])
    elif sys.argv[1] == 'compare':
        sys.exit(0 if compare(sys.argv[2], sys.argv[3], sys.argv[4]) else 1)
    else:
        sys.exit('usage: conversion_sweep.py generate DIR | compare DIR TYPE OUT')


if __name__ == '__main__':
    main()
