"""Small real JAX programs behind the whole-module tests in tests/models/.

Each compiles with XLA's real GPU compiler (deviceless, H100 target) through
../shared/tools/xla-gpu-reference, and is small enough for the reference
interpreter to run the whole module on a 2-core CPU in well under a minute.
To regenerate tests/models/<name>.<variant>/ (from the repository root, after
`../shared/tools/xla-gpu-reference/xla-ref setup`):

  ~/.cache/xla-gpu-reference/venv/bin/python \
      ../shared/tools/xla-gpu-reference/xla_gpu_reference.py \
      --module tests/models/programs.py --variants default,native \
      --corpus /tmp/models-out --work /tmp/models-out/.work
  for d in /tmp/models-out/*.*/; do n=$(basename $d); mkdir -p tests/models/$n
    cp $d/module.hlo $d/xla_kernels.tsv $d/xla_compile_s.txt $d/meta.json tests/models/$n/; done

(the PTX per kernel, xla_ptx/, is left out to keep the repository small).
check_models.py runs these modules in the interpreter against JAX on the CPU;
check_conv_backward.py checks the cuDNN backward convolutions alone.

  t5_encoder_block   one T5 v1.1 encoder layer, bf16 (softmax in f32), B=2 x S=64,
                     d_model 128, 4 heads of 32, gated-GELU FF 256: T5's
                     bidirectional relative-position buckets computed at run time
                     from s32 position ids (integer abs, log of the converted
                     distance, min / where on integers), the bucket-bias gather,
                     RMSNorm without mean, unscaled attention with a padding mask
  resnet_train_step  one SGD-with-momentum step of a small ResNet, f32 NHWC
                     [4,16,16,3], stem 3x3 conv (16), a basic block, a stride-2
                     basic block (32) with a 1x1 projection, training-mode
                     BatchNorm, ReLU, global average pool, dense 10 classes,
                     softmax cross-entropy; jax.grad makes XLA emit cuDNN
                     backward-input and backward-filter convolutions
  llama_mlp_fp8      a llama-style MLP block in FP8 with per-tensor current
                     scaling (as Transformer Engine's LayerNormMLP): bf16 x
                     [2,32,256], RMSNorm, one fused gate|up projection to
                     2 x 512, SiLU(gate) * up, down projection, residual add.
                     Weights are f8e4m3fn inputs with f32 dequantization scales;
                     each activation is quantized at run time (amax = max |x|,
                     scale = 448 / amax, x * scale clipped to +-448, converted
                     to f8e4m3fn) from f32 and dequantized in f32, so in
                     `native` XLA's gemm rewriter makes both GEMMs (f32 out)
                     `__cublas$lt$matmul$f8` custom calls (the down projection
                     with the f32 residual as C, beta 1); `default` gives them
                     to Triton. CUBLAS_F8.md specifies the custom call.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def T(dtype, shape):
    return (dtype, tuple(shape))


# ------------------------------------------------------------ T5 encoder
T5 = dict(D=128, H=4, DK=32, F=256, BUCKETS=32, MAX_DISTANCE=128)


def relative_position_bucket(relative_position, num_buckets=32, max_distance=128):
    """T5's bidirectional bucketing (t5x / mesh-tensorflow), on s32."""
    num_buckets //= 2
    ret = (relative_position > 0).astype(jnp.int32) * num_buckets
    n = jnp.abs(relative_position)
    max_exact = num_buckets // 2
    is_small = n < max_exact
    val_if_large = max_exact + (
        jnp.log(n.astype(jnp.float32) / max_exact + np.finfo(np.float32).eps)
        / np.log(max_distance / max_exact) * (num_buckets - max_exact)).astype(jnp.int32)
    val_if_large = jnp.minimum(val_if_large, num_buckets - 1)
    return ret + jnp.where(is_small, n, val_if_large)


def t5_rmsnorm(x, w, eps=1e-6):
    xf = x.astype(jnp.float32)
    y = xf * lax.rsqrt(jnp.mean(xf * xf, axis=-1, keepdims=True) + eps)
    return (y * w.astype(jnp.float32)).astype(x.dtype)


def t5_encoder_block(p, x, positions, mask):
    """x [B,S,D] bf16; positions s32[B,S] (packed-sequence ids); mask pred[B,S]."""
    B, S, D = x.shape
    H, DK = T5["H"], T5["DK"]
    rel = positions[:, None, :] - positions[:, :, None]              # [B,q,k] s32
    buckets = relative_position_bucket(rel, T5["BUCKETS"], T5["MAX_DISTANCE"])
    bias = jnp.take(p["rel_bias"], buckets, axis=0)                   # [B,q,k,H]
    bias = bias.transpose(0, 3, 1, 2).astype(jnp.float32)             # [B,H,q,k]
    h = t5_rmsnorm(x, p["ln_attn"])
    q = (h @ p["wq"]).reshape(B, S, H, DK)
    k = (h @ p["wk"]).reshape(B, S, H, DK)
    v = (h @ p["wv"]).reshape(B, S, H, DK)
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k, preferred_element_type=jnp.float32)
    s = s + bias                                                      # T5: no 1/sqrt(d)
    s = jnp.where(mask[:, None, None, :], s, -1e9)
    a = jax.nn.softmax(s, axis=-1).astype(x.dtype)
    o = jnp.einsum("bhqk,bkhd->bqhd", a, v).reshape(B, S, H * DK)
    x = x + o @ p["wo"]
    h = t5_rmsnorm(x, p["ln_ff"])
    g = jax.nn.gelu(h @ p["wi_0"], approximate=True) * (h @ p["wi_1"])
    return x + g @ p["wo_ff"]


def t5_params(dtype="bf16"):
    D, H, DK, F = T5["D"], T5["H"], T5["DK"], T5["F"]
    return {"rel_bias": T(dtype, (T5["BUCKETS"], H)),
            "ln_attn": T(dtype, (D,)), "ln_ff": T(dtype, (D,)),
            "wq": T(dtype, (D, H * DK)), "wk": T(dtype, (D, H * DK)),
            "wv": T(dtype, (D, H * DK)), "wo": T(dtype, (H * DK, D)),
            "wi_0": T(dtype, (D, F)), "wi_1": T(dtype, (D, F)),
            "wo_ff": T(dtype, (F, D))}


# ------------------------------------------------------ ResNet train step
def conv(x, w, stride=1):
    return lax.conv_general_dilated(x, w, (stride, stride), "SAME",
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


def batchnorm(x, gamma, beta, eps=1e-5):
    """Training mode: normalizes with the batch's statistics."""
    mean = jnp.mean(x, axis=(0, 1, 2))
    var = jnp.mean(jnp.square(x - mean), axis=(0, 1, 2))
    return (x - mean) * lax.rsqrt(var + eps) * gamma + beta


def basic_block(p, x, stride):
    h = jax.nn.relu(batchnorm(conv(x, p["w1"], stride), p["g1"], p["b1"]))
    h = batchnorm(conv(h, p["w2"]), p["g2"], p["b2"])
    if "wp" in p:
        x = batchnorm(conv(x, p["wp"], stride), p["gp"], p["bp"])
    return jax.nn.relu(h + x)


def resnet(params, x):
    h = jax.nn.relu(batchnorm(conv(x, params["stem"]["w"]), params["stem"]["g"],
                              params["stem"]["b"]))
    h = basic_block(params["block1"], h, 1)
    h = basic_block(params["block2"], h, 2)
    h = jnp.mean(h, axis=(1, 2))
    return h @ params["head"]["w"] + params["head"]["b"]


def resnet_train_step(params, momentum, x, labels):
    lr, mu = 0.1, 0.9

    def loss_fn(p):
        logits = resnet(p, x)
        logp = jax.nn.log_softmax(logits, axis=-1)
        return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=-1))

    loss, g = jax.value_and_grad(loss_fn)(params)
    momentum = jax.tree_util.tree_map(lambda m, gg: mu * m + gg, momentum, g)
    params = jax.tree_util.tree_map(lambda w, m: w - lr * m, params, momentum)
    return params, momentum, loss


def resnet_params(dtype="f32", cin=3, c1=16, c2=32, classes=10):
    def bn(c, tag=""):
        return {"g" + tag: T(dtype, (c,)), "b" + tag: T(dtype, (c,))}
    return {
        "stem": {"w": T(dtype, (3, 3, cin, c1)), **bn(c1)},
        "block1": {"w1": T(dtype, (3, 3, c1, c1)), "w2": T(dtype, (3, 3, c1, c1)),
                   **bn(c1, "1"), **bn(c1, "2")},
        "block2": {"w1": T(dtype, (3, 3, c1, c2)), "w2": T(dtype, (3, 3, c2, c2)),
                   "wp": T(dtype, (1, 1, c1, c2)),
                   **bn(c2, "1"), **bn(c2, "2"), **bn(c2, "p")},
        "head": {"w": T(dtype, (c2, classes)), "b": T(dtype, (classes,))},
    }


# ------------------------------------------------------- llama MLP, FP8
LLAMA_FP8 = dict(D=256, F=512, E4M3_MAX=448.0)


def fp8_quantize(x):
    """Per-tensor current scaling of f32 x: (x * scale) in f8e4m3fn, and
    1 / scale, with scale = 448 / amax."""
    amax = jnp.max(jnp.abs(x))
    scale = LLAMA_FP8["E4M3_MAX"] / jnp.maximum(amax, 1e-12)
    q = jnp.clip(x * scale, -LLAMA_FP8["E4M3_MAX"],
                 LLAMA_FP8["E4M3_MAX"]).astype(jnp.float8_e4m3fn)
    return q, 1.0 / scale


def fp8_dense(x, w_q, w_scale_inv):
    """f32 x [..., K] @ (w_q f8e4m3fn [K, N] * w_scale_inv) in f32. Both
    operands are dequantized by convert + multiply by a broadcast f32 scalar,
    the pattern XLA's gemm rewriter folds into a cuBLASLt FP8 matmul. (A bf16
    result would need bf16 operands: cuBLASLt has no f32 x f32 -> bf16.)"""
    x_q, x_scale_inv = fp8_quantize(x)
    a = x_q.astype(jnp.float32) * x_scale_inv
    b = w_q.astype(jnp.float32) * w_scale_inv
    return lax.dot_general(a, b, (((x.ndim - 1,), (0,)), ((), ())),
                           preferred_element_type=jnp.float32)


def llama_mlp_fp8(p, x):
    """x [B,S,D] bf16 -> x + down(silu(gate(h)) * up(h)), h = RMSNorm(x), in
    f32 between the bf16 input and the bf16 result: as Transformer Engine's
    fused norm / activation + cast kernels do, the activations are quantized
    from f32. No bf16 rounding sits before an FP8 cast: XLA's GPU compiler
    drops such roundings (excess precision), and an FP8 cast amplifies any
    difference (with bf16 intermediates, JAX on the CPU and an emulation of
    the `native` module differed by 4e-2 of the output's largest value)."""
    xf = x.astype(jnp.float32)
    h = xf * lax.rsqrt(jnp.mean(xf * xf, axis=-1, keepdims=True) + 1e-6)
    h = h * p["ln"].astype(jnp.float32)
    g, u = jnp.split(fp8_dense(h, p["w_gate_up"], p["s_gate_up"]), 2, axis=-1)
    return (xf + fp8_dense(jax.nn.silu(g) * u, p["w_down"], p["s_down"])).astype(x.dtype)


def llama_mlp_fp8_params():
    D, F = LLAMA_FP8["D"], LLAMA_FP8["F"]
    return {"ln": T("bf16", (D,)),
            "w_gate_up": T("f8e4m3fn", (D, 2 * F)), "s_gate_up": T("f32", ()),
            "w_down": T("f8e4m3fn", (F, D)), "s_down": T("f32", ())}


# ------------------------------------------------------------- registry
FUNCTIONS = {
    "t5_encoder_block": dict(
        fn=t5_encoder_block,
        args=(t5_params("bf16"), T("bf16", (2, 64, T5["D"])), T("s32", (2, 64)),
              T("pred", (2, 64)))),
    "resnet_train_step": dict(
        fn=resnet_train_step,
        args=(resnet_params(), resnet_params(), T("f32", (4, 16, 16, 3)), T("s32", (4,))),
        donate_argnums=(0, 1)),
    "llama_mlp_fp8": dict(
        fn=llama_mlp_fp8,
        args=(llama_mlp_fp8_params(), T("bf16", (2, 32, LLAMA_FP8["D"])))),
}
