#!/usr/bin/env python3
"""Raw bytes of packed 4-bit JAX arrays on the CPU backend (jaxlib 0.10.2).
Run: JAX_PLATFORMS=cpu /root/.cache/xla-gpu-reference/venv/bin/python3 packed_nibble_probe.py"""
import ctypes, numpy as np, jax, jax.numpy as jnp, ml_dtypes
print("jax", jax.__version__, "ml_dtypes", ml_dtypes.__version__)
for dt, vals in [(jnp.int4, [1,2,3,4,5,-1,-8,7,0]), (jnp.uint4, [1,2,3,4,5,15,8,7,0]),
                 (jnp.float4_e2m1fn, [1,2,3,4,5,-1,-6,6,0])]:
    for n in (9, 8):
        x = jnp.array(vals[:n], dtype=dt)
        x.block_until_ready()
        nbytes = x.addressable_data(0).on_device_size_in_bytes()
        ptr = x.addressable_data(0).unsafe_buffer_pointer()
        raw = ctypes.string_at(ptr, max(nbytes, 1) + 0)
        print(f"{np.dtype(dt).name:14s} n={n} elems(bits)={[int(v) for v in np.asarray(x).view(np.uint8)]} "
              f"on_device_size={nbytes} raw={raw.hex(' ')}  np.tobytes={np.asarray(x).tobytes().hex(' ')}")

def raw(x):
    b = x.addressable_data(0)
    return ctypes.string_at(b.unsafe_buffer_pointer(), b.on_device_size_in_bytes()).hex(" ")
for trial in range(3):
    for vals in ([1,2,3,4,5,-1,-8,7,6], [7], [-1,-1,-1], [1,2,3,4,5,-1,-8,7,-3,-7,5]):
        x = jnp.array(vals, dtype=jnp.int4); x.block_until_ready()
        print("host->dev", vals, raw(x))
    # produced by an XLA CPU kernel
    y = jax.jit(lambda a: (a + 1).astype(jnp.int4))(jnp.array([0,1,2,3,4,-2,-9,6,5], jnp.int32)); y.block_until_ready()
    print("kernel-out [1,2,3,4,5,-1,-8,7,6]", raw(y))
    y = jax.jit(lambda a: (a - 1).astype(jnp.int4))(jnp.full((3,), 0, jnp.int32)); y.block_until_ready()
    print("kernel-out [-1,-1,-1]", raw(y))
x = jnp.array([[1,2],[3,4],[5,-1],[-8,7]], dtype=jnp.int4)
print("lax.bitcast_convert_type(int4[4,2] -> uint8[4]):", [hex(v) for v in np.asarray(jax.lax.bitcast_convert_type(x, jnp.uint8))])
y = jnp.array([0x21, 0x43, 0xf5, 0x78], dtype=jnp.uint8)
print("uint8 [0x21,0x43,0xf5,0x78] -> int4[4,2]:", np.asarray(jax.lax.bitcast_convert_type(y, jnp.int4)).astype(int).tolist())
print(jax.jit(lambda a: jax.lax.bitcast_convert_type(a, jnp.uint8)).lower(x).as_text(dialect="hlo").split("ENTRY")[1])
