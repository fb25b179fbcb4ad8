"""Static figures of a PTX kernel, for the GEMM tables (bench/gemm_side_by_side.py,
bench/triton_matmul_aot.py): its tensor-core instruction mix, its widest
global load, and what its K loop does (the body of each PTX loop is the
text from a label to the last branch back to it; the K loop is the one
with the most tensor-core instructions).
"""
import re

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
    return ",".join(f"{name}={len(re.findall(pattern, best))}" for name, pattern in LOOP_MIX)


