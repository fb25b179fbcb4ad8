//===- LdmatrixBufferization.cpp - xla_gpu.ldmatrix to buffers ------------===//
#include "pipeline/LdmatrixBufferization.h"

#include "dialect/XlaGpuDialect.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace hlo::pipeline {
namespace {

struct LdmatrixBufferization
    : BufferizableOpInterface::ExternalModel<LdmatrixBufferization, xla_gpu::LdmatrixOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &, const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &, const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &, const AnalysisState &) const {
    return {};
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto load = cast<xla_gpu::LdmatrixOp>(op);
    FailureOr<Value> buffer = getBuffer(rewriter, load.getTile(), options, state);
    if (failed(buffer))
      return failure();
    auto replacement =
        xla_gpu::LdmatrixOp::create(rewriter, op->getLoc(), load.getType(), *buffer,
                                    load.getIndices(), load.getCount(), load.getTranspose());
    replaceOpWithBufferizedValues(rewriter, op, replacement.getResult());
    return success();
  }
};

} // namespace

void registerLdmatrixBufferization(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, xla_gpu::XlaGpuDialect *) {
    xla_gpu::LdmatrixOp::attachInterface<LdmatrixBufferization>(*context);
  });
}

} // namespace hlo::pipeline
