#!/usr/bin/env python3
"""ml_dtypes conversion semantics for the 8-/4-bit float types (tables: input -> bits -> value).
Run: /root/.cache/xla-gpu-reference/venv/bin/python3 ml_dtypes_semantics.py"""
import numpy as np, ml_dtypes as md

T = {n: getattr(md, n) for n in ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
                                 "float8_e4m3b11fnuz", "float8_e3m4", "float8_e4m3", "float8_e8m0fnu",
                                 "float4_e2m1fn"]}
print("ml_dtypes", md.__version__, "numpy", np.__version__)

def f32(bits): return np.array([bits], np.uint32).view(np.float32)[0]
NEG_NAN = f32(0xFFC00000)

def bits_of(v, t):
    return int(np.asarray(v).astype(t).view(np.uint8))

def table(title, t, vals, src=np.float32):
    print(f"\n## {title}  ({src.__name__ if hasattr(src,'__name__') else src} -> {t})")
    for label, v in vals:
        x = np.array(v, dtype=src)
        y = x.astype(T[t])
        b = int(y.view(np.uint8))
        print(f"  {label:>22s} -> 0x{b:02x} = {float(y.astype(np.float32))!r}")

P2 = lambda e: np.float32(2.0) ** e
table("e8m0fnu", "float8_e8m0fnu", [
    ("0", 0.0), ("-0", -0.0), ("-1", -1.0), ("-2", -2.0), ("-0.5", -0.5), ("1", 1.0), ("1.5", 1.5),
    ("1.4999999", np.nextafter(np.float32(1.5), np.float32(0))), ("1.5000001", np.nextafter(np.float32(1.5), np.float32(2))),
    ("3.0", 3.0), ("6.0", 6.0), ("0.75", 0.75), ("2.5", 2.5), ("1.25", 1.25), ("1.75", 1.75),
    ("2^-127", P2(-127)), ("2^-127*1.5", P2(-127) * 1.5), ("2^-128", P2(-128)), ("2^-130", P2(-130)),
    ("2^-149", P2(-149)), ("1e38", 1e38), ("2^127", P2(127)), ("2^127*1.5", P2(127) * 1.5),
    ("max f32", np.finfo(np.float32).max), ("inf", np.inf), ("-inf", -np.inf), ("nan", np.nan), ("-nan", NEG_NAN)])
table("f4e2m1fn", "float4_e2m1fn", [(s, v) for s, v in [
    ("nan", np.nan), ("-nan", NEG_NAN), ("inf", np.inf), ("-inf", -np.inf), ("6", 6.0), ("7", 7.0), ("100", 100.0),
    ("-100", -100.0), ("5", 5.0), ("0.25", 0.25), ("0.2500001", np.nextafter(np.float32(.25), np.float32(1))),
    ("0.75", 0.75), ("1.25", 1.25), ("1.75", 1.75), ("2.5", 2.5), ("3.5", 3.5), ("-0.0", -0.0), ("0.1", 0.1)]])
table("f8e4m3fn", "float8_e4m3fn", [(s, v) for s, v in [
    ("448", 448.0), ("463.99", 463.99), ("464", 464.0), ("465", 465.0), ("480", 480.0), ("1e6", 1e6),
    ("inf", np.inf), ("-inf", -np.inf), ("nan", np.nan), ("-nan", NEG_NAN), ("-0.0", -0.0),
    ("2^-10 (half min sub)", P2(-10)), ("2^-10*1.0001", P2(-10) * np.float32(1.0001)), ("2^-9 (min sub)", P2(-9))]])
table("f8e5m2", "float8_e5m2", [(s, v) for s, v in [
    ("57344", 57344.0), ("61439", 61439.0), ("61440", 61440.0), ("1e6", 1e6), ("inf", np.inf), ("-inf", -np.inf),
    ("nan", np.nan), ("-nan", NEG_NAN)]])
for t in ["float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3b11fnuz"]:
    mx = float(md.finfo(T[t]).max)
    table(t, t, [("-0.0", -0.0), ("0.0", 0.0), ("nan", np.nan), ("-nan", NEG_NAN), ("inf", np.inf), ("-inf", -np.inf),
                 (f"max={mx}", mx), ("max*1.0624", mx * 1.0624), ("max*1.07", mx * 1.07), ("1e9", 1e9),
                 ("-tiny/4 (->-0?)", -float(md.finfo(T[t]).smallest_subnormal) / 4)])
for t in ["float8_e3m4", "float8_e4m3"]:
    mx = float(md.finfo(T[t]).max)
    table(t, t, [("-0.0", -0.0), ("nan", np.nan), ("-nan", NEG_NAN), ("inf", np.inf), ("-inf", -np.inf),
                 (f"max={mx}", mx), ("max*1.03", mx * 1.03), ("max*1.2", mx * 1.2), ("1e9", 1e9)])

print("\n## specials: every encoding whose f32 value is NaN or inf, per type (bits -> f32 bits)")
for n, t in T.items():
    codes = np.arange(256 if n.startswith("float8") else 16, dtype=np.uint8)
    v = codes.view(t).astype(np.float32)
    sp = [(int(c), x) for c, x in zip(codes, v) if not np.isfinite(x)]
    desc = ", ".join(f"0x{c:02x}->{x!r}(0x{int(np.array([x]).view(np.uint32)[0]):08x})" for c, x in sp) or "none"
    z = [int(c) for c, x in zip(codes, v) if x == 0]
    print(f"  {n:20s} non-finite: {desc};  zero codes: {[hex(c) for c in z]}; max {float(md.finfo(t).max)!r}")

print("\n## double rounding: is f64/f16/bf16 -> f8 done directly (one rounding) or through f32?")
# f64 value just above the e4m3fn tie 1.0625 (=1+1/16) by less than f32 resolution:
x64 = 1.0625 + 2.0 ** -40
print(f"  f64 1.0625+2^-40 -> e4m3fn: {float(np.float64(x64).astype(md.float8_e4m3fn))}  "
      f"(direct: 1.125; via f32 (-> 1.0625 tie -> even): 1.0; via f32 is {float(np.float32(x64))})")
x64 = 1.0625 - 2.0 ** -40
print(f"  f64 1.0625-2^-40 -> e4m3fn: {float(np.float64(x64).astype(md.float8_e4m3fn))}  (direct: 1.0; via f32: 1.0)")
# f16/bf16 have <= 8 significand bits -> exact in f32, so no double-rounding difference is possible:
h = np.array([1.0625 + 2**-10], np.float16)
print(f"  f16 {float(h[0])} -> e4m3fn: {float(h.astype(md.float8_e4m3fn)[0])} (exact in f32, so same either way)")
b = np.array([1.0625 + 2**-7], md.bfloat16)
print(f"  bf16 {float(b[0])} -> e4m3fn: {float(b.astype(md.float8_e4m3fn)[0])}")
# f64 -> e8m0fnu and f4e2m1fn near ties
x64 = 1.5 - 2.0 ** -40
print(f"  f64 1.5-2^-40 -> e8m0fnu: {float(np.float64(x64).astype(md.float8_e8m0fnu))}  (f32 of it: {float(np.float32(x64))})")
x64 = 2.5 - 2.0 ** -40
print(f"  f64 2.5-2^-40 -> f4e2m1fn: {float(np.float64(x64).astype(md.float4_e2m1fn))}  (direct: 2.0; via f32 tie->even 2.0 too)")
x64 = 2.5 + 2.0 ** -40
print(f"  f64 2.5+2^-40 -> f4e2m1fn: {float(np.float64(x64).astype(md.float4_e2m1fn))}  (direct: 3.0; via f32 -> 2.5 tie -> even 2.0)")
# f64 overflow/underflow paths: value beyond f32 range
print(f"  f64 1e300 -> e4m3fn: {float(np.float64(1e300).astype(md.float8_e4m3fn))}, -> e5m2: {float(np.float64(1e300).astype(md.float8_e5m2))}")
print(f"  f64 2^-130 -> e8m0fnu: 0x{int(np.float64(2.0**-130).astype(md.float8_e8m0fnu).view(np.uint8)):02x}")
# f8 -> f8
print(f"  e5m2 0x7c(inf) -> e4m3fn: 0x{int(np.array([0x7c],np.uint8).view(md.float8_e5m2).astype(md.float8_e4m3fn).view(np.uint8)[0]):02x}")
print(f"  e4m3fn 448 -> e5m2: {float(np.array([448], md.float8_e4m3fn).astype(md.float8_e5m2)[0])}")
