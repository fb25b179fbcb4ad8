//===- NvptxPasses.td - The NVPTX target's own passes ------*- tablegen -*-===//
//
// Passes of the NVPTX conversion (after the shared pipeline, see
// Target.h); the rest of it is upstream's convert-gpu-to-nvvm.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_NVPTX_PASSES
#define HLO_PIPELINE_NVPTX_PASSES

include "mlir/Pass/PassBase.td"

def AnnotateNvvmKernelsPass
    : Pass<"xla-gpu-annotate-kernels", "mlir::gpu::GPUModuleOp"> {
  let summary = "Mark kernels for NVVM with their exact launch bounds";
  let description = [{
    Every LLVM function that carries `xla_gpu.launch` becomes an NVVM
    kernel (`nvvm.kernel`) with `nvvm.reqntid` equal to its block size, and
    gets `xla_gpu.shared_memory_bytes`: the static shared memory it uses
    (the workgroup globals it references, laid out as SharedMemoryLayout.h
    says), which the launch manifest reports.
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect"];
}

def DynamicSharedMemoryPass
    : Pass<"xla-gpu-dynamic-shared-memory", "mlir::gpu::GPUModuleOp"> {
  let summary = "Shared tiles of kernels launched with dynamic shared memory";
  let description = [{
    For each LLVM kernel whose `xla_gpu.launch` has `dynamic_shared_memory
    = N`, every shared global it uses becomes a byte offset (as
    SharedMemoryLayout.h lays them out) into one zero-length extern shared
    global aligned to 1024 bytes, which PTX places at the start of the
    block's dynamic shared memory; the kernel then has no static shared
    memory. Fails where the tiles need more than N bytes.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def LowerMmaSyncToNvvmPass : Pass<"xla-gpu-lower-mma-sync-to-nvvm", "mlir::ModuleOp"> {
  let summary = "xla_gpu.mma_sync as nvvm.mma.sync";
  let description = [{
    Each lane's fragments become the registers NVVM's mma.sync takes:
    bf16, tf32, s8 and 8-bit float values packed into i32 registers (two,
    one or four a register, in the PTX ISA's order), f16 pairs as
    vector<2xf16>, f64 values one a register; the accumulators one
    scalar each, gathered back into a vector from the result struct.
    A is row-major and B column-major; s8 products wrap on overflow, as
    the dialect's op promises. 8-bit float inputs (sm_89 and later) are
    inline PTX: MLIR 22's nvvm.mma.sync has no such variant.
  }];
  let options = [
    Option<"computeCapability", "compute-capability", "int", "90",
           "The target's compute capability (80 for sm_80)">
  ];
  let dependentDialects = ["mlir::NVVM::NVVMDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::vector::VectorDialect"];
}

def LowerLdmatrixToNvvmPass : Pass<"xla-gpu-lower-ldmatrix-to-nvvm", "mlir::ModuleOp"> {
  let summary = "xla_gpu.ldmatrix on a shared buffer as nvvm.ldmatrix";
  let description = [{
    The lane's row address (xla_gpu.element_pointer to the element its
    indices name, in the shared address space) goes to NVVM's ldmatrix
    (x1, x2 or x4; `.trans` with `transpose`); its 32-bit registers, in order, are
    the result's elements bitcast to the tile's type. Runs before
    xla-gpu-lower-element-pointers.
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::vector::VectorDialect"];
}

def LowerWgmmaToNvvmPass : Pass<"xla-gpu-lower-wgmma-to-nvvm", "mlir::ModuleOp"> {
  let summary = "xla_gpu.wgmma on shared buffers as nvvm.wgmma.mma_async";
  let description = [{
    A proxy fence (the tiles were written by ordinary stores), wgmma.fence,
    one wgmma.mma_async m64nNk16 (m64nNk8 for TF32) per 32 bytes of K, their descriptors
    the tiles' start addresses with the core-matrix offsets of the op's
    layout (no swizzle), then a commit and a wait for it: the op stays
    synchronous. The accumulators go through NVVM's struct. Runs before
    xla-gpu-lower-element-pointers; convert-nvvm-to-llvm makes the
    mma_async inline PTX.
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::vector::VectorDialect", "mlir::arith::ArithDialect"];
}

def LowerAsyncCopiesToNvvmPass : Pass<"xla-gpu-lower-async-copies-to-nvvm", "mlir::ModuleOp"> {
  let summary = "xla_gpu async copies, commits and waits as NVVM's cp.async";
  let description = [{
    An `async_copy` on buffers becomes `cp.async.shared.global` (`.cg` for
    16 bytes, `.ca` otherwise) from the source element's global address to
    the tile element's shared one, its source size the copy's bytes where
    the condition holds, else 0 (zeros written, nothing read);
    `async_commit` and `async_wait` (without tiles) become
    `cp.async.commit_group` and `cp.async.wait_group`. Runs before
    xla-gpu-lower-element-pointers.
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::arith::ArithDialect"];
}

def LowerTmaToNvvmPass : Pass<"xla-gpu-lower-tma-to-nvvm", "mlir::ModuleOp"> {
  let summary = "xla_gpu mbarrier ops, TMA loads and stores, stmatrix as NVVM's";
  let description = [{
    On buffers: `mbarrier_init`, `mbarrier_arrive` (with expect_tx where
    it expects bytes) and `mbarrier_wait` (a try_wait.parity loop) become
    NVVM's mbarrier ops on the barrier's shared address;
    `set_max_registers` becomes `setmaxnreg`; `tma_load` becomes
    `cp.async.bulk.tensor` from the generic address of its source, a
    kernel parameter passed by value as the tensor map (the NVPTX kernel
    ABI marks it a grid constant), into the tile's shared address,
    completing on the barrier (`.multicast::cluster` with its mask, where
    it has one). A cluster's ops: an `mbarrier_arrive` `in_block` another
    becomes `mapa` of the barrier's address, then
    `mbarrier.arrive.release.cluster.shared::cluster`; a bare
    `sync_threads {cluster}` becomes `barrier.cluster.arrive` and
    `barrier.cluster.wait`. The epilogue's ops: `stmatrix` becomes
    `stmatrix.sync.aligned.m8n8.b16` at the lane's row address, then
    `fence.proxy.async.shared::cta` and `bar.warp.sync`; `tma_store`
    becomes `cp.async.bulk.tensor` from the tile's shared address to the
    destination's tensor map, committed as a bulk group;
    `tma_store_wait` becomes `cp.async.bulk.wait_group[.read]`.
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::arith::ArithDialect", "mlir::vector::VectorDialect"];
}

def PackAtomicsPass : Pass<"xla-gpu-pack-atomics", "mlir::ModuleOp"> {
  let summary = "Pairs of f16/bf16 atomic adds as one packed PTX atomic";
  let description = [{
    Two `memref.atomic_rmw addf` on 16-bit floats of one buffer, one at an
    even minor index and the next at that index + 1 (other indices equal;
    between them only ops that write nothing and read other buffers),
    update one aligned 32-bit
    word: they become one `red.add.noftz.f16x2` (sm_60 and later) or
    `red.add.noftz.bf16x2` (sm_90 and later) in inline PTX, relaxed at GPU
    scope as LLVM's own f16 atomics are. Where the architecture has no
    packed form, or evenness cannot be shown from the index's arithmetic
    (constants, products and shifts, sums of even terms), the two atomics
    stay as they are. The scatter emitter makes such pairs
    (ScatterDistributedUpdatesEmitter.cpp).
  }];
  let options = [
    Option<"computeCapability", "compute-capability", "int", "90",
           "The target's compute capability (80 for sm_80)">
  ];
  let dependentDialects = ["mlir::LLVM::LLVMDialect", "mlir::vector::VectorDialect",
                           "hlo::xla_gpu::XlaGpuDialect"];
}

def HardwareFp8ConversionsPass
    : Pass<"xla-gpu-hardware-fp8-conversions", "mlir::ModuleOp"> {
  let summary = "f32 <-> f8E4M3FN/f8E5M2 with sm_89's conversion instructions";
  let description = [{
    For sm_89 and later (the target adds it there, before the software
    lowering of small floats): `arith.truncf` f32 -> f8E4M3FN/f8E5M2
    becomes `nvvm.convert.f32x2.to.f8x2` (cvt.rn.satfinite) and
    `arith.extf` f8E4M3FN -> f32 `nvvm.convert.f8x2.to.f16x2` then f16 ->
    f32 (f8E5M2 -> f16 is a shift); a fix-up restores what saturation
    changed (e4m3fn: past 464 is NaN, e5m2: from 61440 on is inf) and the
    NaN bits of the software lowering, so both give the same bits.
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect", "mlir::vector::VectorDialect",
                           "mlir::arith::ArithDialect"];
}

#endif // HLO_PIPELINE_NVPTX_PASSES
