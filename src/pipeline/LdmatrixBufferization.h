//===- LdmatrixBufferization.h - xla_gpu.ldmatrix to buffers ----*- C++ -*-===//
//
// The bufferization of xla_gpu.ldmatrix, registered as an external model
// of BufferizableOpInterface: one-shot bufferization keeps the op and
// gives it its tile's buffer (the shared global) instead of the tensor;
// it reads the buffer and writes nothing. Each target lowers the buffer
// form (nvptx/LowerLdmatrixToNvvm.cpp, host/LowerGpuToHostRuntime.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_LDMATRIXBUFFERIZATION_H
#define HLO_PIPELINE_LDMATRIXBUFFERIZATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hlo::pipeline {

void registerLdmatrixBufferization(mlir::DialectRegistry &registry);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_LDMATRIXBUFFERIZATION_H
