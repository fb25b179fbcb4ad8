"""Checks the interpreter's cuDNN backward convolutions against JAX on the CPU.

Each case is the VJP of one lax.conv_general_dilated (stride, padding, rhs
dilation, layouts, feature groups, 1-D to 3-D), in f32: XLA's GPU compiler
(deviceless, ../shared/tools/xla-gpu-reference) turns it into
__cudnn$convBackwardInput / __cudnn$convBackwardFilter custom-calls (with the
transposes and pads around them); hlo-run --interpret runs that
after-optimizations module on random inputs, and its outputs are compared
with jax.vjp's on the CPU. From the repository root:

  ~/.cache/xla-gpu-reference/venv/bin/python tests/models/check_conv_backward.py \
      HLO_RUN [WORK_DIR]

(set the environment variable CONV_CHECK_MODULE=1 when the tool imports this
file as its --module: it then only defines FUNCTIONS.)
"""
import os
import subprocess
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

# name: x shape, w shape, strides, padding, rhs_dilation, (lhs, rhs, out) spec, groups
CASES = {
    "nhwc_s1_same": ((2, 6, 6, 3), (3, 3, 3, 4), (1, 1), "SAME", (1, 1),
                     ("NHWC", "HWIO", "NHWC"), 1),
    "nhwc_s2_same": ((2, 7, 7, 3), (3, 3, 3, 4), (2, 2), "SAME", (1, 1),
                     ("NHWC", "HWIO", "NHWC"), 1),
    "nchw_s23_valid": ((2, 3, 9, 8), (4, 3, 3, 2), (2, 3), "VALID", (1, 1),
                       ("NCHW", "OIHW", "NCHW"), 1),
    "nhwc_pad_dilated": ((2, 8, 7, 3), (3, 2, 3, 5), (2, 1), ((2, 1), (0, 2)), (2, 1),
                         ("NHWC", "HWIO", "NHWC"), 1),
    "nhwc_groups2": ((2, 5, 5, 4), (3, 3, 2, 6), (1, 1), ((1, 1), (1, 1)), (1, 1),
                     ("NHWC", "HWIO", "NHWC"), 2),
    "nhwc_depthwise_s2": ((2, 8, 8, 4), (3, 3, 1, 8), (2, 2), "SAME", (1, 1),
                          ("NHWC", "HWIO", "NHWC"), 4),
    "nwc_1d": ((2, 10, 3), (4, 3, 5), (2,), ((1, 2),), (1,), ("NWC", "WIO", "NWC"), 1),
    "ndhwc_3d": ((1, 4, 5, 6, 2), (2, 3, 2, 2, 3), (1, 2, 1), "SAME", (1, 1, 1),
                 ("NDHWC", "DHWIO", "NDHWC"), 1),
}


def conv_fn(case):
    _, _, strides, padding, dilation, spec, groups = CASES[case]

    def conv(x, w):
        return lax.conv_general_dilated(x, w, strides, padding, rhs_dilation=dilation,
                                        dimension_numbers=spec,
                                        feature_group_count=groups)

    def grads(x, w, dy):
        _, vjp = jax.vjp(conv, x, w)
        return vjp(dy)
    return conv, grads


def shapes(case):
    xs, ws = CASES[case][:2]
    conv, _ = conv_fn(case)
    out = jax.eval_shape(conv, jax.ShapeDtypeStruct(xs, jnp.float32),
                         jax.ShapeDtypeStruct(ws, jnp.float32))
    return xs, ws, out.shape


FUNCTIONS = {}
for _case in CASES:
    _xs, _ws, _ys = shapes(_case)
    FUNCTIONS["convbw_" + _case] = dict(
        fn=conv_fn(_case)[1], args=(("f32", _xs), ("f32", _ws), ("f32", _ys)))


def main():
    hlo_run = os.path.abspath(sys.argv[1])
    work = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "/tmp/conv-backward-check")
    here = os.path.dirname(os.path.abspath(__file__))
    tool = os.path.join(here, "../../../shared/tools/xla-gpu-reference/xla_gpu_reference.py")
    env = dict(os.environ, CONV_CHECK_MODULE="1")
    subprocess.run([sys.executable, tool, "--module", os.path.abspath(__file__),
                    "--variants", "native", "--no-ptxas", "--corpus", work,
                    "--work", os.path.join(work, ".work")], check=True, env=env)
    rng = np.random.default_rng(0)
    failures = 0
    for case in CASES:
        xs, ws, ys = shapes(case)
        args = [rng.standard_normal(s).astype(np.float32) for s in (xs, ws, ys)]
        expected = [np.asarray(g) for g in conv_fn(case)[1](*args)]
        d = os.path.join(work, f"convbw_{case}.native")
        module = os.path.join(d, "module.hlo")
        text = open(module).read()
        targets = sorted({t for t in ("__cudnn$convBackwardInput", "__cudnn$convBackwardFilter",
                                      "__cudnn$convForward") if t in text})
        inputs = []
        for i, a in enumerate(args):
            np.save(os.path.join(d, f"in_{i}.npy"), a)
            inputs += ["--input", f"{i}={os.path.join(d, f'in_{i}.npy')}"]
        out = os.path.join(d, "out")
        run = subprocess.run([hlo_run, module, "--interpret", "--output-dir", out] + inputs,
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL {case}: hlo-run: {run.stderr.strip()[-500:]}")
            failures += 1
            continue
        errors = []
        for i, e in enumerate(expected):
            got = np.load(os.path.join(out, f"output_{i}.npy")).reshape(e.shape)
            errors.append(float(np.max(np.abs(got - e)) / max(1.0, float(np.max(np.abs(e))))))
        ok = all(err < 1e-5 for err in errors)
        failures += not ok
        print(f"{'PASS' if ok else 'FAIL'} {case}: dx, dw max error "
              f"{errors[0]:.2e}, {errors[1]:.2e}; {', '.join(targets)}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__" and not os.environ.get("CONV_CHECK_MODULE"):
    main()
