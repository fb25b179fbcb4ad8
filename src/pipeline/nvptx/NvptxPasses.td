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
    Every LLVM function that carries `xla_gpu.block_size` becomes an NVVM
    kernel (`nvvm.kernel`) with `nvvm.reqntid` equal to its block size, and
    gets `xla_gpu.shared_memory_bytes`: the static shared memory it uses
    (the workgroup globals it references, laid out as SharedMemoryLayout.h
    says), which the launch manifest reports.
  }];
  let dependentDialects = ["mlir::NVVM::NVVMDialect"];
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

#endif // HLO_PIPELINE_NVPTX_PASSES
