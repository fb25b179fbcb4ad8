//===- SharedTileBufferization.h - Shared-tile ops to buffers ----*- C++ -*-===//
//
// The bufferization of the xla_gpu ops that read or fill shared tiles
// other than by tensor.extract/insert, registered as external models of
// BufferizableOpInterface: one-shot bufferization keeps each op and gives
// it buffers (the shared globals, the kernel's buffers) instead of
// tensors. xla_gpu.ldmatrix and xla_gpu.wgmma read their tiles and write
// nothing; xla_gpu.async_copy reads its source and writes its tile in
// place (its result is the tile). Each target lowers the buffer forms
// (nvptx/LowerLdmatrixToNvvm.cpp, nvptx/LowerWgmmaToNvvm.cpp,
// nvptx/LowerAsyncCopiesToNvvm.cpp, host/LowerGpuToHostRuntime.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_SHAREDTILEBUFFERIZATION_H
#define HLO_PIPELINE_SHAREDTILEBUFFERIZATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hlo::pipeline {

void registerSharedTileBufferization(mlir::DialectRegistry &registry);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_SHAREDTILEBUFFERIZATION_H
