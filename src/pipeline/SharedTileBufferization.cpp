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
                                    mma.getSwizzle(), mma.getInFlight(), mma.getBTransposed(),
                                    mma.getATransposed());
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

/// The mbarrier and TMA ops: the operand `UpdatedOperand{}(op)` (none:
/// null) is written in place and is the result on tensors; every other
/// tensor operand is read. The op is rebuilt on the buffers as it was,
/// without results. (An mbarrier_wait has lost its tiles by now,
/// xla-gpu-lower-sync-threads.)
template <typename Op, typename UpdatedOperand>
struct InPlaceUpdate
    : BufferizableOpInterface::ExternalModel<InPlaceUpdate<Op, UpdatedOperand>, Op> {
  static bool isUpdated(Operation *op, OpOperand &operand) {
    Value updated = UpdatedOperand{}(cast<Op>(op));
    return updated && operand.get() == updated;
  }
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand, const AnalysisState &) const {
    // (A partial update reads what it keeps: an arrival its barrier, a
    // stmatrix its tile, a TMA store its destination.)
    return !isUpdated(op, operand) ||
           isa<xla_gpu::MbarrierArriveOp, xla_gpu::StmatrixOp, xla_gpu::TmaStoreOp>(op);
  }
  bool bufferizesToMemoryWrite(Operation *op, OpOperand &operand, const AnalysisState &) const {
    return isUpdated(op, operand);
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    if (!isUpdated(op, operand) || op->getNumResults() == 0)
      return {};
    return {{op->getResult(0), BufferRelation::Equivalent}};
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    SmallVector<Value> operands;
    Value updated;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<TensorType>(operand.get().getType())) {
        operands.push_back(operand.get());
        continue;
      }
      FailureOr<Value> buffer = getBuffer(rewriter, operand.get(), options, state);
      if (failed(buffer))
        return failure();
      operands.push_back(*buffer);
      if (isUpdated(op, operand))
        updated = *buffer;
    }
    OperationState rebuilt(op->getLoc(), op->getName());
    rebuilt.addOperands(operands);
    rebuilt.addAttributes(op->getAttrs());
    rewriter.create(rebuilt);
    if (op->getNumResults() == 0) {
      rewriter.eraseOp(op);
      return success();
    }
    replaceOpWithBufferizedValues(rewriter, op, updated);
    return success();
  }
};

struct BarriersOf {
  template <typename Op> Value operator()(Op op) const { return op.getBarriers(); }
};
struct TileOf {
  template <typename Op> Value operator()(Op op) const { return op.getTile(); }
};
struct DestinationOf {
  Value operator()(xla_gpu::TmaStoreOp op) const { return op.getDestination(); }
};
struct Nothing {
  Value operator()(xla_gpu::MbarrierWaitOp) const { return Value(); }
};

} // namespace

void registerSharedTileBufferization(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, xla_gpu::XlaGpuDialect *) {
    xla_gpu::LdmatrixOp::attachInterface<SharedTileRead<xla_gpu::LdmatrixOp, RebuildLdmatrix>>(
        *context);
    xla_gpu::WgmmaOp::attachInterface<SharedTileRead<xla_gpu::WgmmaOp, RebuildWgmma>>(*context);
    xla_gpu::AsyncCopyOp::attachInterface<AsyncCopyBufferization>(*context);
    xla_gpu::MbarrierInitOp::attachInterface<InPlaceUpdate<xla_gpu::MbarrierInitOp, BarriersOf>>(
        *context);
    xla_gpu::MbarrierArriveOp::attachInterface<
        InPlaceUpdate<xla_gpu::MbarrierArriveOp, BarriersOf>>(*context);
    xla_gpu::MbarrierWaitOp::attachInterface<InPlaceUpdate<xla_gpu::MbarrierWaitOp, Nothing>>(
        *context);
    xla_gpu::TmaLoadOp::attachInterface<InPlaceUpdate<xla_gpu::TmaLoadOp, TileOf>>(*context);
    xla_gpu::StmatrixOp::attachInterface<InPlaceUpdate<xla_gpu::StmatrixOp, TileOf>>(*context);
    xla_gpu::TmaStoreOp::attachInterface<InPlaceUpdate<xla_gpu::TmaStoreOp, DestinationOf>>(
        *context);
  });
}

} // namespace hlo::pipeline
