# fuzzgen - the pieces of the compiler fuzzer's random HLO module generator.
#
# Owns: nothing itself; it marks the package. The public API (generate(),
# the Case / Shape / TupleShape / Inst classes, npy_bytes(), KINDS) is
# re-exported by fuzz/hlo_fuzz_gen.py, which fuzz/hlo_fuzz.py imports.
# Modules:
#   dtypes.py         element types, op tables, small numeric helpers
#   ir.py             Shape, TupleShape, Inst and Case (the module's text)
#   npy.py            the .npy bytes of the index inputs
#   base.py           GeneratorBase: random streams, shapes, leaves' pieces,
#                     index values, called computations, entry style
#   elementwise.py    the value graph: leaves, the op dispatcher, elementwise ops
#   movement.py       data-movement ops inside the value graph (reshape,
#                     transpose, slice, pad, dynamic-(update-)slice, gather ...)
#   kinds_loop.py     fusion kinds loop, transpose, concat, dus
#   kinds_reduce.py   fusion kinds reduce, norm (softmax, layer norm)
#   kinds_scatter_sort.py  fusion kinds scatter, sort
#   kinds_gemm.py     fusion kind gemm (XLA's Triton GEMM fusions, kCustom)
#   kinds_complex.py  fusion kind complex (c64 / c128) and the complex value graph
#   kinds_module.py   kind module (whole modules: buffer sharing, donation,
#                     in-place outputs, 8-/4-bit entry parameters and outputs)
#   kinds_large.py    fusions of more than 2^31 elements (compiled only)
#   generator.py      Generator (the mixins together) and generate()
#
# Standard library only.
