# kinds_scatter_sort.py - fusion kinds scatter and sort.
#
# Owns: the k_* methods of scatter (combiners, unique / sorted / implicit
# index vectors, disjoint windows for unique indices and assign,
# out-of-bounds windows) and of sort (keys with values, iota payloads,
# plain / TOTALORDER / XLA's bitcast total-order comparators, stability).
#
# Standard library only.
from .dtypes import BITS, FLOATS, UNSIGNED, int_range, prod
from .ir import Inst, Shape, TupleShape


class ScatterSortKinds:
    """Mixin of GeneratorBase."""

    def k_scatter(self):
        rs, ro, rv = self.rs, self.ro, self.rv
        dtype = self.pick_type()
        rank = rs.randint(1, 3)
        dims = self.pick_dims(rank, 1 << 14)
        n = self.sdim(rs.choice([1, 2, 5, 16, 33, 100, 300]))
        combiner = self.rk.choice(['add', 'add', 'maximum', 'minimum', 'assign', 'multiply'])
        if dtype == 'pred':
            combiner = self.rk.choice(['or', 'and', 'assign'])
        if dtype in ('f16', 'bf16') and combiner == 'multiply':
            combiner = 'add'
        unique = self.rk.random() < 0.4
        k = rs.randint(1, rank)
        mapped = rs.sample(range(rank), k)
        # Unique indices (and the assign combiner, whose order is not
        # defined): every indexed dim is inserted (window 1), so distinct
        # index tuples are disjoint windows.
        disjoint = unique or combiner == 'assign'
        inserted = sorted(mapped) if disjoint else sorted(d for d in mapped if rs.random() < 0.5)
        window = []
        for d in range(rank):
            if d in inserted:
                continue
            window.append(dims[d] if d not in mapped else rs.randint(1, dims[d]))
        if disjoint and any(d in mapped for d in range(rank) if d not in inserted):
            raise AssertionError
        operand = self.param(dtype, dims, self.pick_layout(rank, 0.2)) if ro.random() < 0.8 \
            else self.gen(dtype, dims, 1)
        itype = self.index_type()
        implicit = k == 1 and rs.random() < 0.3
        idims = [n] if implicit else [n, k]
        ip = self.param(itype, idims)
        lo, hi = int_range(itype)
        sorted_ok = k == 1 and rs.random() < 0.3 and not unique
        tuples = []
        if disjoint:
            space = prod(dims[d] for d in mapped)
            n = min(n, space)
            idims = [n] if implicit else [n, k]
            ip.shape = Shape(itype, idims)
            flat = rv.sample(range(space), n)
            for f in flat:
                t = []
                for d in reversed(mapped):
                    t.append(f % dims[d])
                    f //= dims[d]
                t.reverse()
                tuples.append(t)
            # some out-of-bounds (skipped) windows, still distinct
            for t in tuples:
                if rv.random() < 0.1:
                    j = rv.randrange(k)
                    d = mapped[j]
                    t[j] = max(lo, min(hi, rv.choice([dims[d] + 5 + rv.randrange(50),
                                                      -1 - rv.randrange(50), hi])))
            seen = set()
            tuples = [t for t in tuples if tuple(t) not in seen and not seen.add(tuple(t))]
            n = len(tuples)
            idims = [n] if implicit else [n, k]
            ip.shape = Shape(itype, idims)
        else:
            wsize = {}
            wi = iter(window)
            for d in range(rank):
                if d not in inserted:
                    wsize[d] = next(wi)
                else:
                    wsize[d] = 1
            for _ in range(n):
                tuples.append([self.index_value(itype, dims[d] - wsize[d]) if rv.random() < 0.3
                               else rv.randint(0, max(0, dims[d] - wsize[d])) for d in mapped])
            if sorted_ok:
                tuples.sort(key=lambda t: (t[0] & ((1 << BITS[itype]) - 1)) if itype in UNSIGNED else t[0])
        ip.index_values = [v for t in tuples for v in t]
        ip.param_kind = 'index'
        self.feature('index-%s' % itype)
        udims = [n] + window
        if prod(udims) > self.max_elems:
            # shrink by using fewer indices
            n = max(1, self.max_elems // max(1, prod(window)))
            tuples = tuples[:n]
            ip.index_values = [v for t in tuples for v in t]
            idims = [n] if implicit else [n, k]
            ip.shape = Shape(itype, idims)
            udims = [n] + window
        upd = self.gen(dtype, udims, ro.randint(0, 2))
        name = self.reducer(dtype, combiner)
        attrs = ('update_window_dims={%s}, inserted_window_dims={%s}, '
                 'scatter_dims_to_operand_dims={%s}, index_vector_dim=%d') % (
            ','.join(str(i) for i in range(1, len(udims))), ','.join(map(str, inserted)),
            ','.join(map(str, mapped)), 1 if not implicit else 1)
        if sorted_ok:
            attrs += ', indices_are_sorted=true'
            self.feature('scatter-sorted')
        attrs += ', unique_indices=%s, to_apply=%s' % ('true' if unique else 'false', name)
        self.feature('scatter-%s' % combiner)
        self.feature('scatter-unique' if unique else 'scatter-nonunique')
        self.add(Inst(self.name('scatter'), Shape(dtype, dims), 'scatter', [operand, ip, upd], attrs))
        self.case.fusion_kind = 'kInput'
        self.finish_style(('fusion', 'bare', 'copy'))

    def k_sort(self):
        rs, ro = self.rs, self.ro
        ktype = self.pick_type()
        rank = rs.randint(1, 3)
        dims = self.pick_dims(rank, 1 << 13)
        axis = rank - 1 if rs.random() < 0.6 else rs.randrange(rank)
        dims[axis] = self.sdim(rs.choice([1, 2, 3, 17, 64, 100, 256, 1000, 4097, 5000]))
        while prod(dims) > (1 << 14):
            i = max((d for d in range(rank) if d != axis), key=lambda d: dims[d], default=axis)
            if dims[i] == 1:
                i = axis
            dims[i] = max(1, dims[i] // 2)
        self.no_special = True
        key = self.gen(ktype, dims, ro.randint(0, 2), True)
        if key.op in ('constant',):
            key = self.param(ktype, dims)
        operands = [key]
        nvals = self.rk.choice([0, 0, 1, 1, 2])
        for _ in range(nvals):
            if self.rk.random() < 0.6:
                vt = self.rk.choice(['s32', 'u32', 's64', 's16'])
                operands.append(self.add(Inst(self.name('iota'), Shape(vt, dims), 'iota', [],
                                              'iota_dimension=%d' % axis)))
            else:
                vt = self.pick_type()
                operands.append(self.param(vt, dims))
        direction = self.rk.choice(['LT', 'GT'])
        style = self.rk.choice(['plain', 'totalorder', 'xla-totalorder']) if ktype in FLOATS else 'plain'
        if style == 'xla-totalorder' and ktype == 'bf16':
            style = 'totalorder'
        name = 'compare_%d' % self.seed
        params = []
        for i, o in enumerate(operands):
            params.append('  p.%d.lhs = %s[] parameter(%d)' % (i, o.shape.dtype, 2 * i))
            params.append('  p.%d.rhs = %s[] parameter(%d)' % (i, o.shape.dtype, 2 * i + 1))
        if style == 'plain':
            body = '  ROOT cmp = pred[] compare(p.0.lhs, p.0.rhs), direction=%s' % direction
        elif style == 'totalorder':
            body = '  ROOT cmp = pred[] compare(p.0.lhs, p.0.rhs), direction=%s, type=TOTALORDER' % direction
        else:
            it = {16: 's16', 32: 's32', 64: 's64'}[BITS[ktype]]
            mx = (1 << (BITS[ktype] - 1)) - 1
            body = ('  bl = %s[] bitcast-convert(p.0.lhs)\n  br = %s[] bitcast-convert(p.0.rhs)\n'
                    '  mx = %s[] constant(%d)\n  zero = %s[] constant(0)\n'
                    '  xl = %s[] xor(mx, bl)\n  xr = %s[] xor(mx, br)\n'
                    '  nl = pred[] compare(bl, zero), direction=LT\n'
                    '  nr = pred[] compare(br, zero), direction=LT\n'
                    '  kl = %s[] select(nl, xl, bl)\n  kr = %s[] select(nr, xr, br)\n'
                    '  ROOT cmp = pred[] compare(kl, kr), direction=%s') % (
                it, it, it, mx, it, it, it, it, it, direction)
        self.case.subcomputations.append((name, '%s {\n%s\n%s\n}' % (name, '\n'.join(params), body)))
        self.feature('sort-%s' % style)
        self.feature('sort-%d-operands' % len(operands))
        stable = len(operands) > 1 or self.rk.random() < 0.5
        shape = TupleShape([o.shape for o in operands]) if len(operands) > 1 else \
            Shape(ktype, dims)
        attrs = 'dimensions={%d}, is_stable=%s, to_apply=%s' % (axis, 'true' if stable else 'false', name)
        s = self.add(Inst(self.name('sort'), shape, 'sort', operands, attrs))
        self.case.fusion_kind = 'kInput'
        self.finish_style()
