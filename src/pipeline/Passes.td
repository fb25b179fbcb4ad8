//===- Passes.td - The pipeline's own passes ---------------*- tablegen -*-===//
//
// The passes hlo-compile writes itself for the part of the pipeline both
// targets share, where upstream MLIR has none that does the job (XLA:GPU Emitters'
// pipeline); the rest of the pipeline is upstream. Each target's own passes
// are declared beside it (nvptx/NvptxPasses.td, host/HostPasses.td).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_PASSES
#define HLO_PIPELINE_PASSES

include "mlir/Pass/PassBase.td"

def LowerXlaGpuLoopsPass : Pass<"xla-gpu-lower-loops", "mlir::ModuleOp"> {
  let summary = "Lower xla_gpu.loop and xla_gpu.apply_indexing to scf and arith";
  let description = [{
    Each `xla_gpu.loop` becomes a nest of `scf.for` over its map's range
    variables; points outside the map's domain are skipped by `scf.if`s,
    each check placed at the outermost level where the variables it reads
    are known (dimension bounds and constraints on dimensions before the
    loops, a constraint whose innermost symbol is s_k inside s_k's loop), so
    inner loops without checks of their own (vector indices) keep plain
    bodies; `xla_gpu.apply_indexing`
    becomes the arithmetic of its affine results; a `xla_gpu.pure_call` the
    inliner kept (its callee has several callers) becomes a `func.call`.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::func::FuncDialect",
                           "mlir::scf::SCFDialect"];
}

def LowerShuffleReducePass
    : Pass<"xla-gpu-lower-shuffle-reduce", "mlir::ModuleOp"> {
  let summary = "xla_gpu.shuffle_reduce as gpu.shuffle and calls of the combiner";
  let description = [{
    Each `shuffle_reduce ... to N` becomes log2(N) + 1 steps: every value is
    shuffled down by N, N / 2, ..., 1 lanes (width 32) and combined with the
    lane's own through an `xla_gpu.pure_call` of the combiner (inlined
    afterwards). Values are shuffled as 32-bit words: narrower integers and
    floats are widened, 64-bit ones split in two, complex numbers part by
    part, so both targets only see 32-bit `gpu.shuffle`s. The shuffles'
    width is the warp, or the kernel's block (`xla_gpu.launch`) when it
    has fewer than 32 threads: lanes that do not exist are not named.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::gpu::GPUDialect",
                           "mlir::complex::ComplexDialect"];
}

def LowerPredicatedInsertPass
    : Pass<"xla-gpu-lower-predicated-insert", "mlir::ModuleOp"> {
  let summary = "xla_gpu.predicated_insert as scf.if around tensor.insert";
  let description = [{
    `predicated_insert %v into %t[%i] if %c` becomes an `scf.if %c` that
    yields `tensor.insert %v into %t[%i]`, and `%t` otherwise; except
    where marked `xla_gpu.keep_until_bufferization`, which one-shot
    bufferization turns into a store under `scf.if %c`.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::tensor::TensorDialect"];
}

def LowerPredicatedExtractPass
    : Pass<"xla-gpu-lower-predicated-extract", "mlir::ModuleOp"> {
  let summary = "xla_gpu.predicated_extract as scf.if around tensor.extract";
  let description = [{
    `predicated_extract %t[%i] if %c else %f` becomes an `scf.if %c` that
    yields `tensor.extract %t[%i]`, and `%f` otherwise: the element is only
    read where the condition holds.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::tensor::TensorDialect"];
}

def LowerAllocateSharedPass
    : Pass<"xla-gpu-lower-allocate-shared", "mlir::ModuleOp"> {
  let summary = "xla_gpu.allocate_shared as a workgroup memref.global";
  let description = [{
    Each `allocate_shared : tensor<...>` becomes a private, uninitialized
    `memref.global` in the GPU workgroup address space (one per op), read in
    its function with `memref.get_global` and seen as a tensor through
    `bufferization.to_tensor restrict writable`, so that one-shot
    bufferization writes the tile in place. Both targets place workgroup
    globals in the block's shared memory. Runs just before bufferization.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect",
                           "mlir::bufferization::BufferizationDialect",
                           "mlir::gpu::GPUDialect"];
}

def LowerIntegerMathPass
    : Pass<"xla-gpu-lower-integer-math", "mlir::ModuleOp"> {
  let summary = "math.absi/ctpop/ctlz/cttz as LLVM intrinsic ops";
  let description = [{
    Integer abs, population count and leading/trailing zero counts become
    `llvm.intr.abs`, `llvm.intr.ctpop`, `llvm.intr.ctlz` and
    `llvm.intr.cttz` (not poison on INT_MIN or 0), for every width: the
    targets' conversions cover only some widths (NVPTX: libdevice's) or none
    (the host's math-to-libm refuses the whole math dialect).
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def GuardAtan2ZerosPass
    : Pass<"xla-gpu-guard-atan2-zeros", "mlir::ModuleOp"> {
  let summary = "atan2 selects its value at (+-0, +-0)";
  let description = [{
    Every `math.atan2` is followed, once (it is marked
    `xla_gpu.zeros_guarded`), by a select of +-0 or +-pi (the sign of y;
    pi for an x with its sign bit set) where both operands are zero.
    MLIR's folder makes a NaN of atan2 at (+-0, +-0), where libm,
    libdevice and XLA give those values, and operands may become
    constants in any later pass; with constant operands the select folds.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect"];
}

def GuardHalfIntConversionsPass
    : Pass<"xla-gpu-guard-half-int-conversions", "mlir::ModuleOp"> {
  let summary = "Integer -> f16 conversions select +-inf for overflowing sources";
  let description = [{
    `arith.sitofp`/`arith.uitofp` to f16 (scalar or vector) whose source
    type can reach 65520 in magnitude are followed by selects of +-inf for
    sources at or beyond it. The conversion alone would round them to inf,
    but LLVM 22's InstCombine folds `fpext (uitofp x to half)` into
    `uitofp x to float` from x's known bits alone, ignoring half's exponent
    range; behind the select, a folded conversion is only used where exact.
  }];
}

def PackSubByteBuffersPass
    : Pass<"xla-gpu-pack-sub-byte-buffers", "mlir::ModuleOp"> {
  let summary = "Buffers of 4-bit elements two per byte, 2-bit ones four";
  let description = [{
    As XLA stores them (`E(4)`, `E(2)`): element 2k in the low nibble of
    byte k (4k in the low 2 bits), over the row-major flat index. f4E2M1FN
    buffers become i4 buffers, then every i4 or i2 argument of a function
    (a kernel's buffers, XLA's) an i8 memref of 1/2 or 1/4 the size: loads shift their nibble out, stores are 8-bit
    atomic and/or on the byte, atomic updates a compare-and-swap on the
    byte. Buffers the kernel allocates keep one element per byte.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::memref::MemRefDialect"];
}

def ExpandSmallFloatsPass
    : Pass<"xla-gpu-expand-small-floats", "mlir::ModuleOp"> {
  let summary = "Conversions to and from 8-, 6- and 4-bit floats as integer code";
  let description = [{
    `arith.extf` from and `arith.truncf` to floats narrower than 16 bits,
    scalars or vectors, become integer operations on their bits, bit-exact
    to ml_dtypes and the interpreter (round to nearest even, each type's
    subnormals, overflow and NaN rules); their constants become integer
    constants bitcast to the type. Targets run it first in their
    conversion (NVPTX after its hardware pair conversions on sm_89+); the
    small floats left are storage only, integers of their width in LLVM.

    With `constant-operands-only`, only the conversions of constants are
    expanded (and the constants kept): the shared pipeline runs it before
    each canonicalization, whose folder would otherwise convert them with
    APFloat, which differs from ml_dtypes (0 to f8E8M0FNU, NaN to
    f4E2M1FN); the integer code then folds to the right bits.
  }];
  let options = [
    Option<"constantOperandsOnly", "constant-operands-only", "bool", "false",
           "Expand only the conversions whose operand is a constant">,
  ];
}

def LowerSyncThreadsPass
    : Pass<"xla-gpu-lower-sync-threads", "mlir::ModuleOp"> {
  let summary = "xla_gpu.sync_threads as gpu.barrier; async waits without tiles";
  let description = [{
    A `sync_threads` becomes a `gpu.barrier`; its results are the tiles it
    was given (the barrier orders the accesses to them once they are
    buffers). A cluster's (`{cluster}`) stays, without tiles, for the
    target to lower. Likewise `async_commit`, `async_wait` and `mbarrier_wait`
    lose their tiles
    (their memory effects order them from then on; each target lowers the
    bare ops). Runs just before bufferization, after the tensor-level
    rewrites that could move the accesses across them.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def LowerAtomicRmwPass : Pass<"xla-gpu-lower-atomic-rmw", "mlir::ModuleOp"> {
  let summary = "Native atomics for the combiners that have one";
  let description = [{
    After bufferization an xla_gpu.atomic_rmw is a memref.generic_atomic_rmw
    (a compare-and-swap loop for any combiner). Where its body combines the
    current value with a value from outside by one operation with a native
    atomic (addf, addi, maximumf, minimumf, max/min signed and unsigned,
    andi, ori), it becomes that memref.atomic_rmw: `red.add`/`atom.add` on
    NVPTX (f16 and bf16 where the architecture has them, else LLVM expands
    them), `atomicrmw` on the host. A body that yields a value from outside
    (an overwriting scatter) becomes an exchange (`assign`). Elements
    narrower than a byte (pred, s4, u4), which LLVM has no atomics on, become
    a compare-and-swap loop on their byte (`scf.while` around
    `llvm.cmpxchg` of i8): in memory each takes a byte of its own.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect", "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect", "mlir::LLVM::LLVMDialect",
                           "hlo::xla_gpu::XlaGpuDialect"];
}

def InlineSubgraphsPass : Pass<"xla-gpu-inline-subgraphs", "mlir::ModuleOp"> {
  let summary = "Inline subgraph functions into their kernels, merging equal calls";
  let description = [{
    For each function no `xla_gpu.pure_call` names (the kernels), inlines
    the pure_calls level by level with CSE before each level: calls of the
    same callee with the same arguments are one value, so each distinct
    call is inlined, and computed, once. Code and work stay linear in the
    distinct calls where bottom-up inlining grows exponentially in code and
    keeping shared callees outlined (XLA's "XLA:GPU Emitters") grows exponentially in work.
    A kernel past `max-ops` operations keeps its remaining calls.
  }];
  let options = [
    Option<"maxOps", "max-ops", "int64_t", "500000",
           "Operations a kernel may grow to by inlining">
  ];
}

def MarkKernelOutputsWritablePass
    : Pass<"xla-gpu-mark-outputs-writable", "mlir::ModuleOp"> {
  let summary = "Let bufferization write kernel outputs in place";
  let description = [{
    A kernel's trailing arguments are its output buffers (the kernel ABI):
    marks them `bufferization.writable` so that one-shot bufferization
    writes into them instead of allocating copies, and marks its inputs
    read-only.
  }];
}

def FlattenKernelBuffersPass
    : Pass<"xla-gpu-flatten-buffers", "mlir::ModuleOp"> {
  let summary = "Kernel buffers as 1-D memrefs with linearized indices";
  let description = [{
    XLA's "XLA:GPU Emitters" flattens tensors to 1-D before lowering: every multi-
    dimensional buffer argument of a kernel that is only loaded from and
    stored to becomes a 1-D memref, and each access's indices become one
    row-major linear index `((i0 * d1) + i1) * d2 + i2`, with the minor
    index added last so that the vector-index pattern stays visible. Kernel
    parameters are pointers either way; the kernel ABI does not change.
  }];
}

def VectorizeLoopAccessesPass
    : Pass<"xla-gpu-vectorize-accesses", "mlir::ModuleOp"> {
  let summary = "Contiguous loads and stores of a small loop as vector accesses";
  let description = [{
    For an `scf.for` over a small constant range (the loop emitter's vector
    index) whose body reads or writes buffers at `base + iv` in the minor
    dimension (the other indices loop-invariant): the reads become one
    `vector.load` before the loop and `vector.extract`s inside, the writes
    `vector.insert`s into a loop-carried vector stored once after the
    loop. Buffers the loop both reads and writes are left alone. The
    result is one 8- or 16-byte global access per thread instead of four
    scalar ones (XLA:GPU Emitters' vectorization step, at the buffer level).
  }];
  let dependentDialects = ["mlir::vector::VectorDialect"];
}

def UnrollSmallLoopsPass : Pass<"xla-gpu-unroll-small-loops", "mlir::ModuleOp"> {
  let summary = "Fully unroll loops with a small constant trip count";
  let description = [{
    Unrolls every `scf.for` with a constant trip count of at most
    `max-trip-count` and a body of at most `max-body-ops` operations (the
    vector-index loops), so that vector element positions become constants
    and the per-element code is scheduled together. Loops marked
    `xla_gpu.keep_loop` (a GEMM's K loop) stay loops.
  }];
  let options = [
    Option<"maxTripCount", "max-trip-count", "int64_t", "8",
           "Largest trip count unrolled">,
    Option<"maxBodyOps", "max-body-ops", "int64_t", "256",
           "Largest loop body (operations, nested ones included) unrolled">
  ];
}

def UnrollLoopsByFactorPass : Pass<"xla-gpu-unroll-loops-by-factor", "mlir::ModuleOp"> {
  let summary = "Partially unroll the loops left, up to a body size";
  let description = [{
    Unrolls each `scf.for` still left after the full unrolling of small
    loops (a reduction's per-thread loop over its rows, say), with constant
    bounds and a body that calls nothing and holds no loop, by the largest
    divisor of its trip count that keeps the unrolled body within
    `max-unrolled-size`. The body's size counts each operation once, times
    its vector width; float math without one instruction counts 20, exp and
    log 40 (as XLA's loop optimization estimates it). The loads of several
    iterations are then in flight together: a column reduction reading
    2048 rows on 32 warps issues 8 rows' loads per iteration instead of 2,
    as XLA's kernel does. Loops marked `xla_gpu.keep_loop` stay as they are.
  }];
  let options = [
    Option<"maxUnrolledSize", "max-unrolled-size", "int64_t", "400",
           "Largest size of the unrolled body">
  ];
}

def KernelAbiPass : Pass<"xla-gpu-kernel-abi", "mlir::ModuleOp"> {
  let summary = "Kernels return nothing and live in a gpu.module";
  let description = [{
    After bufferization each kernel returns the output buffers it was given;
    drops those results (the caller owns the buffers), then moves every
    function into one `gpu.module` so that the GPU-to-NVVM conversion
    applies.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def LowerElementPointersPass
    : Pass<"xla-gpu-lower-element-pointers", "mlir::ModuleOp"> {
  let summary = "xla_gpu.element_pointer as a getelementptr on the buffer's descriptor";
  let description = [{
    A partial conversion to the LLVM dialect of xla_gpu.element_pointer
    alone, for targets whose own conversion is upstream's (NVPTX: run it
    just before gpu-to-nvvm with the same index width, so that the
    descriptor casts it leaves cancel with the ones gpu-to-nvvm makes).
  }];
  let options = [
    Option<"indexBitwidth", "index-bitwidth", "unsigned", "64",
           "The width of index values in the target's conversion">
  ];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

#endif // HLO_PIPELINE_PASSES
