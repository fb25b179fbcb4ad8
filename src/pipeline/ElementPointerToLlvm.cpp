//===- ElementPointerToLlvm.cpp - xla_gpu.element_pointer to LLVM ---------===//
//
// Owns the element_pointer conversion pattern and xla-gpu-lower-element-
// pointers (Passes.td), a partial conversion with the same type converter
// options as the target's, so that the buffer's descriptor casts pair up
// with those of the target's own conversion.
//
//===----------------------------------------------------------------------===//
#include "pipeline/ElementPointerToLlvm.h"

#include "dialect/XlaGpuDialect.h"
#include "pipeline/Passes.h"
#include "pipeline/SharedMemoryLayout.h"

#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERELEMENTPOINTERSPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

struct ElementPointerLowering : ConvertOpToLLVMPattern<xla_gpu::ElementPointerOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult matchAndRewrite(xla_gpu::ElementPointerOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(op.getMemref().getType());
    Value pointer = getStridedElementPtr(rewriter, op.getLoc(), type, adaptor.getMemref(),
                                         adaptor.getIndices());
    // A pointer in the buffer's address space, as a generic one.
    if (pointer.getType() != op.getType())
      pointer = LLVM::AddrSpaceCastOp::create(rewriter, op.getLoc(), op.getType(), pointer);
    rewriter.replaceOp(op, pointer);
    return success();
  }
};

struct LowerElementPointersPass
    : impl::LowerElementPointersPassBase<LowerElementPointersPass> {
  using LowerElementPointersPassBase::LowerElementPointersPassBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    LowerToLLVMOptions options(context);
    options.overrideIndexBitwidth(indexBitwidth);
    LLVMTypeConverter converter(context, options);
    // Shared buffers (xla_gpu.ldmatrix's) in NVVM's numbering, as
    // gpu-to-nvvm converts them.
    populateGpuMemorySpaceAttributeConversions(converter, [](gpu::AddressSpace space) -> unsigned {
      switch (space) {
      case gpu::AddressSpace::Global:
        return 1;
      case gpu::AddressSpace::Workgroup:
        return kSharedMemoryAddressSpace;
      case gpu::AddressSpace::Private:
        return 5;
      }
      return 0;
    });
    RewritePatternSet patterns(context);
    populateElementPointerToLlvmPatterns(converter, patterns);
    ConversionTarget target(*context);
    target.addIllegalOp<xla_gpu::ElementPointerOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void populateElementPointerToLlvmPatterns(LLVMTypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<ElementPointerLowering>(converter);
}

} // namespace hlo::pipeline
