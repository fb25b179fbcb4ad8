# kinds_module.py - the `module` kind: whole modules of several kernels (fuzzgen).
#
# Owns: ModuleCase (a Case whose instructions are the ENTRY computation's:
# parameters, fusions calling computations of their own, unfused
# elementwise ops and dynamic-update-slices, a tuple root; its header may
# donate parameter 0 with input_output_alias) and k_module, which builds
# one: a chain of temporaries of one shape (loop fusions from the shared
# value graph, unfused ops as XLA's unoptimized modules have them),
# in-place dynamic-update-slices (fused, or in the entry) of temporaries,
# of parameters and of the donated parameter -- whose results are module
# outputs and are followed by other temporaries, so that a buffer-sharing
# plan that lets a later temporary take an output's memory shows --, and
# 8-bit float and 4-bit integer values as entry parameters and outputs
# (f8e4m3fn, f8e5m2, s4, u4), not only inside fusions. The driver runs
# these with `hlo-run --mode module` (Case.run_mode), buffer sharing on
# (hlo-run's default), so the manifest's allocation plan is what runs.
#
# Standard library only.
import re

from .ir import Case, Inst, Shape, TupleShape

NARROW = ['f8e4m3fn', 'f8e5m2', 's4', 'u4']
MAIN_TYPES = ['f32', 'f32', 'bf16', 'f16', 's32', 'u8', 's64', 'f64']
# An entry parameter that is itself a module output (valid HLO): hlo-run
# refuses it in module mode ("output N is not written by a kernel, copy or
# library call"), so it is off until the compiler writes such outputs.
PARAMETER_OUTPUTS = False


class ModuleCase(Case):
    """A module whose instructions are the entry's; the fused computations
    are called computations (subcomputations)."""

    def __init__(self, seed, kind, knobs):
        super().__init__(seed, kind, knobs)
        self.alias = None   # input_output_alias text of the HloModule line

    def hlo(self):
        p = '%' if self.percent else ''
        wl = self.with_layout
        params = self.params()
        numbers = {id(x): n for n, x in enumerate(params)}
        header = 'HloModule fuzz_%d' % self.seed
        if self.alias:
            header += ', input_output_alias=' + self.alias
        lines = [header, '']
        called = ' '.join(i.attrs for i in self.insts) + ' ' + ' '.join(
            t for _, t in self.subcomputations)
        for name, text in self.subcomputations:
            if not re.search(r'(to_apply|calls)=%%?%s(?![\w.])' % re.escape(name), called):
                continue
            lines.append(text)
            lines.append('')
        lines.append('ENTRY %smain {' % p)
        for inst in self.insts:
            if p:
                t = self._percentify(inst, wl, numbers.get(id(inst)))
            else:
                t = inst.text(wl, numbers.get(id(inst)))
            lines.append('  ' + ('ROOT ' if inst is self.insts[-1] else '') + t)
        lines.append('}')
        return '\n'.join(lines) + '\n'


class ModuleKinds:
    """The `module` kind (a mixin of Generator)."""

    def computation_text(self, case, name):
        params = case.params()
        out = ['%s {' % name]
        for inst in case.insts:
            num = params.index(inst) if inst.op == 'parameter' else None
            out.append('  %s%s' % ('ROOT ' if inst is case.insts[-1] else '', inst.text(True, num)))
        out.append('}')
        return '\n'.join(out)

    def fused(self, build, kind='kLoop', bind=None):
        """Runs build() in a fused computation of its own and adds the
        entry's fusion calling it: its parameters are bound to entry values
        of the same shape (bind: {parameter index: value}, else a random
        one of self.values or a new entry parameter)."""
        entry = self.case
        sub = Case(self.seed, 'sub', {})
        self.case = sub
        try:
            root = build()
            if root.op in ('parameter', 'constant'):
                root = self.add(Inst(self.name('copy'), root.shape, 'copy', [root]))
            sub.insts.remove(root)
            sub.insts.append(root)
            sub.live()
        finally:
            self.case = entry
        name = self.name('fused_computation')
        for n, t in sub.subcomputations:
            if all(n != m for m, _ in entry.subcomputations):
                entry.subcomputations.append((n, t))
        entry.subcomputations.append((name, self.computation_text(sub, name)))
        operands = []
        for i, p in enumerate(sub.params()):
            if bind and i in bind:
                value = bind[i]
                # A fusion reads its operands in its parameters' layouts
                # (the verifier refuses others): relayout with a copy.
                if value.shape.text() != p.shape.text():
                    value = self.add(Inst(self.name('copy'), p.shape, 'copy', [value]))
                operands.append(value)
                continue
            same = [v for v in self.values if v.shape.text() == p.shape.text()]
            if p.index_values is None and same and self.ro.random() < 0.7:
                operands.append(self.ro.choice(same))
                continue
            q = self.add(Inst(self.name('p'), p.shape, 'parameter'))
            q.index_values, q.param_kind = p.index_values, p.param_kind
            operands.append(q)
        return self.add(Inst(self.name('fusion'), root.shape, 'fusion', operands,
                             'kind=%s, calls=%s' % (kind, name)))

    def k_module(self):
        rk, rs, ro = self.rk, self.rs, self.ro
        self.case = ModuleCase(self.seed, self.kind, self.case.knobs)
        self.case.run_mode = 'module'
        dtype = rk.choice(MAIN_TYPES)
        dims = self.pick_dims(rs.randint(1, 3), 1 << 14)
        if not dims:
            dims = [rs.randint(2, 64)]
        shape = Shape(dtype, dims)
        self.feature('module-' + dtype)
        p0 = self.add(Inst(self.name('p'), shape, 'parameter'))
        self.values = [p0]
        temps = []      # values of the main shape
        extra = []      # 8- / 4-bit outputs and parameters
        inplace = []
        steps = rs.randint(3, 8)
        donate = rk.random() < 0.4
        for _ in range(steps):
            what = ro.choices(['loop', 'plain', 'dus-fusion', 'dus-plain', 'narrow-in',
                               'narrow-out'], [4, 3, 3, 2, 1.5, 1.5])[0]
            if what == 'loop':
                v = self.fused(lambda: self.gen(dtype, dims, ro.randint(1, 3)))
            elif what == 'plain':
                op = ro.choice(['add', 'multiply', 'subtract', 'maximum', 'negate'])
                if op == 'negate' and dtype.startswith('u'):
                    op = 'add'
                operands = [ro.choice(self.values)] + \
                    ([] if op == 'negate' else [ro.choice(self.values)])
                v = self.add(Inst(self.name(op), shape, op, operands))
            elif what in ('dus-fusion', 'dus-plain'):
                # the operand: a temporary (the case), a parameter,
                # or the donated parameter 0
                same = lambda vs: [v for v in vs if v.shape.text() == shape.text()]
                pool = same(temps) or same(self.values)
                base = ro.choice(pool if ro.random() < 0.7 else same(self.values))
                udims = [max(1, rs.randint(1, d)) for d in dims]
                itype = rk.choice(['s32', 's64', 'u32'])
                if what == 'dus-fusion':
                    def build():
                        b = self.param(dtype, dims)
                        u = self.gen(dtype, udims, ro.randint(0, 2))
                        idx = [self.index_scalar(itype, d - ud) for d, ud in zip(dims, udims)]
                        return self.add(Inst(self.name('dynamic_update_slice'), shape,
                                             'dynamic-update-slice', [b, u] + idx))
                    v = self.fused(build, bind={0: base})
                else:
                    u = self.add(Inst(self.name('update'), Shape(dtype, udims), 'parameter'))
                    idx = []
                    for d, ud in zip(dims, udims):
                        q = self.add(Inst(self.name('i'), Shape(itype, []), 'parameter'))
                        q.index_values = [self.index_value(itype, d - ud)]
                        q.param_kind = 'index'
                        idx.append(q)
                    v = self.add(Inst(self.name('dus'), shape, 'dynamic-update-slice',
                                      [base, u] + idx))
                self.feature('module-%s-of-%s' % (what, 'p0' if base is p0 else
                                                  'param' if base.op == 'parameter' else 'temp'))
                inplace.append(v)
            elif what == 'narrow-in':
                nt = rk.choice(NARROW)
                q = self.add(Inst(self.name('p'), Shape(nt, dims), 'parameter'))
                self.feature('module-param-' + nt)

                def build():
                    x = self.param(nt, dims)
                    c = self.add(Inst(self.name('convert'), shape, 'convert', [x]))
                    if ro.random() < 0.5:
                        y = self.gen(dtype, dims, 1)
                        op = 'add' if dtype != 'pred' else 'or'
                        c = self.add(Inst(self.name(op), shape, op, [c, y]))
                    return c
                v = self.fused(build, bind={0: q})
                if PARAMETER_OUTPUTS and rk.random() < 0.2:
                    extra.append(q)   # the parameter itself as an output
            else:
                nt = rk.choice(NARROW)
                src = ro.choice(self.values)
                self.feature('module-output-' + nt)

                def build():
                    x = self.param(dtype, dims)
                    if dtype in ('f32', 'f64', 'bf16', 'f16') and ro.random() < 0.5:
                        k = self.broadcast_of(self.const_scalar(dtype, 4.0), dtype, dims)
                        x = self.add(Inst(self.name('multiply'), shape, 'multiply', [x, k]))
                    return self.add(Inst(self.name('convert'), Shape(nt, dims), 'convert', [x]))
                extra.append(self.fused(build, bind={0: src}))
                continue
            self.values.append(v)
            temps.append(v)
        # outputs: every in-place result, the last temporary, some others
        outs = []
        for v in inplace + [temps[-1] if temps else self.values[-1]]:
            if v not in outs:
                outs.append(v)
        for v in temps:
            if v not in outs and ro.random() < 0.3:
                outs.append(v)
        outs += extra
        outs = [v for v in outs if v.op != 'parameter'] + [v for v in outs if v.op == 'parameter']
        if not outs or outs[0].op == 'parameter':
            outs.insert(0, self.add(Inst(self.name('copy'), shape, 'copy', [p0])))
        if donate:
            # output 0 in parameter 0's buffer: preferably p0's own update
            mine = [v for v in outs if v.operands and v.operands[0] is p0
                    and v.shape.text() == shape.text()]
            first = mine[0] if mine else next((v for v in outs if v.shape.text() == shape.text()),
                                             None)
            if first is not None:
                outs.remove(first)
                outs.insert(0, first)
                mode = rk.choice(['must-alias', 'may-alias', None])
                self.case.alias = '{ {0}: (0, {}%s) }' % (', ' + mode if mode else '')
                self.feature('module-donated-p0')
                if any(p0 in v.operands for v in self.case.insts if v is not first):
                    self.feature('module-donated-p0-read-elsewhere')
        if inplace:
            self.feature('module-inplace-output')
        self.add(Inst(self.name('tuple'), TupleShape([v.shape for v in outs]), 'tuple', outs))
        self.finish_style(('fusion',))
        self.case.percent = rk.random() < 0.5
