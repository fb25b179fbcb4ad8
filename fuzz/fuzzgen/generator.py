# generator.py - Generator and generate(), the generator put together.
#
# Owns: the Generator class (GeneratorBase with the value-graph and
# fusion-kind mixins), its generate() (build the picked kind, drop what
# the root does not reach, never a parameter or constant root) and the
# module-level generate(seed, kind, ops, scale) that fuzz/hlo_fuzz_gen.py
# re-exports.
#
# Standard library only.
from .base import GeneratorBase
from .elementwise import ElementwiseOps
from .ir import Inst
from .kinds_complex import ComplexKinds
from .kinds_gemm import GemmKinds
from .kinds_large import LargeKinds
from .kinds_loop import LoopKinds
from .kinds_module import ModuleKinds
from .kinds_reduce import ReduceKinds
from .kinds_scatter_sort import ScatterSortKinds
from .movement import MovementOps


class Generator(ComplexKinds, GemmKinds, ModuleKinds, LargeKinds, LoopKinds, ReduceKinds,
                ScatterSortKinds, MovementOps, ElementwiseOps, GeneratorBase):
    """A random module of a seed: generate() returns its Case."""

    def generate(self):
        getattr(self, 'k_' + self.kind)()
        self.case.live()
        # A root that is a parameter or a constant is not a fusion XLA makes.
        root = self.case.root()
        if root.op in ('parameter', 'constant'):
            self.add(Inst(self.name('copy'), root.shape, 'copy', [root]))
        self.case.kind = self.kind
        return self.case


def generate(seed, kind=None, ops=None, scale=1.0):
    return Generator(seed, kind, ops, scale).generate()
