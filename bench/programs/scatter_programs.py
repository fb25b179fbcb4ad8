"""JAX programs whose scatters XLA runs in place (issue 33), for
shared/tools/xla-gpu-reference (`xla-ref jax OUT --module THIS`):

  gnn_layer        message passing: gather node features along edges, an
                   MLP on the messages, segment-sum them back (scatter-add
                   into zeros), twice, with a residual.
  nucleus_sample   top-p sampling over a vocabulary: sort, cumsum, mask,
                   scatter the mask back to vocabulary order, renormalize.
  embedding_grad   the gradient of an embedding lookup (scatter-add of the
                   token gradients into the table's shape).
"""
import jax
import jax.numpy as jnp


def T(dtype, shape):
    return jax.ShapeDtypeStruct(tuple(shape), jnp.dtype({"f32": "float32", "s32": "int32"}.get(dtype, dtype)))


def gnn_layer(x, senders, receivers, w1, w2):
    def step(h):
        messages = jax.nn.relu(h[senders] @ w1)
        aggregated = jnp.zeros_like(h).at[receivers].add(messages)
        degree = jnp.zeros((h.shape[0],), h.dtype).at[receivers].add(1.0)
        return h + (aggregated / jnp.maximum(degree, 1.0)[:, None]) @ w2
    return step(step(x))


def nucleus_sample(logits, p):
    probs = jax.nn.softmax(logits, axis=-1)
    order = jnp.argsort(-probs, axis=-1)
    sorted_probs = jnp.take_along_axis(probs, order, axis=-1)
    cumulative = jnp.cumsum(sorted_probs, axis=-1)
    keep_sorted = cumulative - sorted_probs < p
    rows = jnp.arange(logits.shape[0])[:, None]
    keep = jnp.zeros_like(keep_sorted).at[rows, order].set(keep_sorted)
    masked = jnp.where(keep, probs, 0.0)
    return masked / jnp.sum(masked, axis=-1, keepdims=True)


def embedding_grad(table, tokens, upstream):
    def loss(t):
        return jnp.sum(t[tokens] * upstream)
    return jax.grad(loss)(table)


FUNCTIONS = {
    "gnn_layer": dict(fn=gnn_layer,
                      args=(T("f32", (4096, 128)), T("s32", (32768,)), T("s32", (32768,)),
                            T("f32", (128, 128)), T("f32", (128, 128)))),
    "nucleus_sample": dict(fn=nucleus_sample,
                           args=(T("f32", (32, 32000)), T("f32", ())),
                           xla_options={"xla_gpu_deviceless_cub_mode":
                                        "DEVICELESS_CUB_DISABLED"}),
    "embedding_grad": dict(fn=embedding_grad,
                           args=(T("f32", (32000, 512)), T("s32", (8, 512)),
                                 T("f32", (8, 512, 512)))),
}
