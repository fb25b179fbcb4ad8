#!/usr/bin/env python3
# fuzz_outcomes.py - how the compiler fuzzer names what a step did.
#
# Owns: the outcome classes (pass, mismatch, fault, crash, ptxas-failure,
# compile-error / unsupported, run-error, timeout, tool-error, skipped;
# which are bugs and which are refusals), the run of one tool with a
# timeout, the classification of hlo-compile's and hlo-run's exit status
# and output into those classes, and the signature that groups the same
# failure of different modules. hlo_fuzz.py (the driver) imports it.
#
# Standard library only.
import os
import re
import signal
import subprocess
import time

# Classes that are bugs of the compiler (or of its reference interpreter).
BUG_CLASSES = ['mismatch', 'fault', 'crash', 'ptxas-failure']
# Order of the summary's columns.
CLASSES = ['pass', 'mismatch', 'fault', 'crash', 'ptxas-failure', 'compile-error',
           'unsupported', 'run-error', 'timeout', 'tool-error', 'skipped']
# Classes where the compiler refused a valid module of a kind it claims
# (--max-refused bounds their share per kind).
REFUSED_CLASSES = ['unsupported', 'compile-error']
STEPS = ['host-compile', 'host-run', 'sm_80', 'sm_90']
CRASH_TEXT = re.compile(r'internal error|LLVM ERROR|Assertion .* failed|assertion failed|'
                        r'terminate called|Segmentation fault|Stack dump|PLEASE submit a bug '
                        r'report|UNREACHABLE|Aborted|core dumped|AddressSanitizer|'
                        r'std::bad_alloc|std::out_of_range|uncaught exception', re.I)
ERROR_LINE = re.compile(r'^(?:[^\s:]+):(\d+):(\d+): error: (.*)$', re.M)


def normalize(message):
    """A message with its numbers, names and shapes blurred, so that the same
    failure of different modules has one signature."""
    # Quoted instruction and kernel names go; MLIR op names ('math.ctlz')
    # and element types stay: they tell failures apart.
    m = re.sub(r"(?<!\w)'([^']*)'", lambda q: q.group(0) if re.fullmatch(
        r'[a-z_]+\.[a-z_.]+|pred|bf16|[suf]\d+', q.group(1)) else "'_'", message)
    m = re.sub(r'\b[a-z]+\d*\[[0-9,]*\](\{[^}]*\})?', 'T[..]', m)
    m = re.sub(r'%?[A-Za-z_][\w.-]*\.\d+', 'NAME', m)
    m = re.sub(r'-?\d+(\.\d+)?', 'N', m)
    return m.strip()[:300]


class Tools:
    def __init__(self, hlo_compile, hlo_run, timeout, cuda_path=None, host_threads=0):
        self.hlo_compile = hlo_compile
        self.hlo_run = hlo_run
        self.timeout = timeout
        self.cuda = cuda_path
        self.host_threads = host_threads


def run_cmd(argv, timeout, cwd):
    start = time.time()
    try:
        p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, start_new_session=True)
        out = p.stdout.decode('utf-8', 'replace')
        rc = p.returncode
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b'').decode('utf-8', 'replace')
        rc = None
    return rc, out, time.time() - start


def classify_compile(rc, out, cubin=False):
    """(class, message) of one hlo-compile run."""
    if rc is None:
        return 'timeout', 'timed out'
    if rc == 0:
        return 'pass', ''
    crash = CRASH_TEXT.search(out)
    if rc < 0 or rc >= 128 or crash:
        if rc < 0:
            what = 'signal %s' % signal.Signals(-rc).name if -rc in signal.Signals._value2member_map_ \
                else 'signal %d' % -rc
        else:
            what = 'exit %d' % rc
        return 'crash', '%s: %s' % (what, crash_text(out))
    if cubin and 'cannot run' not in out and re.search(
            r'ptxas failed|ptxas wrote no output|ptxas[^\n]*(error|fatal)', out, re.I):
        lines = [l for l in out.splitlines() if re.search(r'error|fatal', l, re.I)
                 and 'ptxas failed' not in l]
        lines = lines or [l for l in out.splitlines() if 'ptxas' in l]
        return 'ptxas-failure', (lines[0].strip() if lines else out.strip()[:200])
    m = ERROR_LINE.search(out)
    if m:
        message = m.group(3)
        if message.startswith('unsupported'):
            return 'unsupported', message
        return 'compile-error', message
    first = out.strip().splitlines()[0] if out.strip() else 'exit %d, no output' % rc
    if 'error' in first:
        if 'unsupported' in first:
            return 'unsupported', first
        return 'compile-error', first
    return 'tool-error', first


BOILERPLATE = re.compile(r'PLEASE submit|Stack dump|Program arguments|^\s*#\d+|^\s*\d+\.\s')


def crash_text(out):
    """The telling part of a crash: the first message that is not LLVM's
    stack-dump boilerplate (an assertion, 'free(): invalid pointer', the
    LLVM error), and the innermost frame of the compiler's own code."""
    message = ''
    for l in out.splitlines():
        if l.strip() and not BOILERPLATE.search(l) and not l.startswith('$ '):
            message = l.strip()
            break
    frame = ''
    for l in out.splitlines():
        l = l.replace('(anonymous namespace)', '{anon}')
        m = re.match(r'\s*#\d+ 0x[0-9a-f]+ (\S*hlo::[^( ]*)', l)
        if m and 'Signal' not in m.group(1):
            frame = re.sub(r'\(.*', '', m.group(1))
            frame = re.sub(r'std::__cxx11::basic_string<[^>]*>', 'string', frame)
            break
    text = message or '(no message)'
    if frame:
        text += ' @ ' + frame
    return text[:300]


def classify_run(rc, out):
    if rc is None:
        return 'timeout', 'timed out'
    if rc == 0:
        return 'pass', ''
    if rc < 0 or rc >= 128 or CRASH_TEXT.search(out):
        if 'kernel fault' in out or 'segmentation fault' in out.lower() and 'kernel' in out:
            lines = [l for l in out.splitlines() if 'fault' in l]
            return 'fault', lines[0].strip() if lines else 'kernel fault'
        # hlo-run's own progress lines come first: the last line tells.
        last = [l.strip() for l in out.splitlines() if l.strip() and not BOILERPLATE.search(l)]
        text = crash_text(out)
        if last and not last[-1].startswith('checking') and text.startswith(('device:', '(no')):
            text = last[-1] + text[text.index(' @ '):] if ' @ ' in text else last[-1]
        return 'crash', 'hlo-run exit %d: %s' % (rc, text)
    if rc == 1:
        if 'kernel fault' in out:
            lines = [l for l in out.splitlines() if 'kernel fault' in l]
            return 'fault', lines[0].strip()
        return 'mismatch', mismatch_summary(out)
    lines = [l for l in out.splitlines() if 'error' in l.lower()] or out.strip().splitlines()[-1:]
    return 'run-error', (lines[0].strip() if lines else 'exit %d' % rc)


def mismatch_summary(out):
    lines = [l.strip() for l in out.splitlines()
             if re.search(r'mismatch|FAIL|expected|differ|max abs', l, re.I)]
    return ' | '.join(lines[:4])[:400]


def signature(cls, step, message, emitter):
    if cls in ('mismatch', 'fault'):
        return '%s %s [%s]' % (cls, step, emitter)
    if cls == 'timeout':
        return '%s %s [%s]' % (cls, step, emitter)
    return '%s %s: %s' % (cls, step if cls != 'compile-error' and cls != 'unsupported'
                          else 'compile', normalize(message))
