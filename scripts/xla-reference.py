#!/usr/bin/env python3
"""Runs an HLO module with XLA itself (through JAX's jaxlib), as an
independent reference for hlo-run and for side-by-side timings.

Not a dependency of hlo-compile or hlo-run: a development and benchmarking
helper for machines that have JAX (`pip install jax`; on a GPU machine,
jax[cuda]).

  xla-reference.py run  M.hlo --inputs DIR --outputs DIR [--platform cpu|gpu]
      Reads DIR/input_i.npy (as `hlo-run --save-dir` writes them), runs the
      module and writes DIR/output_i.npy (one per tuple leaf), so that
      `hlo-run --interpret M.hlo --input ... --expect-dir DIR` compares.
  xla-reference.py time M.hlo [--inputs DIR] [--platform gpu] [--iterations N]
      Prints the mean time of one execution in microseconds over
      --iterations executions queued back to back (XLA's whole module; host
      dispatch overlaps device work), after warm-up. Without --inputs the
      inputs are seeded random values.
"""
import argparse
import os
import sys
import time

import numpy as np


def load_executable(path, platform):
    import jax
    jax.config.update("jax_enable_x64", True)  # keep f64/s64 inputs as they are
    from jax._src.lib import xla_client as xc
    from jaxlib import _hlo

    module = _hlo.hlo_module_from_text(open(path).read())
    proto = module.as_serialized_hlo_module_proto()
    shape = _hlo.XlaComputation(proto).program_shape()
    device = jax.devices(platform)[0]
    client = device.client
    executable = client.compile_and_load(
        xc._xla.mlir.hlo_to_stablehlo(proto), xc._xla.DeviceList((device,)),
        xc.CompileOptions())
    return jax, device, executable, shape


def random_inputs(shape, jax, device):
    generator = np.random.default_rng(0)
    arguments = []
    for parameter in shape.parameter_shapes():
        dtype = parameter.numpy_dtype()
        dims = parameter.dimensions()
        if dtype == np.bool_:
            array = generator.integers(0, 2, dims).astype(np.bool_)
        elif np.issubdtype(dtype, np.integer) or dtype.name in ("int4", "uint4", "int2", "uint2"):
            array = generator.integers(0, 4, dims).astype(dtype)
        elif np.issubdtype(dtype, np.complexfloating):
            array = (generator.uniform(-1, 1, dims) + 1j * generator.uniform(-1, 1, dims)).astype(dtype)
        else:
            array = generator.uniform(-1, 1, dims).astype(dtype)
        arguments.append(jax.device_put(array, device))
    return arguments


def read_inputs(directory, shape, jax, device):
    arguments = []
    for i, parameter in enumerate(shape.parameter_shapes()):
        array = np.load(os.path.join(directory, f"input_{i}.npy"))
        dtype = parameter.numpy_dtype()
        if array.dtype != dtype:
            if dtype.name in ("int4", "int2", "uint4", "uint2"):  # one byte each
                array = array.astype(dtype)
            else:  # bf16 / f8 stored as raw bits ('<V2', '|V1')
                array = array.view(dtype)
        arguments.append(jax.device_put(array, device))
    return arguments


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["run", "time"])
    parser.add_argument("hlo")
    parser.add_argument("--inputs")
    parser.add_argument("--outputs")
    parser.add_argument("--platform", default="cpu")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10)
    options = parser.parse_args()

    jax, device, executable, shape = load_executable(options.hlo, options.platform)
    if options.inputs:
        arguments = read_inputs(options.inputs, shape, jax, device)
    elif options.command == "time":
        arguments = random_inputs(shape, jax, device)
    else:
        parser.error("run needs --inputs")
    if options.command == "run":
        os.makedirs(options.outputs, exist_ok=True)
        for i, output in enumerate(executable.execute(arguments)):
            array = np.asarray(output)
            name = array.dtype.name
            if name in ("int4", "int2"):  # one byte each, as hlo-run writes them
                array = array.astype(np.int8)
            elif name in ("uint4", "uint2"):
                array = array.astype(np.uint8)
            elif name.startswith(("bfloat16", "float8", "float4")):
                array = array.view(np.dtype(f"V{array.dtype.itemsize}"))
            np.save(os.path.join(options.outputs, f"output_{i}.npy"), array)
        return 0
    for _ in range(options.warmup):
        jax.block_until_ready(executable.execute(arguments))
    # Executions are queued back to back and waited for once, so host
    # dispatch overlaps device work: for GPU-bound modules the mean is close
    # to the device time of one execution.
    start = time.perf_counter()
    outputs = None
    for _ in range(options.iterations):
        outputs = executable.execute(arguments)
    jax.block_until_ready(outputs)
    print(f"{(time.perf_counter() - start) / options.iterations * 1e6:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
