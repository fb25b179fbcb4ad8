"""JAX programs for the HLO pipeline's table (issue 56), beside the corpus's,
for shared/tools/xla-gpu-reference (`xla-ref jax OUT --module THIS`); their
unoptimized HLO and XLA's optimized module are kept under
bench/data/pipeline/ (bench/make_pipeline_data.sh):

  adam_update      one Adam step over a small transformer's 14 parameters
                   of 7 shapes (what XLA's horizontal loop fusion merges).
  lstm_scan        an LSTM over 64 steps (lax.scan), batch 32, 256 units.
  sgd_momentum     a momentum-SGD step over 40 bias-sized and 8 matrix
                   parameters.
  gnn_train_step   a two-layer GNN's training step (gathers, scatter-adds,
                   cross-entropy, SGD).
  mlm_head_grad    a masked-LM head's gradient (gather the masked tokens,
                   dense, GELU, layer norm, tied-embedding logits).
"""
import jax
import jax.numpy as jnp


def T(dtype, shape):
    return jax.ShapeDtypeStruct(tuple(shape), jnp.dtype(dtype))


def _transformer_shapes(d=512, f=2048, vocab=8192, layers=2):
    shapes = {"embed": (vocab, d), "final_norm": (d,)}
    for layer in range(layers):
        shapes.update({f"l{layer}_qkv": (d, 3 * d), f"l{layer}_out": (d, d),
                       f"l{layer}_up": (d, f), f"l{layer}_down": (f, d),
                       f"l{layer}_norm1": (d,), f"l{layer}_norm2": (d,)})
    return shapes


ADAM_SHAPES = _transformer_shapes()


def adam_update(params, grads, m, v, step):
    b1, b2, lr, eps = 0.9, 0.999, 1e-3, 1e-8
    t = step.astype(jnp.float32) + 1.0

    def one(p, g, mm, vv):
        mm = b1 * mm + (1 - b1) * g
        vv = b2 * vv + (1 - b2) * g * g
        mhat = mm / (1 - b1 ** t)
        vhat = vv / (1 - b2 ** t)
        return p - lr * mhat / (jnp.sqrt(vhat) + eps), mm, vv

    out = {k: one(params[k], grads[k], m[k], v[k]) for k in params}
    return ({k: o[0] for k, o in out.items()}, {k: o[1] for k, o in out.items()},
            {k: o[2] for k, o in out.items()})


def lstm_scan(params, xs, h0, c0):
    def cell(carry, x):
        h, c = carry
        z = x @ params["wx"] + h @ params["wh"] + params["b"]
        i, f, g, o = jnp.split(z, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h
    (h, c), hs = jax.lax.scan(cell, (h0, c0), xs)
    return hs, h, c


SGD_SHAPES = {**{f"bias{i}": (64 + 8 * i,) for i in range(40)},
              **{f"w{i}": (256, 64 + 32 * i) for i in range(8)}}


def sgd_momentum(params, grads, velocity):
    lr, mu = 0.01, 0.9
    new_v = {k: mu * velocity[k] + grads[k] for k in params}
    return {k: params[k] - lr * new_v[k] for k in params}, new_v


def _tree(shapes):
    return {k: T("float32", s) for k, s in shapes.items()}


FUNCTIONS = {
    "adam_update": dict(fn=adam_update,
                        args=(_tree(ADAM_SHAPES), _tree(ADAM_SHAPES), _tree(ADAM_SHAPES),
                              _tree(ADAM_SHAPES), T("int32", ()))),
    "lstm_scan": dict(fn=lstm_scan,
                      args=({"wx": T("float32", (128, 1024)), "wh": T("float32", (256, 1024)),
                             "b": T("float32", (1024,))},
                            T("float32", (64, 32, 128)), T("float32", (32, 256)),
                            T("float32", (32, 256)))),
    "sgd_momentum": dict(fn=sgd_momentum,
                         args=(_tree(SGD_SHAPES), _tree(SGD_SHAPES), _tree(SGD_SHAPES))),
}


def gnn_train_step(params, x, senders, receivers, labels):
    """Two message-passing layers, a softmax cross-entropy over node
    classes, and an SGD update of the four weight matrices."""
    def loss(p):
        h = x
        for w_msg, w_out in ((p["m1"], p["o1"]), (p["m2"], p["o2"])):
            messages = jax.nn.relu(h[senders] @ w_msg)
            aggregated = jnp.zeros_like(h).at[receivers].add(messages)
            h = jax.nn.relu(h + aggregated @ w_out)
        logits = h[:, :16]
        logp = jax.nn.log_softmax(logits)
        return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=1))
    grads = jax.grad(loss)(params)
    return {k: params[k] - 0.01 * grads[k] for k in params}


def mlm_head_grad(hidden, w_dense, gamma, embed, bias, positions, targets):
    """A masked-LM head (gather the masked positions, dense + GELU + layer
    norm, logits against the tied embedding, cross-entropy) and its
    gradient with respect to the head's weights and the embedding."""
    def loss(w_dense, gamma, embed, bias):
        h = jnp.take(hidden, positions, axis=0)
        h = jax.nn.gelu(h @ w_dense)
        mu = jnp.mean(h, axis=-1, keepdims=True)
        var = jnp.mean((h - mu) ** 2, axis=-1, keepdims=True)
        h = (h - mu) * jax.lax.rsqrt(var + 1e-12) * gamma
        logits = h @ embed.T + bias
        logp = jax.nn.log_softmax(logits)
        return -jnp.mean(jnp.take_along_axis(logp, targets[:, None], axis=1))
    return jax.grad(loss, argnums=(0, 1, 2, 3))(w_dense, gamma, embed, bias)


FUNCTIONS.update({
    "gnn_train_step": dict(fn=gnn_train_step,
                           args=({k: T("float32", (128, 128)) for k in ("m1", "o1", "m2", "o2")},
                                 T("float32", (4096, 128)), T("int32", (32768,)),
                                 T("int32", (32768,)), T("int32", (4096,)))),
    "mlm_head_grad": dict(fn=mlm_head_grad,
                          args=(T("float32", (4096, 768)), T("float32", (768, 768)),
                                T("float32", (768,)), T("float32", (30522, 768)),
                                T("float32", (30522,)), T("int32", (640,)), T("int32", (640,)))),
})
