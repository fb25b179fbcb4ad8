//===- SharedTileBufferization.cpp - Shared-tile ops to buffers -----------===//
#include "pipeline/SharedTileBufferization.h"

#include "dialect/XlaGpuDialect.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace hlo::pipeline {
namespace {

/// An op that reads its tensor operands and writes nothing: each tensor
/// operand becomes its buffer, the op is rebuilt by `Rebuild`.
template <typename Op, typename Rebuild>
struct SharedTileRead : BufferizableOpInterface::ExternalModel<SharedTileRead<Op, Rebuild>, Op> {
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
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (!isa<TensorType>(operand.getType())) {
        operands.push_back(operand);
        continue;
      }
      FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      operands.push_back(*buffer);
    }
    Value replacement = Rebuild{}(rewriter, cast<Op>(op), operands);
    replaceOpWithBufferizedValues(rewriter, op, replacement);
    return success();
  }
};

struct RebuildLdmatrix {
  Value operator()(RewriterBase &rewriter, xla_gpu::LdmatrixOp load, ValueRange operands) const {
    return xla_gpu::LdmatrixOp::create(rewriter, load.getLoc(), load.getType(), operands.front(),
                                       operands.drop_front(), load.getCount(),
                                       load.getTranspose());
  }
};

struct RebuildWgmma {
  Value operator()(RewriterBase &rewriter, xla_gpu::WgmmaOp mma, ValueRange operands) const {
    return xla_gpu::WgmmaOp::create(rewriter, mma.getLoc(), mma.getType(), operands[0],
                                    operands[1], operands[2], operands[3], operands[4],
                                    mma.getSwizzle(), mma.getInFlight());
  }
};

/// async_copy: reads its source, writes its tile in place (the result is
/// the tile).
struct AsyncCopyBufferization
    : BufferizableOpInterface::ExternalModel<AsyncCopyBufferization, xla_gpu::AsyncCopyOp> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand, const AnalysisState &) const {
    return operand.get() == cast<xla_gpu::AsyncCopyOp>(op).getSource();
  }
  bool bufferizesToMemoryWrite(Operation *op, OpOperand &operand, const AnalysisState &) const {
    return operand.get() == cast<xla_gpu::AsyncCopyOp>(op).getTile();
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    auto copy = cast<xla_gpu::AsyncCopyOp>(op);
    if (operand.get() != copy.getTile())
      return {};
    return {{copy.getResult(), BufferRelation::Equivalent}};
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto copy = cast<xla_gpu::AsyncCopyOp>(op);
    FailureOr<Value> source = getBuffer(rewriter, copy.getSource(), options, state);
    FailureOr<Value> tile = getBuffer(rewriter, copy.getTile(), options, state);
    if (failed(source) || failed(tile))
      return failure();
    xla_gpu::AsyncCopyOp::create(rewriter, copy.getLoc(), Type(), *source,
                                 copy.getSourceIndices(), *tile, copy.getTileIndices(),
                                 copy.getCondition(), copy.getBytes());
    replaceOpWithBufferizedValues(rewriter, op, *tile);
    return success();
  }
};

} // namespace

void registerSharedTileBufferization(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, xla_gpu::XlaGpuDialect *) {
    xla_gpu::LdmatrixOp::attachInterface<SharedTileRead<xla_gpu::LdmatrixOp, RebuildLdmatrix>>(
        *context);
    xla_gpu::WgmmaOp::attachInterface<SharedTileRead<xla_gpu::WgmmaOp, RebuildWgmma>>(*context);
    xla_gpu::AsyncCopyOp::attachInterface<AsyncCopyBufferization>(*context);
  });
}

} // namespace hlo::pipeline
