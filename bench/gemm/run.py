#!/usr/bin/env python3
"""The GEMM benchmark's runner: compile, run (on a GPU) and dry-run.

Our GEMM kernel beside cuBLASLt on the same inputs, one hlo-run process
per side and case (bench/gemm/README.md). Stdlib only. It owns the bundle layout, the per-case hlo-run command lines,
the parsing of hlo-run's output, the result table and the device-time cost
model (make_modules.py reads the model for the README's estimates).

Here, where hlo-compile is built:
  run.py compile OUTDIR [--arch sm_90a] [--target nvptx|host] [--cases REGEX]
                 [--tier default|large|all] [--hlo-compile PATH] [--hlo-run PATH]
    Compiles every case's two modules (bench/gemm/modules/) into
    OUTDIR/cases/<case>/ (ours.ptx + ours.json, cublas.ptx + cublas.json)
    and puts hlo-run, this script, compare_npy.py, cases.tsv and stub.ptx
    (a one-kernel PTX for manifests without kernels) beside them: OUTDIR
    then runs with hlo-run and python3 alone (no LLVM).

There, on a GPU (or here, for a host bundle):
  OUTDIR/run.py run OUTDIR [--time-limit S] [--cases REGEX] [--seed N]
                [--out TSV] [--hlo-run PATH]
    Per case, hlo-run --bench on both modules with the same --seed; small
    cases are checked against the reference interpreter on both sides,
    large ones run --launch-only and ours is compared with cuBLAS's output
    (compare_npy.py) where hlo-run saved both. Appends one TSV row per case
    to OUTDIR/results.tsv (or --out) as it goes and prints it; stops
    starting cases once the next one's estimate would pass --time-limit
    (default 170 s), listing those left.

Here, before a GPU is lent:
  run.py dry-run OUTDIR [--fake-libcuda SO] [--fake-cublaslt SO] [--cases REGEX]
    Every case against the stand-in CUDA driver (tests/tools/fake-libcuda.cpp:
    it launches nothing) with --launch-only; the cuBLAS side with the
    stand-in cuBLASLt (tests/tools/fake-cublaslt.cpp, built into
    OUTDIR/fake/; it computes the GEMM on the host in double up to
    DRY_CUBLAS_MAX_FLOPS, above that only checks the problem,
    FAKE_CUBLASLT_NO_COMPUTE). It has no f8: a large f8 case's manifest is
    only checked to hold its library step. Exit 1 if a case did not bind
    or launch, or a non-f8 GEMM step did not bind to cuBLASLt.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# --- Cost model (one H100; seconds) ----------------------------------------
# Sustained TFLOP/s of the cuBLAS side at large sizes. f32: hlo-run's
# cuBLASLt runs f32 with CUBLAS_COMPUTE_32F (no TF32, see README), ~50.
LIBRARY_TFLOPS = {"bf16": 650, "f16": 650, "f32": 50, "f64": 50, "f8e4m3fn": 1000}
OURS_SLOWDOWN = 3.0          # ours assumed this much slower, for the budget
PROCESS_SECONDS = 1.0        # process start, CUDA context, PTX JIT, cuBLASLt load
GENERATE_NS = 15.0           # hlo-run's seeded input generation, per element
TRANSFER_NS_PER_BYTE = 0.1   # upload/download at ~10 GB/s
INTERPRETER_FLOPS = 2.5e9    # reference + magnitudes (measured ~7 GFLOP/s, halved)
SAVE_NS_PER_BYTE = 1.0       # .npy writes at ~1 GB/s
COMPARE_SECONDS = 1.5        # compare_npy.py (numpy: 10 ns an element; stdlib: 1M samples)
TIMED_MS = 25.0              # timed launches per side at the estimate
CHECK_MAX_FLOPS = 1 << 30    # above: --launch-only, ours compared with cuBLAS
SAVE_MAX_BYTES = 640 << 20   # above: no --save-dir (inputs + output per side)
DEFAULT_BUDGET_SECONDS = 160.0  # the default tier's estimate, all cases
LARGE_CASE_SECONDS = 6.0     # a corpus case estimated above this is "large"
LARGE_CASE_ELEMENTS = 1 << 27  # ... as is one of more elements (A+B+C)
DRY_CUBLAS_MAX_FLOPS = 1 << 27   # the stand-in cuBLASLt computes in double
BYTES = {"bf16": 2, "f16": 2, "f32": 4, "f64": 8, "f8e4m3fn": 1, "f8e5m2": 1}


def shape_numbers(row):
    b, m, n, k = (int(row[x]) for x in ("batch", "M", "N", "K"))
    return b, m, n, k


def flops_of(row):
    b, m, n, k = shape_numbers(row)
    return 2 * b * m * n * k


def elements_of(row):
    """Elements of A, B and the result."""
    b, m, n, k = shape_numbers(row)
    return b * m * k + b * k * n, b * m * n


def library_seconds(row):
    """Expected time of one cuBLAS GEMM: compute or memory bound, 5 us at least."""
    inputs, outputs = elements_of(row)
    bytes_moved = inputs * BYTES[row["dtype"]] + outputs * BYTES[row["out_type"]]
    return max(flops_of(row) / (LIBRARY_TFLOPS[row["dtype"]] * 1e12), bytes_moved / 3e12, 5e-6)


def timing_plan(row):
    """(warmup, iterations): about TIMED_MS of timed launches (5 batches)."""
    seconds = library_seconds(row)
    iterations = max(1, min(100, int(TIMED_MS * 1e-3 / (5 * seconds))))
    return min(10, iterations), iterations


def checked_by_interpreter(row):
    return flops_of(row) <= CHECK_MAX_FLOPS


def saved_bytes(row):
    inputs, outputs = elements_of(row)
    return inputs * BYTES[row["dtype"]] + outputs * BYTES[row["out_type"]]


def estimate_side_seconds(row, slowdown):
    inputs, outputs = elements_of(row)
    warmup, iterations = timing_plan(row)
    seconds = PROCESS_SECONDS + inputs * GENERATE_NS * 1e-9
    seconds += saved_bytes(row) * TRANSFER_NS_PER_BYTE * 1e-9
    # The kernel and a device copy of half its traffic, as often each.
    seconds += (warmup + 5 * iterations) * library_seconds(row) * (slowdown + 0.5)
    if checked_by_interpreter(row):
        seconds += flops_of(row) / INTERPRETER_FLOPS
    elif saved_bytes(row) <= SAVE_MAX_BYTES:
        seconds += saved_bytes(row) * SAVE_NS_PER_BYTE * 1e-9
    return seconds


def estimate_case_seconds(row):
    seconds = estimate_side_seconds(row, OURS_SLOWDOWN) + estimate_side_seconds(row, 1.0)
    if not checked_by_interpreter(row) and saved_bytes(row) <= SAVE_MAX_BYTES:
        seconds += COMPARE_SECONDS
    return seconds


def is_large(row):
    """Too costly for a routine run (make_modules.py assigns the tiers)."""
    inputs, outputs = elements_of(row)
    return estimate_case_seconds(row) > LARGE_CASE_SECONDS or inputs + outputs > LARGE_CASE_ELEMENTS


# --- Bundle ----------------------------------------------------------------

STUB_HLO = """HloModule gemm_bench_stub

// Loaded as --code for a manifest without kernels (the cuBLAS side): the
// stand-in driver rejects a PTX without .entry. Nothing launches it.
ENTRY %stub (p: f32[1]) -> f32[1] {
  %p = f32[1]{0} parameter(0)
  ROOT %n = f32[1]{0} negate(%p)
}
"""


def read_cases(path):
    with open(path) as f:
        lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    header = lines[0]
    return [dict(zip(header, line)) for line in lines[1:]]


def select(cases, pattern, tier):
    chosen = []
    for row in cases:
        if pattern and not re.search(pattern, row["case"]):
            continue
        if tier != "all" and row.get("tier", "default") != tier and not pattern:
            continue
        chosen.append(row)
    return chosen


def write_cases(path, cases):
    header = list(cases[0].keys()) if cases else ["case"]
    with open(path, "w") as f:
        f.write("\t".join(header) + "\n")
        for row in cases:
            f.write("\t".join(str(row[h]) for h in header) + "\n")


def compile_bundle(args):
    root = os.path.dirname(os.path.dirname(HERE))
    hlo_compile = args.hlo_compile or os.path.join(root, "build", "bin", "hlo-compile")
    hlo_run = args.hlo_run or os.path.join(root, "build", "bin", "hlo-run")
    for tool in (hlo_compile, hlo_run):
        if not os.access(tool, os.X_OK):
            sys.exit(f"run.py: no {tool} (build it, or give --hlo-compile/--hlo-run)")
    out = os.path.abspath(args.outdir)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "bin"))
    host = args.target == "host"
    ext = "so" if host else "ptx"
    target_args = ["--target=host"] if host else []
    cases = select(read_cases(os.path.join(HERE, "cases.tsv")), args.cases, args.tier)
    compiled, failures = [], []
    for row in cases:
        case_dir = os.path.join(out, "cases", row["case"])
        os.makedirs(case_dir)
        ok = True
        for side in ("ours", "cublas"):
            module = os.path.join(HERE, "modules", f"{row['case']}.{side}.hlo")
            shutil.copy(module, os.path.join(case_dir, f"{side}.hlo"))
            command = [hlo_compile, "-w", "--gpu-arch", args.arch, *target_args, module,
                       "-o", os.path.join(case_dir, f"{side}.{ext}"),
                       "--manifest", os.path.join(case_dir, f"{side}.json")]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                error = next((l for l in done.stderr.splitlines() if "error:" in l), done.stderr.strip())
                failures.append(f"{row['case']} {side}: {error}")
                ok = False
        if ok:
            compiled.append(row)
        else:
            shutil.rmtree(case_dir)
    stub = os.path.join(out, "stub.hlo")
    with open(stub, "w") as f:
        f.write(STUB_HLO)
    subprocess.run([hlo_compile, "-w", "--gpu-arch", args.arch, *target_args, stub, "-o",
                    os.path.join(out, f"stub.{ext}"), "--manifest", os.path.join(out, "stub.json")],
                   check=True)
    shutil.copy(hlo_run, os.path.join(out, "bin", "hlo-run"))
    for name in ("run.py", "compare_npy.py"):
        shutil.copy(os.path.join(HERE, name), os.path.join(out, name))
    write_cases(os.path.join(out, "cases.tsv"), compiled)
    with open(os.path.join(out, "bundle.json"), "w") as f:
        json.dump({"target": args.target, "arch": args.arch, "repository": root,
                   "hlo_compile": hlo_compile, "cases": len(compiled)}, f, indent=1)
    with open(os.path.join(out, "not-compiled.txt"), "w") as f:
        f.write("".join(line + "\n" for line in failures))
    for line in failures:
        print(f"run.py: not compiled: {line}", file=sys.stderr)
    seconds = sum(estimate_case_seconds(row) for row in compiled)
    print(f"run.py: {len(compiled)} of {len(cases)} cases compiled for {args.arch}"
          f"{' (host target)' if host else ''} into {out}; estimated run: {seconds:.0f} s on one H100")
    return 0 if not failures else 1


# --- One hlo-run -----------------------------------------------------------

TIME_LINE = re.compile(r"^\s+(?:GPU|CPU) time ([0-9.eE+-]+) us")
LIBRARY_LINE = re.compile(r"^library (\S+) \((\S+)\): (.+)$")
VERDICT = re.compile(r"^(PASS|FAIL|LAUNCHED|SKIPPED)\b")


class SideResult:
    def __init__(self):
        self.rc, self.verdict, self.times, self.timed = None, "", [], []
        self.library, self.device, self.error, self.seconds = [], "", "", 0.0
        self.saved = None  # the output .npy, when hlo-run wrote it

    def status(self):
        if self.rc == "timeout":
            return "TIMEOUT"
        if self.verdict and self.rc in (0, 1):
            return self.verdict
        return f"ERROR({self.rc})" + (f": {self.error}" if self.error else "")


def run_side(hlo_run, bundle, case_dir, side, args, extra_env, timeout):
    """One hlo-run on one side of a case; its log in CASE/SIDE.log."""
    manifest = os.path.join(case_dir, f"{side}.json")
    with open(manifest) as f:
        spec = json.load(f)
    code = os.path.join(case_dir, spec.get("code") or f"{side}.ptx")
    command = [hlo_run, os.path.join(case_dir, f"{side}.hlo"), "--manifest", manifest,
               "--mode", "module", "--seed", str(args["seed"]), *args["flags"]]
    if code.endswith(".ptx") and os.path.exists(code):
        with open(code) as f:
            if ".entry" not in f.read():
                command += ["--code", os.path.join(bundle, "stub.ptx")]
    save_dir = None
    if args.get("save"):
        save_dir = os.path.join(case_dir, f"{side}.out")
        shutil.rmtree(save_dir, ignore_errors=True)
        command += ["--save-dir", save_dir]
    result = SideResult()
    env = dict(os.environ, **extra_env)
    start = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout)
        result.rc, output = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as expired:
        result.rc = "timeout"
        output = (expired.stdout or b"").decode(errors="replace") if isinstance(expired.stdout, bytes) \
            else (expired.stdout or "")
    result.seconds = time.monotonic() - start
    with open(os.path.join(case_dir, f"{side}.log"), "w") as f:
        f.write("$ " + " ".join(command) + "\n" + output)
    pending = None
    for line in output.splitlines():
        if line.startswith("device: ") and not result.device:
            result.device = line[len("device: "):]
        elif line.startswith("timing "):
            pending = line[len("timing "):]
        elif (m := TIME_LINE.match(line)):
            result.times.append(float(m.group(1)))
            result.timed.append(pending or "?")
            pending = None
        elif (m := LIBRARY_LINE.match(line)):
            result.library.append((m.group(1), m.group(2), m.group(3)))
        elif (m := VERDICT.match(line)):
            result.verdict = m.group(1)
        elif line.startswith("hlo-run: error:") and not result.error:
            result.error = line[len("hlo-run: error: "):][:160]
    if save_dir and os.path.exists(os.path.join(save_dir, "output_0.npy")):
        result.saved = os.path.join(save_dir, "output_0.npy")
    return result, len(spec.get("kernels", []))


# --- The table -------------------------------------------------------------

COLUMNS = ["case", "dtype", "M", "N", "K", "batch", "ours_us", "ours_TFLOP/s", "cublas_us",
           "cublas_TFLOP/s", "ours/cublas", "check", "note"]


def number(value, digits=4):
    return "-" if value is None else f"{value:.{digits}g}"


def append_row(path, values):
    with open(path, "a") as f:
        f.write("\t".join(str(values.get(c, "-")) for c in COLUMNS) + "\n")
        f.flush()
    print("\t".join(str(values.get(c, "-")) for c in COLUMNS), flush=True)


def compare_outputs(bundle, row, ours, cublas):
    """ours against cuBLAS's saved output, by compare_npy.py."""
    if ours.saved is None or cublas.saved is None:
        return "unchecked: hlo-run --launch-only saves no outputs"
    done = subprocess.run([sys.executable, os.path.join(bundle, "compare_npy.py"), ours.saved,
                           cublas.saved, "--type", row["out_type"]], capture_output=True, text=True)
    verdict = (done.stdout.strip().splitlines() or [done.stderr.strip()[:120]])[-1]
    if done.returncode == 0:  # the saved arrays (up to SAVE_MAX_BYTES a side) go
        for side in (ours, cublas):
            shutil.rmtree(os.path.dirname(side.saved), ignore_errors=True)
    return ("ours~cublas " if done.returncode in (0, 1) else "compare error: ") + verdict


def run_case(hlo_run, bundle, row, overrides, time_left, dry=None):
    """Both sides of one case; the table row."""
    case_dir = os.path.join(bundle, "cases", row["case"])
    warmup, iterations = timing_plan(row)
    if dry is not None:
        warmup, iterations = 0, 1
    warmup = warmup if overrides.warmup is None else overrides.warmup
    iterations = iterations if overrides.iterations is None else overrides.iterations
    check = checked_by_interpreter(row) and dry is None
    flags = ["--bench", "--warmup", str(warmup), "--iterations", str(iterations)]
    if not check:
        flags += ["--launch-only", "--max-elements", str(1 << 31)]
    save = not check and dry is None and saved_bytes(row) <= SAVE_MAX_BYTES
    timeout = max(10.0, min(time_left, 4 * estimate_side_seconds(row, OURS_SLOWDOWN) + 30))
    args = {"seed": overrides.seed, "flags": flags, "save": save}
    env = dry["env"] if dry else {}
    values = {"case": row["case"], "dtype": f"{row['dtype']}->{row['out_type']}", "M": row["M"],
              "N": row["N"], "K": row["K"], "batch": row["batch"]}
    notes = []
    ours, _ = run_side(hlo_run, bundle, case_dir, "ours", args, env, timeout)
    large = dry is not None and flops_of(row) > DRY_CUBLAS_MAX_FLOPS
    if large and (row["dtype"].startswith("f8") or not dry["no_compute"]):
        # The stand-in has no f8 (the interpreter would compute the step).
        cublas, kernels = None, 0
        notes.append(static_library_check(case_dir, "the stand-in cuBLASLt has no f8" if
                                          row["dtype"].startswith("f8") else
                                          "the stand-in cuBLASLt would compute it on the host"))
    else:
        cublas_env = dict(env, **(dry["cublas_env"] if dry else {}))
        if large:
            cublas_env["FAKE_CUBLASLT_NO_COMPUTE"] = "1"
        cublas, kernels = run_side(hlo_run, bundle, case_dir, "cublas", args, cublas_env, timeout)
    flops = flops_of(row)
    if ours.times:
        values["ours_us"] = number(sum(ours.times))
        values["ours_TFLOP/s"] = number(flops / (sum(ours.times) * 1e-6) / 1e12)
    cublas_us = None
    if cublas is not None:
        on_gpu = [l for l in cublas.library if "on the GPU" in l[2]]
        elsewhere = [l for l in cublas.library if "on the GPU" not in l[2]]
        for name, target, where in elsewhere:
            notes.append(f"cublas step {name} {where}")
        if cublas.times and len(cublas.times) > kernels:
            cublas_us = sum(cublas.times)  # the library step timed with the kernels
        elif on_gpu or (cublas.library and not elsewhere):
            notes.append("cublas: hlo-run --bench does not time library steps")
        if cublas_us is not None:
            values["cublas_us"] = number(cublas_us)
            values["cublas_TFLOP/s"] = number(flops / (cublas_us * 1e-6) / 1e12)
        if ours.times and cublas_us:
            values["ours/cublas"] = number(cublas_us / sum(ours.times), 3)
    sides = [("ours", ours)] + ([("cublas", cublas)] if cublas is not None else [])
    if check or dry is not None:
        values["check"] = ", ".join(f"{name} {side.status()}" for name, side in sides)
    else:
        bad = [f"{name} {side.status()}" for name, side in sides if side.status() != "LAUNCHED"]
        values["check"] = ", ".join(bad) if bad else compare_outputs(bundle, row, ours, cublas)
    values["note"] = "; ".join(notes) or "-"
    ok = all(side.status() in ("PASS", "LAUNCHED") for _, side in sides)
    if dry is not None and cublas is not None and not row["dtype"].startswith("f8"):
        # On the GPU a step the interpreter computes instead would take minutes.
        if not any("on the GPU" in where for _, _, where in cublas.library):
            ok = False
            notes.append("FAILED: the GEMM step did not bind to cuBLASLt")
    device = ours.device or (cublas.device if cublas else "")
    return values, ok, device, ours.seconds + (cublas.seconds if cublas else 0)


def static_library_check(case_dir, why):
    """The cuBLAS manifest holds one GEMM library step."""
    with open(os.path.join(case_dir, "cublas.json")) as f:
        spec = json.load(f)
    steps = [s for s in spec.get("program", []) if s.get("step") == "library"]
    if len(steps) == 1 and steps[0].get("target", "").startswith("__cublas$lt$matmul"):
        return f"cublas not run ({why}); its manifest: 1 library step {steps[0]['target']}"
    return f"cublas manifest: unexpected library steps {[s.get('target') for s in steps]}"


def find_hlo_run(bundle, given):
    for candidate in ([given] if given else []) + [os.path.join(bundle, "bin", "hlo-run")]:
        if candidate and subprocess.run([candidate, "--version"], capture_output=True).returncode == 0:
            return candidate
    sys.exit("run.py: no hlo-run that starts here (give --hlo-run)")


def run_bundle(args, dry=None):
    bundle = os.path.abspath(args.outdir)
    hlo_run = find_hlo_run(bundle, args.hlo_run)
    cases = select(read_cases(os.path.join(bundle, "cases.tsv")), args.cases, "all")
    out = args.out or os.path.join(bundle, "dry-run.tsv" if dry else "results.tsv")
    if os.path.exists(out) and not args.append:
        os.remove(out)
    if not os.path.exists(out) or os.path.getsize(out) == 0:
        with open(out, "w") as f:
            f.write("\t".join(COLUMNS) + "\n")
    start, limit = time.monotonic(), args.time_limit
    failed, left, device_noted = 0, [], False
    for row in cases:
        elapsed = time.monotonic() - start
        if dry is None and elapsed + estimate_case_seconds(row) > limit:
            left.append(row["case"])
            continue
        values, ok, device, seconds = run_case(hlo_run, bundle, row, args, limit - elapsed, dry)
        if not device_noted and device:
            with open(out, "a") as f:
                f.write(f"# device: {device}; {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
            device_noted = True
        append_row(out, values)
        failed += not ok
        print(f"  ({seconds:.1f} s, estimated {estimate_case_seconds(row):.1f} s)", file=sys.stderr, flush=True)
    total = time.monotonic() - start
    if left:
        with open(out, "a") as f:
            f.write(f"# not run (time limit {limit:.0f} s): {' '.join(left)}\n")
        print(f"run.py: time limit: {len(left)} case(s) not run: {' '.join(left)}", file=sys.stderr)
    print(f"run.py: {len(cases) - len(left)} case(s) run in {total:.0f} s, {failed} with a failure; "
          f"table: {out}", file=sys.stderr)
    return 1 if failed else 0


def dry_run(args):
    bundle = os.path.abspath(args.outdir)
    root = os.path.dirname(os.path.dirname(HERE))  # this script's repository ...
    if not os.path.exists(os.path.join(root, "tests", "tools", "fake-libcuda.cpp")):
        with open(os.path.join(bundle, "bundle.json")) as f:  # ... or the bundle's
            root = json.load(f)["repository"]
    cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    libs = {}
    tools = os.path.join(root, "tests", "tools")
    with open(os.path.join(tools, "fake-cublaslt.cpp")) as f:
        no_compute = "FAKE_CUBLASLT_NO_COMPUTE" in f.read()
    for key, given, prebuilt, source in (
            ("cuda", args.fake_libcuda, "libcuda-fake.so", "fake-libcuda.cpp"),
            ("cublaslt", args.fake_cublaslt, "libcublasLt-fake.so", "fake-cublaslt.cpp")):
        path = given or os.path.join(root, "build", "lib", prebuilt)
        # The stand-in cuBLASLt from its source, for FAKE_CUBLASLT_NO_COMPUTE.
        if not os.path.exists(path) or (key == "cublaslt" and not given and no_compute):
            path = os.path.join(bundle, "fake", prebuilt)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            subprocess.run(["c++", "-std=c++17", "-O1", "-shared", "-fPIC", f"-I{cuda}/include",
                            os.path.join(tools, source), "-o", path], check=True)
        libs[key] = path
    dry = {"env": {"HLO_RUN_LIBCUDA": libs["cuda"],
                   "HLO_RUN_LIBCUBLASLT": os.path.join(bundle, "no-cublaslt.so")},
           "cublas_env": {"HLO_RUN_LIBCUBLASLT": libs["cublaslt"], "FAKE_CUBLASLT_LOG": "1"},
           "no_compute": no_compute or bool(args.fake_cublaslt)}
    args.time_limit = float("inf")
    code = run_bundle(args, dry)
    print(f"run.py: dry run {'passed' if code == 0 else 'FAILED'} (stand-ins: {libs['cuda']}, "
          f"{libs['cublaslt']})", file=sys.stderr)
    return code


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n", 2)[2])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compile")
    c.add_argument("outdir")
    c.add_argument("--arch", default="sm_90a")
    c.add_argument("--target", choices=["nvptx", "host"], default="nvptx")
    c.add_argument("--cases", help="only cases matching this regex (any tier)")
    c.add_argument("--tier", choices=["default", "extra", "large", "all"], default="default")
    c.add_argument("--hlo-compile")
    c.add_argument("--hlo-run")
    for name in ("run", "dry-run"):
        r = sub.add_parser(name)
        r.add_argument("outdir")
        r.add_argument("--cases", help="only cases matching this regex")
        r.add_argument("--seed", type=int, default=42)
        r.add_argument("--out", help="the TSV (default OUTDIR/results.tsv, dry-run.tsv)")
        r.add_argument("--append", action="store_true", help="append to the TSV")
        r.add_argument("--hlo-run")
        r.add_argument("--time-limit", type=float, default=170.0)
        r.add_argument("--warmup", type=int, help="hlo-run --warmup for every case (default: per case)")
        r.add_argument("--iterations", type=int, help="hlo-run --iterations for every case (default: per case)")
        if name == "dry-run":
            r.add_argument("--fake-libcuda")
            r.add_argument("--fake-cublaslt")
    args = parser.parse_args()
    if args.command == "compile":
        return compile_bundle(args)
    if args.command == "run":
        return run_bundle(args)
    return dry_run(args)


if __name__ == "__main__":
    sys.exit(main())
