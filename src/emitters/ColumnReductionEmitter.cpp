//===- ColumnReductionEmitter.cpp - Reductions of columns -----------------===//
//
// Column reductions ([major kept d0, reduced d1, minor kept d2]): a block
// of 32 warps covers 32 * vector columns of one d0 slice; lane l reads
// columns (32 * block + l) * vector + [0, vector) of rows w, w + 32, ...
// for warp w, one accumulator per vector element. The tile [32][32 * vector
// + 1] is written transposed (lane, warp) and read back (warp, lane), so
// each warp holds one column's 32 partial sums across its lanes; shuffles
// reduce them and lane 0 writes.
//
//===----------------------------------------------------------------------===//
#include "emitters/ReductionEmitter.h"

using namespace mlir;

namespace hlo {

IndexingMap ColumnReductionEmitter::threadIdToInputIndexing(MLIRContext *context) const {
  const ReductionTiling &t = tiling();
  const auto &d = t.dimensions.dimensions;
  auto [warp, lane] = threadIds(context);
  auto [slice, columnBlock] = blockIds(context);
  AffineExpr element = getAffineSymbolExpr(0, context);
  AffineExpr vector = getAffineSymbolExpr(1, context);
  AffineExpr row = warp + element * t.threads[1];
  AffineExpr columnVector = columnBlock * t.threads[1] + lane;
  return reductionMap({slice, row, columnVector * t.vectorSize + vector},
                      {t.tilePerThread, t.vectorSize},
                      {{row, Interval{0, d[1] - 1}},
                       {columnVector, Interval{0, d[2] / t.vectorSize - 1}}},
                      context);
}

IndexingMap ColumnReductionEmitter::threadIdToReducedIndexing(MLIRContext *context) const {
  const ReductionTiling &t = tiling();
  auto [warp, lane] = threadIds(context);
  auto [slice, columnBlock] = blockIds(context);
  AffineExpr vector = getAffineSymbolExpr(0, context);
  AffineExpr columnVector = columnBlock * t.threads[1] + warp;
  return reductionMap({slice, columnVector * t.vectorSize + vector}, {t.vectorSize},
                      {{lane, Interval{0, 0}},
                       {columnVector,
                        Interval{0, t.dimensions.dimensions[2] / t.vectorSize - 1}}},
                      context);
}

SmallVector<Value> ColumnReductionEmitter::emitCrossThreadReduction(GroupEmission &group) {
  MLIRContext *context = group.context.b.getContext();
  const ReductionTiling &t = tiling();
  auto [warp, lane] = threadIds(context);
  AffineExpr vector = getAffineSymbolExpr(0, context);
  IndexingMap writeMap =
      reductionMap({lane, warp * t.vectorSize + vector}, {t.vectorSize}, {}, context);
  IndexingMap readMap =
      reductionMap({warp, lane * t.vectorSize + vector}, {t.vectorSize}, {}, context);
  return reduceThroughSharedMemory(group, group.accumulators, writeMap, readMap,
                                   t.shuffleDistance);
}

} // namespace hlo
