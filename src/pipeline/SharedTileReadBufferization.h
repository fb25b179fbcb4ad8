//===- SharedTileReadBufferization.h - Tensor-core reads to buffers -*- C++ -*-===//
//
// The bufferization of the ops that read shared tiles collectively
// (xla_gpu.ldmatrix, xla_gpu.wgmma), registered as external models of
// BufferizableOpInterface: one-shot bufferization keeps each op and gives
// it its tiles' buffers (the shared globals) instead of the tensors; they
// read the buffers and write nothing. Each target lowers the buffer forms
// (nvptx/LowerLdmatrixToNvvm.cpp, nvptx/LowerWgmmaToNvvm.cpp,
// host/LowerGpuToHostRuntime.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_SHAREDTILEREADBUFFERIZATION_H
#define HLO_PIPELINE_SHAREDTILEREADBUFFERIZATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hlo::pipeline {

void registerSharedTileReadBufferization(mlir::DialectRegistry &registry);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_SHAREDTILEREADBUFFERIZATION_H
