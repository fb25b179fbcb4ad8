# elementwise.py - the value graph of the generator: leaves and elementwise ops.
#
# Owns: leaf() (parameters, constants, broadcast constants, iota, small
# array constants), gen() (the op dispatcher: picks the op that makes a
# value of a type and shape, within the op budget, and calls its g_*
# method, here or in movement.py) and the elementwise ops (unary, binary,
# scale, compare, is-finite, select, clamp, convert, bitcast-convert),
# with the exactness bookkeeping that keeps jumpy ops' float operands
# bit-identical on both sides.
#
# Standard library only.
from .dtypes import SMALL_FLOATS, NAN_FREE_SMALL_FLOATS, BINARY_FLOAT, BINARY_INT, BINARY_PRED, BITS, DIRECTIONS, EXACT_BINARY, \
    EXACT_UNARY, FLOATS, INTS, NEEDS_EXACT_BINARY, NEEDS_EXACT_UNARY, SAME_WIDTH, SIGNED, \
    TYPES, UNARY_FLOAT, UNARY_INT, UNARY_PRED, UNSIGNED, prod
from .ir import Inst, Shape


class ElementwiseOps:
    """Mixin of GeneratorBase."""

    # -- values -----------------------------------------------------------
    def leaf(self, dtype, dims, exact=False):
        ro = self.ro
        r = ro.random()
        if r < 0.62 or not dims:
            if r < 0.1 and not dims:
                return self.const_scalar(dtype)
            return self.param(dtype, dims, self.pick_layout(len(dims)))
        if r < 0.78:
            return self.broadcast_of(self.const_scalar(dtype), dtype, dims)
        if r < 0.9 and dtype != 'pred':
            d = ro.randrange(len(dims))
            self.feature('iota')
            return self.add(Inst(self.name('iota'), Shape(dtype, dims), 'iota', [],
                                 'iota_dimension=%d' % d, exact=True))
        if prod(dims) <= 16 and len(dims) == 1:
            # a small array constant
            values = []
            for _ in range(dims[0]):
                c = self.rv.randint(-5, 5)
                if dtype == 'pred':
                    values.append('true' if c > 0 else 'false')
                elif dtype in UNSIGNED:
                    values.append(str(abs(c)))
                elif dtype in SIGNED:
                    values.append(str(c))
                else:
                    values.append(repr(c * 0.5))
            inst = Inst(self.name('constant'), Shape(dtype, dims), 'constant', exact=True)
            inst.literal = '{%s}' % ', '.join(values)
            self.feature('array-constant')
            return self.add(inst)
        return self.param(dtype, dims, self.pick_layout(len(dims)))

    def gen(self, dtype, dims, depth, exact=False):
        """A value of dtype[dims]; `exact`: the same bits on both sides."""
        dims = list(dims)
        if depth <= 0 or self.budget <= 0 or self.ro.random() < 0.15:
            return self.leaf(dtype, dims, exact)
        self.budget -= 1
        ro = self.ro
        choices = [('unary', 6), ('binary', 7), ('convert', 2), ('compare', 2 if dtype == 'pred' else 0),
                   ('select', 2), ('clamp', 1 if dtype != 'pred' else 0),
                   ('bitcast-convert', 1 if dtype != 'pred' else 0),
                   ('is-finite', 1 if dtype == 'pred' else 0),
                   ('broadcast', 2), ('reshape', 1.5 if dims else 0), ('bitcast', 1 if dims else 0),
                   ('transpose', 1.5 if len(dims) >= 2 else 0), ('slice', 1.5 if dims else 0),
                   ('pad', 1 if dims else 0), ('concatenate', 1 if dims else 0),
                   ('reverse', 1 if dims else 0), ('dynamic-slice', 1.5 if dims else 0),
                   ('dynamic-update-slice', 1.5 if dims else 0), ('gather', 1.5 if dims else 0),
                   ('scale', 1 if dtype in FLOATS else 0),
                   ('small-float', 3 if dtype in FLOATS else 0)]
        ops = [c for c, w in choices if w > 0]
        weights = [w for c, w in choices if w > 0]
        what = ro.choices(ops, weights)[0]
        return getattr(self, 'g_' + what.replace('-', '_'))(dtype, dims, depth - 1, exact)

    def g_unary(self, dtype, dims, depth, exact):
        ro = self.ro
        table = UNARY_FLOAT if dtype in FLOATS else UNARY_INT if dtype in INTS else UNARY_PRED
        if dtype in UNSIGNED:
            table = [o for o in table if o != 'sign']   # sign takes signed types
        if exact and dtype in FLOATS:
            table = [o for o in table if o in EXACT_UNARY]
        op = ro.choice(table)
        need = exact or (dtype in FLOATS and op in NEEDS_EXACT_UNARY)
        x = self.gen(dtype, dims, depth, need)
        attrs = ''
        if op == 'reduce-precision':
            attrs = 'exponent_bits=%d, mantissa_bits=%d' % (ro.choice([5, 8, 4, 11]),
                                                             ro.choice([2, 7, 10, 23, 1]))
        self.feature(op)
        out_exact = x.exact and (dtype not in FLOATS or op in EXACT_UNARY)
        return self.add(Inst(self.name(op.split('-')[0]), Shape(dtype, dims), op, [x], attrs,
                             exact=out_exact))

    def g_binary(self, dtype, dims, depth, exact):
        ro = self.ro
        table = BINARY_FLOAT if dtype in FLOATS else BINARY_INT if dtype in INTS else BINARY_PRED
        if exact and dtype in FLOATS:
            table = [o for o in table if o in EXACT_BINARY]
        op = ro.choice(table)
        need = exact or (dtype in FLOATS and op in NEEDS_EXACT_BINARY)
        a = self.gen(dtype, dims, depth, need and op != 'divide' or exact)
        if op == 'power' and dtype in INTS:
            b = self.leaf(dtype, dims)   # the exponent: no huge loops
        else:
            b = self.gen(dtype, dims, depth, need)
        self.feature(op)
        out_exact = a.exact and b.exact and (dtype not in FLOATS or op in EXACT_BINARY)
        return self.add(Inst(self.name(op.split('-')[0]), Shape(dtype, dims), op, [a, b],
                             exact=out_exact))

    def g_scale(self, dtype, dims, depth, exact):
        # x * 2^k: exact, and large enough to saturate integer converts.
        x = self.gen(dtype, dims, depth, exact)
        k = self.ro.choice([1, 4, 10, 20, 40, 70])
        k = min(k, 14 if dtype == 'f16' else 120)   # a literal the type can hold
        c = self.broadcast_of(self.const_scalar(dtype, 2.0 ** k), dtype, dims)
        return self.add(Inst(self.name('scaled'), Shape(dtype, dims), 'multiply', [x, c],
                             exact=x.exact))

    def g_compare(self, dtype, dims, depth, exact):
        ro = self.ro
        src = ro.choice(TYPES)
        a = self.gen(src, dims, depth, True)
        b = self.gen(src, dims, depth, True)
        attrs = 'direction=%s' % ro.choice(DIRECTIONS)
        if src in FLOATS and ro.random() < 0.3:
            attrs += ', type=TOTALORDER'
            self.feature('compare-totalorder')
        self.feature('compare')
        return self.add(Inst(self.name('compare'), Shape('pred', dims), 'compare', [a, b], attrs,
                             exact=a.exact and b.exact))

    def g_is_finite(self, dtype, dims, depth, exact):
        src = self.ro.choice(FLOATS)
        x = self.gen(src, dims, depth, True)
        self.feature('is-finite')
        return self.add(Inst(self.name('isfinite'), Shape('pred', dims), 'is-finite', [x],
                             exact=x.exact))

    def g_select(self, dtype, dims, depth, exact):
        c = self.gen('pred', dims, depth, True)
        a = self.gen(dtype, dims, depth, exact)
        b = self.gen(dtype, dims, depth, exact)
        self.feature('select')
        return self.add(Inst(self.name('select'), Shape(dtype, dims), 'select', [c, a, b],
                             exact=c.exact and a.exact and b.exact))

    def g_clamp(self, dtype, dims, depth, exact):
        lo = self.gen(dtype, dims, 0, exact)
        x = self.gen(dtype, dims, depth, exact)
        hi = self.gen(dtype, dims, 0, exact)
        self.feature('clamp')
        return self.add(Inst(self.name('clamp'), Shape(dtype, dims), 'clamp', [lo, x, hi],
                             exact=lo.exact and x.exact and hi.exact))

    def g_convert(self, dtype, dims, depth, exact):
        src = self.ro.choice(TYPES)
        # Float to integer (or pred) jumps at integers: an exact operand.
        need = exact or (src in FLOATS and dtype not in FLOATS)
        x = self.gen(src, dims, depth, need)
        self.feature('convert')
        self.feature('convert-%s-%s' % ('f' if src in FLOATS else 'i',
                                        'f' if dtype in FLOATS else 'i'))
        return self.add(Inst(self.name('convert'), Shape(dtype, dims), 'convert', [x],
                             exact=x.exact))

    def g_small_float(self, dtype, dims, depth, exact):
        # Through an 8- or 4-bit float and back, as FP8 code quantizes: the
        # conversion jumps at the type's rounding boundaries, so an exact
        # operand (the same bits on both sides).
        small = self.ro.choice(NAN_FREE_SMALL_FLOATS if self.no_special else SMALL_FLOATS)
        x = self.gen(dtype, dims, depth, True)
        q = self.add(Inst(self.name('quantized'), Shape(small, dims), 'convert', [x],
                          exact=x.exact))
        self.feature('convert-%s' % small)
        return self.add(Inst(self.name('dequantized'), Shape(dtype, dims), 'convert', [q],
                             exact=x.exact))

    def g_bitcast_convert(self, dtype, dims, depth, exact):
        ro = self.ro
        bits = BITS[dtype]
        if self.no_special and dtype in FLOATS:
            # from integer bits: NaNs, which a plain comparator cannot order
            return self.g_convert(dtype, dims, depth, exact)
        if ro.random() < 0.2 and dims is not None:
            # Width-changing: src of another width adds or drops a minor dim.
            others = [t for t in INTS + FLOATS if BITS[t] != bits]
            src = ro.choice(others)
            sbits = BITS[src]
            if sbits > bits:
                if not dims or dims[-1] != sbits // bits:
                    src = ro.choice([t for t in SAME_WIDTH[bits] if t != dtype] or [dtype])
                    sdims = dims
                else:
                    sdims = dims[:-1]
            else:
                sdims = dims + [bits // sbits]
        else:
            src = ro.choice([t for t in SAME_WIDTH[bits] if t != dtype] or [dtype])
            sdims = dims
        if prod(sdims) > self.max_elems:
            sdims, src = dims, dtype
        x = self.gen(src, sdims, depth, True)
        self.feature('bitcast-convert')
        return self.add(Inst(self.name('bitcast_convert'), Shape(dtype, dims), 'bitcast-convert',
                             [x], exact=x.exact))
