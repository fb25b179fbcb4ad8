"""Runs the after-optimizations modules of tests/models/ in the reference
interpreter (hlo-run --interpret) and compares every output with JAX's on the
CPU for the same inputs (real labels in range, sorted position ids, a padding
mask). From the repository root:

  ~/.cache/xla-gpu-reference/venv/bin/python tests/models/check_models.py HLO_RUN [WORK_DIR]

Prints the worst error per module relative to the output's largest value
(f32 ResNet: ~5e-7; bf16 T5: ~8e-3, a couple of bf16 ulps).

  ~/.cache/xla-gpu-reference/venv/bin/python tests/models/check_models.py --save [WORK_DIR]

runs no interpreter: it writes each program's inputs and JAX's outputs as
WORK_DIR/<name>/in_<i>.npy and expected_<i>.npy (bf16 and f8 as raw V2 / V1
bits, as hlo-run reads and writes them), for comparing a module-mode run.

llama_mlp_fp8 takes f8e4m3fn weights (standard normal x 64, clipped to +-448,
rounded to e4m3) and f32 scalar dequantization scales (uniform in
[0.5, 1) / 1024). Everything between its bf16 input and bf16 result is f32 on
both sides, so the FP8 casts see the same values: a numpy emulation of
`native`'s `__cublas$lt$matmul$f8` calls as CUBLAS_F8.md specifies them (f32
accumulation) matched JAX's output in all but 1 of 16384 elements (1 bf16 ulp).
"""
import os
import subprocess
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import programs  # noqa: E402

DTYPES = {"f32": np.float32, "bf16": jnp.bfloat16, "s32": np.int32, "pred": np.bool_,
          "f8e4m3fn": jnp.float8_e4m3fn}


def make(rng, name, leaf):
    dtype, shape = leaf
    if dtype == "s32" and name == "resnet_train_step":
        return rng.integers(0, 10, shape).astype(np.int32)
    if dtype == "s32":
        return np.sort(rng.integers(0, 200, shape), axis=-1).astype(np.int32)
    if dtype == "pred":
        return rng.random(shape) < 0.85
    if dtype == "f8e4m3fn":  # quantized weights, using e4m3's range (max 448)
        return np.clip(rng.standard_normal(shape) * 64, -448, 448).astype(DTYPES[dtype])
    if dtype == "f32" and shape == () and name == "llama_mlp_fp8":
        return np.float32(rng.uniform(0.5, 1.0) / 1024)  # a weight's dequantization scale
    a = rng.standard_normal(shape).astype(np.float32)
    if len(shape) >= 2:
        a /= np.sqrt(np.prod(shape[:-1]))
    return a.astype(DTYPES[dtype])


def to_f32(a):
    if a.dtype.kind == "V":  # bf16 as hlo-run writes it
        return (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return a.astype(np.float32)


def raw(a):
    """An array as hlo-run reads and writes it: bf16 and f8 as raw bits (V2, V1)."""
    a = np.asarray(a)
    if a.dtype == jnp.bfloat16:
        return a.view(np.dtype("V2"))
    if a.dtype in (jnp.float8_e4m3fn, jnp.float8_e5m2):
        return a.view(np.dtype("V1"))
    return a


def main():
    argv = [a for a in sys.argv[1:] if a != "--save"]
    save = len(argv) < len(sys.argv) - 1
    hlo_run = None if save else os.path.abspath(argv[0])
    work = argv[-1] if len(argv) > (0 if save else 1) else "/tmp/models-check"
    rng = np.random.default_rng(1)
    is_leaf = lambda x: isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str)
    for name, spec in programs.FUNCTIONS.items():
        args = jax.tree_util.tree_map(lambda l: make(rng, name, l), spec["args"],
                                      is_leaf=is_leaf)
        expected = jax.tree_util.tree_leaves(jax.jit(spec["fn"])(*args))
        if save:
            d = os.path.join(work, name)
            os.makedirs(d, exist_ok=True)
            for i, a in enumerate(jax.tree_util.tree_leaves(args)):
                np.save(f"{d}/in_{i}.npy", raw(a))
            for i, e in enumerate(expected):
                np.save(f"{d}/expected_{i}.npy", raw(e))
            print(f"{name}: {len(expected)} outputs saved in {d}")
            continue
        for variant in ("native", "default"):
            d = os.path.join(work, f"{name}.{variant}")
            os.makedirs(d, exist_ok=True)
            inputs = []
            for i, a in enumerate(jax.tree_util.tree_leaves(args)):
                np.save(f"{d}/in_{i}.npy", raw(a))
                inputs += ["--input", f"{i}={d}/in_{i}.npy"]
            module = os.path.join(HERE, f"{name}.{variant}", "module.hlo")
            run = subprocess.run([hlo_run, module, "--interpret", "--output-dir", f"{d}/out"]
                                 + inputs, capture_output=True, text=True)
            if run.returncode:
                print(f"FAIL {name}.{variant}: {run.stderr.strip()[-500:]}")
                continue
            worst = 0.0
            for i, e in enumerate(expected):
                e = np.asarray(e).astype(np.float32)
                got = to_f32(np.load(f"{d}/out/output_{i}.npy")).reshape(e.shape)
                worst = max(worst, float(np.max(np.abs(got - e)) / max(1e-6, np.max(np.abs(e)))))
            print(f"{name}.{variant}: {len(expected)} outputs, worst error {worst:.2e}")


if __name__ == "__main__":
    main()
