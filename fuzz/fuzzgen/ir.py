# ir.py - the generated module as objects (fuzzgen).
#
# Owns: Shape (with a minor-to-major layout), TupleShape, Inst (one
# instruction of the fused computation) and Case (a generated module: its
# instructions, the entry's style, the called computations; its HLO text
# and its index inputs). The reducer of fuzz/hlo_fuzz.py rewrites these
# objects directly.
#
# Standard library only.
import re

from .dtypes import int_range


class Shape:
    """An array shape; layout is minor-to-major, None for the default."""

    def __init__(self, dtype, dims, layout=None):
        self.dtype = dtype
        self.dims = tuple(dims)
        if layout is not None and tuple(layout) == tuple(reversed(range(len(dims)))):
            layout = None
        self.layout = tuple(layout) if layout is not None else None

    def text(self, with_layout=True):
        t = '%s[%s]' % (self.dtype, ','.join(str(d) for d in self.dims))
        if self.layout is not None:
            t += '{%s}' % ','.join(str(d) for d in self.layout)
        elif with_layout and self.dims:
            t += '{%s}' % ','.join(str(d) for d in reversed(range(len(self.dims))))
        return t

    def physical_dims(self):
        layout = self.layout if self.layout is not None else tuple(reversed(range(len(self.dims))))
        return [self.dims[d] for d in reversed(layout)]


class TupleShape:
    def __init__(self, elements):
        self.elements = list(elements)

    def text(self, with_layout=True):
        return '(' + ', '.join(e.text(with_layout) for e in self.elements) + ')'


class Inst:
    """One instruction of the fused computation."""

    def __init__(self, name, shape, op, operands=(), attrs='', exact=False):
        self.name = name
        self.shape = shape
        self.op = op
        self.operands = list(operands)
        self.attrs = attrs          # text after the operand list, without ', '
        self.literal = None         # constant / parameter number text
        self.exact = exact
        self.index_values = None    # parameter: the values fed as .npy (flat)
        self.param_kind = None      # 'index' etc.

    def text(self, with_layout, number=None):
        if self.op == 'parameter':
            body = 'parameter(%d)' % number
        elif self.op == 'constant':
            body = 'constant(%s)' % self.literal
        else:
            body = '%s(%s)' % (self.op, ', '.join(o.name for o in self.operands))
        t = '%s = %s %s' % (self.name, self.shape.text(with_layout), body)
        if self.attrs:
            t += ', ' + self.attrs
        return t


class Case:
    """A generated module: its fused computation as instructions, the way
    the entry wraps it, the called computations' text and the index inputs."""

    def __init__(self, seed, kind, knobs):
        self.seed = seed
        self.kind = kind
        self.knobs = dict(knobs)
        self.insts = []            # topological; the root is the last
        self.subcomputations = []  # (name, text)
        self.style = 'fusion'      # 'fusion' | 'bare' | 'copy' | 'alias'
        self.fusion_kind = 'kLoop'
        self.backend_config = None
        self.with_layout = True
        self.percent = False
        self.features = []
        self.fused_name = 'fused_computation'
        # The GPU architecture of the host compile (--gpu-arch), None for
        # hlo-compile's default; cubin_archs: {cubin step: architecture}
        # where a case must not run at the step's own (8-bit float GEMMs
        # need sm_89 on). run_mode: hlo-run's --mode (None: its default).
        self.arch = None
        self.cubin_archs = None
        self.run_mode = None
        # hlo-compile's flags for this case beyond the architecture (every
        # compile step, and repro.sh).
        self.compile_flags = []

    # -- structure ------------------------------------------------------
    def params(self):
        return [i for i in self.insts if i.op == 'parameter']

    def root(self):
        return self.insts[-1]

    def live(self):
        """Drops instructions the root does not reach (keeps parameters'
        order)."""
        used = set()
        stack = [self.root()]
        while stack:
            inst = stack.pop()
            if id(inst) in used:
                continue
            used.add(id(inst))
            stack.extend(inst.operands)
        self.insts = [i for i in self.insts if id(i) in used]

    # -- text -----------------------------------------------------------
    def hlo(self):
        p = '%' if self.percent else ''
        wl = self.with_layout
        params = self.params()
        numbers = {id(x): n for n, x in enumerate(params)}
        lines = []
        header = 'HloModule fuzz_%d' % self.seed
        if self.style == 'alias':
            header += ', input_output_alias={ {}: (0, {}, may-alias) }'
        if self.style != 'bare' or self.seed % 2 == 0:
            lines.append(header)
            lines.append('')
        called = ' '.join(i.attrs for i in self.insts) + ' ' + ' '.join(
            t for _, t in self.subcomputations)
        for name, text in self.subcomputations:
            if not re.search(r'(to_apply|calls)=%%?%s(?![\w.])' % re.escape(name), called):
                continue   # the reducer dropped its user
            lines.append(text)
            lines.append('')

        def body(indent='  '):
            out = []
            for inst in self.insts:
                if p:
                    t = self._percentify(inst, wl, numbers.get(id(inst)))
                else:
                    t = inst.text(wl, numbers.get(id(inst)))
                out.append(indent + ('ROOT ' if inst is self.insts[-1] else '') + t)
            return out

        if self.style == 'bare':
            lines.append('ENTRY %s%s {' % (p, self.fused_name))
            lines.extend(body())
            lines.append('}')
            return '\n'.join(lines) + '\n'
        lines.append('%s%s {' % (p, self.fused_name))
        lines.extend(body())
        lines.append('}')
        lines.append('')
        lines.append('ENTRY %smain {' % p)
        args = []
        for n, x in enumerate(params):
            lines.append('  %sp%d = %s parameter(%d)' % (p, n, x.shape.text(wl), n))
            args.append('%sp%d' % (p, n))
        if self.style == 'copy':
            lines.append('  %sp0.copy = %s copy(%sp0)' % (p, params[0].shape.text(wl), p))
            args[0] = '%sp0.copy' % p
        root = self.root()
        attrs = 'kind=%s, calls=%s%s' % (self.fusion_kind, p, self.fused_name)
        if self.backend_config:
            attrs += ', backend_config=' + self.backend_config
        lines.append('  ROOT %sfusion = %s fusion(%s), %s' % (
            p, root.shape.text(wl), ', '.join(args), attrs))
        lines.append('}')
        return '\n'.join(lines) + '\n'

    def _percentify(self, inst, wl, number):
        t = inst.text(wl, number)
        name, rest = t.split(' = ', 1)
        if inst.op not in ('parameter', 'constant') and inst.operands:
            opening = rest.index('(', len(inst.shape.text(wl)) + 1)
            closing = opening + 1 + len(', '.join(o.name for o in inst.operands))
            rest = rest[:opening + 1] + ', '.join('%' + o.name for o in inst.operands) + \
                rest[closing:]
        return '%' + name + ' = ' + rest

    def inputs(self):
        """{parameter number: (dtype, dims, flat values)} for .npy files."""
        result = {}
        for n, x in enumerate(self.params()):
            if x.index_values is not None:
                lo, hi = int_range(x.shape.dtype)
                values = [max(lo, min(hi, v)) for v in x.index_values]
                result[n] = (x.shape.dtype, x.shape.dims, values)
        return result
