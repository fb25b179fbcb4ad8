//===- KernelAbi.cpp - Kernel buffers around bufferization ----------------===//
//
// Owns the two passes that give kernels the ABI of xla-reference.md (one
// pointer per buffer: the fusion's parameters, then its outputs):
// xla-gpu-mark-outputs-writable before one-shot bufferization, and
// xla-gpu-kernel-abi after it.
//
//===----------------------------------------------------------------------===//
#include "dialect/KernelContract.h"
#include "dialect/XlaGpuDialect.h"
#include "pipeline/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_MARKKERNELOUTPUTSWRITABLEPASS
#define GEN_PASS_DEF_KERNELABIPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

struct MarkKernelOutputsWritablePass
    : impl::MarkKernelOutputsWritablePassBase<MarkKernelOutputsWritablePass> {
  void runOnOperation() override {
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      if (!xla_gpu::isKernel(function))
        continue;
      unsigned outputs = function.getNumResults();
      unsigned arguments = function.getNumArguments();
      auto flag = [&](bool writable) {
        return BoolAttr::get(&getContext(), writable);
      };
      for (unsigned i = 0; i < arguments; ++i)
        function.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                            flag(i >= arguments - outputs));
    }
  }
};

/// Bits an element occupies in memory (pred and sub-byte types take a
/// byte each, as they do after the conversion to LLVM); 0 if unknown.
int64_t storageBits(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * storageBits(complex.getElementType());
  if (type.isIntOrFloat()) { // 2- and 4-bit types packed; pred one byte
    unsigned bits = type.getIntOrFloatBitWidth();
    return bits == 2 || bits == 4 ? bits : std::max<int64_t>(bits, 8);
  }
  return 0;
}

/// What LLVM may assume of each buffer (xla-reference.md's kernel ABI):
/// distinct buffers, 16-byte aligned, the whole buffer dereferenceable;
/// inputs are read-only, which lets NVPTX use the non-coherent cache. An
/// input and an output the plan may make one buffer (kMayAliasArgAttr)
/// are not `noalias`, and so not read through that cache.
void setBufferAttributes(func::FuncOp function, unsigned inputCount) {
  Builder b(function.getContext());
  for (unsigned i = 0; i < function.getNumArguments(); ++i) {
    function.removeArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName);
    auto type = dyn_cast<MemRefType>(function.getArgumentTypes()[i]);
    if (!type || !type.hasStaticShape())
      continue;
    int64_t bits = type.getNumElements() * storageBits(type.getElementType());
    if (!function.getArgAttr(i, xla_gpu::kMayAliasArgAttr))
      function.setArgAttr(i, "llvm.noalias", b.getUnitAttr());
    function.removeArgAttr(i, xla_gpu::kMayAliasArgAttr);
    function.setArgAttr(i, "llvm.align", b.getI64IntegerAttr(16));
    if (bits > 0)
      function.setArgAttr(i, "llvm.dereferenceable",
                          b.getI64IntegerAttr((bits + 7) / 8));
    if (i < inputCount)
      function.setArgAttr(i, "llvm.readonly", b.getUnitAttr());
  }
}

struct KernelAbiPass : impl::KernelAbiPassBase<KernelAbiPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto function : module.getOps<func::FuncOp>()) {
      if (!xla_gpu::isKernel(function) || function.getNumResults() == 0)
        continue;
      // Each result must be the output buffer the kernel was given.
      auto returnOp = cast<func::ReturnOp>(function.getBody().back().getTerminator());
      for (Value result : returnOp.getOperands()) {
        if (!isa<BlockArgument>(result)) {
          returnOp.emitError("kernel result is not one of its output buffers "
                             "(bufferization did not write in place)");
          return signalPassFailure();
        }
      }
      unsigned returnedCount = returnOp.getNumOperands();
      OpBuilder builder(returnOp);
      func::ReturnOp::create(builder, returnOp.getLoc());
      returnOp.erase();
      function.setType(FunctionType::get(
          &getContext(), function.getArgumentTypes(), TypeRange()));
      setBufferAttributes(function, function.getNumArguments() - returnedCount);
    }
    // Everything moves into one gpu.module, which the NVVM conversion
    // expects.
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    auto gpuModule = gpu::GPUModuleOp::create(builder, module.getLoc(), "kernels");
    Block &target = gpuModule.getBodyRegion().front();
    for (Operation &op : llvm::make_early_inc_range(module.getBody()->getOperations()))
      if (&op != gpuModule.getOperation())
        op.moveBefore(&target, target.end());
  }
};

} // namespace
} // namespace hlo::pipeline
