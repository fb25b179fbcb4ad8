#!/usr/bin/env python3
"""The GEMM baselines a tensor-core emitter is measured against, on a GPU.

Times C = A @ B for each shape and type under cuBLAS (torch.matmul) and
under XLA (a jitted jnp.dot; on a GPU XLA autotunes between its Triton GEMM
and cuBLAS) in one process, on the same device, and prints one TSV row per
(shape, type, library): M, N, K, dtype, library, median microseconds,
TFLOP/s (2*M*N*K / time). Either library is skipped, with a line on stderr,
when it cannot be imported.

    python3 bench/gemm_baselines.py [--iterations N] [MxNxK ...]

Times: the median of 5 batches, each batch N launches queued back to back
(CUDA events around the batch for torch; block_until_ready around the
batch for JAX), after warm-up launches (which also absorb compilation and
autotuning). float32 is as each library does it by default: torch exact
(TF32 off), XLA at DEFAULT precision (TF32 on sm_80+).
"""
import argparse
import statistics
import sys
import time

DEFAULT_SHAPES = ["4096x4096x4096", "8192x8192x1024", "2048x2048x2048", "4096x32000x2048"]
DTYPES = ["bfloat16", "float16", "float32"]


def parse_shape(text):
    m, n, k = (int(x) for x in text.lower().split("x"))
    return m, n, k


def time_torch(m, n, k, dtype_name, iterations):
    import torch
    dtype = getattr(torch, dtype_name)
    a = torch.randn(m, k, device="cuda", dtype=dtype)
    b = torch.randn(k, n, device="cuda", dtype=dtype)
    for _ in range(3):
        torch.matmul(a, b)
    torch.cuda.synchronize()
    batches = []
    for _ in range(5):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iterations):
            torch.matmul(a, b)
        end.record()
        end.synchronize()
        batches.append(start.elapsed_time(end) * 1000.0 / iterations)
    return statistics.median(batches)


def time_jax(m, n, k, dtype_name, iterations):
    import jax
    import jax.numpy as jnp
    dtype = getattr(jnp, dtype_name)
    ka, kb = jax.random.split(jax.random.PRNGKey(0))
    a = jax.random.normal(ka, (m, k), dtype=dtype)
    b = jax.random.normal(kb, (k, n), dtype=dtype)
    matmul = jax.jit(jnp.dot)
    for _ in range(3):
        matmul(a, b).block_until_ready()
    batches = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(iterations):
            out = matmul(a, b)
        out.block_until_ready()
        batches.append((time.perf_counter() - start) * 1e6 / iterations)
    return statistics.median(batches)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shapes", nargs="*", default=DEFAULT_SHAPES)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--dtypes", default=",".join(DTYPES))
    args = parser.parse_args()
    libraries = []
    for name, timer in (("cublas(torch)", time_torch), ("xla(jax)", time_jax)):
        try:
            __import__("torch" if timer is time_torch else "jax")
            libraries.append((name, timer))
        except ImportError as error:
            print(f"gemm_baselines: {name} skipped: {error}", file=sys.stderr)
    try:
        import torch
        print(f"# device: {torch.cuda.get_device_name()}, torch {torch.__version__}", flush=True)
    except Exception:  # noqa: BLE001 - the device line is informative only
        pass
    print("M\tN\tK\tdtype\tlibrary\tus\tTFLOP/s", flush=True)
    for shape in args.shapes:
        m, n, k = parse_shape(shape)
        for dtype_name in args.dtypes.split(","):
            for name, timer in libraries:
                try:
                    us = timer(m, n, k, dtype_name, args.iterations)
                    tflops = 2.0 * m * n * k / (us * 1e-6) / 1e12
                    print(f"{m}\t{n}\t{k}\t{dtype_name}\t{name}\t{us:.1f}\t{tflops:.1f}", flush=True)
                except Exception as error:  # noqa: BLE001 - one row per failure
                    print(f"{m}\t{n}\t{k}\t{dtype_name}\t{name}\tERROR\t{type(error).__name__}: {error}",
                          flush=True)


if __name__ == "__main__":
    main()
