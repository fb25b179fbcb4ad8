# kinds_loop.py - fusion kinds loop, transpose, concat and dus.
#
# Owns: the k_* methods that build a whole fused computation of the loop
# kind (an op graph, maybe multi-output), the transpose kind (tiled
# permutations, packed 8/16-bit ones, epilogues, side outputs, two
# heroes), the concatenate kind and the in-place dynamic-update-slice kind
# (bitcast roots, multi-output, copy / alias entries).
#
# Standard library only.
from .dtypes import FLOATS, INTS, TYPES, prod
from .ir import Inst, Shape, TupleShape


class LoopKinds:
    """Mixin of GeneratorBase."""

    def k_loop(self):
        dtype = self.pick_type()
        dims = self.pick_dims(self.out_rank())
        depth = self.ro.randint(2, 6)
        roots = [self.gen(dtype, dims, depth)]
        if self.rk.random() < 0.25:
            roots.append(self.gen(self.pick_type(), dims, depth))
            self.feature('multi-output')
        if len(roots) == 1:
            if roots[0].op in ('parameter', 'constant'):
                roots[0] = self.add(Inst(self.name('copy'), roots[0].shape, 'copy', [roots[0]]))
            self.root_layout(roots[0])
        else:
            roots = [self.add(Inst(self.name('copy'), r.shape, 'copy', [r]))
                     if r.op in ('parameter', 'constant') else r for r in roots]
            self.add(Inst(self.name('tuple'), TupleShape([r.shape for r in roots]), 'tuple', roots))
        self.case.fusion_kind = 'kLoop'
        self.finish_style()

    def k_transpose(self):
        rs, ro = self.rs, self.ro
        dtype = self.pick_type(TYPES + ['bf16', 'f16', 's8', 'u8', 's16'] * 2)
        variant = self.rk.choice(['10', '021', '102', '210', '0312', 'packed', 'random'])
        big = lambda: self.sdim(rs.choice([32, 33, 47, 64, 65, 100, 128, 200]))
        small = lambda: self.sdim(rs.choice([1, 2, 3, 4, 8, 16]))
        if variant == '10':
            dims, perm = [big(), big()], [1, 0]
        elif variant == '021':
            dims, perm = [small(), big(), big()], [0, 2, 1]
        elif variant == '102':
            dims, perm = [big(), big(), small()], [1, 0, 2]
        elif variant == '210':
            dims, perm = [big(), small(), big()], [2, 1, 0]
        elif variant == '0312':
            dims, perm = [small(), big(), small(), big()], [0, 3, 1, 2]
        elif variant == 'packed':
            dtype = self.rk.choice(['bf16', 'f16', 's8', 'u8', 's16', 'u16', 'pred'])
            dims = [self.sdim(rs.choice([1, 2, 4])), self.sdim(rs.choice([4, 8, 16, 32])),
                    self.sdim(rs.choice([8, 16, 30])), self.sdim(rs.choice([64, 128, 100]))]
            perm = rs.choice([[0, 3, 1, 2], [0, 2, 3, 1], [3, 1, 2, 0], [1, 0, 3, 2]])
        else:
            rank = rs.randint(2, 4)
            dims = self.pick_dims(rank)
            perm = list(range(rank))
            rs.shuffle(perm)
        self.feature('transpose-' + variant)
        while prod(dims) > self.max_elems:
            i = max(range(len(dims)), key=lambda k: dims[k])
            dims[i] = max(1, dims[i] // 2)
        out_dims = [dims[p] for p in perm]
        x = self.gen(dtype, dims, ro.randint(0, 3))
        t = self.add(Inst(self.name('transpose'), Shape(dtype, out_dims), 'transpose', [x],
                          'dimensions={%s}' % ','.join(map(str, perm))))
        outs = [t]
        r = self.rk.random()
        if r < 0.3:
            y = self.gen(dtype, out_dims, 1) if self.budget > 0 else self.param(dtype, out_dims)
            op = 'add' if dtype not in ('pred',) else 'and'
            outs = [self.add(Inst(self.name(op), Shape(dtype, out_dims), op, [t, y]))]
            self.feature('transpose-epilogue')
        elif r < 0.5 and x.op != 'parameter':
            outs.append(x)
            self.feature('side-output')
        elif r < 0.6:
            t2 = self.add(Inst(self.name('transpose'), Shape(dtype, out_dims), 'transpose',
                               [self.param(dtype, dims)], 'dimensions={%s}' % ','.join(map(str, perm))))
            outs.append(t2)
            self.feature('two-heroes')
        if len(outs) > 1:
            self.add(Inst(self.name('tuple'), TupleShape([o.shape for o in outs]), 'tuple', outs))
        self.case.fusion_kind = 'kInput'
        self.finish_style()

    def k_concat(self):
        rs, ro = self.rs, self.ro
        dtype = self.pick_type()
        dims = self.pick_dims(rs.randint(1, 3), 1 << 14)
        axis = rs.randrange(len(dims))
        n = rs.randint(2, 5)
        operands = []
        for _ in range(n):
            d = list(dims)
            d[axis] = self.sdim(rs.choice([1, 1, 2, 3, 7, 16, 33, 64, 100]))
            operands.append(self.gen(dtype, d, ro.randint(0, 2)))
        out = list(dims)
        out[axis] = sum(o.shape.dims[axis] for o in operands)
        c = self.add(Inst(self.name('concatenate'), Shape(dtype, out), 'concatenate', operands,
                          'dimensions={%d}' % axis))
        if self.rk.random() < 0.3:
            if dtype in FLOATS:
                op = 'exponential'
            elif dtype in INTS:
                op = 'negate'
            else:
                op = 'not'
            self.add(Inst(self.name(op), Shape(dtype, out), op, [c]))
            self.feature('concat-epilogue')
        elif self.rk.random() < 0.2:
            t = self.rk.choice(TYPES)
            self.add(Inst(self.name('convert'), Shape(t, out), 'convert', [c]))
            self.feature('concat-epilogue')
        self.case.fusion_kind = 'kLoop'
        self.finish_style()

    def k_dus(self):
        rs, ro = self.rs, self.ro
        dtype = self.pick_type()
        dims = self.pick_dims(rs.randint(1, 4))
        base = self.param(dtype, dims)
        udims = [max(1, rs.randint(1, d)) for d in dims]
        if rs.random() < 0.3:
            udims = [1] * len(dims)
            udims[-1] = dims[-1]
        u = self.gen(dtype, udims, ro.randint(0, 3))
        itype = self.index_type()
        idx = [self.index_scalar(itype, d - ud) for d, ud in zip(dims, udims)]
        dus = self.add(Inst(self.name('dynamic_update_slice'), Shape(dtype, dims),
                            'dynamic-update-slice', [base, u] + idx))
        r = self.rk.random()
        if r < 0.2:
            bdims = self.factorize(prod(dims), rs.randint(1, 3))
            self.add(Inst(self.name('bitcast'), Shape(dtype, bdims), 'bitcast', [dus]))
            self.feature('dus-bitcast-root')
        elif r < 0.35:
            base2 = self.param(dtype, dims)
            u2 = self.gen(dtype, udims, 1)
            dus2 = self.add(Inst(self.name('dynamic_update_slice'), Shape(dtype, dims),
                                 'dynamic-update-slice', [base2, u2] + idx))
            self.add(Inst(self.name('tuple'), TupleShape([dus.shape, dus2.shape]), 'tuple', [dus, dus2]))
            self.feature('multi-output')
        self.case.fusion_kind = 'kLoop'
        self.finish_style(('fusion', 'bare', 'copy', 'alias'))
        if self.case.style == 'alias' and isinstance(self.case.root().shape, TupleShape):
            self.case.style = 'copy'
        self.feature('style-' + self.case.style)
