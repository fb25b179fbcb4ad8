//===- SharedTileReadBufferization.cpp - Tensor-core reads to buffers -----===//
#include "pipeline/SharedTileReadBufferization.h"

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
                                    mma.getSwizzle());
  }
};

} // namespace

void registerSharedTileReadBufferization(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, xla_gpu::XlaGpuDialect *) {
    xla_gpu::LdmatrixOp::attachInterface<SharedTileRead<xla_gpu::LdmatrixOp, RebuildLdmatrix>>(
        *context);
    xla_gpu::WgmmaOp::attachInterface<SharedTileRead<xla_gpu::WgmmaOp, RebuildWgmma>>(*context);
  });
}

} // namespace hlo::pipeline
