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

#endif // HLO_PIPELINE_NVPTX_PASSES
