#!/usr/bin/env python3
"""How tight a manifest's memory plan is: its own allocation's bytes
against the most bytes its buffers hold at once.

Walks the manifest's program as abi/ProgramLiveness.cpp does (the entry's
steps, each loop's condition and body in place, a conditional's branches
one after another) to find each placed buffer's first and last tick, then
sums, per tick, the bytes of the buffers live at it, each rounded up to
the plan's alignment (256 bytes; 16 for a buffer under 256 bytes, as
driver/BufferPlacement.cpp places them). An allocation at that peak
(ratio 1.000) is as small as these buffers and lives allow: what is left
against XLA's figure is then in which values are one buffer and how long
they live, not in where they were placed (bench/plan_vs_xla_live.py
compares those lives with XLA's).

  bench/plan_live_peak.py MANIFEST.json [--exact]

--exact: each buffer's own bytes, not rounded to the alignment (how much
of the peak the rounding is).
"""
import json
import sys
from collections import defaultdict


def plan_name(binding):
    if binding['binds'] == 'parameter':
        return '<parameter %d>' % binding['parameter']
    if binding['binds'] == 'output':
        return '<output %d>' % binding['output']
    return binding['buffer']


class ProgramWalk:
    """Each plan name's ticks of use, and the step (its instruction) at
    each tick, over the manifest's flattened program."""

    def __init__(self, manifest):
        self.manifest = manifest
        self.program = manifest['program']
        self.kernels = manifest['kernels']
        self.steps_of = defaultdict(list)
        for step in self.program:
            self.steps_of[step['computation']].append(step)
        self.uses = defaultdict(list)
        self.instruction_at = []  # tick -> the step's instruction ('' between)
        self.walks = defaultdict(int)
        entry = next((b['computation'] for b in manifest['buffers']
                      if b['kind'] in ('parameter', 'output')), self.program[0]['computation'])
        self.tick('')
        self.walk(entry)
        self.last = self.tick('')

    def tick(self, instruction):
        self.instruction_at.append(instruction)
        return len(self.instruction_at) - 1

    def touch(self, bindings, tick):
        for binding in bindings:
            self.uses[plan_name(binding)].append(tick)

    def touch_names(self, names, tick):
        for name in names:
            self.uses[name].append(tick)

    def walk(self, computation):
        self.walks[computation] += 1
        for step in self.steps_of.get(computation, []):
            kind = step['step']
            begin = self.tick(step.get('instruction', ''))
            parameter_buffers = step.get('parameter_buffers', [])
            if kind == 'launch':
                self.touch(self.kernels[step['launch']]['parameters'], begin)
            elif kind in ('copy', 'library'):
                self.touch(step.get('arguments', []) + step.get('results', []), begin)
            elif kind == 'while':
                self.walk_while(step, begin, parameter_buffers)
            elif kind == 'conditional':
                self.walk_conditional(step, begin, parameter_buffers)
            elif kind == 'call':
                for callee in step.get('computations', []):
                    self.walk(callee)

    def walk_while(self, step, begin, parameter_buffers):
        self.touch(step.get('arguments', []) + step.get('results', []), begin)
        for names in parameter_buffers[:2]:
            self.touch_names(names, begin)
        computations = step.get('computations', [])
        for j, callee in enumerate(computations[:2]):
            self.walk(callee)
            if j == 0:
                predicate = self.tick(step.get('instruction', ''))
                for kernel in self.kernels:
                    if (kernel.get('hlo_instruction') == step.get('predicate') and
                            kernel.get('hlo_computation') == computations[0]):
                        self.touch([p for p in kernel['parameters'] if p['direction'] == 'out'],
                                   predicate)
        end = self.tick(step.get('instruction', ''))
        self.touch(step.get('body_results', []) + step.get('results', []), end)
        for names in parameter_buffers[:2]:
            self.touch_names(names, end)

    def walk_conditional(self, step, begin, parameter_buffers):
        self.touch(step.get('arguments', []), begin)
        branch_arguments = step.get('branch_arguments', [])
        branch_results = step.get('branch_results', [])
        for operands in branch_arguments:
            self.touch(operands, begin)
        for j, callee in enumerate(step.get('computations', [])):
            first = self.tick(step.get('instruction', ''))
            if j < len(branch_arguments):
                self.touch(branch_arguments[j], first)
            if j < len(parameter_buffers):
                self.touch_names(parameter_buffers[j], first)
            self.walk(callee)
            last = self.tick(step.get('instruction', ''))
            if j < len(branch_results):
                self.touch(branch_results[j], last)
            self.touch(step.get('results', []), last)

    def span(self, entry):
        """A placed buffer's [first, last] tick."""
        ticks = [t for name in entry['names'] for t in self.uses.get(name, [])]
        if any(name.startswith('<output') for name in entry['names']):
            ticks.append(self.last)
        return (min(ticks), max(ticks)) if ticks else (0, self.last)


def slot_bytes(size, exact):
    if exact:
        return size
    alignment = 256 if size >= 256 else 16
    return (size + alignment - 1) // alignment * alignment


def placed_buffers(manifest):
    """The buffers of the plan's own allocations (not a parameter's)."""
    return [entry for allocation in manifest['allocations']
            if allocation.get('parameter') is None for entry in allocation['buffers']]


def live_peak(manifest, walk, exact=False):
    """(peak bytes, the tick it is first reached at)."""
    events = defaultdict(int)
    for entry in placed_buffers(manifest):
        first, last = walk.span(entry)
        size = slot_bytes(entry['bytes'], exact)
        events[first] += size
        events[last + 1] -= size
    current = peak = peak_tick = 0
    for tick in sorted(events):
        current += events[tick]
        if current > peak:
            peak, peak_tick = current, tick
    return peak, peak_tick


def main():
    exact = '--exact' in sys.argv
    manifest = json.load(open([a for a in sys.argv[1:] if a != '--exact'][0]))
    walk = ProgramWalk(manifest)
    peak, _ = live_peak(manifest, walk, exact)
    own = sum(a['bytes'] for a in manifest['allocations'] if a.get('parameter') is None)
    print('own allocation', own, 'peak live', peak,
          'ratio %.3f' % (own / peak if peak else 0),
          'repeated computations', sum(1 for v in walk.walks.values() if v > 1))


if __name__ == '__main__':
    main()
