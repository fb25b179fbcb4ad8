//===- PredicatedInsertBufferization.cpp - predicated_insert to buffers ---===//
#include "pipeline/PredicatedInsertBufferization.h"

#include "dialect/XlaGpuDialect.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace hlo::pipeline {
namespace {

struct PredicatedInsertBufferization
    : BufferizableOpInterface::ExternalModel<PredicatedInsertBufferization,
                                             xla_gpu::PredicatedInsertOp> {
  // The destination's other elements pass through: read (conservatively)
  // and written, in place.
  bool bufferizesToMemoryRead(Operation *, OpOperand &, const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &, const AnalysisState &) const {
    return true;
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    auto insert = cast<xla_gpu::PredicatedInsertOp>(op);
    if (&operand != &insert.getDestMutable())
      return {};
    return {{op->getOpResult(0), BufferRelation::Equivalent}};
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto insert = cast<xla_gpu::PredicatedInsertOp>(op);
    FailureOr<Value> buffer = getBuffer(rewriter, insert.getDest(), options, state);
    if (failed(buffer))
      return failure();
    Location loc = op->getLoc();
    scf::IfOp::create(rewriter, loc, insert.getCondition(), [&](OpBuilder &then, Location) {
      memref::StoreOp::create(then, loc, insert.getValue(), *buffer, insert.getIndices());
      scf::YieldOp::create(then, loc);
    });
    replaceOpWithBufferizedValues(rewriter, op, *buffer);
    return success();
  }
};

} // namespace

void registerPredicatedInsertBufferization(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, xla_gpu::XlaGpuDialect *) {
    xla_gpu::PredicatedInsertOp::attachInterface<PredicatedInsertBufferization>(*context);
  });
}

} // namespace hlo::pipeline
