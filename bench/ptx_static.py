"""Static figures of a PTX kernel, for the GEMM tables (bench/gemm_side_by_side.py,
bench/triton_matmul_aot.py): its tensor-core instruction mix, its widest
global load, and what its K loop does (the body of each PTX loop is the
text from a label to the last branch back to it; the K loop is the one
with the most tensor-core instructions), and a warp-specialized kernel's
producer loop (TMA loads and mbarrier waits, no tensor-core
instructions).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

MIX = [("mma", r"\bmma\.sync\."), ("wgmma", r"\bwgmma\.mma_async"), ("ldmatrix", r"\bldmatrix\."),
       ("cp_async", r"\bcp\.async\.")]


def mix(ptx):
    return ",".join(f"{name}={len(re.findall(pattern, ptx))}" for name, pattern in MIX)


def widest_load(ptx):
    """The widest global load, in bits (vector width times element bits)."""
    widest = 0
    for vector, bits in re.findall(r"\bld\.global(?:\.nc)?(?:\.L[12]::\w+)*(?:\.v(\d))?\.[bfsu](\d+)", ptx):
        widest = max(widest, int(vector or 1) * int(bits))
    return str(widest)


LOOP_MIX = [("wgmma", r"\bwgmma\.mma_async"), ("mma", r"\bmma\.sync\."),
            ("wait0", r"\bwgmma\.wait_group\.sync\.aligned\s+0;"),
            ("tma", r"\bcp\.async\.bulk\.tensor"), ("mbarrier_wait", r"\bmbarrier\.try_wait"),
            ("cp_async", r"\bcp\.async\.(?:ca|cg)\b")]


def loop_bodies(ptx):
    """The text of each loop: from a label to the last branch back to it."""
    bodies = []
    for label in re.finditer(r"(?m)^(\$L__BB\d+_\d+):", ptx):
        back = list(re.finditer(r"\bbra(?:\.uni)?\s+" + re.escape(label.group(1)) + ";",
                                ptx[label.end():]))
        if back:
            bodies.append(ptx[label.end():label.end() + back[-1].start()])
    return bodies


def loop_mix(ptx):
    """LOOP_MIX counted in the loop with the most tensor-core instructions
    (the K loop); "-" where no loop holds any."""
    best, best_count = None, 0
    for body in loop_bodies(ptx):
        count = len(re.findall(LOOP_MIX[0][1], body)) + len(re.findall(LOOP_MIX[1][1], body))
        if count > best_count:
            best, best_count = body, count
    if best is None:
        return "-"
    counts = ",".join(f"{name}={len(re.findall(pattern, best))}" for name, pattern in LOOP_MIX)
    # A warp-specialized kernel's producer: the loop of TMA loads without
    # tensor-core instructions (the consumers' K loop has none).
    producer = max((body for body in loop_bodies(ptx)
                    if not re.search(LOOP_MIX[0][1], body) and not re.search(LOOP_MIX[1][1], body)),
                   key=lambda body: len(re.findall(LOOP_MIX[3][1], body)), default=None)
    if producer and re.search(LOOP_MIX[3][1], producer):
        counts += ",producer_tma=%d,producer_mbarrier_wait=%d" % (
            len(re.findall(LOOP_MIX[3][1], producer)), len(re.findall(LOOP_MIX[4][1], producer)))
    return counts




def entries(ptx):
    """Each .entry's name and body."""
    parts = re.split(r"(?m)^\.visible \.entry (\w+)\(", ptx)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def compile_kernels(hlo_compile, module, arch="sm_90a"):
    """hlo-compile's kernels for `module`: (the manifest's kernels, each
    kernel's ptxas usage fields [registers, spill stores, spill loads, stack,
    shared bytes (static and dynamic), barriers] by name, each kernel's PTX body by name), or None
    where it fails (said on stderr)."""
    with tempfile.TemporaryDirectory() as tmp:
        ptx_path, manifest_path = os.path.join(tmp, "m.ptx"), os.path.join(tmp, "m.json")
        run = subprocess.run([hlo_compile, "-w", "--resource-usage", "--gpu-arch=" + arch,
                              module, "-o", ptx_path, "--manifest", manifest_path],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{module}: hlo-compile failed: {run.stderr[:200]}", file=sys.stderr)
            return None
        usage = {}
        for line in run.stderr.splitlines():
            fields = line.split()
            if len(fields) == 8 and fields[1].isdigit():
                # Shared bytes: the code's plus the launch's dynamic part.
                fields[5] = str(int(fields[5]) + int(fields[7]))
                usage[fields[0]] = fields[1:7]
        with open(manifest_path) as f:
            kernels = json.load(f)["kernels"]
        with open(ptx_path) as f:
            bodies = entries(f.read())
    return kernels, usage, bodies


def spills(usage_fields):
    """Spill stores plus loads from compile_kernels' usage fields, or "-"."""
    stores, loads = usage_fields[1], usage_fields[2]
    return str(int(stores) + int(loads)) if stores != "-" else "-"
