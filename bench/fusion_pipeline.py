#!/usr/bin/env python3
"""Unoptimized modules against XLA's optimized ones (issue 32's table).

For each unoptimized module of the corpus -- `corpus/models/jax/<program>.hlo`
(what `jax.jit(f).lower(...).as_text(dialect="hlo")` writes) and the
`corpus/models/*.hlo` whose program has a dump -- and of bench/data/pipeline/
(the programs of bench/programs/, bench/make_pipeline_data.sh), beside XLA's
after-optimizations module of the same program
(`corpus/dumps/<program>.native/module.hlo`, compiled by us: its kernels are
XLA's fusions): kernel launches, distinct kernels, library calls and bytes
moved (over the manifest's program, each launch's kernel buffers and each
library call's operands and results; a loop body counted once), our compile
time (wall, one run, -j the machine's cores) and XLA's (`xla_compile_s.txt`
of the native dump, and of the default one, whose GEMMs XLA generates as we
do), and the bytes of the
temporaries (intermediate values and scratch buffers, not parameters, outputs
or constants): each in its own buffer (`temp_bytes`), and with the manifest's
shared allocations (`temp_shared_bytes`). Modules are compiled with
--keep-going: a kernel that fails is listed in `failed`, not counted.

  bench/fusion_pipeline.py [--build build] [--corpus ../shared/corpus] > bench/results/fusion_pipeline.tsv
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# corpus/models/*.hlo whose program has a dump.
MODEL_DUMPS = {
    "nv_maxtext_1n1g_jit_train_step_before_optimization": "maxtext_1n1g_train_step",
    "hlo_torax_iterhybrid_predictor_corrector_f64": "torax_iterhybrid_f64",
}


def program_figures(manifest):
    """Launches, library calls and bytes moved over the manifest's program."""
    kernels = manifest.get("kernels", [])
    launches = library = moved = 0

    def walk(steps):
        nonlocal launches, library, moved
        for step in steps:
            kind = step.get("step")
            if kind == "launch":
                launches += 1
                kernel = kernels[step["launch"]] if step["launch"] < len(kernels) else {}
                moved += sum(p.get("bytes", 0) for p in kernel.get("parameters", []))
            elif kind == "library":
                library += 1
                moved += sum(a.get("bytes", 0) for a in step.get("arguments", []))
                moved += sum(r.get("bytes", 0) for r in step.get("results", []))
            for key in ("body", "steps", "condition", "branches"):
                nested = step.get(key)
                if isinstance(nested, list):
                    if nested and isinstance(nested[0], list):
                        for branch in nested:
                            walk(branch)
                    else:
                        walk(nested)

    walk(manifest.get("program", []))
    return launches, library, moved


def temporary_bytes(manifest):
    """Temporaries' bytes, each on its own and with the shared allocations."""
    constants = {b["buffer"] for b in manifest.get("buffers", []) if b.get("kind") == "constant"}
    sizes = {}

    def note(binding):
        if binding.get("binds") in ("buffer", "scratch") and binding["buffer"] not in constants:
            sizes[binding["buffer"]] = max(sizes.get(binding["buffer"], 0), binding["bytes"])

    for kernel in manifest.get("kernels", []):
        for parameter in kernel.get("parameters", []):
            note(parameter)
    for step in manifest.get("program", []):
        for key in ("arguments", "results", "body_results"):
            for binding in step.get(key, []):
                note(binding)
        for key in ("branch_arguments", "branch_results"):
            for branch in step.get(key, []):
                for binding in branch:
                    note(binding)
    separate = sum(sizes.values())
    # The memory plan's allocations hold the outputs and every temporary,
    # each at an offset; what is not an output's is the temporaries'.
    planned = sum(allocation["bytes"] for allocation in manifest.get("allocations", []))
    outputs = sum(b["bytes"] for b in manifest.get("buffers", []) if b.get("kind") == "output")
    shared = max(0, planned - outputs) if planned else separate
    return separate, shared


def compile_module(hlo_compile, module, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        manifest_path = os.path.join(tmp, "m.json")
        start = time.monotonic()
        try:
            run = subprocess.run([hlo_compile, "-w", "-k", module, "-o", os.path.join(tmp, "m.ptx"),
                                  "--manifest", manifest_path], capture_output=True, text=True,
                                 timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, timeout, "timeout"
        seconds = time.monotonic() - start
        if not os.path.exists(manifest_path):
            return None, seconds, (run.stderr.strip().splitlines() or ["no manifest"])[-1][:120]
        return json.load(open(manifest_path)), seconds, "ok" if run.returncode == 0 else "partial"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--corpus", default=os.path.join(ROOT, "../shared/corpus"))
    parser.add_argument("--timeout", type=int, default=600)
    args = parser.parse_args()
    hlo_compile = os.path.join(args.build, "bin/hlo-compile")
    # (row name, unoptimized module, XLA's optimized module, XLA's compile
    # seconds: native variant file, default variant file)
    pairs = []
    dumps = os.path.join(args.corpus, "dumps")

    def corpus_pair(name, module, program):
        return (name, module, os.path.join(dumps, program + ".native", "module.hlo"),
                os.path.join(dumps, program + ".native", "xla_compile_s.txt"),
                os.path.join(dumps, program + ".default", "xla_compile_s.txt"))

    jax_dir = os.path.join(args.corpus, "models/jax")
    for name in sorted(os.listdir(jax_dir)):
        if name.endswith(".hlo"):
            pairs.append(corpus_pair(name[:-4], os.path.join(jax_dir, name), name[:-4]))
    for model, program in MODEL_DUMPS.items():
        pairs.append(corpus_pair(program + " (models/)",
                                 os.path.join(args.corpus, "models", model + ".hlo"), program))
    # The programs of bench/programs/ (bench/make_pipeline_data.sh).
    data = os.path.join(ROOT, "bench", "data", "pipeline")
    for name in sorted(os.listdir(data)) if os.path.isdir(data) else []:
        folder = os.path.join(data, name)
        pairs.append((name + " (bench/)", os.path.join(folder, "unoptimized.hlo"),
                      os.path.join(folder, "xla_native.hlo"),
                      os.path.join(folder, "xla_native_compile_s.txt"),
                      os.path.join(folder, "xla_default_compile_s.txt")))
    print("\t".join(["module", "launches", "kernels", "library", "bytes_moved", "compile_s",
                     "failed", "status", "temp_bytes", "temp_shared_bytes", "xla_launches", "xla_kernels", "xla_library",
                     "xla_bytes_moved", "xla_compile_s", "xla_default_compile_s"]))
    for name, module, xla_module, native_seconds, default_seconds in pairs:
        row = [name]
        manifest, seconds, status = compile_module(hlo_compile, module, args.timeout)
        if manifest:
            launches, library, moved = program_figures(manifest)
            failed = len(manifest.get("not_emitted", []))
            row += [str(launches), str(len(manifest.get("kernels", []))), str(library), str(moved),
                    f"{seconds:.2f}", str(failed), status]
            row += [str(value) for value in temporary_bytes(manifest)]
        else:
            row += ["-"] * 4 + [f"{seconds:.2f}", "-", status, "-", "-"]
        xla_manifest, _, _ = compile_module(hlo_compile, xla_module, args.timeout)
        if xla_manifest:
            launches, library, moved = program_figures(xla_manifest)
            row += [str(launches), str(len(xla_manifest.get("kernels", []))), str(library),
                    str(moved)]
        else:
            row += ["-"] * 4
        # XLA's compile: the native variant (cuBLAS GEMMs), and the default
        # one, which generates its GEMMs as this compiler does.
        for compile_file in (native_seconds, default_seconds):
            row.append(open(compile_file).read().strip() if os.path.exists(compile_file) else "-")
        print("\t".join(row), flush=True)


if __name__ == "__main__":
    sys.exit(main())
