# movement.py - the data-movement ops of the generator's value graph.
#
# Owns: the g_* methods that gen() dispatches to for ops that move data
# rather than compute it: broadcast, reshape, bitcast, transpose, slice,
# pad, concatenate, reverse, dynamic-slice, dynamic-update-slice and
# gather (with their index inputs).
#
# Standard library only.
from .dtypes import prod
from .ir import Inst, Shape


class MovementOps:
    """Mixin of GeneratorBase."""

    def g_broadcast(self, dtype, dims, depth, exact):
        ro = self.ro
        kept = [d for d in range(len(dims)) if ro.random() < 0.5]
        x = self.gen(dtype, [dims[d] for d in kept], depth, exact)
        self.feature('broadcast')
        return self.add(Inst(self.name('broadcast'), Shape(dtype, dims), 'broadcast', [x],
                             'dimensions={%s}' % ','.join(map(str, kept)), exact=x.exact))

    def g_reshape(self, dtype, dims, depth, exact, op='reshape'):
        ro = self.ro
        rank = ro.randint(1, 4)
        sdims = self.factorize(prod(dims), rank)
        layout = None
        if op == 'bitcast':
            layout = self.pick_layout(rank, 0.4)
        x = self.gen(dtype, sdims, depth, exact)
        if op == 'bitcast' and x.op != 'parameter':
            # Only a parameter's layout is free; others are default.
            layout = None
        if layout is not None and x.op == 'parameter':
            x.shape = Shape(dtype, sdims, layout)
        self.feature(op)
        return self.add(Inst(self.name(op), Shape(dtype, dims), op, [x], exact=x.exact))

    def g_bitcast(self, dtype, dims, depth, exact):
        return self.g_reshape(dtype, dims, depth, exact, 'bitcast')

    def g_transpose(self, dtype, dims, depth, exact):
        ro = self.ro
        perm = list(range(len(dims)))
        ro.shuffle(perm)
        sdims = [0] * len(dims)
        for i, p in enumerate(perm):
            sdims[p] = dims[i]
        x = self.gen(dtype, sdims, depth, exact)
        self.feature('transpose')
        return self.add(Inst(self.name('transpose'), Shape(dtype, dims), 'transpose', [x],
                             'dimensions={%s}' % ','.join(map(str, perm)), exact=x.exact))

    def g_slice(self, dtype, dims, depth, exact):
        ro = self.ro
        sdims, parts = [], []
        for d in dims:
            stride = ro.choice([1, 1, 1, 2, 3])
            start = ro.choice([0, 0, 1, 2, 5])
            limit = start + (d - 1) * stride + 1
            extra = ro.choice([0, 0, 1, 3])
            sdims.append(limit + extra)
            parts.append('[%d:%d%s]' % (start, limit, ':%d' % stride if stride != 1 else ''))
        if prod(sdims) > self.max_elems * 2:
            return self.gen(dtype, dims, depth, exact)
        x = self.gen(dtype, sdims, depth, exact)
        self.feature('slice')
        return self.add(Inst(self.name('slice'), Shape(dtype, dims), 'slice', [x],
                             'slice={%s}' % ', '.join(parts), exact=x.exact))

    def g_pad(self, dtype, dims, depth, exact):
        ro = self.ro
        sdims, parts = [], []
        for d in dims:
            for _ in range(10):
                interior = ro.choice([0, 0, 0, 1, 2])
                op = ro.randint(1, max(1, d))
                low = ro.choice([0, 0, 1, 2, -1])
                high = d - low - op - (op - 1) * interior
                if op + (op - 1) * interior + low >= 0 and high >= -op and \
                        op + (op - 1) * interior + low + high == d:
                    break
            else:
                interior, op, low, high = 0, d, 0, 0
            sdims.append(op)
            parts.append('%d_%d_%d' % (low, high, interior) if interior else '%d_%d' % (low, high))
        x = self.gen(dtype, sdims, depth, exact)
        v = self.const_scalar(dtype) if ro.random() < 0.7 else self.param(dtype, [])
        self.feature('pad')
        return self.add(Inst(self.name('pad'), Shape(dtype, dims), 'pad', [x, v],
                             'padding=%s' % 'x'.join(parts), exact=x.exact and v.exact))

    def g_concatenate(self, dtype, dims, depth, exact):
        ro = self.ro
        axis = ro.randrange(len(dims))
        total = dims[axis]
        n = min(total, ro.randint(1, 4))
        cuts = sorted(ro.sample(range(1, total), n - 1)) if n > 1 else []
        sizes = [b - a for a, b in zip([0] + cuts, cuts + [total])]
        operands = []
        for s in sizes:
            sd = list(dims)
            sd[axis] = s
            operands.append(self.gen(dtype, sd, depth - 1, exact))
        self.feature('concatenate')
        return self.add(Inst(self.name('concatenate'), Shape(dtype, dims), 'concatenate', operands,
                             'dimensions={%d}' % axis, exact=all(o.exact for o in operands)))

    def g_reverse(self, dtype, dims, depth, exact):
        ro = self.ro
        rev = [d for d in range(len(dims)) if ro.random() < 0.6] or [0]
        x = self.gen(dtype, dims, depth, exact)
        self.feature('reverse')
        return self.add(Inst(self.name('reverse'), Shape(dtype, dims), 'reverse', [x],
                             'dimensions={%s}' % ','.join(map(str, rev)), exact=x.exact))

    def g_dynamic_slice(self, dtype, dims, depth, exact):
        ro = self.ro
        sdims = [d + ro.choice([0, 0, 1, 3, 7]) for d in dims]
        if prod(sdims) > self.max_elems * 2:
            sdims = list(dims)
        x = self.gen(dtype, sdims, depth, exact)
        itype = self.index_type()
        idx = [self.index_scalar(itype, s - d) for s, d in zip(sdims, dims)]
        self.feature('dynamic-slice')
        return self.add(Inst(self.name('dynamic_slice'), Shape(dtype, dims), 'dynamic-slice',
                             [x] + idx, 'dynamic_slice_sizes={%s}' % ','.join(map(str, dims)),
                             exact=x.exact))

    def g_dynamic_update_slice(self, dtype, dims, depth, exact):
        ro = self.ro
        udims = [max(1, ro.randint(1, d)) for d in dims]
        x = self.gen(dtype, dims, depth, exact)
        u = self.gen(dtype, udims, depth, exact)
        itype = self.index_type()
        idx = [self.index_scalar(itype, d - ud) for d, ud in zip(dims, udims)]
        self.feature('dynamic-update-slice')
        return self.add(Inst(self.name('dynamic_update_slice'), Shape(dtype, dims),
                             'dynamic-update-slice', [x, u] + idx, exact=x.exact and u.exact))

    def g_gather(self, dtype, dims, depth, exact):
        """out = [N, s1..sk]: batch dim 0, offset dims 1..k."""
        ro = self.ro
        n = dims[0]
        slice_sizes_kept = dims[1:]
        collapsed = ro.randint(0, 2)
        rank = len(slice_sizes_kept) + collapsed
        if rank == 0:
            collapsed, rank = 1, 1
        # operand dims: positions of collapsed dims are random
        positions = list(range(rank))
        ro.shuffle(positions)
        collapsed_dims = sorted(positions[:collapsed])
        operand_dims, slice_sizes = [], []
        kept_iter = iter(slice_sizes_kept)
        for d in range(rank):
            if d in collapsed_dims:
                operand_dims.append(ro.choice([1, 3, 8, 20]))
                slice_sizes.append(1)
            else:
                s = next(kept_iter)
                operand_dims.append(s + ro.choice([0, 1, 4, 9]))
                slice_sizes.append(s)
        if prod(operand_dims) > self.max_elems * 2:
            return self.gen(dtype, dims, depth, exact)
        mapped = collapsed_dims + [d for d in range(rank) if d not in collapsed_dims
                                   and ro.random() < 0.5]
        ro.shuffle(mapped)
        x = self.gen(dtype, operand_dims, depth, exact)
        itype = self.index_type()
        m = len(mapped)
        ip = self.param(itype, [n, m])
        values = []
        for _ in range(n):
            for d in mapped:
                values.append(self.index_value(itype, operand_dims[d] - slice_sizes[d]))
        ip.index_values = values
        ip.param_kind = 'index'
        self.feature('gather')
        self.feature('index-%s' % itype)
        attrs = ('offset_dims={%s}, collapsed_slice_dims={%s}, start_index_map={%s}, '
                 'index_vector_dim=1, slice_sizes={%s}') % (
            ','.join(str(i) for i in range(1, len(dims))), ','.join(map(str, collapsed_dims)),
            ','.join(map(str, mapped)), ','.join(map(str, slice_sizes)))
        if ro.random() < 0.2:
            attrs += ', indices_are_sorted=false'
        return self.add(Inst(self.name('gather'), Shape(dtype, dims), 'gather', [x, ip], attrs,
                             exact=x.exact))
