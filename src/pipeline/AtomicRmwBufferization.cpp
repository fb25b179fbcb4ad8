//===- AtomicRmwBufferization.cpp - xla_gpu.atomic_rmw to buffers ---------===//
#include "pipeline/AtomicRmwBufferization.h"
#include "pipeline/AtomicUpdates.h"

#include "dialect/XlaGpuDialect.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace hlo::pipeline {
namespace {

struct AtomicRmwBufferization
    : BufferizableOpInterface::ExternalModel<AtomicRmwBufferization, xla_gpu::AtomicRMWOp> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &, const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &, const AnalysisState &) const {
    return true;
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    if (operand.getOperandNumber() != 0)
      return {};
    return {{op->getOpResult(0), BufferRelation::Equivalent}};
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto atomic = cast<xla_gpu::AtomicRMWOp>(op);
    FailureOr<Value> buffer = getBuffer(rewriter, atomic.getInput(), options, state);
    if (failed(buffer))
      return failure();
    Location loc = op->getLoc();
    Block &from = atomic.getComputation().front();
    auto yielded = cast<xla_gpu::YieldOp>(from.getTerminator()).getValues().front();
    if (yielded == from.getArgument(0)) {
      // The update keeps the element as it is (a combiner folded away, as
      // add(current, (0, 0)) is): nothing to write.
      replaceOpWithBufferizedValues(rewriter, op, *buffer);
      return success();
    }
    if (auto complexType = dyn_cast<ComplexType>(from.getArgument(0).getType())) {
      // memref.generic_atomic_rmw holds integers and floats only: a complex
      // update is written out here (AtomicUpdates.h), an addition of a
      // value from outside as one atomic add per part.
      auto add = yielded.getDefiningOp<complex::AddOp>();
      Value current = from.getArgument(0);
      Value addend = !add                         ? Value()
                     : add.getLhs() == current ? add.getRhs()
                     : add.getRhs() == current ? add.getLhs()
                                               : Value();
      if (addend && addend.getParentBlock() != &from && from.getOperations().size() == 2) {
        emitComplexAtomicAdd(rewriter, loc, *buffer, atomic.getIndices(), addend);
      } else {
        FailureOr<Value> stored = emitCompareAndSwapLoop(
            rewriter, loc, *buffer, atomic.getIndices(),
            [&](OpBuilder &b, Location, Value value) {
              IRMapping mapping;
              mapping.map(current, value);
              for (Operation &inner : from.without_terminator())
                b.clone(inner, mapping);
              return mapping.lookupOrDefault(yielded);
            });
        if (failed(stored))
          return failure();
      }
      replaceOpWithBufferizedValues(rewriter, op, *buffer);
      return success();
    }
    auto generic = memref::GenericAtomicRMWOp::create(rewriter, loc, *buffer,
                                                      atomic.getIndices());
    {
      OpBuilder::InsertionGuard guard(rewriter);
      Block *to = generic.getBody();
      rewriter.setInsertionPointToStart(to);
      IRMapping mapping;
      mapping.map(from.getArgument(0), generic.getCurrentValue());
      for (Operation &inner : from.without_terminator())
        rewriter.clone(inner, mapping);
      auto yield = cast<xla_gpu::YieldOp>(from.getTerminator());
      memref::AtomicYieldOp::create(rewriter, loc,
                                    mapping.lookupOrDefault(yield.getValues().front()));
    }
    replaceOpWithBufferizedValues(rewriter, op, *buffer);
    return success();
  }
};

} // namespace

void registerAtomicRmwBufferization(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, xla_gpu::XlaGpuDialect *) {
    xla_gpu::AtomicRMWOp::attachInterface<AtomicRmwBufferization>(*context);
  });
}

} // namespace hlo::pipeline
