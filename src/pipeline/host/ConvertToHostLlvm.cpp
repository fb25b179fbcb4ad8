//===- ConvertToHostLlvm.cpp - Upstream dialects to LLVM for the host -----===//
//
// Owns xla-gpu-convert-to-host-llvm, the host's counterpart of upstream's
// convert-gpu-to-nvvm: one dialect conversion with every dialect's
// patterns to LLVM, 64-bit indices, bare-pointer memref arguments (the
// kernel ABI), and GPU address spaces mapped as NVVM numbers them for
// shared memory (3) and to plain memory otherwise.
//
//===----------------------------------------------------------------------===//
#include "pipeline/ElementPointerToLlvm.h"
#include "pipeline/SharedMemoryLayout.h"
#include "pipeline/host/HostPasses.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_CONVERTTOHOSTLLVMPASS
#include "pipeline/host/HostPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

struct ConvertToHostLlvmPass
    : impl::ConvertToHostLlvmPassBase<ConvertToHostLlvmPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    LowerToLLVMOptions options(context, DataLayout(module));
    options.overrideIndexBitwidth(64);
    options.useBarePtrCallConv = true;
    LLVMTypeConverter converter(context, options);
    populateGpuMemorySpaceAttributeConversions(
        converter, [](gpu::AddressSpace space) -> unsigned {
          return space == gpu::AddressSpace::Workgroup ? kSharedMemoryAddressSpace : 0;
        });

    RewritePatternSet patterns(context);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    populateElementPointerToLlvmPatterns(converter, patterns);
    populateVectorToLLVMConversionPatterns(converter, patterns);
    // log1p goes to libm before this pass; never approximate it here.
    populateMathToLLVMConversionPatterns(converter, patterns, /*approximateLog1p=*/false);
    populateComplexToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);

    LLVMConversionTarget target(*context);
    target.addIllegalDialect<func::FuncDialect, gpu::GPUDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace hlo::pipeline
