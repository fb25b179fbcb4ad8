//===- AtomicRmwBufferization.h - xla_gpu.atomic_rmw to buffers -*- C++ -*-===//
//
// The bufferization of xla_gpu.atomic_rmw, registered as an external model
// of BufferizableOpInterface: one-shot bufferization turns the op into
// memref.generic_atomic_rmw on its input's buffer (the update happens in
// place; the result is that buffer), except for complex elements, which
// that op cannot hold: their updates are written out here
// (AtomicUpdates.h). Kept in the pipeline, not in the
// dialect: it is the first step of lowering the op, before the target
// split, so that both targets receive upstream memref atomics.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PIPELINE_ATOMICRMWBUFFERIZATION_H
#define HLO_PIPELINE_ATOMICRMWBUFFERIZATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hlo::pipeline {

void registerAtomicRmwBufferization(mlir::DialectRegistry &registry);

} // namespace hlo::pipeline

#endif // HLO_PIPELINE_ATOMICRMWBUFFERIZATION_H
