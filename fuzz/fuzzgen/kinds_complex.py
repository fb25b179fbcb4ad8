# kinds_complex.py - the `complex` fusion kind: c64 / c128 (fuzzgen).
#
# Owns: k_complex and the complex value graph it builds on (cgen, wired
# into gen() for the complex types so that the data-movement ops of
# movement.py -- broadcast, reshape, bitcast, transpose, slice, pad,
# concatenate, reverse, dynamic-slice, dynamic-update-slice, gather --
# move complex values too): leaves (parameters, broadcast complex
# constants incl. (nan, nan), (inf, 0) and zero, `complex(re, im)` of f32 /
# f64 values), elementwise ops (add, subtract, multiply, divide, negate,
# exponential, log, sqrt, rsqrt, tanh, power, sine, cosine, copy),
# converts c64 <-> c128, real / imag / abs back to the real types, EQ/NE
# compares and select; and the fusion kinds around it: loop (maybe
# multi-output, sometimes past 2^18 elements), reduce with complex add
# and multiply reducers (row, column, full), scatter with an add combiner (repeated indices) or a
# multiply combiner (c64 with repeated indices; c128 only with unique
# indices: the compiler refuses c128 non-add combiners on repeated indices
# by design), gather and dynamic-slice roots, and XLA's rotary-embedding
# shape (exp of a complex product, cos/sin branches, a gather and a select
# with a (nan, nan) constant).
#
# Inputs are hlo-run's own ([-1, 1] per component): the ops whose result
# jumps (log, sqrt, rsqrt, power: branch cuts on the negative real axis)
# and exponential / tanh (which grow fast) take leaves, so values stay
# moderate and the same on both sides up to rounding.
#
# Standard library only.
import math

from .ir import Inst, Shape, TupleShape

COMPLEX = ['c64', 'c128']
PART = {'c64': 'f32', 'c128': 'f64'}
CONSTANTS = [(0.5, -1.5), (1.0, 0.0), (0.0, 1.0), (-0.75, 0.25), (2.0, 0.5), (0.25, 0.25),
             (-1.0, -1.0), (3.0, -0.5)]
SPECIALS = [(math.nan, math.nan), (math.inf, 0.0), (0.0, 0.0), (-0.0, 0.0), (math.nan, 0.0)]


def complex_literal(value):
    def f(x):
        if x != x:
            return 'nan'
        if x == math.inf:
            return 'inf'
        if x == -math.inf:
            return '-inf'
        return repr(float(x))
    return '(%s, %s)' % (f(value[0]), f(value[1]))


class ComplexKinds:
    """The `complex` kind and the complex value graph (a mixin of Generator)."""

    # -- hooks into the shared value graph ---------------------------------
    def gen(self, dtype, dims, depth, exact=False):
        if dtype in COMPLEX:
            return self.cgen(dtype, dims, depth, exact)
        return super().gen(dtype, dims, depth, exact)

    def const_scalar(self, dtype, value=None):
        if dtype not in COMPLEX:
            return super().const_scalar(dtype, value)
        if value is None:
            pool = CONSTANTS + (SPECIALS if not self.no_special else [])
            value = self.rv.choice(pool) if self.rv.random() < 0.9 else self.rv.choice(CONSTANTS)
            if value in SPECIALS:
                self.feature('complex-special-constant')
        inst = Inst(self.name('constant'), Shape(dtype, []), 'constant', exact=True)
        inst.literal = complex_literal(value)
        return self.add(inst)

    # -- leaves ------------------------------------------------------------
    def cleaf(self, dtype, dims):
        ro = self.ro
        r = ro.random()
        if r < 0.55 or (not dims and r < 0.7):
            return self.param(dtype, dims, self.pick_layout(len(dims), 0.2))
        if r < 0.75:
            return self.broadcast_of(self.const_scalar(dtype), dtype, dims)
        # complex(re, im) of real values
        part = PART[dtype]
        re = self.real_leaf(part, dims)
        im = self.real_leaf(part, dims)
        self.feature('complex-from-parts')
        return self.add(Inst(self.name('complex'), Shape(dtype, dims), 'complex', [re, im],
                             exact=re.exact and im.exact))

    def real_leaf(self, part, dims):
        ro = self.ro
        r = ro.random()
        if r < 0.6:
            return self.param(part, dims)
        if r < 0.75:
            return self.broadcast_of(super().const_scalar(part, ro.choice([0.0, 0.5, -1.0, 1.5])),
                                     part, dims)
        x = self.param(part, dims)
        op = ro.choice(['cosine', 'sine'])
        self.feature('complex-part-' + op)
        return self.add(Inst(self.name(op), Shape(part, dims), op, [x]))

    # -- the graph -----------------------------------------------------------
    def cgen(self, dtype, dims, depth, exact=False):
        dims = list(dims)
        if depth <= 0 or self.budget <= 0 or self.ro.random() < 0.15:
            return self.cleaf(dtype, dims)
        self.budget -= 1
        ro = self.ro
        choices = [('cunary', 0 if exact else 5), ('cbinary', 0 if exact else 6),
                   ('cjumpy', 0 if exact else 3), ('cnegate', 1), ('cconvert', 1.5),
                   ('cparts', 0 if exact else 2), ('cselect', 2),
                   ('broadcast', 1), ('reshape', 1 if dims else 0), ('bitcast', 0.5 if dims else 0),
                   ('transpose', 1 if len(dims) >= 2 else 0), ('slice', 1 if dims else 0),
                   ('pad', 1 if dims else 0), ('concatenate', 1 if dims else 0),
                   ('reverse', 1 if dims else 0), ('dynamic-slice', 1 if dims else 0),
                   ('dynamic-update-slice', 1 if dims else 0), ('gather', 1 if dims else 0)]
        ops = [c for c, w in choices if w > 0]
        weights = [w for c, w in choices if w > 0]
        what = ro.choices(ops, weights)[0]
        if what.startswith('c'):
            return getattr(self, 'g_' + what)(dtype, dims, depth - 1, exact)
        return getattr(self, 'g_' + what.replace('-', '_'))(dtype, dims, depth - 1, exact)

    def g_cunary(self, dtype, dims, depth, exact):
        op = self.ro.choice(['exponential', 'tanh', 'sine', 'cosine', 'copy', 'negate'])
        # exp / tanh / sin / cos grow fast: a leaf operand
        x = self.cgen(dtype, dims, 0 if op not in ('copy', 'negate') else depth)
        self.feature('complex-' + op)
        return self.add(Inst(self.name(op), Shape(dtype, dims), op, [x]))

    def g_cnegate(self, dtype, dims, depth, exact):
        x = self.cgen(dtype, dims, depth, exact)
        self.feature('complex-negate')
        return self.add(Inst(self.name('negate'), Shape(dtype, dims), 'negate', [x],
                             exact=x.exact))

    def g_cjumpy(self, dtype, dims, depth, exact):
        # branch cuts on the negative real axis: operands the same on both sides
        op = self.ro.choice(['log', 'sqrt', 'rsqrt', 'power'])
        a = self.cleaf(dtype, dims)
        operands = [a]
        if op == 'power':
            operands.append(self.cleaf(dtype, dims))
        self.feature('complex-' + op)
        return self.add(Inst(self.name(op), Shape(dtype, dims), op, operands))

    def g_cbinary(self, dtype, dims, depth, exact):
        op = self.ro.choice(['add', 'subtract', 'multiply', 'multiply', 'divide'])
        a = self.cgen(dtype, dims, depth)
        # a divisor near zero makes any rounding difference large: a leaf
        b = self.cgen(dtype, dims, depth if op != 'divide' else 0)
        self.feature('complex-' + op)
        return self.add(Inst(self.name(op), Shape(dtype, dims), op, [a, b]))

    def g_cconvert(self, dtype, dims, depth, exact):
        src = 'c128' if dtype == 'c64' else 'c64'
        x = self.cgen(src, dims, depth, exact)
        self.feature('complex-convert-%s-%s' % (src, dtype))
        # c64 -> c128 is exact; c128 -> c64 rounds (exact if x was a c64)
        return self.add(Inst(self.name('convert'), Shape(dtype, dims), 'convert', [x],
                             exact=x.exact and src == 'c64'))

    def g_cparts(self, dtype, dims, depth, exact):
        """complex(f(real(x)), g(imag(y))): through the real parts and back."""
        part = PART[dtype]
        ro = self.ro
        parts = []
        for which in ('real', 'imag'):
            x = self.cgen(ro.choice(COMPLEX), dims, depth)
            if x.shape.dtype != dtype:
                x = self.add(Inst(self.name('convert'), Shape(dtype, dims), 'convert', [x]))
            op = ro.choice(['real', 'imag', 'abs'])
            v = self.add(Inst(self.name(op), Shape(part, dims), op, [x]))
            self.feature('complex-' + op)
            if ro.random() < 0.3:
                v = self.add(Inst(self.name('multiply'), Shape(part, dims), 'multiply', [v, v]))
            parts.append(v)
        self.feature('complex-from-parts')
        return self.add(Inst(self.name('complex'), Shape(dtype, dims), 'complex', parts))

    def complex_pred(self, dtype, dims):
        ro = self.ro
        if ro.random() < 0.6:
            a = self.cgen(dtype, dims, 1, True)
            b = a if ro.random() < 0.3 else self.cgen(dtype, dims, 1, True)
            d = ro.choice(['EQ', 'NE'])
            self.feature('complex-compare-' + d)
            return self.add(Inst(self.name('compare'), Shape('pred', dims), 'compare', [a, b],
                                 'direction=%s' % d))
        x = self.param(PART[dtype], dims)
        z = self.broadcast_of(super().const_scalar(PART[dtype], 0.0), PART[dtype], dims)
        return self.add(Inst(self.name('compare'), Shape('pred', dims), 'compare', [x, z],
                             'direction=LT'))

    def g_cselect(self, dtype, dims, depth, exact):
        c = self.complex_pred(dtype, dims)
        a = self.cgen(dtype, dims, depth, exact)
        b = self.cgen(dtype, dims, depth, exact)
        self.feature('complex-select')
        return self.add(Inst(self.name('select'), Shape(dtype, dims), 'select', [c, a, b],
                             exact=a.exact and b.exact))

    # -- the fusion kind -------------------------------------------------------
    def k_complex(self):
        rk, rs, ro = self.rk, self.rs, self.ro
        dtype = rk.choice(COMPLEX)
        self.feature('type-' + dtype)
        variant = rk.choice(['loop', 'loop', 'loop-real-out', 'reduce', 'reduce', 'scatter',
                             'scatter', 'gather', 'rotary'])
        self.feature('complex-' + variant)
        self.max_elems = 1 << 15
        if variant in ('loop', 'loop-real-out'):
            dims = self.pick_dims(self.out_rank())
            depth = ro.randint(2, 5)
            if rs.random() < 0.08:
                # past 2^18 elements: the vectorized stores of issue 52
                # item 5 (c64[270336] crashed, c64[262145] did not)
                self.max_elems = 1 << 19
                dims = [self.sdim(rs.choice([262145, 270336, 300000]))]
                depth = 1
                self.feature('complex-large')
            root = self.cgen(dtype, dims, depth)
            outs = [root]
            if variant == 'loop-real-out':
                op = rk.choice(['real', 'imag', 'abs'])
                outs = [self.add(Inst(self.name(op), Shape(PART[dtype], dims), op, [root]))]
            if rk.random() < 0.25:
                other = rk.choice(COMPLEX)
                outs.append(self.cgen(other, dims, ro.randint(1, 3)))
                self.feature('multi-output')
            if rk.random() < 0.15:
                outs.append(self.complex_pred(dtype, dims))
            outs = [self.add(Inst(self.name('copy'), o.shape, 'copy', [o]))
                    if o.op in ('parameter', 'constant') else o for o in outs]
            if len(outs) > 1:
                self.add(Inst(self.name('tuple'), TupleShape([o.shape for o in outs]), 'tuple',
                              outs))
            self.case.fusion_kind = 'kLoop'
        elif variant == 'reduce':
            self.k_complex_reduce(dtype)
        elif variant == 'scatter':
            self.k_complex_scatter(dtype)
        elif variant == 'gather':
            dims = self.pick_dims(rs.randint(1, 3))
            if ro.random() < 0.5:
                self.g_gather(dtype, dims, ro.randint(1, 3), False)
            else:
                self.g_dynamic_slice(dtype, dims, ro.randint(1, 3), False)
            self.case.fusion_kind = 'kLoop'
        else:
            self.k_complex_rotary(dtype)
        self.finish_style(('fusion', 'bare'))

    def k_complex_reduce(self, dtype):
        rk, rs, ro = self.rk, self.rs, self.ro
        op = rk.choice(['add', 'add', 'multiply'])
        rank = rs.randint(1, 3)
        dims = self.pick_dims(rank)
        shape_kind = rk.choice(['row', 'column', 'full', 'random'])
        if shape_kind == 'row':
            rdims = [rank - 1]
        elif shape_kind == 'column':
            rdims = [0] if rank > 1 else [0]
        elif shape_kind == 'full':
            rdims = list(range(rank))
        else:
            rdims = sorted(rs.sample(range(rank), rs.randint(1, rank)))
        if op == 'multiply':
            # products of many values near 1 in magnitude underflow or
            # overflow: a short reduced extent
            for d in rdims:
                dims[d] = min(dims[d], self.sdim(rs.choice([2, 3, 7, 16, 31])))
        self.feature('complex-reduce-%s-%s' % (op, shape_kind))
        x = self.cgen(dtype, dims, ro.randint(0, 3))
        ident = (0.0, 0.0) if op == 'add' else (1.0, 0.0)
        init = self.const_scalar(dtype, ident)
        kept = [dims[d] for d in range(rank) if d not in rdims]
        r = self.add(Inst(self.name('reduce'), Shape(dtype, kept), 'reduce', [x, init],
                          'dimensions={%s}, to_apply=%s' % (','.join(map(str, rdims)),
                                                            self.reducer(dtype, op))))
        if rk.random() < 0.2:
            self.add(Inst(self.name('real'), Shape(PART[dtype], kept), 'real', [r]))
            self.feature('complex-reduce-epilogue')
        self.case.fusion_kind = 'kInput'

    def k_complex_scatter(self, dtype):
        rk, rs, ro, rv = self.rk, self.rs, self.ro, self.rv
        combiner = rk.choice(['add', 'add', 'multiply'])
        unique = rk.random() < 0.35
        if dtype == 'c128' and combiner != 'add':
            unique = True   # c128 non-add on repeated indices: refused by design
        rank = rs.randint(1, 2)
        rows = self.sdim(rs.choice([1, 4, 16, 33, 100]))
        dims = [rows] + ([self.sdim(rs.choice([1, 3, 8, 32, 65]))] if rank == 2 else [])
        n = self.sdim(rs.choice([1, 2, 5, 16, 40, 120]))
        itype = rk.choice(['s32', 's64', 'u32', 's8'])
        if unique:
            n = min(n, rows)
            values = rv.sample(range(rows), n)
        else:
            values = [rv.randint(0, rows - 1) for _ in range(n)]
            if n > 1 and rv.random() < 0.5:
                values[-1] = values[0]   # at least one repeat
        # a few out-of-bounds (skipped) updates
        for i in range(n):
            if rv.random() < 0.08:
                cand = rows + rv.randint(0, 5)
                if not unique or cand not in values:
                    values[i] = cand
        operand = self.param(dtype, dims) if ro.random() < 0.7 else self.cgen(dtype, dims, 1)
        implicit = rs.random() < 0.3
        ip = self.param(itype, [n] if implicit else [n, 1])
        ip.index_values = values
        ip.param_kind = 'index'
        udims = [n] + dims[1:]
        upd = self.cgen(dtype, udims, ro.randint(0, 2))
        attrs = ('update_window_dims={%s}, inserted_window_dims={0}, '
                 'scatter_dims_to_operand_dims={0}, index_vector_dim=1') % (
                     ','.join(str(i) for i in range(1, len(udims))))
        attrs += ', unique_indices=%s, to_apply=%s' % ('true' if unique else 'false',
                                                       self.reducer(dtype, combiner))
        self.feature('complex-scatter-%s-%s' % (combiner, 'unique' if unique else 'repeated'))
        self.add(Inst(self.name('scatter'), Shape(dtype, dims), 'scatter', [operand, ip, upd],
                      attrs))
        self.case.fusion_kind = 'kInput'

    def k_complex_rotary(self, dtype):
        """The rotary embedding of issue 52 item 5: exp(i * theta) as
        complex(cos, sin), times the input, a gather of rows, a select
        with a (nan, nan) constant."""
        rs, ro = self.rs, self.ro
        part = PART[dtype]
        seq = self.sdim(rs.choice([4, 16, 33, 64]))
        hd = self.sdim(rs.choice([2, 8, 16, 32]))
        dims = [seq, hd]
        theta = self.param(part, dims)
        if ro.random() < 0.5:
            c = self.add(Inst(self.name('cosine'), Shape(part, dims), 'cosine', [theta]))
            s = self.add(Inst(self.name('sine'), Shape(part, dims), 'sine', [theta]))
            rot = self.add(Inst(self.name('complex'), Shape(dtype, dims), 'complex', [c, s]))
        else:
            zero = self.broadcast_of(super().const_scalar(part, 0.0), part, dims)
            it = self.add(Inst(self.name('complex'), Shape(dtype, dims), 'complex', [zero, theta]))
            rot = self.add(Inst(self.name('exponential'), Shape(dtype, dims), 'exponential', [it]))
        x = self.param(dtype, dims)
        prodv = self.add(Inst(self.name('multiply'), Shape(dtype, dims), 'multiply', [x, rot]))
        n = self.sdim(rs.choice([1, 3, 8, 20]))
        itype = 's32'
        ip = self.param(itype, [n, 1])
        ip.index_values = [self.index_value(itype, seq - 1) for _ in range(n)]
        ip.param_kind = 'index'
        g = self.add(Inst(self.name('gather'), Shape(dtype, [n, hd]), 'gather', [prodv, ip],
                          'offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, '
                          'index_vector_dim=1, slice_sizes={1,%d}' % hd))
        nan = self.broadcast_of(self.const_scalar(dtype, (math.nan, math.nan)), dtype, [n, hd])
        mask = self.param('pred', [n, hd])
        sel = self.add(Inst(self.name('select'), Shape(dtype, [n, hd]), 'select', [mask, g, nan]))
        if ro.random() < 0.4:
            re = self.add(Inst(self.name('real'), Shape(part, [n, hd]), 'real', [sel]))
            im = self.add(Inst(self.name('imag'), Shape(part, [n, hd]), 'imag', [sel]))
            self.add(Inst(self.name('tuple'), TupleShape([re.shape, im.shape, sel.shape]), 'tuple',
                          [re, im, sel]))
        self.case.fusion_kind = 'kLoop'
