#!/usr/bin/env python3
"""Compile time cold and warm against XLA's (issue 57).

For every XLA dump (corpus/dumps/*/module.hlo) and every unoptimized
program (corpus/models/jax/*.hlo, the corpus models with a dump, and
bench/data/pipeline/*/unoptimized.hlo), the wall time of one
`hlo-compile MODULE -w -o out.ptx` process (-j: the machine's cores):

  cold     with an empty kernel cache (every kernel compiled and stored);
  warm     the same module again on that cache;
  edited   the module with every instruction renamed and one constant of
           up to two fused computations changed (as after an edit and
           XLA's renumbering), on that cache;

beside XLA's compile of the same program (xla_compile_s.txt: the default
variant, which generates its GEMMs as hlo-compile does, and the native
one), the distinct kernels we compile (-v) and XLA's (xla_kernels.tsv).
Then the totals against the goals: cold <= 0.15x XLA's default over the
default dumps and the unoptimized programs, no module XLA takes 0.5 s or
more for above 0.3x, warm <= 0.03x.

  python3 bench/compile_cache.py [--build build] [--runs 1] [--md FILE] > table.tsv
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL_DUMPS = {
    "nv_maxtext_1n1g_jit_train_step_before_optimization": "maxtext_1n1g_train_step",
    "hlo_torax_iterhybrid_predictor_corrector_f64": "torax_iterhybrid_f64",
}


def read_seconds(path):
    try:
        return float(open(path).read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def xla_kernel_count(folder):
    path = os.path.join(folder, "xla_kernels.tsv")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return max(0, sum(1 for line in f if line.strip()) - 1)


def rows(corpus):
    """(name, kind, module, xla default s, xla native s, xla kernels)."""
    dumps = os.path.join(corpus, "dumps")
    found = []
    for dump in sorted(os.listdir(dumps)):
        folder = os.path.join(dumps, dump)
        module = os.path.join(folder, "module.hlo")
        if not os.path.isfile(module):
            continue
        program, variant = dump.rsplit(".", 1)
        other = os.path.join(dumps, program + (".native" if variant == "default" else ".default"))
        seconds = read_seconds(os.path.join(folder, "xla_compile_s.txt"))
        other_seconds = read_seconds(os.path.join(other, "xla_compile_s.txt"))
        default, native = (seconds, other_seconds) if variant == "default" else (other_seconds, seconds)
        found.append((dump, "dump " + variant, module, default, native, xla_kernel_count(folder)))

    def program_row(name, module, program):
        default = os.path.join(dumps, program + ".default")
        return (name, "unoptimized", module, read_seconds(os.path.join(default, "xla_compile_s.txt")),
                read_seconds(os.path.join(dumps, program + ".native", "xla_compile_s.txt")),
                xla_kernel_count(default))

    jax = os.path.join(corpus, "models", "jax")
    for name in sorted(os.listdir(jax)):
        if name.endswith(".hlo"):
            found.append(program_row(name[:-4] + " (jax)", os.path.join(jax, name), name[:-4]))
    for model, program in MODEL_DUMPS.items():
        found.append(program_row(program + " (models)", os.path.join(corpus, "models", model + ".hlo"),
                                 program))
    data = os.path.join(ROOT, "bench", "data", "pipeline")
    for name in sorted(os.listdir(data)) if os.path.isdir(data) else []:
        folder = os.path.join(data, name)
        found.append((name + " (bench)", "unoptimized", os.path.join(folder, "unoptimized.hlo"),
                      read_seconds(os.path.join(folder, "xla_default_compile_s.txt")),
                      read_seconds(os.path.join(folder, "xla_native_compile_s.txt")), None))
    return found


def edited(text):
    """`text` with every instruction and computation renamed, and one
    scalar constant in up to two fused computations changed."""
    renamed = re.sub(r"%([A-Za-z_][A-Za-z0-9_.\-]*)", r"%\1_e", text)
    changes = 0
    out = []
    in_fusion = False
    for line in renamed.split("\n"):
        if line.startswith("%") and "{" in line and "fused" in line.split("(")[0]:
            in_fusion = True
        elif line.startswith("}"):
            in_fusion = False
        m = re.search(r"\] constant\((-?\d+(\.\d+)?)\)", line) if in_fusion else None
        if m and changes < 2 and " f32[]" in line:
            value = float(m.group(1)) + 0.5
            line = line[:m.start(1)] + repr(value) + line[m.end(1):]
            changes += 1
        out.append(line)
    return "\n".join(out)


def compile_once(compiler, module, output, extra):
    start = time.perf_counter()
    run = subprocess.run([compiler, "-w", module, "-o", output, "-v", *extra],
                         capture_output=True, text=True)
    seconds = time.perf_counter() - start
    found = re.search(r"kernel cache.*: (\d+) of (\d+) distinct kernels found, (\d+) compiled",
                      run.stderr)
    status = "ok" if run.returncode == 0 else "failed"
    return seconds, (found.group(2), found.group(3)) if found else ("-", "-"), status


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    parser.add_argument("--runs", type=int, default=1, help="cold runs, the best kept")
    parser.add_argument("--md", help="also write a Markdown table here")
    parser.add_argument("only", nargs="*")
    args = parser.parse_args()
    compiler = os.path.join(args.build, "bin", "hlo-compile")
    header = ["module", "kind", "cold_s", "warm_s", "edited_s", "edited_compiled", "xla_default_s",
              "xla_native_s", "cold_ratio", "warm_ratio", "kernels", "xla_kernels", "status"]
    print("\t".join(header))
    table = []
    with tempfile.TemporaryDirectory() as work:
        for name, kind, module, xla_default, xla_native, xla_kernels in rows(args.corpus):
            if args.only and not any(o in name for o in args.only):
                continue
            cache = os.path.join(work, "cache")
            cold = None
            for _ in range(args.runs):
                shutil.rmtree(cache, ignore_errors=True)
                seconds, (kernels, _), status = compile_once(
                    compiler, module, os.path.join(work, "out.ptx"), ["--cache-dir", cache])
                cold = seconds if cold is None else min(cold, seconds)
            warm, _, warm_status = compile_once(compiler, module, os.path.join(work, "warm.ptx"),
                                                ["--cache-dir", cache])
            same = open(os.path.join(work, "out.ptx"), "rb").read() == \
                open(os.path.join(work, "warm.ptx"), "rb").read()
            variant = os.path.join(work, "edited.hlo")
            with open(module) as f, open(variant, "w") as g:
                g.write(edited(f.read()))
            edit, (_, edit_compiled), edit_status = compile_once(
                compiler, variant, os.path.join(work, "edited.ptx"), ["--cache-dir", cache])
            shutil.rmtree(cache, ignore_errors=True)
            if status == "ok" and not same:
                status = "warm output differs"
            elif status == "ok" and "failed" in (warm_status, edit_status):
                status = "warm or edited compile failed"
            reference = xla_native if kind == "dump native" else xla_default
            row = [name, kind, f"{cold:.3f}", f"{warm:.3f}", f"{edit:.3f}", edit_compiled,
                   f"{xla_default:.3f}" if xla_default else "-",
                   f"{xla_native:.3f}" if xla_native else "-",
                   f"{cold / reference:.3f}" if reference else "-",
                   f"{warm / reference:.3f}" if reference else "-",
                   kernels, str(xla_kernels) if xla_kernels is not None else "-", status]
            table.append((row, cold, warm, edit, reference, kind))
            print("\t".join(row), flush=True)

        # One batch process per kind of input, as a CI job compiles a dump
        # folder (XLA's figures are in one process too): cold on an empty
        # cache, then warm.
        batches = []
        for label, kinds in (("default dumps + unoptimized programs", ("dump default", "unoptimized")),
                             ("native dumps", ("dump native",))):
            modules = [module for name, kind, module, *_ in rows(args.corpus)
                       if kind in kinds and (not args.only or any(o in name for o in args.only))]
            xla = sum(t[4] for t in table if t[5] in kinds and t[4])
            cache = os.path.join(work, "batch-cache")
            shutil.rmtree(cache, ignore_errors=True)
            seconds = []
            for attempt in ("cold", "warm"):
                out = os.path.join(work, "batch-" + attempt)
                start = time.perf_counter()
                subprocess.run([compiler, "-w", *modules, "--output-dir", out, "--cache-dir", cache,
                                "-j", str(os.cpu_count())], capture_output=True)
                seconds.append(time.perf_counter() - start)
            shutil.rmtree(cache, ignore_errors=True)
            batches.append(f"one batch of the {label} ({len(modules)} inputs, -j {os.cpu_count()}): "
                           f"cold {seconds[0]:.2f} s ({seconds[0] / xla:.3f}x XLA's {xla:.2f} s), "
                           f"warm {seconds[1]:.2f} s ({seconds[1] / xla:.3f}x)")

    def total(kinds, column):
        picked = [(t[column], t[4]) for t in table if t[5] in kinds and t[4]]
        ours = sum(p[0] for p in picked)
        xla = sum(p[1] for p in picked)
        return ours, xla, (ours / xla if xla else 0)

    summary = []
    for label, kinds in (("default dumps + unoptimized programs (against XLA default)",
                          ("dump default", "unoptimized")),
                         ("native dumps (against XLA native)", ("dump native",))):
        for column, what in ((1, "cold"), (2, "warm"), (3, "edited")):
            ours, xla, ratio = total(kinds, column)
            summary.append(f"{label}: {what} {ours:.2f} s / XLA {xla:.2f} s = {ratio:.3f}x")
    worst = max(((t[1] / t[4], t[0][0]) for t in table
                 if t[4] and t[4] >= 0.5 and t[5] != "dump native"), default=(0, "-"))
    summary.append(f"worst cold ratio where XLA takes >= 0.5 s: {worst[0]:.3f}x ({worst[1]})")
    summary.extend(batches)
    for line in summary:
        print("# " + line, file=sys.stderr)
    if args.md:
        with open(args.md, "w") as md:
            md.write("| " + " | ".join(header) + " |\n|" + "---|" * len(header) + "\n")
            for row, *_ in table:
                md.write("| " + " | ".join(row) + " |\n")
            md.write("\n" + "\n".join("- " + line for line in summary) + "\n")


if __name__ == "__main__":
    main()
