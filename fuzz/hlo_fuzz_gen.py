#!/usr/bin/env python3
# hlo_fuzz_gen.py - the random HLO module generator of the compiler fuzzer
# (fuzz/hlo_fuzz.py drives it; scripts/fuzz.sh runs that).
#
# Owns: the generator's public API and its command line. The generator
# itself lives in the fuzzgen package next to this file (fuzzgen/__init__.py
# lists its modules); this file re-exports what fuzz/hlo_fuzz.py uses
# (generate, Case, Shape, TupleShape, Inst, prod, npy_bytes, KINDS ...).
#
# The generator makes random, VALID HLO modules in the forms XLA writes
# after optimization (a fused computation plus an ENTRY with a `fusion`
# instruction, or the bare fused computation of XLA's emitter tests) for
# every fusion kind hlo-compile claims -- loop (every elementwise op, integer
# ops included, broadcast, reshape, bitcast, transpose, slice, pad,
# concatenate, iota, reverse, dynamic-slice, dynamic-update-slice, gather),
# reductions (row, column, multi-row, small column, full, variadic argmax,
# multi-output), transposes (packed 8/16-bit ones too), concatenate
# fusions, in-place dynamic-update-slice, scatter, sort and normalization
# (softmax, layer norm), XLA's Triton GEMM fusions (kCustom, per GPU
# architecture), c64/c128 fusions, and whole modules of several kernels
# (buffer sharing, donated parameters, 8-/4-bit entry parameters and
# outputs) -- over every element type the compiler supports,
# with non-default layouts and the index inputs (.npy) that hlo-run cannot
# choose itself: out-of-range, negative and high unsigned start indices,
# unique / sorted scatter indices.
#
# Deterministic: generate(seed) always gives the same module. The knobs
# `ops` (elementwise op budget) and `scale` (shape scale) exist for the
# reducer: the same seed with smaller knobs keeps the fusion kind, element
# types and the structure's choices and only shrinks the module. The
# result (a Case) keeps its instructions as objects so that the reducer can
# also rewrite them (replace an instruction by a parameter, bypass one).
#
# Standard library only. `hlo_fuzz_gen.py SEED [--kind K]` prints a module.
import argparse
import os
import sys

if os.path.dirname(os.path.abspath(__file__)) not in sys.path:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fuzzgen.dtypes import (  # noqa: E402,F401
    BINARY_FLOAT, BINARY_INT, BINARY_PRED, BITS, DIRECTIONS, EXACT_BINARY, EXACT_UNARY,
    FLOATS, INTS, KIND_WEIGHTS, KINDS, NEEDS_EXACT_BINARY, NEEDS_EXACT_UNARY, SAME_WIDTH,
    SIGNED, TYPES, UNARY_FLOAT, UNARY_INT, UNARY_PRED, UNSIGNED, format_float, int_range,
    next_pow2, prod)
from fuzzgen.generator import Generator, generate  # noqa: E402,F401
from fuzzgen.ir import Case, Inst, Shape, TupleShape  # noqa: E402,F401
from fuzzgen.npy import NPY_DESCR, NPY_PACK, npy_bytes  # noqa: E402,F401


def main():
    ap = argparse.ArgumentParser(description='Print the random HLO module of a seed.')
    ap.add_argument('seed', type=int)
    ap.add_argument('--kind', choices=KINDS)
    ap.add_argument('--ops', type=int)
    ap.add_argument('--scale', type=float, default=1.0)
    args = ap.parse_args()
    case = generate(args.seed, args.kind, args.ops, args.scale)
    sys.stdout.write(case.hlo())
    sys.stderr.write('kind=%s features=%s inputs=%s\n' % (
        case.kind, ','.join(case.features),
        {n: (t, d, v[:8]) for n, (t, d, v) in case.inputs().items()}))


if __name__ == '__main__':
    main()
