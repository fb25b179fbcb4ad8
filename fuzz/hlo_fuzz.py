#!/usr/bin/env python3
# hlo_fuzz.py - the differential fuzzer of the whole compiler (issue 27);
# scripts/fuzz.sh is its front end, tests/CMakeLists.txt runs its bounded
# mode as the ctest `fuzz.bounded`.
#
# Owns: the driver (per seed: generate a module with hlo_fuzz_gen.py,
# compile it for the host and check it against the reference interpreter
# with hlo-run, compile it to cubin for sm_80 and sm_90 so that ptxas
# assembles it; a case that carries its GPU architecture -- the gemm
# kind's -- is compiled for the host with --gpu-arch=ARCH and its two
# cubin steps use the case's two architectures; a case that names
# hlo-run's --mode -- the module kind's: module -- runs in that mode),
# the classification of every outcome (pass, mismatch, fault, crash,
# compile-error / unsupported, ptxas-failure, run-error, timeout;
# skipped: no step could run), the saving of every non-pass case with
# its logs, its reduction to a minimal module that fails the same way,
# the summary (per class and fusion kind, per distinct failure with its
# seeds, a SKIPPED line per step or case not run and why) and the exit
# status (--fail-on classes, and --max-refused: the share of a kind's
# cases the compiler may refuse).
#
# Standard library only.
import argparse
import collections
import concurrent.futures
import copy
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hlo_fuzz_gen as gen  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from fuzz_outcomes import (  # noqa: E402
    BUG_CLASSES,
    CLASSES,
    REFUSED_CLASSES,
    STEPS,
    CRASH_TEXT,
    ERROR_LINE,
    normalize,
    Tools,
    run_cmd,
    classify_compile,
    BOILERPLATE,
    crash_text,
    classify_run,
    mismatch_summary,
    signature)


class Runner:
    def __init__(self, tools, steps):
        self.t = tools
        self.steps = steps

    def write_case(self, case, d):
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, 'module.hlo'), 'w') as f:
            f.write(case.hlo())
        inputs, listing = [], []
        for n, (dtype, dims, values) in sorted(case.inputs().items()):
            name = 'input_%d.npy' % n
            with open(os.path.join(d, name), 'wb') as f:
                f.write(gen.npy_bytes(dtype, dims, values))
            inputs.append('%d=%s' % (n, name))
            listing.append('parameter %d %s[%s]: %s' % (
                n, dtype, ','.join(map(str, dims)), ' '.join(map(str, values[:64])) +
                (' ...' if len(values) > 64 else '')))
        with open(os.path.join(d, 'repro.sh'), 'w') as f:
            f.write('#!/bin/sh\n# seed %d, kind %s; index inputs (the rest: hlo-run\'s own):\n' % (
                case.seed, case.kind))
            for l in listing:
                f.write('#   %s\n' % l)
            f.write('cd "$(dirname "$0")"\n')
            arch = ' --gpu-arch=%s' % case.arch if getattr(case, 'arch', None) else ''
            mode = ' --mode %s' % case.run_mode if getattr(case, 'run_mode', None) else ''
            flags = ''.join(' ' + flag for flag in getattr(case, 'compile_flags', []))
            f.write('${HLO_COMPILE:-hlo-compile}%s%s --target=host -w module.hlo -o kernels.so '
                    '--manifest kernels.json &&\n  ${HLO_RUN:-hlo-run} module.hlo --manifest '
                    'kernels.json%s%s\n' % (arch, flags, mode,
                                             ''.join(' --input ' + i for i in inputs)))
            for step in ('sm_80', 'sm_90'):
                a = cubin_arch(case, step)
                f.write('${HLO_COMPILE:-hlo-compile} -arch %s%s --emit=cubin -w module.hlo '
                        '-o kernels_%s.cubin\n' % (a, flags, a))
        os.chmod(os.path.join(d, 'repro.sh'), 0o755)
        return inputs

    def analysis(self, d):
        rc, out, _ = run_cmd([self.t.hlo_compile, '--emit=fusion-analysis', '-w', 'module.hlo'],
                             self.t.timeout, d)
        if rc != 0:
            return '?'
        kinds = []
        for l in out.splitlines():
            m = re.match(r'^\S+: (k\w+(?:/\w+)?)', l)
            if m and m.group(1) not in kinds:
                kinds.append(m.group(1))
        return '+'.join(kinds) or '?'

    def check(self, case, d, steps=None, logs=True):
        """Runs the steps on `case` in directory d; returns
        {step: (class, message, seconds)} and the step logs."""
        steps = steps or self.steps
        if case.kind == 'large':  # too large to run here: compiled only
            steps = [s for s in steps if s.startswith('sm_')]
        inputs = self.write_case(case, d)
        if not steps:  # nothing ran: the caller counts the case as skipped
            return {}
        results, outputs = {}, {}
        host_ok = False
        for step in steps:
            if step == 'host-compile':
                argv = [self.t.hlo_compile, '--target=host', '-w', 'module.hlo', '-o', 'kernels.so',
                        '--manifest', 'kernels.json']
                if getattr(case, 'arch', None):
                    argv.insert(1, '--gpu-arch=%s' % case.arch)
                argv[1:1] = getattr(case, 'compile_flags', [])
                rc, out, sec = run_cmd(argv, self.t.timeout, d)
                cls, msg = classify_compile(rc, out)
                host_ok = cls == 'pass'
            elif step == 'host-run':
                if 'host-compile' in steps and not host_ok:
                    continue
                argv = [self.t.hlo_run, 'module.hlo', '--manifest', 'kernels.json']
                if getattr(case, 'run_mode', None):
                    argv += ['--mode', case.run_mode]
                if self.t.host_threads:
                    argv += ['--host-threads', str(self.t.host_threads)]
                for i in inputs:
                    argv += ['--input', i]
                rc, out, sec = run_cmd(argv, self.t.timeout, d)
                cls, msg = classify_run(rc, out)
            else:
                arch = cubin_arch(case, step)
                argv = [self.t.hlo_compile, '-arch', arch, '--emit=cubin', '-w', 'module.hlo',
                        '-o', 'kernels_%s.cubin' % step, '--manifest', 'kernels_%s.json' % step]
                argv[1:1] = getattr(case, 'compile_flags', [])
                if self.t.cuda:
                    argv += ['--cuda-path=%s' % self.t.cuda]
                rc, out, sec = run_cmd(argv, self.t.timeout, d)
                cls, msg = classify_compile(rc, out, cubin=True)
                if arch != step and cls != 'pass':
                    msg = '[%s] %s' % (arch, msg)
            results[step] = (cls, msg, round(sec, 2))
            outputs[step] = '$ %s\n%s\n[exit %s, %.2f s]\n' % (' '.join(argv), out, rc, sec)
        if logs:
            with open(os.path.join(d, 'steps.log'), 'w') as f:
                for step in steps:
                    if step in outputs:
                        f.write('==== %s: %s %s\n%s\n' % (step, results[step][0], results[step][1],
                                                         outputs[step]))
        for junk in ('kernels.so', 'kernels_sm_80.cubin', 'kernels_sm_90.cubin'):
            p = os.path.join(d, junk)
            if os.path.exists(p) and not logs:
                os.unlink(p)
        return results


def cubin_arch(case, step):
    """The architecture a cubin step compiles `case` for: the step's own
    (sm_80, sm_90), or the case's (Case.cubin_archs: the gemm kind's cases
    carry theirs, sm_80 / sm_89 / sm_90a, and 8-bit float GEMMs never ask
    for sm_80, which has no 8-bit float tensor cores)."""
    archs = getattr(case, 'cubin_archs', None) or {}
    return archs.get(step, step)


def primary(results):
    """The first finding of a case, by severity: (class, step, message)."""
    order = ['crash', 'fault', 'mismatch', 'ptxas-failure', 'timeout', 'compile-error',
             'run-error', 'tool-error', 'unsupported']
    best = None
    for step in STEPS:
        if step not in results:
            continue
        cls, msg, _ = results[step]
        if cls == 'pass':
            continue
        if best is None or order.index(cls) < order.index(best[0]):
            best = (cls, step, msg)
    return best or ('pass', '', '')


def all_findings(results):
    out = []
    for step in STEPS:
        if step in results and results[step][0] != 'pass':
            out.append((results[step][0], step, results[step][1]))
    return out


def case_size(case):
    elems = 0
    for i in case.insts:
        shapes = i.shape.elements if isinstance(i.shape, gen.TupleShape) else [i.shape]
        for s in shapes:
            elems += gen.prod(s.dims)
    return (len(case.insts), elems)


class Reducer:
    """Delta debugging over the generator's structure: the same seed with a
    smaller op budget and smaller shapes; then over the instructions
    (replace one by a parameter, bypass an elementwise op, drop an output
    of a tuple root, simplify the entry)."""

    def __init__(self, runner, case, cls, step, sig, emitter, workdir, deadline, log):
        self.runner = runner
        self.best = case
        self.cls = cls
        self.step = step
        self.sig = sig
        self.emitter = emitter
        self.workdir = workdir
        self.deadline = deadline
        self.tries = 0
        self.log = log
        self.steps = ['host-compile', 'host-run'] if step in ('host-compile', 'host-run') else [step]

    def fails(self, case):
        if time.time() > self.deadline:
            return False
        self.tries += 1
        d = os.path.join(self.workdir, 'try')
        shutil.rmtree(d, ignore_errors=True)
        try:
            text = case.hlo()
        except Exception:
            return False
        results = self.runner.check(case, d, self.steps, logs=False)
        if self.step not in results:
            return False
        cls, msg, _ = results[self.step]
        if cls != self.cls:
            return False
        emitter = self.emitter
        if cls in ('mismatch', 'fault', 'timeout'):
            emitter = self.runner.analysis(d)
            # the same emitter, or at least the same fusion kind
            if emitter.split('/')[0] != self.emitter.split('/')[0]:
                return False
        ok = signature(cls, self.step, msg, emitter) == self.sig
        if ok:
            self.log.append('  try %d: still fails (%d instructions, %d elements)' % (
                (self.tries,) + case_size(case)))
        return ok

    def consider(self, candidate):
        if candidate is None:
            return False
        if case_size(candidate) >= case_size(self.best):
            return False
        if self.fails(candidate):
            self.best = candidate
            return True
        return False

    def reduce(self):
        seed, kind = self.best.seed, self.best.kind
        knobs = self.best.knobs
        # 1. the generator's knobs
        for ops in sorted({0, 1, knobs['ops'] // 4, knobs['ops'] // 2}):
            if ops >= knobs['ops']:
                continue
            if self.consider(safe_generate(seed, kind, ops, knobs['scale'])):
                knobs = self.best.knobs
                break
        for scale in (0.05, 0.15, 0.3, 0.6):
            if scale >= knobs['scale']:
                continue
            if self.consider(safe_generate(seed, kind, knobs['ops'], scale)):
                knobs = self.best.knobs
                break
        # 2. the instructions
        progress = True
        while progress and time.time() < self.deadline:
            progress = False
            for mutate in (self.drop_outputs, self.reroot, self.bypass, self.to_parameter,
                           self.simpler_entry):
                if mutate():
                    progress = True
        return self.best

    def variants(self, fn):
        n = len(self.best.insts)
        for i in reversed(range(n)):
            c = copy.deepcopy(self.best)
            try:
                if fn(c, i) is False:
                    continue
                c.live()
                if c.root().op in ('parameter', 'constant'):
                    continue
            except Exception:
                continue
            yield c

    def first(self, fn):
        for c in self.variants(fn):
            if time.time() > self.deadline:
                return False
            if self.consider(c):
                return True
        return False

    def drop_outputs(self):
        def fn(c, i):
            root = c.root()
            if i != len(c.insts) - 1 or root.op != 'tuple' or len(root.operands) < 2:
                return False
            return None
        progress = False
        root = self.best.root()
        if root.op == 'tuple':
            for k in range(len(root.operands)):
                c = copy.deepcopy(self.best)
                r = c.root()
                keep = r.operands[k]
                c.insts.remove(r)
                c.insts.remove(keep)
                c.insts.append(keep)
                c.live()
                if c.root().op in ('parameter', 'constant', 'get-tuple-element'):
                    continue
                if self.consider(c):
                    return True
        return progress

    def to_parameter(self):
        def fn(c, i):
            inst = c.insts[i]
            if inst.op in ('parameter',) or i == len(c.insts) - 1:
                return False
            if isinstance(inst.shape, gen.TupleShape):
                return False
            if inst.op == 'constant' and not inst.shape.dims:
                return False
            p = gen.Inst(inst.name, inst.shape, 'parameter')
            for other in c.insts:
                other.operands = [p if o is inst else o for o in other.operands]
            c.insts[i] = p
            return True
        return self.first(fn)

    def reroot(self):
        """An intermediate instruction becomes the root (what follows it
        goes)."""
        def fn(c, i):
            inst = c.insts[i]
            if i == len(c.insts) - 1 or inst.op in ('parameter', 'constant', 'get-tuple-element'):
                return False
            c.insts.remove(inst)
            c.insts.append(inst)
            return True
        return self.first(fn)

    def bypass(self):
        """An instruction is replaced by one of its operands of the same
        shape (each in turn)."""
        for k in range(3):
            def fn(c, i, k=k):
                inst = c.insts[i]
                if inst.op in ('parameter', 'constant', 'iota', 'tuple', 'get-tuple-element'):
                    return False
                if isinstance(inst.shape, gen.TupleShape):
                    return False
                same = [o for o in inst.operands if isinstance(o.shape, gen.Shape)
                        and o.shape.dtype == inst.shape.dtype and o.shape.dims == inst.shape.dims]
                if len(same) <= k:
                    return False
                repl = same[k]
                for other in c.insts:
                    other.operands = [repl if o is inst else o for o in other.operands]
                was_root = i == len(c.insts) - 1
                del c.insts[i]
                if was_root:
                    # the root was bypassed: its operand becomes the root
                    c.insts.remove(repl)
                    c.insts.append(repl)
                return True
            if self.first(fn):
                return True
        return False

    def simpler_entry(self):
        progress = False
        for attr, value in (('style', 'bare'), ('percent', False), ('with_layout', False)):
            if getattr(self.best, attr) == value:
                continue
            if attr == 'style' and (self.best.backend_config or self.best.style == 'alias'):
                continue
            c = copy.deepcopy(self.best)
            setattr(c, attr, value)
            # same size: accept without the size rule
            if self.fails(c):
                self.best = c
                progress = True
        return False if not progress else False


def safe_generate(seed, kind=None, ops=None, scale=1.0):
    try:
        return gen.generate(seed, kind, ops, scale)
    except Exception as e:  # a generator bug must not stop the run
        sys.stderr.write('generator failed for seed %d: %r\n' % (seed, e))
        return None


class Fuzzer:
    def __init__(self, args, tools):
        self.args = args
        self.runner = Runner(tools, args.steps)
        self.out = args.out
        self.lock = threading.Lock()
        self.results = []
        self.reduced_sigs = collections.Counter()
        self.work = tempfile.mkdtemp(prefix='hlo-fuzz-')

    def one(self, seed):
        try:
            r = self.one_unguarded(seed)
        except Exception as e:  # a driver bug must not end the run
            import traceback
            r = {'seed': seed, 'kind': '?', 'class': 'tool-error', 'step': 'driver',
                 'message': 'driver failed: %r' % e, 'emitter': '?', 'features': [],
                 'findings': [('tool-error', 'host-compile', 'driver failed: %r' % e)],
                 'traceback': traceback.format_exc()}
        with self.lock:
            with open(os.path.join(self.out, 'results.jsonl'), 'a') as f:
                f.write(json.dumps(r) + '\n')
        return r

    def one_unguarded(self, seed):
        # Every tenth seed of a mixed run: a fusion of more than 2^31
        # elements, compiled and assembled only.
        kind = self.args.kind or ('large' if seed % 10 == 0 else None)
        case = safe_generate(seed, kind)
        if case is None:
            return {'seed': seed, 'kind': '?', 'class': 'tool-error', 'step': 'generate',
                    'message': 'generator failed', 'emitter': '?', 'features': []}
        d = os.path.join(self.work, 'seed-%d' % seed)
        t0 = time.time()
        results = self.runner.check(case, d)
        emitter = self.runner.analysis(d)
        cls, step, msg = primary(results)
        if not results:
            cls, step, msg = 'skipped', '', 'no step to run (%s cases: %s; steps here: %s)' % (
                case.kind, 'cubin steps only' if case.kind == 'large' else 'all',
                ','.join(self.args.steps) or 'none')
        r = {'seed': seed, 'kind': case.kind, 'class': cls, 'step': step, 'message': msg,
             'emitter': emitter, 'features': case.features,
             'steps': {s: list(v) for s, v in results.items()},
             'findings': all_findings(results), 'seconds': round(time.time() - t0, 2)}
        if cls == 'skipped':
            r['signature'] = 'skipped: ' + msg
        elif cls != 'pass':
            r['signature'] = signature(cls, step, msg, emitter)
            dest = os.path.join(self.out, 'cases', cls, '%s-seed%d' % (case.kind, seed))
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(d, dest, ignore=shutil.ignore_patterns('*.so', '*.cubin', 'try'))
            r['dir'] = os.path.relpath(dest, self.out)
            with self.lock:
                self.reduced_sigs[r['signature']] += 1
                reduce_it = (self.args.reduce and cls not in ('unsupported',) or
                             self.args.reduce_unsupported) and \
                    self.reduced_sigs[r['signature']] <= self.args.reduce_per_signature
            if reduce_it:
                log = []
                red = Reducer(self.runner, case, cls, step, r['signature'], emitter,
                              os.path.join(self.work, 'reduce-%d' % seed),
                              time.time() + self.args.reduce_seconds, log)
                best = red.reduce()
                rd = os.path.join(dest, 'reduced')
                res = self.runner.check(best, rd, red.steps)
                for junk in os.listdir(rd):
                    if junk.endswith('.so') or junk.endswith('.cubin'):
                        os.unlink(os.path.join(rd, junk))
                r['reduced'] = os.path.relpath(os.path.join(rd, 'module.hlo'), self.out)
                r['reduced_size'] = case_size(best)
                r['original_size'] = case_size(case)
                r['reduce_tries'] = red.tries
                with open(os.path.join(rd, 'reduce.log'), 'w') as f:
                    f.write('\n'.join(log) + '\n')
            with open(os.path.join(dest, 'result.json'), 'w') as f:
                json.dump(r, f, indent=1)
        shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(os.path.join(self.work, 'reduce-%d' % seed), ignore_errors=True)
        return r

    def run(self):
        a = self.args
        os.makedirs(self.out, exist_ok=True)
        if os.path.exists(os.path.join(self.out, 'results.jsonl')):
            os.unlink(os.path.join(self.out, 'results.jsonl'))
        deadline = time.time() + a.minutes * 60 if a.minutes else None
        seeds = iter(range(a.seed, a.seed + (a.cases if a.cases else 10 ** 9)))
        pending = set()
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
            def submit():
                if deadline and time.time() > deadline:
                    return False
                s = next(seeds, None)
                if s is None:
                    return False
                pending.add(pool.submit(self.one, s))
                return True
            for _ in range(a.jobs):
                if not submit():
                    break
            while pending:
                done, _ = concurrent.futures.wait(pending,
                                                  return_when=concurrent.futures.FIRST_COMPLETED)
                for f in done:
                    pending.discard(f)
                    r = f.result()
                    self.results.append(r)
                    self.progress(r)
                    submit()
        shutil.rmtree(self.work, ignore_errors=True)
        return self.summary()

    def progress(self, r):
        line = 'seed %d %-9s %-14s %s' % (r['seed'], r['kind'], r['class'], r.get('emitter', ''))
        if r['class'] != 'pass':
            line += '  ' + r.get('signature', '')[:160]
            if r.get('reduced'):
                line += '  -> %s (%d insts)' % (r['reduced'], r['reduced_size'][0])
        if not self.args.quiet or r['class'] != 'pass':
            print(line, flush=True)

    def summary(self):
        a = self.args
        res = sorted(self.results, key=lambda r: r['seed'])
        lines = []
        kinds = sorted({r['kind'] for r in res})
        used = [c for c in CLASSES if any(r['class'] == c for r in res)]
        lines.append('')
        lines.append('== hlo-compile fuzz: %d cases, seeds %d..%d ==' % (
            len(res), res[0]['seed'] if res else 0, res[-1]['seed'] if res else 0))
        head = '%-10s' % 'kind' + ''.join('%15s' % c for c in used) + '%8s' % 'total'
        lines.append(head)
        for k in kinds + ['ALL']:
            row = [r for r in res if k == 'ALL' or r['kind'] == k]
            lines.append('%-10s' % k + ''.join('%15d' % sum(1 for r in row if r['class'] == c)
                                               for c in used) + '%8d' % len(row))
        emitters = collections.Counter(r.get('emitter', '?') for r in res)
        lines.append('')
        lines.append('emitters (fusion analysis, sm_90):')
        for e, n in emitters.most_common():
            bad = sum(1 for r in res if r.get('emitter') == e and r['class'] in BUG_CLASSES)
            lines.append('  %-60s %5d cases, %d with a bug class' % (e, n, bad))
        sigs = collections.OrderedDict()
        for r in res:
            for cls, step, msg in r.get('findings', []):
                s = signature(cls, step, msg, r.get('emitter', '?'))
                sigs.setdefault(s, []).append(r)
        if sigs:
            lines.append('')
            lines.append('distinct findings (every step of every case):')
            for s, rows in sorted(sigs.items(), key=lambda kv: (CLASSES.index(kv[0].split()[0])
                                                               if kv[0].split()[0] in CLASSES else 99,
                                                               -len(kv[1]))):
                seeds = [r['seed'] for r in rows]
                lines.append('  [%d] %s' % (len(rows), s))
                lines.append('      kinds: %s; seeds: %s%s' % (
                    ','.join(sorted({r['kind'] for r in rows})),
                    ' '.join(map(str, seeds[:12])), ' ...' if len(seeds) > 12 else ''))
                for r in rows:
                    if r.get('reduced'):
                        lines.append('      reduced: %s/%s (%d -> %d instructions)' % (
                            self.out, r['reduced'], r['original_size'][0], r['reduced_size'][0]))
        bugs = [r for r in res if r['class'] in a.fail_on]
        # A kind whose valid modules the compiler mostly refuses is not
        # checked: more than --max-refused of its (not skipped) cases.
        refused = []
        max_refused = getattr(a, 'max_refused', None)
        for k in kinds:
            row = [r for r in res if r['kind'] == k and r['class'] != 'skipped']
            n = sum(1 for r in row if r['class'] in REFUSED_CLASSES)
            if max_refused is not None and row and n > max_refused * len(row):
                refused.append('%s %d of %d' % (k, n, len(row)))
        lines.append('')
        # What did not run, and why (scripts/test.sh lists these lines).
        for note in getattr(a, 'skipped_steps', []):
            lines.append('SKIPPED: fuzz %s: %s' % (self.out, note))
        skipped = [r for r in res if r['class'] == 'skipped']
        for msg in sorted({r['message'] for r in skipped}):
            rows = [r for r in skipped if r['message'] == msg]
            lines.append('SKIPPED: fuzz %s: %d case(s), %s; seeds %s' % (
                self.out, len(rows), msg, ' '.join(str(r['seed']) for r in rows[:12]) +
                (' ...' if len(rows) > 12 else '')))
        if bugs:
            lines.append('FAILED: %d case(s) of class %s; seeds %s (rerun one: scripts/fuzz.sh '
                         '--cases 1 --seed S --out DIR; cases saved under %s/cases)' % (
                             len(bugs), '/'.join(sorted({r['class'] for r in bugs})),
                             ' '.join(str(r['seed']) for r in bugs), self.out))
        if refused:
            lines.append('FAILED: the compiler refused (%s) more than %g of the cases of: %s' % (
                '/'.join(REFUSED_CLASSES), max_refused, ', '.join(refused)))
        if not bugs and not refused:
            lines.append('OK: no case of class %s%s' % (
                '/'.join(a.fail_on), '' if max_refused is None else
                '; no kind with more than %g of its cases %s' % (
                    max_refused, '/'.join(REFUSED_CLASSES))))
        text = '\n'.join(lines)
        print(text)
        with open(os.path.join(self.out, 'summary.txt'), 'w') as f:
            f.write(text + '\n')
        with open(os.path.join(self.out, 'results.json'), 'w') as f:
            json.dump(res, f, indent=1)
        return 1 if bugs or refused else 0


def main():
    ap = argparse.ArgumentParser(
        description='Differential fuzzer of hlo-compile: random fusions, compiled for the host '
                    'and checked against the interpreter by hlo-run, and compiled to cubin.')
    ap.add_argument('--minutes', type=float, help='run for this long (new cases start until then)')
    ap.add_argument('--cases', type=int, help='run this many cases (seeds S, S+1, ...)')
    ap.add_argument('--seed', type=int, default=1, help='first seed (default 1)')
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--out', default='fuzz-out/compiler')
    ap.add_argument('--kind', choices=gen.KINDS, help='only this fusion kind')
    ap.add_argument('--timeout', type=float, default=60, help='seconds per step (default 60)')
    ap.add_argument('--no-reduce', dest='reduce', action='store_false')
    ap.add_argument('--reduce-unsupported', action='store_true',
                    help='reduce "unsupported:" refusals too')
    ap.add_argument('--reduce-seconds', type=float, default=240,
                    help='time per reduction (default 240)')
    ap.add_argument('--reduce-per-signature', type=int, default=1,
                    help='cases reduced per distinct failure (default 1)')
    ap.add_argument('--steps', default=','.join(STEPS),
                    help='comma-separated subset of %s' % ','.join(STEPS))
    ap.add_argument('--fail-on', default=','.join(BUG_CLASSES),
                    help='classes that make the exit status 1 (default %s)' % ','.join(BUG_CLASSES))
    ap.add_argument('--max-refused', type=float, metavar='SHARE',
                    help='exit 1 if more than this share (0..1) of the cases of any kind end '
                         'as %s (default: no limit)' % '/'.join(REFUSED_CLASSES))
    ap.add_argument('--hlo-compile', default=os.environ.get('HLO_COMPILE',
                                                            os.path.join(ROOT, 'build/bin/hlo-compile')))
    ap.add_argument('--hlo-run', default=os.environ.get('HLO_RUN', os.path.join(ROOT, 'build/bin/hlo-run')))
    ap.add_argument('--cuda-path', default=os.environ.get('CUDA_HOME'))
    ap.add_argument('--host-threads', type=int, default=0,
                    help="hlo-run's --host-threads (default: its own)")
    ap.add_argument('-q', '--quiet', action='store_true', help='print only the non-pass cases')
    ap.add_argument('--summary', metavar='DIR',
                    help="only print the summary of an earlier run's DIR/results.json")
    args = ap.parse_args()
    args.steps = [s for s in args.steps.split(',') if s]
    args.fail_on = [s for s in args.fail_on.split(',') if s]
    for s in args.steps:
        if s not in STEPS:
            ap.error('unknown step %s' % s)
    if args.summary:
        args.out = os.path.abspath(args.summary)
        f = Fuzzer.__new__(Fuzzer)
        f.args, f.out = args, args.out
        with open(os.path.join(args.out, 'results.json')) as fp:
            f.results = json.load(fp)
        return f.summary()
    if not args.minutes and not args.cases:
        args.cases = 20
    for tool in (args.hlo_compile, args.hlo_run):
        if not os.access(tool, os.X_OK):
            sys.stderr.write('hlo_fuzz: no executable %s (build first, or set HLO_COMPILE / '
                             'HLO_RUN)\n' % tool)
            return 2
    cuda = args.cuda_path or '/usr/local/cuda'
    args.skipped_steps = []
    if any(s.startswith('sm_') for s in args.steps) and \
            not os.access(os.path.join(cuda, 'bin', 'ptxas'), os.X_OK):
        sys.stderr.write('hlo_fuzz: no %s/bin/ptxas: the cubin steps are skipped\n' % cuda)
        args.skipped_steps.append('the cubin steps (%s) of every case: no %s/bin/ptxas' % (
            ', '.join(s for s in args.steps if s.startswith('sm_')), cuda))
        args.steps = [s for s in args.steps if not s.startswith('sm_')]
    args.out = os.path.abspath(args.out)
    tools = Tools(args.hlo_compile, args.hlo_run, args.timeout, args.cuda_path, args.host_threads)
    return Fuzzer(args, tools).run()


if __name__ == '__main__':
    sys.exit(main())
