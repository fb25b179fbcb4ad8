#!/usr/bin/env python3
"""PTX instructions of one f32 -> TYPE -> f32 conversion kernel: hlo-compile
against XLA (bench/results/fp8-conversions-xla.tsv, made by
xla-conversions/summarize.py from the same HLO), for sm_80 and sm_90.

  bench/fp8/compare-conversions.py [--hlo-compile PATH]
      writes bench/results/fp8-conversions.tsv and prints it.

The module is xla-conversions/TYPE.hlo with its two converts in one loop
fusion, as XLA fuses them (XLA compiled it with
xla_allow_excess_precision=false, which keeps the pair). Instructions are
counted as summarize.py counts them: body lines that are not directives,
labels, braces, comments or `ret;`. Registers from ptxas -v.
"""
import argparse
import csv
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TYPES = ['f8e4m3fn', 'f8e5m2', 'f8e4m3fnuz', 'f8e5m2fnuz', 'f8e4m3b11fnuz', 'f8e3m4',
         'f8e4m3', 'f8e8m0fnu', 'f4e2m1fn']

FUSED = """HloModule roundtrip_{t}

fused {{
  p = f32[1048576]{{0}} parameter(0)
  c = {t}[1048576]{{0}} convert(p)
  ROOT r = f32[1048576]{{0}} convert(c)
}}

ENTRY main {{
  p = f32[1048576]{{0}} parameter(0)
  ROOT f = f32[1048576]{{0}} fusion(p), kind=kLoop, calls=fused
}}
"""


def body_instructions(ptx):
    count = 0
    inside = False
    for line in ptx.splitlines():
        s = line.split('//')[0].strip()
        if s.startswith('.visible .entry') or s.startswith('.entry'):
            inside = True
            continue
        if not inside:
            continue
        if not s or s.startswith('.') or s in ('{', '}', ')') or s.endswith(':') or s == 'ret;' \
                or s.startswith('(') or s.startswith('.param'):
            continue
        count += 1
    return count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hlo-compile', default=os.path.join(ROOT, 'build/bin/hlo-compile'))
    args = ap.parse_args()
    xla = {}
    with open(os.path.join(ROOT, 'bench/results/fp8-conversions-xla.tsv')) as f:
        for row in csv.DictReader(f, delimiter='\t'):
            if row['direction'] == 'f32->T->f32':
                xla[(row['type'], row['arch'])] = row
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for t in TYPES:
            path = os.path.join(tmp, t + '.hlo')
            with open(path, 'w') as f:
                f.write(FUSED.format(t=t))
            for arch in ('sm_80', 'sm_90'):
                ptx = subprocess.run([args.hlo_compile, '-arch', arch, path, '-o', '-'],
                                     check=True, capture_output=True, text=True).stdout
                usage = subprocess.run([args.hlo_compile, '-arch', arch, '--emit=cubin',
                                        '--resource-usage', path, '-o',
                                        os.path.join(tmp, t + arch + '.cubin')],
                                       check=True, capture_output=True, text=True).stderr
                registers = re.search(r'^f\s+(\d+)', usage, re.M).group(1)
                hardware = sorted(set(re.findall(r'cvt\.rn(?:\.satfinite)?\.\w+x2(?:\.\w+)?', ptx)))
                block = re.search(r'\.reqntid\s+(\d+)', ptx)
                x = xla.get((t, arch), {})
                rows.append([t, arch, str(body_instructions(ptx)), registers,
                             ','.join(hardware) or '-', x.get('ptx_instructions', '?'),
                             x.get('registers', '?'), x.get('hw_cvt_ops', '?')])
    header = ['type', 'arch', 'ours_ptx_instructions', 'ours_registers', 'ours_hw_cvt',
              'xla_ptx_instructions', 'xla_registers', 'xla_hw_cvt']
    out = os.path.join(ROOT, 'bench/results/fp8-conversions.tsv')
    with open(out, 'w') as f:
        f.write('\t'.join(header) + '\n')
        for r in rows:
            f.write('\t'.join(r) + '\n')
    print(open(out).read(), end='')


if __name__ == '__main__':
    main()
