//===- AnnotateNvvmKernels.cpp - NVVM kernel attributes -------------------===//
//
// Owns xla-gpu-annotate-kernels: after the conversion to the LLVM dialect,
// turns each kernel function into an NVVM kernel with exact launch bounds
// (`nvvm.reqntid` = the block size the emitter chose; ptxas rejects
// `.maxntid` next to `.reqntid`, and the exact bound implies the maximum),
// its cluster shape (`nvvm.cluster_dim`: `.reqnctapercluster`) and register
// bound (`nvvm.maxnreg`: `.maxnreg`) where the launch has them, and
// records the static shared memory each kernel uses for the manifest; a
// tensor map argument (kTensorMapArgAttr) becomes a 128-byte grid-constant
// parameter passed by value.
//
//===----------------------------------------------------------------------===//
#include "dialect/KernelContract.h"
#include "dialect/XlaGpuDialect.h"
#include "pipeline/SharedMemoryLayout.h"
#include "pipeline/nvptx/NvptxPasses.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_ANNOTATENVVMKERNELSPASS
#include "pipeline/nvptx/NvptxPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// A CUtensorMap: its bytes and alignment as a kernel parameter.
constexpr unsigned kTensorMapBytes = 128, kTensorMapAlignment = 64;

struct AnnotateNvvmKernelsPass
    : impl::AnnotateNvvmKernelsPassBase<AnnotateNvvmKernelsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    for (auto function : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      xla_gpu::LaunchAttr launch = xla_gpu::getKernelLaunch(function);
      if (!launch)
        continue;
      SmallVector<int32_t> threads(launch.getBlock().begin(), launch.getBlock().end());
      function->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                        UnitAttr::get(context));
      function->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                        DenseI32ArrayAttr::get(context, threads));
      if (!launch.getCluster().empty()) {
        SmallVector<int32_t> cluster(launch.getCluster().begin(), launch.getCluster().end());
        function->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                          DenseI32ArrayAttr::get(context, cluster));
      }
      if (launch.getMaxRegisters() > 0)
        function->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                          IntegerAttr::get(IntegerType::get(context, 32),
                                           launch.getMaxRegisters()));
      // A tensor map parameter: 128 bytes by value, 64-byte aligned, whose
      // address the kernel takes (a grid constant: no local copy).
      for (unsigned i = 0; i < function.getNumArguments(); ++i) {
        if (!function.getArgAttr(i, xla_gpu::kTensorMapArgAttr))
          continue;
        function.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                            TypeAttr::get(LLVM::LLVMArrayType::get(
                                IntegerType::get(context, 8), kTensorMapBytes)));
        function.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                            IntegerAttr::get(IntegerType::get(context, 64), kTensorMapAlignment));
        function.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                            UnitAttr::get(context));
        function.removeArgAttr(i, xla_gpu::kTensorMapArgAttr);
      }
      function->removeAttr("llvm.emit_c_interface");
      xla_gpu::setKernelSharedMemoryBytes(function, layoutSharedMemory(function).bytes);
    }
  }
};

} // namespace
} // namespace hlo::pipeline
