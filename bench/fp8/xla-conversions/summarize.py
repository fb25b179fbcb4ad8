#!/usr/bin/env python3
"""Summarise XLA's conversion kernels: PTX instruction counts, hardware cvt use, registers.

usage: summarize.py SM90_OUT SM80_OUT   (corpus dirs written by xla-ref hlo, see README.md)
Copies each kernel's PTX beside the .hlo files and writes ../../results/fp8-conversions-xla.tsv.
"""
import csv, os, re, shutil, sys

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = ["f8e4m3fn", "f8e5m2", "f8e4m3fnuz", "f8e5m2fnuz", "f8e4m3b11fnuz", "f8e3m4",
         "f8e4m3", "f8e8m0fnu", "f4e2m1fn"]
DIRS = {"roundtrip": "", "to": ".to", "from": ".from"}
HW = re.compile(r"\bcvt\.[a-z0-9.]*?(e4m3x2|e5m2x2|e2m1x2|e3m2x2|e2m3x2|ue8m0x2)\b[^\s]*")
N = 1048576


def body_instructions(ptx):
    m = re.search(r"\.entry[^{]*\{(.*)\}\s*$", ptx, re.S)
    out = []
    for line in m.group(1).splitlines():
        s = line.split("//")[0].strip()
        if not s or s.startswith(".") or s in ("{", "}") or s.endswith(":") or s == "ret;":
            continue
        out.append(s)
    return out


def main(sm90, sm80):
    rows = []
    for arch, root in (("sm_90", sm90), ("sm_80", sm80)):
        for t in TYPES:
            for direction, suf in DIRS.items():
                d = os.path.join(root, f"{t}{suf}.native")
                k = list(csv.DictReader(open(os.path.join(d, "xla_kernels.tsv")), delimiter="\t"))
                assert len(k) == 1, (d, len(k))
                k = k[0]
                ptx_path = os.path.join(d, k["ptx_file"])
                ptx = open(ptx_path).read()
                dst = f"{t}{suf}{'' if arch == 'sm_90' else '.sm_80'}.xla.ptx"
                shutil.copyfile(ptx_path, os.path.join(HERE, dst))
                ins = body_instructions(ptx)
                hw = sorted({HW.search(i).group(0) for i in ins if HW.search(i)})
                grid = int(k["grid"].split(",")[0]); block = int(k["block"].split(",")[0])
                rows.append({"type": t, "direction": {"roundtrip": "f32->T->f32", "to": "f32->T",
                                                       "from": "T->f32"}[direction],
                             "arch": arch, "ptx_instructions": len(ins),
                             "hardware_cvt": "yes" if hw else "no",
                             "registers": k["registers"],
                             "elems_per_thread": N // (grid * block),
                             "grid": grid, "block": block,
                             "hw_cvt_ops": ",".join(hw) or "-", "ptx": dst})
    out = os.path.join(HERE, "..", "..", "results", "fp8-conversions-xla.tsv")
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), delimiter="\t", lineterminator="\n")
        w.writeheader(); w.writerows(rows)
    print(open(out).read())


if __name__ == "__main__":
    main(*sys.argv[1:3])
