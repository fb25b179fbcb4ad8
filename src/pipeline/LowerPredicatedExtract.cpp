//===- LowerPredicatedExtract.cpp - predicated_extract to scf.if ----------===//
//
// Owns xla-gpu-lower-predicated-extract (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/Passes.h"

#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERPREDICATEDEXTRACTPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

struct LowerPredicatedExtract : OpRewritePattern<xla_gpu::PredicatedExtractOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(xla_gpu::PredicatedExtractOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ifOp = scf::IfOp::create(
        rewriter, loc, op.getCondition(),
        [&](OpBuilder &then, Location) {
          Value element = tensor::ExtractOp::create(then, loc, op.getSrc(), op.getIndices());
          scf::YieldOp::create(then, loc, element);
        },
        [&](OpBuilder &otherwise, Location) {
          scf::YieldOp::create(otherwise, loc, op.getFallback());
        });
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct LowerPredicatedExtractPass
    : impl::LowerPredicatedExtractPassBase<LowerPredicatedExtractPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerPredicatedExtract>(&getContext());
    // One walk, no folding: the greedy driver would also fold and re-visit
    // every op of the kernel, which dominates on large kernels.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
} // namespace hlo::pipeline
