//===- LowerPredicatedInsert.cpp - predicated_insert to scf.if ------------===//
//
// Owns xla-gpu-lower-predicated-insert (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "dialect/KernelContract.h"
#include "dialect/XlaGpuDialect.h"
#include "pipeline/Passes.h"

#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERPREDICATEDINSERTPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

struct LowerPredicatedInsert : OpRewritePattern<xla_gpu::PredicatedInsertOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(xla_gpu::PredicatedInsertOp op,
                                PatternRewriter &rewriter) const override {
    // Marked: bufferized as it is (PredicatedInsertBufferization.h).
    if (op->hasAttr(xla_gpu::kKeepUntilBufferizationAttr))
      return failure();
    Location loc = op.getLoc();
    auto ifOp = scf::IfOp::create(
        rewriter, loc, op.getCondition(),
        [&](OpBuilder &then, Location) {
          Value inserted = tensor::InsertOp::create(then, loc, op.getValue(), op.getDest(),
                                                    op.getIndices());
          scf::YieldOp::create(then, loc, inserted);
        },
        [&](OpBuilder &otherwise, Location) {
          scf::YieldOp::create(otherwise, loc, op.getDest());
        });
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct LowerPredicatedInsertPass
    : impl::LowerPredicatedInsertPassBase<LowerPredicatedInsertPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerPredicatedInsert>(&getContext());
    // One walk, no folding: the greedy driver would also fold and re-visit
    // every op of the kernel, which dominates on large kernels.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
} // namespace hlo::pipeline
