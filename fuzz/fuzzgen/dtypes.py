# dtypes.py - the element types and op tables of the random HLO generator.
#
# Owns: the element type lists and bit widths, the fusion kinds and their
# weights, the elementwise op tables and which ops need / keep exact
# operands, and the small numeric helpers (int_range, prod, next_pow2,
# format_float) the other fuzzgen modules share.
#
# Standard library only.
import math

SIGNED = ['s8', 's16', 's32', 's64']
UNSIGNED = ['u8', 'u16', 'u32', 'u64']
INTS = SIGNED + UNSIGNED
FLOATS = ['f16', 'bf16', 'f32', 'f64']
TYPES = ['pred'] + INTS + FLOATS
# 8- and 4-bit floats: only inside a fusion, converted from and back to a
# wider float (elementwise.py's g_small_float), never stored.
SMALL_FLOATS = ['f8e4m3fn', 'f8e5m2', 'f8e4m3fnuz', 'f8e5m2fnuz', 'f8e4m3b11fnuz', 'f8e3m4',
                'f8e4m3', 'f8e8m0fnu', 'f4e2m1fn']
# Those that make no NaN of a finite value (overflow to inf or saturate):
# for operands a comparator orders, which NaNs would make order-dependent.
NAN_FREE_SMALL_FLOATS = ['f8e5m2', 'f8e3m4', 'f8e4m3', 'f4e2m1fn']
BITS = {'pred': 8, 's8': 8, 's16': 16, 's32': 32, 's64': 64, 'u8': 8, 'u16': 16,
        'u32': 32, 'u64': 64, 'f16': 16, 'bf16': 16, 'f32': 32, 'f64': 64}
SAME_WIDTH = {8: ['s8', 'u8'], 16: ['s16', 'u16', 'f16', 'bf16'],
              32: ['s32', 'u32', 'f32'], 64: ['s64', 'u64', 'f64']}
KINDS = ['loop', 'reduce', 'transpose', 'concat', 'dus', 'scatter', 'sort', 'norm', 'gemm',
         'complex', 'module', 'large']
# Relative frequency of the kinds in a long run.
KIND_WEIGHTS = {'loop': 5, 'reduce': 4, 'transpose': 3, 'concat': 2, 'dus': 2,
                'scatter': 2, 'sort': 2, 'norm': 1, 'gemm': 3, 'complex': 3, 'module': 2}

UNARY_FLOAT = ['abs', 'negate', 'sign', 'floor', 'ceil', 'round-nearest-afz',
               'round-nearest-even', 'exponential', 'exponential-minus-one', 'log',
               'log-plus-one', 'sqrt', 'rsqrt', 'cbrt', 'sine', 'cosine', 'tan', 'tanh',
               'logistic', 'erf', 'sinh', 'cosh', 'asin', 'acos', 'asinh', 'acosh',
               'atanh', 'reduce-precision', 'copy']
BINARY_FLOAT = ['add', 'subtract', 'multiply', 'divide', 'maximum', 'minimum', 'power',
                'remainder', 'atan2']
UNARY_INT = ['abs', 'negate', 'not', 'popcnt', 'count-leading-zeros', 'sign', 'copy']
BINARY_INT = ['add', 'subtract', 'multiply', 'divide', 'remainder', 'maximum', 'minimum',
              'and', 'or', 'xor', 'shift-left', 'shift-right-arithmetic',
              'shift-right-logical', 'power']
UNARY_PRED = ['not', 'copy']
BINARY_PRED = ['and', 'or', 'xor', 'maximum', 'minimum']
# Ops whose result jumps for a tiny change of a (float) operand: their float
# operands must be exact (the same bits on both sides), or an ulp of
# difference in libm's or the kernel's math becomes a false mismatch.
NEEDS_EXACT_UNARY = {'sign', 'floor', 'ceil', 'round-nearest-afz', 'round-nearest-even',
                     'reduce-precision'}
NEEDS_EXACT_BINARY = {'remainder', 'atan2', 'power', 'divide'}
# Ops that keep an exact operand exact.
EXACT_UNARY = {'abs', 'negate', 'copy', 'sign', 'floor', 'ceil', 'round-nearest-afz',
               'round-nearest-even', 'reduce-precision'}
EXACT_BINARY = {'maximum', 'minimum'}
DIRECTIONS = ['EQ', 'NE', 'LT', 'LE', 'GT', 'GE']


def int_range(dtype):
    bits = BITS[dtype]
    if dtype == 'pred':
        return 0, 1
    if dtype.startswith('u'):
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def prod(dims):
    p = 1
    for d in dims:
        p *= d
    return p


def next_pow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


def format_float(dtype, value):
    if value != value:
        return 'nan'
    if value == math.inf:
        return 'inf'
    if value == -math.inf:
        return '-inf'
    text = repr(float(value))
    return text
