# base.py - GeneratorBase, the shared state and helpers of the generator.
#
# Owns: the generator's four independent random streams (kind / shape /
# ops / values, so the reducer's smaller knobs keep the other choices),
# the op budget and shape scale, instruction naming, dimension and layout
# picking, parameters, scalar constants and broadcasts, factorize, the
# index helpers (start index values, including out-of-range ones), the
# called computations (reducers and their identities) and the entry's
# style. The mixins of elementwise.py, movement.py and kinds_*.py build on
# it; generator.py puts them together.
#
# Standard library only.
import math
import random

from .dtypes import BITS, INTS, KIND_WEIGHTS, FLOATS, SIGNED, TYPES, UNSIGNED, \
    format_float, int_range, prod
from .ir import Case, Inst, Shape


class GeneratorBase:
    """The generator's state and the helpers its mixins share."""

    def __init__(self, seed, kind=None, ops=None, scale=1.0):
        self.seed = seed
        self.rk = random.Random('kind-%d' % seed)     # kind, types, style
        self.rs = random.Random('shape-%d' % seed)    # shapes
        self.ro = random.Random('ops-%d' % seed)      # the op graph
        self.rv = random.Random('values-%d' % seed)   # constants, index values
        kinds = list(KIND_WEIGHTS)
        picked = self.rk.choices(kinds, [KIND_WEIGHTS[k] for k in kinds])[0]
        self.kind = kind or picked
        self.budget = ops if ops is not None else self.rk.randint(1, 12)
        self.scale = scale
        self.case = Case(seed, self.kind, {'ops': self.budget, 'scale': scale})
        self.count = 0
        self.max_elems = 1 << 16
        self.no_special = False

    # -- helpers ----------------------------------------------------------
    def name(self, base):
        self.count += 1
        return '%s.%d' % (base, self.count)

    def add(self, inst):
        self.case.insts.append(inst)
        return inst

    def feature(self, f):
        if f not in self.case.features:
            self.case.features.append(f)

    def sdim(self, d):
        """A dimension scaled by the reducer's knob."""
        if self.scale >= 1.0:
            return d
        return max(1, int(round(d * self.scale)))

    def pick_dims(self, rank, max_elems=None):
        max_elems = max_elems or self.max_elems
        rs = self.rs
        dims = []
        for _ in range(rank):
            r = rs.random()
            if r < 0.15:
                d = 1
            elif r < 0.45:
                d = rs.randint(2, 9)
            elif r < 0.75:
                d = rs.choice([16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129])
            else:
                d = rs.randint(10, 300)
            dims.append(self.sdim(d))
        while prod(dims) > max_elems:
            i = max(range(rank), key=lambda k: dims[k])
            dims[i] = max(1, dims[i] // 2)
        return dims

    def pick_layout(self, rank, prob=0.3):
        if rank < 2 or self.rs.random() >= prob:
            return None
        layout = list(range(rank))
        self.rs.shuffle(layout)
        return layout

    def param(self, dtype, dims, layout=None, exact=True):
        inst = Inst(self.name('param'), Shape(dtype, dims, layout), 'parameter', exact=exact)
        if inst.shape.layout is not None:
            self.feature('layout')
        return self.add(inst)

    def const_scalar(self, dtype, value=None):
        rv = self.rv
        if value is None:
            if dtype == 'pred':
                value = rv.choice([True, False])
            elif dtype in INTS:
                lo, hi = int_range(dtype)
                r = rv.random()
                value = rv.choice([lo, hi, 0, 1, -1 if lo < 0 else 2]) if r < 0.3 else \
                    rv.randint(max(lo, -100), min(hi, 100))
            else:
                r = rv.random()
                if r < 0.08 and not self.no_special:
                    value = rv.choice([math.inf, -math.inf, math.nan, -0.0])
                else:
                    value = rv.choice([0.5, -1.5, 2.0, 0.25, 3.0, -0.75, 1.0, 0.0, 10.0, 1e-3])
        inst = Inst(self.name('constant'), Shape(dtype, []), 'constant', exact=True)
        if dtype == 'pred':
            inst.literal = 'true' if value else 'false'
        elif dtype in INTS:
            inst.literal = str(int(value))
        else:
            inst.literal = format_float(dtype, value)
        return self.add(inst)

    def broadcast_of(self, scalar, dtype, dims):
        if not dims:
            return scalar
        return self.add(Inst(self.name('broadcast'), Shape(dtype, dims), 'broadcast', [scalar],
                             'dimensions={}', exact=scalar.exact))

    def factorize(self, n, rank):
        ro = self.ro
        dims = [1] * rank
        factors = []
        m = n
        f = 2
        while m > 1 and f * f <= m:
            while m % f == 0:
                factors.append(f)
                m //= f
            f += 1
        if m > 1:
            factors.append(m)
        for f in factors:
            dims[ro.randrange(rank)] *= f
        return dims

    # -- indices ----------------------------------------------------------
    def index_type(self):
        return self.rk.choice(INTS)

    def index_value(self, itype, limit):
        """A start index for a dimension whose valid starts are [0, limit]."""
        rv = self.rv
        lo, hi = int_range(itype)
        r = rv.random()
        if r < 0.45:
            v = rv.randint(0, max(0, limit))
        elif r < 0.55:
            v = limit
        elif r < 0.65:
            v = limit + rv.randint(1, 5)
        elif r < 0.75:
            v = rv.choice([-1, -3, -100])
        elif r < 0.85:
            v = rv.choice([lo, hi])
        elif r < 0.95 and itype in UNSIGNED:
            v = rv.randint(1 << (BITS[itype] - 1), hi)   # >= 128 for u8
        else:
            v = rv.randint(lo if lo > -1000 else -1000, min(hi, 1000))
        return max(lo, min(hi, v))

    def index_scalar(self, itype, limit):
        if self.ro.random() < 0.2:
            return self.const_scalar(itype, self.index_value(itype, limit))
        p = self.param(itype, [])
        p.index_values = [self.index_value(itype, limit)]
        p.param_kind = 'index'
        self.feature('index-%s' % itype)
        return p

    # -- called computations ------------------------------------------------
    def reducer(self, dtype, op):
        name = '%s_%s' % (op, dtype)
        for n, _ in self.case.subcomputations:
            if n == name:
                return name
        text = ('%s {\n  lhs = %s[] parameter(0)\n  rhs = %s[] parameter(1)\n'
                '  ROOT %s = %s[] %s(lhs, rhs)\n}') % (name, dtype, dtype, op.replace('-', '_'),
                                                        dtype, op)
        if op == 'assign':
            text = ('%s {\n  lhs = %s[] parameter(0)\n  ROOT rhs = %s[] parameter(1)\n}' %
                    (name, dtype, dtype))
        self.case.subcomputations.append((name, text))
        return name

    def reducer_ops(self, dtype):
        if dtype == 'pred':
            return ['and', 'or', 'maximum', 'minimum']
        if dtype in FLOATS:
            return ['add', 'add', 'maximum', 'minimum', 'multiply']
        return ['add', 'add', 'maximum', 'minimum', 'multiply', 'and', 'or', 'xor']

    def identity(self, dtype, op):
        lo, hi = int_range(dtype) if dtype not in FLOATS else (-math.inf, math.inf)
        if op in ('add', 'or', 'xor'):
            return 0 if dtype not in FLOATS else 0.0
        if op == 'multiply':
            return 1
        if op == 'and':
            return -1 if dtype in SIGNED else hi
        if op == 'maximum':
            return lo
        if op == 'minimum':
            return hi
        raise ValueError(op)

    # -- shared by the fusion kinds -------------------------------------------
    def pick_type(self, pool=None):
        return self.rk.choice(pool or TYPES)

    def out_rank(self):
        return self.rs.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])

    def finish_style(self, allowed=('fusion', 'bare')):
        c = self.case
        c.style = self.rk.choice(list(allowed))
        c.with_layout = self.rk.random() < 0.6
        c.percent = self.rk.random() < 0.3
        c.fused_name = self.rk.choice(['fused_computation', 'fusion', 'fused_%s' % self.kind])

    def root_layout(self, root):
        if isinstance(root.shape, Shape) and self.rs.random() < 0.2:
            layout = self.pick_layout(len(root.shape.dims), 1.0)
            if layout is not None:
                root.shape = Shape(root.shape.dtype, root.shape.dims, layout)
                self.feature('root-layout')
