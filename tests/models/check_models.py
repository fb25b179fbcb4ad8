"""Runs the after-optimizations modules of tests/models/ in the reference
interpreter (hlo-run --interpret) and compares every output with JAX's on the
CPU for the same inputs (real labels in range, sorted position ids, a padding
mask). From the repository root:

  ~/.cache/xla-gpu-reference/venv/bin/python tests/models/check_models.py HLO_RUN [WORK_DIR]

Prints the worst error per module relative to the output's largest value
(f32 ResNet: ~5e-7; bf16 T5: ~8e-3, a couple of bf16 ulps).
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

DTYPES = {"f32": np.float32, "bf16": jnp.bfloat16, "s32": np.int32, "pred": np.bool_}


def make(rng, name, leaf):
    dtype, shape = leaf
    if dtype == "s32" and name == "resnet_train_step":
        return rng.integers(0, 10, shape).astype(np.int32)
    if dtype == "s32":
        return np.sort(rng.integers(0, 200, shape), axis=-1).astype(np.int32)
    if dtype == "pred":
        return rng.random(shape) < 0.85
    a = rng.standard_normal(shape).astype(np.float32)
    if len(shape) >= 2:
        a /= np.sqrt(np.prod(shape[:-1]))
    return a.astype(DTYPES[dtype])


def to_f32(a):
    if a.dtype.kind == "V":  # bf16 as hlo-run writes it
        return (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
    return a.astype(np.float32)


def main():
    hlo_run = os.path.abspath(sys.argv[1])
    work = sys.argv[2] if len(sys.argv) > 2 else "/tmp/models-check"
    rng = np.random.default_rng(1)
    is_leaf = lambda x: isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str)
    for name, spec in programs.FUNCTIONS.items():
        args = jax.tree_util.tree_map(lambda l: make(rng, name, l), spec["args"],
                                      is_leaf=is_leaf)
        expected = jax.tree_util.tree_leaves(jax.jit(spec["fn"])(*args))
        for variant in ("native", "default"):
            d = os.path.join(work, f"{name}.{variant}")
            os.makedirs(d, exist_ok=True)
            inputs = []
            for i, a in enumerate(jax.tree_util.tree_leaves(args)):
                a = np.asarray(a)
                np.save(f"{d}/in_{i}.npy", a.view(np.dtype("V2")) if a.dtype == jnp.bfloat16 else a)
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
