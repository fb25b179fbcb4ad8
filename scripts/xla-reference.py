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
  xla-reference.py time M.hlo... [--inputs DIR] [--platform gpu] [--iterations N]
      Prints the mean time of one execution in microseconds over
      --iterations executions queued back to back (XLA's whole module; host
      dispatch overlaps device work), after warm-up. Without --inputs the
      inputs are seeded random values. With several modules (JAX starts
      once), one line each: the path, a tab, the time or ERROR (the reason
      on stderr).

  --dry-run (either command) stops where a device is needed: it parses the
  module with XLA, reads its program shape and makes (or reads) its inputs,
  then prints "dry-run" instead of a time (scripts/gpu-check.sh dry-run).
"""
import argparse
import os
import sys
import time

import numpy as np


def strip_attribute(line, name):
    """`line` without its `, name=...` attribute (a value in braces may nest)."""
    start = line.find(f", {name}=")
    if start < 0:
        return line
    end = start + len(name) + 3
    if end < len(line) and line[end] == "{":
        depth = 0
        while end < len(line):
            depth += {"{": 1, "}": -1}.get(line[end], 0)
            end += 1
            if depth == 0:
                break
    else:
        while end < len(line) and line[end] not in ",\n":
            end += 1
    return line[:start] + line[end:]


def plain_hlo(text):
    """`text` with the ops of optimized HLO that JAX 0.11's HLO import
    refuses rewritten: fusion -> call of its computation, bitcast and copy
    -> reshape (logically the same where layouts are the default ones).
    For timing only: XLA re-optimizes the module either way."""
    lines = []
    for line in text.splitlines():
        if " fusion(" in line and "calls=" in line:
            line = line.replace(" fusion(", " call(", 1).replace("calls=", "to_apply=", 1)
            for name in ("kind", "backend_config", "output_to_operand_aliasing"):
                line = strip_attribute(line, name)
        line = line.replace(" bitcast(", " reshape(").replace(" copy(", " reshape(")
        lines.append(line)
    return "\n".join(lines) + "\n"


def load_module(path, plain=False):
    """jax, the module's serialized proto and its program shape (with
    plain: of plain_hlo's rewrite of it)."""
    import jax
    jax.config.update("jax_enable_x64", True)  # keep f64/s64 inputs as they are
    from jaxlib import _hlo

    text = open(path).read()
    module = _hlo.hlo_module_from_text(plain_hlo(text) if plain else text)
    proto = module.as_serialized_hlo_module_proto()
    return jax, proto, _hlo.XlaComputation(proto).program_shape()


def load_executable(path, platform, plain_fallback=False):
    """The module compiled for `platform`. With plain_fallback, a module
    JAX cannot import as it is (JAX >= 0.11 refuses fusion, bitcast and
    copy) is compiled from plain_hlo's rewrite, with a note on stderr."""
    from jax._src.lib import xla_client as xc

    jax, proto, shape = load_module(path)
    device = jax.devices(platform)[0]
    client = device.client
    try:
        stablehlo = xc._xla.mlir.hlo_to_stablehlo(proto)
    except Exception as error:  # noqa: BLE001 (JAX's error types vary)
        if not plain_fallback:
            raise
        print(f"note: {path}: JAX cannot import it as it is ({str(error).splitlines()[0]}); "
              "timed as plain HLO (fusion -> call, bitcast/copy -> reshape)", file=sys.stderr)
        jax, proto, shape = load_module(path, plain=True)
        stablehlo = xc._xla.mlir.hlo_to_stablehlo(proto)
    executable = client.compile_and_load(
        stablehlo, xc._xla.DeviceList((device,)), xc.CompileOptions())
    return jax, device, executable, shape


def random_inputs(shape, put):
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
        arguments.append(put(array))
    return arguments


def read_inputs(directory, shape, put):
    arguments = []
    for i, parameter in enumerate(shape.parameter_shapes()):
        array = np.load(os.path.join(directory, f"input_{i}.npy"))
        dtype = parameter.numpy_dtype()
        if array.dtype != dtype:
            if dtype.name in ("int4", "int2", "uint4", "uint2"):  # one byte each
                array = array.astype(dtype)
            else:  # bf16 / f8 stored as raw bits ('<V2', '|V1')
                array = array.view(dtype)
        arguments.append(put(array))
    return arguments


def time_module(path, options):
    """Mean microseconds of one execution of `path`; "dry-run" with
    --dry-run."""
    if options.dry_run:
        _, _, shape = load_module(path)
        put = lambda array: array
    else:
        jax, device, executable, shape = load_executable(path, options.platform,
                                                         plain_fallback=True)
        put = lambda array: jax.device_put(array, device)
    if options.inputs:
        arguments = read_inputs(options.inputs, shape, put)
    else:
        arguments = random_inputs(shape, put)
    if options.dry_run:
        return "dry-run"
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
    return f"{(time.perf_counter() - start) / options.iterations * 1e6:.1f}"


def run_module(path, options):
    if options.dry_run:
        _, _, shape = load_module(path)
        read_inputs(options.inputs, shape, lambda array: array)
        print("dry-run")
        return
    jax, device, executable, shape = load_executable(path, options.platform)
    arguments = read_inputs(options.inputs, shape, lambda array: jax.device_put(array, device))
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["run", "time"])
    parser.add_argument("hlo", nargs="+")
    parser.add_argument("--inputs")
    parser.add_argument("--outputs")
    parser.add_argument("--platform", default="cpu")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--dry-run", action="store_true")
    options = parser.parse_args()
    if options.command == "run":
        if not options.inputs:
            parser.error("run needs --inputs")
        if len(options.hlo) != 1:
            parser.error("run takes one module")
        run_module(options.hlo[0], options)
        return 0
    if len(options.hlo) == 1:
        print(time_module(options.hlo[0], options))
        return 0
    # Several modules in one process (JAX starts once): a line per module,
    # its path and time, or ERROR (the reason on stderr).
    failed = 0
    for path in options.hlo:
        try:
            result = time_module(path, options)
        except Exception as error:  # report and go on to the next module
            print(f"{path}: {type(error).__name__}: {error}", file=sys.stderr)
            result, failed = "ERROR", failed + 1
        print(f"{path}\t{result}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
