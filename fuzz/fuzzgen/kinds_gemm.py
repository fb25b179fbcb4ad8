# kinds_gemm.py - the `gemm` fusion kind: XLA's Triton GEMM fusions (fuzzgen).
#
# Owns: k_gemm, a fusion of kind=kCustom whose backend_config names
# "__triton_gemm" or "__triton_nested_gemm_fusion" (the form of XLA's
# dumps in /work/shared/corpus: a flat fused computation, the dot with
# backend_config={"sizes":["BK"]}) and whose fused computation holds one
# `dot`: every operand type XLA's GEMM fusions take (bf16, f16, f32 at
# default precision (TF32) or HIGHEST, f8e4m3fn / f8e5m2 in every pairing,
# s8 x s8 -> s32), both operands K-major or K-minor (which logical
# dimension is contracted, and {1,0} / {0,1} layouts), 0 or 1 batch
# dimensions, ragged M/N/K, XLA's tile configs (block_level_fusion_config:
# BMxBN from {8,16,24,32,64,128}, 1-8 warps, 1-4 stages) or none, a
# prologue on the operands (convert from a narrower or wider type, negate,
# multiply by a broadcast scale vector) and an epilogue (add of a
# broadcast bias or a full bias, multiply by a scalar, convert to the
# output type: f32, bf16, f16, f8e4m3fn). The case carries its GPU
# architecture (Case.arch: sm_80, sm_89, sm_90a; 8-bit floats sm_89 on),
# used by the driver for the host compile and the cubin steps
# (Case.cubin_archs). Two in five 16-bit and 8-bit float cases take
# Hopper's TMA form (sm_90a): one in four batched (batch most major), A
# K-minor (16-bit: or M-minor, one in three), B K-minor or N-minor, K
# a multiple of 8, a config of 64 or 128 rows on 4 or 8 warps and 3 or 4
# stages -- the kernels whose operands load by TMA, through the
# warp-specialized producer/consumer pipeline where both do (8-bit
# floats: wgmma m64nNk32, B K-minor for TMA, a K step of 64 or 128); one
# in three of those compiled with --gemm-cluster=2 (thread-block clusters
# of two sharing B's tiles by TMA multicast).
# One in eight 16-bit and f32 others is a decode step's GEMM (1-16 rows,
# 8 MiB or more of B, no config), which gemm-split-k splits along K.
#
# XLA's newest form, with the operands as nested kCustom fusions of their
# own ("nested operand computations"), is generated only with
# HLO_FUZZ_GEMM_NESTED_OPERANDS=1 in the environment: hlo-compile refuses
# it today ("unsupported: fusion (in kernel ...)"), and by default the
# fuzzer asks only for what the compiler claims.
#
# Standard library only.
import os

from .dtypes import prod
from .ir import Inst, Shape

FP8 = ['f8e4m3fn', 'f8e5m2']
ARCHS = ['sm_80', 'sm_89', 'sm_90a']


class GemmKinds:
    """The `gemm` kind (a mixin of Generator)."""

    def gemm_size(self):
        rs = self.rs
        r = rs.random()
        if r < 0.6:
            d = rs.randint(1, 100)
        elif r < 0.85:
            d = rs.choice([16, 32, 64, 128, 256])
        else:
            d = rs.randint(100, 300)
        return self.sdim(d)

    def gemm_operand(self, dtype, dims, layout, contract_dim, free_dim, batch):
        """The dot operand dtype[dims]{layout}, maybe behind a prologue."""
        rk, ro = self.rk, self.ro
        r = ro.random() if self.budget > 0 else 1.0
        if r < 0.2 and dtype in ('bf16', 'f16', 'f32'):
            src = rk.choice({'bf16': ['s8', 'f32', 'f16'], 'f16': ['s8', 'f32', 'u8'],
                             'f32': ['bf16', 'f16', 's8']}[dtype])
            p = self.param(src, dims, layout)
            self.budget -= 1
            self.feature('gemm-prologue-convert')
            x = self.add(Inst(self.name('convert'), Shape(dtype, dims, layout), 'convert', [p]))
        else:
            x = self.param(dtype, dims, layout)
        r = ro.random() if self.budget > 0 else 1.0
        if r < 0.15 and dtype != 's8':
            self.budget -= 1
            self.feature('gemm-prologue-negate')
            x = self.add(Inst(self.name('negate'), Shape(dtype, dims, layout), 'negate', [x]))
        elif r < 0.35 and dtype in ('bf16', 'f16', 'f32'):
            # a per-column (or per-K) scale, as XLA fuses int8 weight scales
            self.budget -= 1
            d = ro.choice([free_dim, contract_dim])
            v = self.param(dtype, [dims[d]])
            b = self.add(Inst(self.name('broadcast'), Shape(dtype, dims, layout), 'broadcast', [v],
                              'dimensions={%d}' % d))
            self.feature('gemm-prologue-scale')
            x = self.add(Inst(self.name('multiply'), Shape(dtype, dims, layout), 'multiply', [x, b]))
        return x

    def k_gemm(self):
        rs, rk, ro = self.rs, self.rk, self.ro
        combos = [('bf16', 'bf16', ['f32', 'bf16']), ('f16', 'f16', ['f32', 'f16']),
                  ('f32', 'f32', ['f32']), ('s8', 's8', ['s32'])]
        combos += [(a, b, ['f32', 'bf16']) for a in FP8 for b in FP8]
        weights = [3, 2, 3, 2, 1, 1, 1, 1]
        lt, rt, dot_types = rk.choices(combos, weights)[0]
        dot_type = rk.choice(dot_types)
        fp8 = lt in FP8
        hopper = (lt in ('bf16', 'f16') or fp8) and rk.random() < 0.4
        cluster = False
        arch = 'sm_90a' if hopper else rk.choice(['sm_89', 'sm_90a'] if fp8 else ARCHS)
        other = rk.choice([a for a in (['sm_89', 'sm_90a'] if fp8 else ARCHS) if a != arch])
        self.case.arch = arch
        self.case.cubin_archs = {'sm_80': arch, 'sm_90': other}
        self.feature('gemm-%s-x-%s-to-%s' % (lt, rt, dot_type))
        self.feature('arch-' + arch)
        if hopper:
            self.feature('gemm-hopper-tma')
            # One in three in clusters of two blocks sharing B by TMA
            # multicast (where the kernel is warp specialized with two tile
            # rows or more; alone otherwise).
            cluster = rk.random() < 1 / 3
            if cluster:
                self.case.compile_flags = ['--gemm-cluster=2']
                self.feature('gemm-cluster')
        # A decode step's GEMM: a few rows by a long K that read 8 MiB or
        # more, no config: split along K (gemm-split-k) into a batched
        # product and a reduction.
        decode = not hopper and lt in ('bf16', 'f16', 'f32') and rk.random() < 0.12
        if decode:
            self.feature('gemm-decode-split-k')
        # (Hopper: one in four batched, the TMA boxes one along the batch.)
        batch = not decode and rs.random() < (0.25 if hopper else 0.3)
        if batch:
            self.feature('gemm-batched')
        b = self.sdim(rs.choice([1, 2, 3, 5])) if batch else None
        m, n, k = self.gemm_size(), self.gemm_size(), self.gemm_size()
        if hopper:
            k = self.sdim(8 * rs.randint(1, 48))
            # A cluster needs two tile rows (of up to 128) to pair.
            if cluster:
                m = self.sdim(rs.randint(129, 400))
        if decode:
            m = rs.choice([1, 2, 3, 8, 16])
            n = rs.choice([256, 512, 768, 1024])
            # (8 MiB of B, rounded up to 256, plus up to 3 x 256 more.)
            k = (((8 << 20) // ({'f32': 4}.get(lt, 2) * n) + 255) // 256 + rs.randint(0, 3)) * 256
        while not decode and prod([m, n, k, b or 1]) > (1 << 22):
            i = max(range(3), key=lambda j: [m, n, k][j])
            if i == 0:
                m = max(1, m // 2)
            elif i == 1:
                n = max(1, n // 2)
            else:
                k = max(8, k // 16 * 8) if hopper else max(1, k // 2)
        off = 1 if batch else 0
        # K-minor (K the last logical dim) or K-major (K before M / N).
        # (Hopper: A K-minor, or for 16-bit floats one in three M-minor --
        # a weight gradient's, read with wgmma's imm-trans-a.)
        lhs_kminor = (fp8 or rs.random() < 0.67) if hopper else rs.random() < 0.5
        rhs_kminor = rs.random() < 0.5
        ldims = ([b] if batch else []) + ([m, k] if lhs_kminor else [k, m])
        rdims = ([b] if batch else []) + ([n, k] if rhs_kminor else [k, n])
        lc = off + (1 if lhs_kminor else 0)
        rc = off + (1 if rhs_kminor else 0)
        lf = off + (0 if lhs_kminor else 1)
        rf = off + (0 if rhs_kminor else 1)

        def layout():
            swap = not hopper and rs.random() < 0.4
            if batch:
                return [1, 2, 0] if swap else None
            return [0, 1] if swap else None
        llay, rlay = layout(), layout()
        self.feature('gemm-lhs-%s%s' % ('kminor' if lhs_kminor else 'kmajor',
                                        '-swapped' if llay else ''))
        self.feature('gemm-rhs-%s%s' % ('kminor' if rhs_kminor else 'kmajor',
                                        '-swapped' if rlay else ''))
        if decode:  # (the split reads the dot's parameters as they are)
            lhs, rhs = self.param(lt, ldims, llay), self.param(rt, rdims, rlay)
        else:
            lhs = self.gemm_operand(lt, ldims, llay, lc, lf, batch)
            rhs = self.gemm_operand(rt, rdims, rlay, rc, rf, batch)
        odims = ([b] if batch else []) + [m, n]
        attrs = ''
        if batch:
            attrs = 'lhs_batch_dims={0}, '
        attrs += 'lhs_contracting_dims={%d}, ' % lc
        if batch:
            attrs += 'rhs_batch_dims={0}, '
        attrs += 'rhs_contracting_dims={%d}' % rc
        if lt == 'f32' and rk.random() < 0.25:
            attrs += ', operand_precision={highest,highest}'
            self.feature('gemm-f32-highest')
        nested = rk.random() < 0.4
        bk = rk.choice(([64, 128] if fp8 else [32, 64]) if hopper else [16, 32, 64, 128])
        if nested:
            attrs += ', backend_config={"sizes":["%d"]}' % bk
        olay = None
        if rs.random() < 0.15:
            olay = [1, 2, 0] if batch else [0, 1]
            self.feature('gemm-out-layout')
        dot = self.add(Inst(self.name('dot'), Shape(dot_type, odims, olay), 'dot', [lhs, rhs],
                            attrs))
        value = dot
        # epilogue
        if self.budget > 0 and ro.random() < 0.3:
            if ro.random() < 0.5:
                v = self.param(dot_type, [n])
                bias = self.add(Inst(self.name('broadcast'), Shape(dot_type, odims, olay),
                                     'broadcast', [v], 'dimensions={%d}' % (off + 1)))
            else:
                bias = self.param(dot_type, odims, olay)
            value = self.add(Inst(self.name('add'), Shape(dot_type, odims, olay), 'add',
                                  [bias, value] if ro.random() < 0.5 else [value, bias]))
            self.feature('gemm-epilogue-bias')
        if self.budget > 0 and ro.random() < 0.2 and dot_type != 's32':
            c = self.const_scalar(dot_type, ro.choice([0.5, 2.0, -1.5, 0.125]))
            s = self.add(Inst(self.name('broadcast'), Shape(dot_type, odims, olay), 'broadcast',
                              [c], 'dimensions={}'))
            value = self.add(Inst(self.name('multiply'), Shape(dot_type, odims, olay), 'multiply',
                                  [value, s]))
            self.feature('gemm-epilogue-scale')
        out_type = dot_type
        if dot_type == 'f32' and ro.random() < 0.35:
            out_type = rk.choice(['bf16', 'f16', 'f8e4m3fn'] if fp8 else ['bf16', 'f16'])
        elif dot_type == 's32' and ro.random() < 0.25:
            out_type = 'f32'
        if out_type != dot_type:
            value = self.add(Inst(self.name('convert'), Shape(out_type, odims, olay), 'convert',
                                  [value]))
            self.feature('gemm-epilogue-convert-%s' % out_type)
        # the config
        if not decode and rk.random() < 0.8:
            bm = rk.choice([8, 16, 24, 32, 64, 128])
            bn = rk.choice([8, 16, 24, 32, 64, 128])
            warps = rk.choice([1, 2, 4, 8])
            stages = rk.randint(1, 4)
            if hopper:
                bm = rk.choice([64, 128])
                bn = rk.choice([16, 32, 64, 128, 256])
                warps = rk.choice([4, 8])
                stages = rk.randint(3, 4)
            sizes = (['"1"'] if batch else []) + ['"%d"' % bm, '"%d"' % bn]
            config = (',"block_level_fusion_config":{"num_warps":"%d","output_tiles":[{"sizes":'
                      '[%s]}],"num_ctas":1,"num_stages":%d,"is_tma_allowed":false}') % (
                          warps, ','.join(sizes), stages)
            self.feature('gemm-tile-%dx%d-w%d-s%d' % (bm, bn, warps, stages))
        else:
            config = ''
            self.feature('gemm-no-config')
        kind = '__triton_nested_gemm_fusion' if nested else '__triton_gemm'
        self.feature('gemm-' + kind.strip('_'))
        self.case.fusion_kind = 'kCustom'
        self.case.backend_config = '{"operation_queue_id":"0","fusion_backend_config":' \
            '{"kind":"%s"%s}}' % (kind, config)
        if os.environ.get('HLO_FUZZ_GEMM_NESTED_OPERANDS') == '1' and rk.random() < 0.5:
            self.nest_operands(dot, bk)
        self.finish_style(('fusion',))
        self.case.fused_name = rk.choice(['gemm_fusion_dot', 'gemm_fusion_dot.%d_computation' %
                                          rs.randint(1, 60), 'fused_computation'])

    def nest_operands(self, dot, bk):
        """XLA's nested form: each dot operand is a kCustom fusion of its
        own (`__triton_nested_gemm_fusion`) over the outer parameters."""
        self.feature('gemm-nested-operands')
        self.case.backend_config = self.case.backend_config.replace(
            '"__triton_gemm"', '"__triton_nested_gemm_fusion"')
        for i, operand in enumerate(dot.operands):
            if operand.op == 'parameter':
                continue
            # the operand's subgraph becomes a computation of its own
            sub = []
            stack = [operand]
            while stack:
                x = stack.pop()
                if x in sub:
                    continue
                sub.append(x)
                stack.extend(x.operands)
            order = [x for x in self.case.insts if x in sub]
            params = [x for x in order if x.op == 'parameter']
            name = 'gemm_operand_%d_%d' % (self.seed, i)
            lines = ['%s {' % name]
            for j, x in enumerate(order):
                num = params.index(x) if x.op == 'parameter' else None
                lines.append('  %s%s' % ('ROOT ' if x is operand else '', x.text(True, num)))
            lines.append('}')
            self.case.subcomputations.append((name, '\n'.join(lines)))
            tile = ['"16"', '"%d"' % bk] if len(operand.shape.dims) == 2 else \
                ['"1"', '"16"', '"%d"' % bk]
            cfg = ('backend_config={"fusion_backend_config":{"kind":"__triton_nested_gemm_fusion",'
                   '"block_level_fusion_config":{"output_tiles":[{"sizes":[%s]}]}}}') % ','.join(tile)
            fused = Inst(self.name('fusion'), operand.shape, 'fusion', params,
                         'kind=kCustom, calls=%s, %s' % (name, cfg))
            # keep the outer parameters, drop the operand's inner instructions
            self.case.insts = [x for x in self.case.insts if x not in sub or x.op == 'parameter']
            self.case.insts.insert(self.case.insts.index(dot), fused)
            dot.operands[i] = fused
