# kinds_large.py - fusions of more than 2^31 elements, compiled only (fuzzgen).
#
# Owns: the `large` kind, fusions whose arrays hold more than 2^31 elements
# (an elementwise chain with a broadcast operand, a row or column
# reduction, a transpose, a slice), which the compiler must index with 64
# bits. They are too large to run here: the driver (fuzz/hlo_fuzz.py) only
# compiles them for sm_80 and sm_90 and assembles them. Not picked at
# random by the kind weights: the driver asks for it on every tenth seed.
#
# Standard library only.
from .dtypes import FLOATS, INTS
from .ir import Inst, Shape


class LargeKinds:
    """The `large` kind (a mixin of Generator)."""

    def k_large(self):
        rs, rk = self.rs, self.rk
        dtype = rk.choice(['f32', 'bf16', 'f16', 's32', 'u8', 's8', 'f64', 'pred'])
        minor = rs.choice([32769, 46341, 65536, 65537, 100003])
        major = (1 << 31) // minor + rs.randint(1, 3000)
        dims = [major, minor]
        variant = rk.choice(['elementwise', 'row-reduce', 'column-reduce', 'transpose', 'slice'])
        self.feature('large-' + variant)
        a = self.param(dtype, dims)
        if variant == 'elementwise':
            vector = self.param(dtype, [minor])
            wide = self.add(Inst(self.name('broadcast'), Shape(dtype, dims), 'broadcast',
                                 [vector], 'dimensions={1}'))
            op = 'add' if dtype in FLOATS or dtype in INTS else 'and'
            if dtype in FLOATS and rk.random() < 0.5:
                op = 'multiply'
            value = self.add(Inst(self.name(op), Shape(dtype, dims), op, [a, wide]))
            if dtype != 'pred' and rk.random() < 0.5:
                value = self.add(Inst(self.name('convert'), Shape('f32', dims), 'convert', [value]))
            self.case.fusion_kind = 'kLoop'
        elif variant in ('row-reduce', 'column-reduce'):
            if dtype == 'pred':
                dtype = 'f32'
                a = self.add(Inst(self.name('convert'), Shape(dtype, dims), 'convert', [a]))
            op = 'add' if dtype != 'pred' else 'or'
            init = self.const_scalar(dtype, self.identity(dtype, op))
            dim = 1 if variant == 'row-reduce' else 0
            kept = [dims[1 - dim]]
            value = self.add(Inst(self.name('reduce'), Shape(dtype, kept), 'reduce', [a, init],
                                  'dimensions={%d}, to_apply=%s' % (dim, self.reducer(dtype, op))))
            self.case.fusion_kind = 'kInput'
        elif variant == 'transpose':
            value = self.add(Inst(self.name('transpose'), Shape(dtype, [minor, major]),
                                  'transpose', [a], 'dimensions={1,0}'))
            self.case.fusion_kind = 'kInput'
        else:
            start = rs.randint(0, 7)
            value = self.add(Inst(self.name('slice'), Shape(dtype, [major - start, minor - 1]),
                                  'slice', [a], 'slice={[%d:%d], [1:%d]}' % (start, major, minor)))
            self.case.fusion_kind = 'kLoop'
        if value.op in ('parameter', 'constant'):
            self.add(Inst(self.name('copy'), value.shape, 'copy', [value]))
        self.finish_style()
