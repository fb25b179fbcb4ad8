//===- ElementPointerToLlvm.h - xla_gpu.element_pointer to LLVM -*- C++ -*-===//
//
// The conversion of xla_gpu.element_pointer (a buffer element's address)
// to a getelementptr on the buffer's LLVM descriptor: a pattern for the
// host target's conversion, and the pass the NVPTX target runs before
// upstream's gpu-to-nvvm (Passes.td: xla-gpu-lower-element-pointers).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_ELEMENTPOINTERTOLLVM_H
#define HLO_PIPELINE_ELEMENTPOINTERTOLLVM_H

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace hlo::pipeline {

void populateElementPointerToLlvmPatterns(mlir::LLVMTypeConverter &converter,
                                          mlir::RewritePatternSet &patterns);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_ELEMENTPOINTERTOLLVM_H
