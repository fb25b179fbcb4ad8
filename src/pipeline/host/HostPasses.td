//===- HostPasses.td - The host target's own passes --------*- tablegen -*-===//
//
// The host CPU target runs the same kernels as the NVPTX target without a
// GPU: each kernel becomes a function that runs one GPU thread, with the
// GPU's ids, barriers, shuffles and shared memory provided by hlo-run's CPU
// launcher through the interface of abi/HostKernelAbi.h. These passes run
// after the shared pipeline, in this order (Target.h).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_HOST_PASSES
#define HLO_PIPELINE_HOST_PASSES

include "mlir/Pass/PassBase.td"

def LowerGpuToHostRuntimePass
    : Pass<"xla-gpu-lower-gpu-to-host", "mlir::ModuleOp"> {
  let summary = "GPU ops as reads of the host thread record and runtime calls";
  let description = [{
    Moves the kernels out of their `gpu.module` and gives every function
    with a body a trailing `!llvm.ptr` argument (marked
    `xla_gpu.host_thread`): the `HloHostThread` of the GPU thread it runs
    for, passed along by every call. Then `gpu.thread_id`, `block_id`,
    `block_dim`, `grid_dim` become loads from that record, and `lane_id`,
    `subgroup_id`, `subgroup_size`, `num_subgroups`, `global_id` arithmetic
    on them; `gpu.barrier` a call to `__hlo_host_barrier`; `gpu.shuffle` a
    call to `__hlo_host_shuffle` with the member mask and clamp that
    convert-gpu-to-nvvm gives `shfl.sync` for the same op, so both targets
    agree; `xla_gpu.mma_sync` a call to `__hlo_host_mma_sync` with the
    lane's fragments in stack slots (the launcher waits for the whole warp,
    as for a shuffle), `xla_gpu.ldmatrix` on a shared buffer a call to
    `__hlo_host_ldmatrix` with the lane's row address, `xla_gpu.wgmma` one
    call to `__hlo_host_wgmma` per 32 bytes of K, and `xla_gpu.async_copy`,
    `async_commit` and `async_wait` calls to `__hlo_host_cp_async`
    (queued until the wait that covers it), `__hlo_host_cp_async_commit`
    and `__hlo_host_cp_async_wait`; the mbarrier ops, `tma_load` and
    `set_max_registers` calls to `__hlo_host_mbarrier_*`,
    `__hlo_host_tma_load` and `__hlo_host_setmaxnreg`. Other gpu ops are
    reported by name.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect", "mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect", "mlir::vector::VectorDialect"];
}

def CheckHostAccessesPass
    : Pass<"xla-gpu-check-host-accesses", "mlir::ModuleOp"> {
  let summary = "Check every memory access against its buffer's bounds";
  let description = [{
    Before each `memref.load`/`store`, `vector.load`/`store`,
    `memref.atomic_rmw` and `memref.generic_atomic_rmw`: if an index is
    outside its dimension (a vector access: its last element), call
    `__hlo_host_out_of_bounds` with the access kind, the buffer (the
    kernel parameter's position, or shared / other memory), the dimension,
    index and extent; the launcher stops the launch and reports it. A GPU
    would fault or corrupt memory silently; the host target says where.
    Runs after xla-gpu-lower-gpu-to-host (it needs the thread record).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::func::FuncDialect",
                           "mlir::scf::SCFDialect", "mlir::memref::MemRefDialect"];
}

def LegalizeHostFloatsPass
    : Pass<"xla-gpu-legalize-host-floats", "mlir::ModuleOp"> {
  let summary = "f16/bf16 math in f32, and f64 to bf16 rounded once";
  let description = [{
    The host has no f16/bf16 arithmetic of its own: math ops on them are
    computed in f32 (as libdevice's f32 functions are used for them on the
    GPU) and rounded back. `arith.truncf` from f64 to bf16 is rounded
    through f32 with round-to-odd, so the result is rounded once, as a
    direct conversion would be. The arith ops follow in upstream's
    arith-emulate-unsupported-floats, and the bf16 conversions in
    arith-expand (no compiler runtime has them on this host).
    `math.copysign` becomes `llvm.intr.copysign` here: LLVM 22's
    convert-math-to-libm marks it illegal without a pattern to lower it.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::LLVM::LLVMDialect"];
}

def KeepEmulatedRoundingPass
    : Pass<"xla-gpu-keep-emulated-rounding", "mlir::ModuleOp"> {
  let summary = "Every f16/bf16 operation rounds, as on the GPU";
  let description = [{
    Runs after arith-emulate-unsupported-floats, which computes f16/bf16
    arith ops in f32 between `extf`/`truncf` pairs but marks those
    conversions `fastmath<contract>`; arith's folder then removes each
    `extf(truncf(x))` between two operations, so a chain such as
    `(a + b) + c` in bf16 skips its intermediate rounding. The GPU's native
    bf16/f16 arithmetic and the interpreter round after every operation:
    this pass clears the fast-math flags of those conversions.

    Each f16 result of a `truncf` also passes through
    `llvm.arithmetic.fence`: LLVM 22's InstCombine shrinks such a chain
    back to half operations, turns `fmul half (uitofp x), C` into
    `uitofp (x * C)`, then folds the next `fpext` into `uitofp x to float`
    while ignoring half's exponent range, so a product past 65504 stayed
    finite (fuzz seed 206066). The GPU target keeps native half ops, whose
    IR has no such `fpext`.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def ConvertToHostLlvmPass
    : Pass<"xla-gpu-convert-to-host-llvm", "mlir::ModuleOp"> {
  let summary = "Convert to the LLVM dialect for the host CPU";
  let description = [{
    The host's counterpart of convert-gpu-to-nvvm: every dialect's
    conversion to LLVM (func, arith, cf, memref, vector, math, complex, ub,
    index) with 64-bit indices and bare pointers for memref arguments;
    shared (workgroup) memory in address space 3, which
    xla-gpu-host-kernel-abi places in the block's shared memory.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def HostKernelAbiPass : Pass<"xla-gpu-host-kernel-abi", "mlir::ModuleOp"> {
  let summary = "Export each kernel with the host kernel ABI";
  let description = [{
    Each kernel (an LLVM function with `xla_gpu.launch`) becomes the
    internal `NAME.thread`, called by an exported `NAME(buffers, thread)`
    that loads its buffer pointers from the array (abi/HostKernelAbi.h).
    Shared-memory globals become addresses in the block's shared memory at
    the offsets of SharedMemoryLayout.h; every other function becomes
    internal. The exported function carries the manifest's facts:
    `xla_gpu.shared_memory_bytes`, and `xla_gpu.concurrent_threads` when
    the kernel reaches a barrier, shuffle or mma.sync (its block's threads
    must then run concurrently).
  }];
}

#endif // HLO_PIPELINE_HOST_PASSES
