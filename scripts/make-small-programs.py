"""Writes tests/host/small-programs/<program>.hlo: the JAX programs behind the
corpus dumps (../shared/tools/xla-gpu-reference/models_module.py) at shapes small
enough for the interpreter and the host target to run whole in the test suite.

Same functions, same lowering as ../shared/corpus/models/jax/*.hlo
(jit(...).lower(...).as_text(dialect="hlo") for the CUDA platform, donation kept);
only the model dimensions shrink. Each program keeps what its full-size module
exercises: GEMM fusions with bf16/s8 prologues, causal softmax, GQA, gathers and
scatter-adds, top-k and cumsum, a while loop, and (embed_xent_grad) a
log-softmax row longer than 16384 that the tree-reduction pass splits.
One more program is ours: nested_control_flow, a loop in a conditional's
branch in a loop body (as torax nests them), for module mode's nested steps.

Run with the reference tool's Python (it has JAX):
  /root/.cache/xla-gpu-reference/venv/bin/python scripts/make-small-programs.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "..", "shared", "tools", "xla-gpu-reference"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

jax.config.update("jax_platforms", "cpu")

import models_module as mm  # noqa: E402

T = mm.T
# Model dimensions, shrunk in place (the functions read these dicts).
mm.TINYLLAMA.update(D=128, H=4, KV=2, HD=32, F=256)
mm.GPT2.update(D=128, H=4, F=512)
mm.MOE.update(D=128, F=256)

def nested_control_flow(x, w):
    def outer(i, x):
        def inner(j, x):
            return jnp.tanh(x @ w) + 0.1 * j
        x = jax.lax.cond(i % 2 == 0, lambda x: jax.lax.fori_loop(0, 3, inner, x),
                         lambda x: -x, x)
        return x * 0.5 + i
    return jax.lax.fori_loop(0, 4, outer, x)


PROGRAMS = {
    "llama_layer_fwd": dict(
        fn=mm.llama_layer_fwd, args=(mm.llama_params("bf16"), T("bf16", (1, 64, 128)))),
    "llama_layer_train": dict(
        fn=mm.llama_layer_train,
        args=(mm.llama_params("f32"), mm.llama_params("f32"), mm.llama_params("f32"),
              T("s32", ()), T("bf16", (1, 32, 128)), T("bf16", (1, 32, 128))),
        donate_argnums=(0, 1, 2)),
    "gpt2_block_fwd": dict(
        fn=mm.gpt2_block_fwd, args=(mm.gpt2_params("f32"), T("f32", (2, 64, 128)))),
    # V = 20480 > 16384: the log-softmax rows take the tree-reduction split.
    "embed_xent_grad": dict(
        fn=mm.embed_xent_grad,
        args=(T("f32", (20480, 64)), T("bf16", (64,)), T("f32", (64, 20480)),
              T("s32", (2, 8)), T("s32", (2, 8)), T("pred", (2, 8)))),
    "moe_router": dict(
        fn=mm.moe_router,
        args=(T("bf16", (256, 128)), T("bf16", (128, 8)), T("bf16", (8, 128, 256)),
              T("bf16", (8, 128, 256)), T("bf16", (8, 256, 128)))),
    "gru_scan": dict(
        fn=mm.gru_scan,
        args=({"w_zr": T("f32", (64, 128)), "u_zr": T("f32", (64, 128)),
               "b_zr": T("f32", (128,)), "w_n": T("f32", (64, 64)),
               "u_n": T("f32", (64, 64)), "b_n": T("f32", (64,))},
              T("f32", (16, 8, 64)), T("f32", (8, 64)))),
    "int8_weight_matmul": dict(
        fn=mm.int8_weight_matmul,
        args=(T("bf16", (64, 256)), T("s8", (256, 512)), T("bf16", (512,)))),
    "nested_control_flow": dict(
        fn=nested_control_flow, args=(T("f32", (8, 8)), T("f32", (8, 8)))),
}


DTYPES = {"pred": jnp.bool_, "s8": jnp.int8, "s32": jnp.int32, "bf16": jnp.bfloat16,
          "f32": jnp.float32}


def to_struct(leaf):
    dtype, shape = leaf
    return jax.ShapeDtypeStruct(shape, DTYPES[dtype])


def main():
    out_dir = os.path.join(REPO, "tests", "host", "small-programs")
    os.makedirs(out_dir, exist_ok=True)
    for name, spec in PROGRAMS.items():
        args = mm._tree(to_struct, spec["args"])
        jitted = jax.jit(spec["fn"], donate_argnums=spec.get("donate_argnums", ()))
        lowered = jitted.trace(*args).lower(lowering_platforms=("cuda",))
        text = lowered.as_text(dialect="hlo")
        with open(os.path.join(out_dir, name + ".hlo"), "w") as f:
            f.write(text)
        print(f"{name}: {len(text)} bytes")


if __name__ == "__main__":
    main()
