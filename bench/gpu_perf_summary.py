#!/usr/bin/env python3
"""The summary of a GPU performance run (scripts/gpu-perf.sh run), as
markdown a closing note can paste.

  gpu_perf_summary.py RESULTS_DIR [--worst N]

Reads what the run wrote under RESULTS_DIR: check/<dump>.tsv (hlo-run
--xla-kernels reports of the correctness pass), perf/<dump>.tsv (the timing
pass, --time-only), gemm.tsv (the GEMM bench) and log.txt. Prints:
correctness per dump (our kernels and XLA's: passed / failed / not
checked), then per dump the geometric mean of ours/XLA's time over the
kernels both timed and the ratio of the summed times, overall figures, the
N slowest of ours against XLA's (default 20) with their emitters, and the
GEMM table. Standard library only (runs on the GPU machine).
"""
import argparse
import csv
import math
import os
import sys


def read_rows(path):
    """The rows of one hlo-run --report file (header per run; a file may
    hold several runs' rows appended)."""
    rows = []
    try:
        with open(path, newline='') as f:
            header = None
            for cells in csv.reader(f, delimiter='\t'):
                if not cells:
                    continue
                if cells[0] == 'module':
                    header = cells
                    continue
                if header:
                    rows.append(dict(zip(header, cells)))
    except OSError:
        pass
    return rows


def number(text):
    try:
        value = float(text)
        return value if value > 0 else None
    except (TypeError, ValueError):
        return None


def geomean(values):
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def fmt(value, digits=3):
    return '-' if value is None else f'{value:.{digits}g}'


def dumps_in(results, part):
    folder = os.path.join(results, part)
    if not os.path.isdir(folder):
        return []
    return sorted(name[:-4] for name in os.listdir(folder) if name.endswith('.tsv'))


def correctness(results):
    lines = ['## Correctness (kernels mode; XLA\'s kernel beside ours on the same inputs)', '',
             '| dump | ours PASS | ours FAIL | ours unchecked | XLA PASS | XLA FAIL | XLA not run |',
             '|---|---|---|---|---|---|---|']
    totals = [0] * 6
    for dump in dumps_in(results, 'check'):
        rows = read_rows(os.path.join(results, 'check', dump + '.tsv'))
        counts = [sum(r.get('status') == 'PASS' for r in rows),
                  sum(r.get('status') == 'FAIL' for r in rows),
                  sum(r.get('status') not in ('PASS', 'FAIL') for r in rows),
                  sum(r.get('xla_status') == 'PASS' for r in rows),
                  sum(r.get('xla_status') in ('FAIL', 'FAULT') for r in rows),
                  sum(r.get('xla_status') not in ('PASS', 'FAIL', 'FAULT') for r in rows)]
        totals = [a + b for a, b in zip(totals, counts)]
        lines.append(f'| {dump} | ' + ' | '.join(map(str, counts)) + ' |')
    lines.append('| **all** | ' + ' | '.join(f'**{c}**' for c in totals) + ' |')
    claimed = os.path.join(results, 'check', 'claimed.txt')
    if os.path.exists(claimed):
        with open(claimed, errors='replace') as f:
            tail = [line.rstrip() for line in f if line.strip()][-3:]
        lines += ['', 'Claimed modules (gpu-check.sh run --mode kernels), last lines:', '']
        lines += ['    ' + line for line in tail]
    return lines


def timing(results, worst):
    lines = ['## Kernel time, ours beside XLA\'s (same inputs, same timing)', '',
             'Per dump over the kernels both sides timed: geometric mean of ours/XLA, and '
             'the summed times (a dump\'s time is dominated by its largest kernels).', '',
             '| dump | kernels timed | geomean ours/XLA | ours us (sum) | XLA us (sum) | sum ratio |',
             '|---|---|---|---|---|---|']
    pairs = []
    for dump in dumps_in(results, 'perf'):
        rows = read_rows(os.path.join(results, 'perf', dump + '.tsv'))
        timed = [(r, number(r.get('us')), number(r.get('xla_us'))) for r in rows]
        timed = [(r, ours, xla) for r, ours, xla in timed if ours and xla]
        pairs += [(dump, r, ours, xla) for r, ours, xla in timed]
        ours_sum = sum(ours for _, ours, _ in timed)
        xla_sum = sum(xla for _, _, xla in timed)
        lines.append(f'| {dump} | {len(timed)} | '
                     f'{fmt(geomean([o / x for _, o, x in timed]))} | {fmt(ours_sum, 4)} | '
                     f'{fmt(xla_sum, 4)} | {fmt(ours_sum / xla_sum if xla_sum else None)} |')
    overall = geomean([o / x for _, _, o, x in pairs])
    ours_all = sum(o for _, _, o, _ in pairs)
    xla_all = sum(x for _, _, _, x in pairs)
    lines += ['', f'Overall: {len(pairs)} kernels, geomean ours/XLA {fmt(overall)}, summed '
              f'{fmt(ours_all, 4)} us against {fmt(xla_all, 4)} us '
              f'({fmt(ours_all / xla_all if xla_all else None)}).', '',
              f'### The {worst} slowest of ours against XLA\'s', '',
              '| dump | kernel | emitter | ours us | XLA us | ours/XLA | ours % of copy |',
              '|---|---|---|---|---|---|---|']
    pairs.sort(key=lambda p: p[2] / p[3], reverse=True)
    for dump, row, ours, xla in pairs[:worst]:
        lines.append(f'| {dump} | {row.get("kernel")} | {row.get("emitter")} | {fmt(ours, 4)} | '
                     f'{fmt(xla, 4)} | {fmt(ours / xla)} | {row.get("%_of_copy", "-")} |')
    return lines


def gemms(results):
    path = os.path.join(results, 'gemm.tsv')
    if not os.path.exists(path):
        return ['## GEMMs beside cuBLASLt', '', '(no gemm.tsv: the GEMM bench did not run)']
    with open(path, newline='') as f:
        table = [cells for cells in csv.reader(f, delimiter='\t') if cells]
    if not table:
        return ['## GEMMs beside cuBLASLt', '', '(gemm.tsv is empty)']
    lines = ['## GEMMs beside cuBLASLt', '', '| ' + ' | '.join(table[0]) + ' |',
             '|' + '---|' * len(table[0])]
    lines += ['| ' + ' | '.join(cells) + ' |' for cells in table[1:]]
    return lines


def autotune(results):
    """What hlo-run --autotune printed per GEMM: its header, the compiled
    config's time and the winner (results/autotune.log)."""
    path = os.path.join(results, 'autotune.log')
    title = ['## GEMM autotune (hlo-run --autotune; winners in gemm-tuned.jsonl)', '']
    if not os.path.exists(path):
        return title + ['(no autotune.log: the autotune part did not run)']
    with open(path, errors='replace') as f:
        kept = [line.rstrip() for line in f
                if line.startswith('autotune ') or '(as compiled)' in line or
                'winner:' in line or 'no candidate' in line]
    return title + ['    ' + line for line in kept] if kept else title + ['(nothing tuned)']


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('results')
    parser.add_argument('--worst', type=int, default=20)
    args = parser.parse_args()
    out = ['# GPU performance run', '']
    log = os.path.join(args.results, 'log.txt')
    if os.path.exists(log):
        with open(log, errors='replace') as f:
            out += ['    ' + line.rstrip() for line in f if line.strip()] + ['']
    out += correctness(args.results) + [''] + timing(args.results, args.worst) + ['']
    out += gemms(args.results) + [''] + autotune(args.results)
    print('\n'.join(out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
