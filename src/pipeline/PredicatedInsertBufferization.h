//===- PredicatedInsertBufferization.h - predicated_insert to buffers -*- C++ -*-===//
//
// The bufferization of xla_gpu.predicated_insert, registered as an external
// model of BufferizableOpInterface: one-shot bufferization turns the op
// into `scf.if %c { memref.store }` on its destination's buffer (in place;
// the result is that buffer). Most predicated inserts are lowered to
// scf.if around tensor.insert earlier (xla-gpu-lower-predicated-insert);
// those marked kKeepUntilBufferizationAttr (KernelContract.h) stay: a
// chain of tensor-valued scf.ifs inside loops makes one-shot
// bufferization's buffer-type queries exponential in the chain's length
// (a persistent GEMM block's 64-value epilogue inside its tile loop never
// finished), where a chain of these is linear.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_PREDICATEDINSERTBUFFERIZATION_H
#define HLO_PIPELINE_PREDICATEDINSERTBUFFERIZATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hlo::pipeline {

void registerPredicatedInsertBufferization(mlir::DialectRegistry &registry);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_PREDICATEDINSERTBUFFERIZATION_H
