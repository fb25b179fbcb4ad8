//===- LowerXlaGpuLoops.cpp - xla_gpu.loop / apply_indexing to scf --------===//
//
// Owns the lowering of the emitters' indexing ops: a loop becomes an
// scf.for nest over the map's range variables; each check of the map's
// domain is an scf.if at the outermost level where its variables are known
// (dimension bounds and constraints on dimensions before the loops, a
// constraint on s0 inside s0's loop, ...), so that an inner loop with no
// check of its own (a vector index) has a plain body; apply_indexing
// becomes arithmetic; pure_calls the inliner kept become func.call.
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

/// The innermost symbol a constraint reads (-1: dimensions only): its
/// check runs inside that symbol's loop and outside the inner ones.
int64_t innermostSymbol(AffineExpr expr) {
  int64_t innermost = -1;
  expr.walk([&](AffineExpr sub) {
    if (auto symbol = dyn_cast<AffineSymbolExpr>(sub))
      innermost = std::max<int64_t>(innermost, symbol.getPosition());
  });
  return innermost;
}

/// Whether the point lies in the map's domain as far as the checks of
/// `level` go: level 0 checks the dimension bounds and the constraints on
/// dimensions alone, level k + 1 the constraints whose innermost symbol is
/// k. Null when there is nothing to check there. Range variables are in
/// bounds by construction of the loops.
Value domainCheck(OpBuilder &b, Location loc, const IndexingMap &map, int64_t level,
                  ValueRange dims, ValueRange symbols) {
  Value inside;
  auto conjoin = [&](Value condition) {
    inside = inside ? Value(arith::AndIOp::create(b, loc, inside, condition)) : condition;
  };
  if (level == 0)
    for (auto [dim, var] : llvm::zip(dims, map.getDimVars()))
      conjoin(inInterval(b, loc, dim, var.bounds));
  for (const IndexingConstraint &constraint : map.getConstraints()) {
    if (innermostSymbol(constraint.expr) != level - 1)
      continue;
    Value value = affine::expandAffineExpr(b, loc, constraint.expr, dims,
                                           symbols.take_front(level));
    conjoin(inInterval(b, loc, value, constraint.range));
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
    ValueRange dims = op.getDims();
    SmallVector<Value> ivs;
    // Builds level `ivs.size()`: its domain checks, then the loop over the
    // next range variable (or, innermost, the body for one point).
    std::function<SmallVector<Value>(OpBuilder &, ValueRange)> build =
        [&](OpBuilder &b, ValueRange iterValues) -> SmallVector<Value> {
      size_t level = ivs.size();
      auto inner = [&](OpBuilder &nested, ValueRange values) -> SmallVector<Value> {
        if (level == map.getRangeVars().size())
          return emitPoint(nested, loc, op, map, ivs, values);
        Interval bounds = map.getRangeVars()[level].bounds;
        auto loop = scf::ForOp::create(
            nested, loc, arith::ConstantIndexOp::create(nested, loc, bounds.lower),
            arith::ConstantIndexOp::create(nested, loc, bounds.upper + 1),
            arith::ConstantIndexOp::create(nested, loc, 1), values,
            [&](OpBuilder &body, Location, Value iv, ValueRange args) {
              ivs.push_back(iv);
              SmallVector<Value> results = build(body, args);
              ivs.pop_back();
              scf::YieldOp::create(body, loc, results);
            });
        return SmallVector<Value>(loop.getResults());
      };
      Value inside = domainCheck(b, loc, map, level, dims, ivs);
      if (!inside)
        return inner(b, iterValues);
      auto guard = scf::IfOp::create(
          b, loc, inside,
          [&](OpBuilder &then, Location) {
            scf::YieldOp::create(then, loc, inner(then, iterValues));
          },
          [&](OpBuilder &otherwise, Location) {
            scf::YieldOp::create(otherwise, loc, iterValues);
          });
      return SmallVector<Value>(guard.getResults());
    };
    rewriter.setInsertionPoint(op);
    rewriter.replaceOp(op, build(rewriter, op.getInits()));
    return success();
  }

  /// The body at one point of the range variables.
  static SmallVector<Value> emitPoint(OpBuilder &b, Location loc,
                                      xla_gpu::LoopOp op, const IndexingMap &map,
                                      ValueRange ivs, ValueRange iterValues) {
    ValueRange dims = op.getDims();
    SmallVector<Value> results = expandResults(b, loc, map, dims, ivs);
    IRMapping mapping;
    mapping.map(op.getRangeVars(), ivs);
    mapping.map(op.getMapResults(), results);
    mapping.map(op.getIterArgs(), iterValues);
    Block &body = op.getRegion().front();
    for (Operation &inner : body.without_terminator())
      b.clone(inner, mapping);
    SmallVector<Value> yielded;
    for (Value value : body.getTerminator()->getOperands())
      yielded.push_back(mapping.lookupOrDefault(value));
    return yielded;
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
    // No folding here: the loops' indices become constants, and folds of
    // what they feed wait for the canonicalizer, before which atan2s of
    // constants are guarded (GuardAtan2Zeros.cpp; fuzz seed 407029:
    // atan2 of two size-1 iotas folded to NaN here).
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
} // namespace hlo::pipeline
