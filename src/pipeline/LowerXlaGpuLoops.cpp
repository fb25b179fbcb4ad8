//===- LowerXlaGpuLoops.cpp - xla_gpu.loop / apply_indexing to scf --------===//
//
// Owns the lowering of the emitters' indexing ops: a loop becomes an
// scf.for nest over the map's range variables whose body runs under an
// scf.if that checks the map's domain; apply_indexing becomes arithmetic;
// pure_calls the inliner kept become func.call.
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/Passes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERXLAGPULOOPSPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// The results of `map` for the given dimension and symbol values.
SmallVector<Value> expandResults(OpBuilder &b, Location loc,
                                 const IndexingMap &map, ValueRange dims,
                                 ValueRange symbols) {
  SmallVector<Value> results;
  for (AffineExpr expr : map.getAffineMap().getResults())
    results.push_back(affine::expandAffineExpr(b, loc, expr, dims, symbols));
  return results;
}

/// `lower <= value <= upper` as an i1 (canonicalization and the range
/// analysis fold the checks that always hold).
Value inInterval(OpBuilder &b, Location loc, Value value, Interval range) {
  Value lo = arith::ConstantIndexOp::create(b, loc, range.lower);
  Value hi = arith::ConstantIndexOp::create(b, loc, range.upper);
  Value aboveLow =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, value, lo);
  Value belowHigh =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, value, hi);
  return arith::AndIOp::create(b, loc, aboveLow, belowHigh);
}

/// Whether the point (dims, symbols) lies in the map's domain. Range
/// variables are in bounds by construction of the loops.
Value inDomain(OpBuilder &b, Location loc, const IndexingMap &map,
               ValueRange dims, ValueRange symbols) {
  Value inside = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (auto [dim, var] : llvm::zip(dims, map.getDimVars()))
    inside = arith::AndIOp::create(b, loc, inside,
                                   inInterval(b, loc, dim, var.bounds));
  for (const IndexingConstraint &constraint : map.getConstraints()) {
    Value value =
        affine::expandAffineExpr(b, loc, constraint.expr, dims, symbols);
    inside = arith::AndIOp::create(b, loc, inside,
                                   inInterval(b, loc, value, constraint.range));
  }
  return inside;
}

struct LowerApplyIndexing : OpRewritePattern<xla_gpu::ApplyIndexingOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(xla_gpu::ApplyIndexingOp op,
                                PatternRewriter &rewriter) const override {
    IndexingMap map = op.getIndexingMap().getIndexingMap();
    ValueRange operands = op.getOperands();
    rewriter.replaceOp(op, expandResults(rewriter, op.getLoc(), map,
                                         operands.take_front(map.getDimCount()),
                                         operands.drop_front(map.getDimCount())));
    return success();
  }
};

struct LowerLoop : OpRewritePattern<xla_gpu::LoopOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(xla_gpu::LoopOp op,
                                PatternRewriter &rewriter) const override {
    IndexingMap map = op.getIndexingMap().getIndexingMap();
    Location loc = op.getLoc();
    SmallVector<Value> ivs;
    // Builds the loop over range variable `level`; the innermost level runs
    // the body for one point.
    std::function<SmallVector<Value>(OpBuilder &, ValueRange)> build =
        [&](OpBuilder &b, ValueRange iterValues) -> SmallVector<Value> {
      size_t level = ivs.size();
      if (level == map.getRangeVars().size())
        return emitPoint(b, loc, op, map, ivs, iterValues);
      Interval bounds = map.getRangeVars()[level].bounds;
      auto loop = scf::ForOp::create(
          b, loc, arith::ConstantIndexOp::create(b, loc, bounds.lower),
          arith::ConstantIndexOp::create(b, loc, bounds.upper + 1),
          arith::ConstantIndexOp::create(b, loc, 1), iterValues,
          [&](OpBuilder &nested, Location, Value iv, ValueRange args) {
            ivs.push_back(iv);
            SmallVector<Value> results = build(nested, args);
            ivs.pop_back();
            scf::YieldOp::create(nested, loc, results);
          });
      return SmallVector<Value>(loop.getResults());
    };
    rewriter.setInsertionPoint(op);
    rewriter.replaceOp(op, build(rewriter, op.getInits()));
    return success();
  }

  /// The body at one point of the range variables, under the domain check.
  static SmallVector<Value> emitPoint(OpBuilder &b, Location loc,
                                      xla_gpu::LoopOp op, const IndexingMap &map,
                                      ValueRange ivs, ValueRange iterValues) {
    ValueRange dims = op.getDims();
    SmallVector<Value> results = expandResults(b, loc, map, dims, ivs);
    Value inside = inDomain(b, loc, map, dims, ivs);
    auto guard = scf::IfOp::create(
        b, loc, inside,
        [&](OpBuilder &then, Location) {
          IRMapping mapping;
          mapping.map(op.getRangeVars(), ivs);
          mapping.map(op.getMapResults(), results);
          mapping.map(op.getIterArgs(), iterValues);
          Block &body = op.getRegion().front();
          for (Operation &inner : body.without_terminator())
            then.clone(inner, mapping);
          SmallVector<Value> yielded;
          for (Value value : body.getTerminator()->getOperands())
            yielded.push_back(mapping.lookupOrDefault(value));
          scf::YieldOp::create(then, loc, yielded);
        },
        [&](OpBuilder &otherwise, Location) {
          scf::YieldOp::create(otherwise, loc, iterValues);
        });
    return SmallVector<Value>(guard.getResults());
  }
};

/// Calls left after inlining (functions with several callers) become
/// ordinary calls.
struct LowerPureCall : OpRewritePattern<xla_gpu::PureCallOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(xla_gpu::PureCallOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::CallOp>(op, op.getCalleeAttr(),
                                              op.getResultTypes(), op.getOperands());
    return success();
  }
};

struct LowerXlaGpuLoopsPass
    : impl::LowerXlaGpuLoopsPassBase<LowerXlaGpuLoopsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerApplyIndexing, LowerLoop, LowerPureCall>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace hlo::pipeline
