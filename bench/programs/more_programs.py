"""More JAX programs for the kernel comparison of issue 33, for
shared/tools/xla-gpu-reference (`xla-ref jax OUT --module THIS`):

  bert_head_grad   the gradient of a BERT-style head (dense, GELU, layer
                   norm) over 4096 tokens: column reductions for the bias
                   and norm-weight gradients.
  mamba_scan       a selective-scan recurrence h_t = a_t * h_{t-1} + b_t
                   by jax.lax.associative_scan over 1024 steps.
"""
import jax
import jax.numpy as jnp

_DTYPES = {"f32": jnp.float32, "bf16": jnp.bfloat16}


def T(dtype, shape):
    return jax.ShapeDtypeStruct(tuple(shape), _DTYPES[dtype])


def bert_head_grad(x, w, b, g, beta):
    def loss(w, b, g, beta):
        h = jax.nn.gelu(x @ w + b)
        mu = jnp.mean(h, axis=-1, keepdims=True)
        var = jnp.mean((h - mu) ** 2, axis=-1, keepdims=True)
        y = (h - mu) * jax.lax.rsqrt(var + 1e-12) * g + beta
        return jnp.sum(y * y)
    return jax.grad(loss, argnums=(0, 1, 2, 3))(w, b, g, beta)


def mamba_scan(a, b):
    def combine(left, right):
        a1, b1 = left
        a2, b2 = right
        return a1 * a2, a2 * b1 + b2
    return jax.lax.associative_scan(combine, (a, b), axis=1)[1]


FUNCTIONS = {
    "bert_head_grad": dict(fn=bert_head_grad,
                           args=(T("f32", (4096, 768)), T("f32", (768, 768)), T("f32", (768,)),
                                 T("f32", (768,)), T("f32", (768,)))),
    "mamba_scan": dict(fn=mamba_scan,
                       args=(T("f32", (8, 1024, 16)), T("f32", (8, 1024, 16)))),
}
