#!/usr/bin/env python3
"""Compare XLA:CPU convert (via jax.jit on CPU) with ml_dtypes astype, f32<->each 8/4-bit float type.
Run: JAX_PLATFORMS=cpu /root/.cache/xla-gpu-reference/venv/bin/python3 xla_cpu_vs_ml_dtypes.py"""
import numpy as np, ml_dtypes as md, jax, jax.numpy as jnp
jax.config.update("jax_enable_x64", True)
TYPES = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3b11fnuz",
         "float8_e3m4", "float8_e4m3", "float8_e8m0fnu", "float4_e2m1fn"]
rng = np.random.default_rng(0)
specials = np.array([0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
                     0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff], np.uint32)
# every f32 that is a value, a midpoint, or midpoint +-1ulp of any target type, plus random bits
rand = rng.integers(0, 2**32, 200000, dtype=np.uint64).astype(np.uint32)
cand = [specials, rand]
for n in TYPES:
    t = getattr(md, n); nb = 256 if n.startswith("float8") else 16
    v = np.arange(nb, dtype=np.uint8).view(t).astype(np.float64)
    v = np.unique(v[np.isfinite(v)])
    mids = (v[1:] + v[:-1]) / 2
    allv = np.concatenate([v, mids, -v, -mids, v * 1.0625, v * 1.03125, v * 2, v / 2]).astype(np.float32)
    b = allv.view(np.uint32)
    cand += [b, b + 1, b - 1]
x = np.unique(np.concatenate(cand)).view(np.float32)
print(f"{len(x)} f32 inputs")
for n in TYPES:
    t = getattr(md, n)
    ref = x.astype(t).view(np.uint8)
    got = np.asarray(jax.jit(lambda a: a.astype(t))(jnp.asarray(x))).view(np.uint8)
    bad = np.nonzero(ref != got)[0]
    line = f"f32->{n:18s}: {len(bad)} mismatches"
    if len(bad):
        ex = ", ".join(f"0x{x[i:i+1].view(np.uint32)[0]:08x}({x[i]:g}): ml 0x{ref[i]:02x} xla 0x{got[i]:02x}" for i in bad[:6])
        line += "  e.g. " + ex
    print(line)
    nb = 256 if n.startswith("float8") else 16
    codes = np.arange(nb, dtype=np.uint8).view(t)
    r2 = codes.astype(np.float32).view(np.uint32)
    g2 = np.asarray(jax.jit(lambda a: a.astype(jnp.float32))(jnp.asarray(codes))).view(np.uint32)
    bad2 = np.nonzero(r2 != g2)[0]
    line = f"{n:18s}->f32: {len(bad2)} mismatches"
    if len(bad2):
        line += "  e.g. " + ", ".join(f"0x{i:02x}: ml 0x{r2[i]:08x} xla 0x{g2[i]:08x}" for i in bad2[:8])
    print(line)
    # f64 / f16 / bf16 -> T: XLA vs ml_dtypes
    for src in (np.float64, np.float16, md.bfloat16):
        xs = x.astype(src)
        r3 = xs.astype(t).view(np.uint8)
        g3 = np.asarray(jax.jit(lambda a: a.astype(t))(jnp.asarray(xs))).view(np.uint8)
        b3 = np.nonzero(r3 != g3)[0]
        s = f"   {np.dtype(src).name}->{n}: {len(b3)} mismatches"
        if len(b3):
            s += "  e.g. " + ", ".join(f"{float(xs[i])!r}: ml 0x{r3[i]:02x} xla 0x{g3[i]:02x}" for i in b3[:3])
        print(s)
