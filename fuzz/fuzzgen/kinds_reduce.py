# kinds_reduce.py - fusion kinds reduce and norm.
#
# Owns: the k_* methods of the reductions (row, column, multi-row, small
# column, full, middle, random dims, variadic argmax / argmin, partial
# warp; epilogues, multi-output and side outputs) and of normalization
# (softmax, log-softmax, layer norm as a Triton custom fusion with its
# block-level backend config).
#
# Standard library only.
import math

from .dtypes import FLOATS, INTS, int_range, next_pow2, prod
from .ir import Inst, Shape, TupleShape


class ReduceKinds:
    """Mixin of GeneratorBase."""

    def k_reduce(self):
        rs, ro = self.rs, self.ro
        dtype = self.pick_type()
        variant = self.rk.choice(['row', 'row', 'column', 'multirow', 'small-column', 'full',
                                  'middle', 'random', 'argmax', 'partial-warp'])
        self.feature('reduce-' + variant)
        if variant in ('row', 'argmax'):
            dims = [self.sdim(rs.choice([1, 3, 8, 17, 64])), self.sdim(rs.choice([9, 32, 100, 513, 1024, 2000]))]
            rdims = [1]
            if rs.random() < 0.3:
                dims = [self.sdim(rs.choice([2, 5]))] + dims
                rdims = [2] if rs.random() < 0.5 else [1, 2]
        elif variant == 'partial-warp':
            dims = [self.sdim(9), self.sdim(8)]
            rdims = [1]
        elif variant == 'multirow':
            dims = [self.sdim(rs.choice([64, 100, 256, 1000])), self.sdim(rs.choice([2, 4, 6, 8, 16]))]
            rdims = [1]
        elif variant == 'column':
            dims = [self.sdim(rs.choice([33, 64, 100, 300])), self.sdim(rs.choice([32, 64, 65, 100, 200]))]
            rdims = [0]
            if rs.random() < 0.3:
                dims = [self.sdim(rs.choice([2, 3]))] + dims
                rdims = [1]
        elif variant == 'small-column':
            dims = [self.sdim(rs.choice([100, 1000, 4000])), self.sdim(rs.choice([1, 2, 3, 8, 16, 32]))]
            rdims = [0]
        elif variant == 'full':
            dims = self.pick_dims(rs.randint(1, 3))
            rdims = list(range(len(dims)))
        elif variant == 'middle':
            dims = [self.sdim(rs.choice([2, 5, 8])), self.sdim(rs.choice([16, 33, 100])),
                    self.sdim(rs.choice([3, 32, 40]))]
            rdims = [1]
        else:
            dims = self.pick_dims(rs.randint(1, 4))
            rdims = sorted(rs.sample(range(len(dims)), rs.randint(1, len(dims))))
        while prod(dims) > self.max_elems:
            i = max(range(len(dims)), key=lambda k: dims[k])
            dims[i] = max(1, dims[i] // 2)
        out_dims = [d for i, d in enumerate(dims) if i not in rdims]
        layout = self.pick_layout(len(dims), 0.3)
        depth = ro.randint(0, 4)
        if variant == 'argmax':
            vtype = self.pick_type(FLOATS + INTS)
            self.no_special = True
            x = self.gen(vtype, dims, depth, True)
            if x.op == 'parameter' and layout is not None:
                x.shape = Shape(vtype, dims, layout)
            itype = self.rk.choice(['s32', 's64', 'u32'])
            axis = rdims[-1]
            iota = self.add(Inst(self.name('iota'), Shape(itype, dims), 'iota', [],
                                 'iota_dimension=%d' % axis))
            lo = int_range(vtype)[0] if vtype in INTS else -math.inf
            init_v = self.const_scalar(vtype, lo)
            init_i = self.const_scalar(itype, 0)
            cmp_dir = self.rk.choice(['GT', 'LT'])
            name = 'argmax_%s_%s' % (vtype, itype)
            if cmp_dir == 'LT':
                init_v.literal = str(int_range(vtype)[1]) if vtype in INTS else 'inf'
                name = 'argmin_%s_%s' % (vtype, itype)
            text = ('%s {\n  a_v = %s[] parameter(0)\n  a_i = %s[] parameter(1)\n'
                    '  b_v = %s[] parameter(2)\n  b_i = %s[] parameter(3)\n'
                    '  better = pred[] compare(a_v, b_v), direction=%s\n'
                    '  eq = pred[] compare(a_v, b_v), direction=EQ\n'
                    '  lower = pred[] compare(a_i, b_i), direction=LT\n'
                    '  tie = pred[] and(eq, lower)\n  pick = pred[] or(better, tie)\n'
                    '  v = %s[] select(pick, a_v, b_v)\n  i = %s[] select(pick, a_i, b_i)\n'
                    '  ROOT t = (%s[], %s[]) tuple(v, i)\n}') % (
                name, vtype, itype, vtype, itype, cmp_dir, vtype, itype, vtype, itype)
            self.case.subcomputations.append((name, text))
            shape = TupleShape([Shape(vtype, out_dims), Shape(itype, out_dims)])
            red = self.add(Inst(self.name('reduce'), shape, 'reduce', [x, iota, init_v, init_i],
                                'dimensions={%s}, to_apply=%s' % (','.join(map(str, rdims)), name)))
            self.feature('variadic-reduce')
            if self.rk.random() < 0.4:
                g0 = self.add(Inst(self.name('gte'), shape.elements[0], 'get-tuple-element', [red], 'index=0'))
                g1 = self.add(Inst(self.name('gte'), shape.elements[1], 'get-tuple-element', [red], 'index=1'))
                self.add(Inst(self.name('tuple'), TupleShape([g1.shape, g0.shape]), 'tuple', [g1, g0]))
        else:
            x = self.gen(dtype, dims, depth)
            if x.op == 'parameter' and layout is not None:
                x.shape = Shape(dtype, dims, layout)
                self.feature('layout')
            op = self.rk.choice(self.reducer_ops(dtype))
            reduced = prod(d for i, d in enumerate(dims) if i in rdims)
            if dtype in FLOATS and op == 'multiply' and (dtype in ('f16', 'bf16') or reduced > 32):
                # A long float product over- and underflows in an order
                # the kernel need not share (inf * 0 = nan): no finding.
                op = 'add'
            init = self.const_scalar(dtype, self.identity(dtype, op)) if ro.random() < 0.8 \
                else self.param(dtype, [])
            red = self.add(Inst(self.name('reduce'), Shape(dtype, out_dims), 'reduce', [x, init],
                                'dimensions={%s}, to_apply=%s' % (','.join(map(str, rdims)),
                                                                   self.reducer(dtype, op))))
            self.feature('reduce-%s' % op)
            outs = [red]
            r = self.rk.random()
            if r < 0.3:
                # epilogue
                y = red
                for _ in range(ro.randint(1, 2)):
                    if dtype in FLOATS:
                        op2 = ro.choice(['multiply', 'add', 'sqrt', 'negate', 'divide'])
                    elif dtype in INTS:
                        op2 = ro.choice(['multiply', 'add', 'negate', 'xor'])
                    else:
                        op2 = 'not'
                    if op2 == 'sqrt' and op == 'add':
                        # A sum of signed terms near 0 may change sign with
                        # the summation order (a bf16 sum of 64, seed
                        # 301458): sqrt of it is NaN or not, no finding.
                        op2 = 'negate'
                    if op2 in ('sqrt', 'negate', 'not'):
                        y = self.add(Inst(self.name(op2), Shape(dtype, out_dims), op2, [y]))
                    else:
                        other = self.param(dtype, out_dims) if ro.random() < 0.5 else \
                            self.broadcast_of(self.const_scalar(dtype, 2 if dtype in INTS else 0.5), dtype, out_dims)
                        y = self.add(Inst(self.name(op2), Shape(dtype, out_dims), op2, [y, other]))
                if self.rk.random() < 0.3:
                    t = self.rk.choice(FLOATS + INTS)
                    if dtype in FLOATS and t not in FLOATS:
                        # A float sum converted to an integer jumps at a
                        # one-ulp difference: XLA and the kernels keep a
                        # bf16/f16 sum in f32 (excess precision), the
                        # interpreter rounds every step (seed 100300).
                        t = 'f32'
                    y = self.add(Inst(self.name('convert'), Shape(t, out_dims), 'convert', [y]))
                outs = [y]
                self.feature('reduce-epilogue')
            elif r < 0.55:
                # multi-output: a second reduction of the same input, a side output
                op3 = self.rk.choice(self.reducer_ops(dtype))
                if dtype in FLOATS and op3 == 'multiply':
                    op3 = 'maximum'
                init3 = self.const_scalar(dtype, self.identity(dtype, op3))
                x3 = x
                if ro.random() < 0.5 and dtype in FLOATS:
                    x3 = self.add(Inst(self.name('multiply'), Shape(dtype, dims), 'multiply', [x, x]))
                red3 = self.add(Inst(self.name('reduce'), Shape(dtype, out_dims), 'reduce', [x3, init3],
                                     'dimensions={%s}, to_apply=%s' % (','.join(map(str, rdims)),
                                                                        self.reducer(dtype, op3))))
                outs.append(red3)
                if self.rk.random() < 0.5 and x.op != 'parameter':
                    outs.append(x)
                    self.feature('side-output')
                self.feature('multi-output')
            if len(outs) > 1:
                self.add(Inst(self.name('tuple'), TupleShape([o.shape for o in outs]), 'tuple', outs))
            elif outs[0] is not self.case.insts[-1]:
                self.case.insts.remove(outs[0])
                self.case.insts.append(outs[0])
        self.case.fusion_kind = 'kInput'
        self.finish_style()

    def k_norm(self):
        rs, ro = self.rs, self.ro
        dtype = self.rk.choice(['f32', 'f32', 'bf16', 'f16', 'f64'])
        rows = self.sdim(rs.choice([1, 3, 8, 16, 33, 128]))
        cols = self.sdim(rs.choice([1, 8, 17, 32, 100, 128, 256, 1000]))
        dims = [rows, cols]
        if rs.random() < 0.3:
            dims = [self.sdim(rs.choice([2, 4]))] + dims
        rdims = [len(dims) - 1]
        bdims = list(range(len(dims) - 1))
        out_dims = dims[:-1]
        ctype = 'f32' if dtype in ('bf16', 'f16') else dtype
        x = self.param(dtype, dims)
        if ro.random() < 0.3 and self.budget > 0:
            x = self.gen(dtype, dims, 1)
        xc = self.add(Inst(self.name('convert'), Shape(ctype, dims), 'convert', [x])) if ctype != dtype else x
        variant = self.rk.choice(['softmax', 'softmax', 'log-softmax', 'layernorm'])
        self.feature('norm-' + variant)
        bd = 'dimensions={%s}' % ','.join(map(str, bdims))
        if variant in ('softmax', 'log-softmax'):
            ninf = self.const_scalar(ctype, -math.inf)
            mx = self.add(Inst(self.name('reduce_max'), Shape(ctype, out_dims), 'reduce', [xc, ninf],
                               'dimensions={%d}, to_apply=%s' % (rdims[0], self.reducer(ctype, 'maximum'))))
            mb = self.add(Inst(self.name('broadcast'), Shape(ctype, dims), 'broadcast', [mx], bd))
            sub = self.add(Inst(self.name('subtract'), Shape(ctype, dims), 'subtract', [xc, mb]))
            ex = self.add(Inst(self.name('exponential'), Shape(ctype, dims), 'exponential', [sub]))
            zero = self.const_scalar(ctype, 0.0)
            sm = self.add(Inst(self.name('reduce_sum'), Shape(ctype, out_dims), 'reduce', [ex, zero],
                               'dimensions={%d}, to_apply=%s' % (rdims[0], self.reducer(ctype, 'add'))))
            if variant == 'softmax':
                sb = self.add(Inst(self.name('broadcast'), Shape(ctype, dims), 'broadcast', [sm], bd))
                y = self.add(Inst(self.name('divide'), Shape(ctype, dims), 'divide', [ex, sb]))
            else:
                lg = self.add(Inst(self.name('log'), Shape(ctype, out_dims), 'log', [sm]))
                lb = self.add(Inst(self.name('broadcast'), Shape(ctype, dims), 'broadcast', [lg], bd))
                y = self.add(Inst(self.name('subtract'), Shape(ctype, dims), 'subtract', [sub, lb]))
        else:
            zero = self.const_scalar(ctype, 0.0)
            sm = self.add(Inst(self.name('reduce_sum'), Shape(ctype, out_dims), 'reduce', [xc, zero],
                               'dimensions={%d}, to_apply=%s' % (rdims[0], self.reducer(ctype, 'add'))))
            inv = self.broadcast_of(self.const_scalar(ctype, 1.0 / cols), ctype, out_dims)
            mean = self.add(Inst(self.name('mean'), Shape(ctype, out_dims), 'multiply', [sm, inv]))
            mb = self.add(Inst(self.name('broadcast'), Shape(ctype, dims), 'broadcast', [mean], bd))
            cen = self.add(Inst(self.name('subtract'), Shape(ctype, dims), 'subtract', [xc, mb]))
            sq = self.add(Inst(self.name('multiply'), Shape(ctype, dims), 'multiply', [cen, cen]))
            zero2 = self.const_scalar(ctype, 0.0)
            vs = self.add(Inst(self.name('reduce_sum'), Shape(ctype, out_dims), 'reduce', [sq, zero2],
                               'dimensions={%d}, to_apply=%s' % (rdims[0], self.reducer(ctype, 'add'))))
            var = self.add(Inst(self.name('var'), Shape(ctype, out_dims), 'multiply', [vs, inv]))
            eps = self.broadcast_of(self.const_scalar(ctype, 1e-5), ctype, out_dims)
            ve = self.add(Inst(self.name('add'), Shape(ctype, out_dims), 'add', [var, eps]))
            rsq = self.add(Inst(self.name('rsqrt'), Shape(ctype, out_dims), 'rsqrt', [ve]))
            rb = self.add(Inst(self.name('broadcast'), Shape(ctype, dims), 'broadcast', [rsq], bd))
            y = self.add(Inst(self.name('multiply'), Shape(ctype, dims), 'multiply', [cen, rb]))
            if ro.random() < 0.5:
                gamma = self.param(ctype, [cols])
                gb = self.add(Inst(self.name('broadcast'), Shape(ctype, dims), 'broadcast', [gamma],
                                   'dimensions={%d}' % (len(dims) - 1)))
                y = self.add(Inst(self.name('multiply'), Shape(ctype, dims), 'multiply', [y, gb]))
        if ctype != dtype and self.rk.random() < 0.7:
            y = self.add(Inst(self.name('convert'), Shape(dtype, dims), 'convert', [y]))
        tile = [1] * (len(dims) - 1) + [next_pow2(cols)]
        if rs.random() < 0.4:
            tile[-2] = min(next_pow2(dims[-2]), rs.choice([2, 4]))
        warps = rs.choice([1, 2, 4, 8])
        self.case.backend_config = (
            '{"operation_queue_id":"0","fusion_backend_config":{"kind":"__triton",'
            '"block_level_fusion_config":{"num_warps":"%d","output_tiles":[{"sizes":[%s]}],'
            '"num_ctas":1,"num_stages":1}}}') % (warps, ','.join('"%d"' % t for t in tile))
        self.case.fusion_kind = 'kCustom'
        self.finish_style(('fusion',))
