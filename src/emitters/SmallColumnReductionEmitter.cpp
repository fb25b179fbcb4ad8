//===- SmallColumnReductionEmitter.cpp - Reductions to few columns --------===//
//
// Column reductions with d2 dividing 32: the block's threads walk the d1 *
// d2 elements of one d0 slice linearly, `vector` at a time, so every
// element a thread reads for vector element v belongs to the same column
// ((thread * vector + v) mod d2). The partial sums go to a shared tile
// [rows][d2 + padding] (rows = threads * vector / d2); thread j of the read
// gathers column j / rows from `rows` consecutive lanes, which shuffles
// reduce, and the first of them writes.
//
//===----------------------------------------------------------------------===//
#include "emitters/ReductionEmitter.h"

using namespace mlir;

namespace hlo {

IndexingMap SmallColumnReductionEmitter::threadIdToInputIndexing(MLIRContext *context) const {
  const ReductionTiling &t = tiling();
  const auto &d = t.dimensions.dimensions;
  int64_t threads = t.threads[0];
  AffineExpr thread = threadIdExpr(context);
  AffineExpr slice = blockIds(context)[0];
  AffineExpr step = getAffineSymbolExpr(0, context);
  AffineExpr vector = getAffineSymbolExpr(1, context);
  // In units of vectors, then elements.
  AffineExpr vectorIndex = thread + step * threads;
  AffineExpr linear = vectorIndex * t.vectorSize + vector;
  return reductionMap({slice, linear.floorDiv(d[2]), linear % d[2]},
                      {t.tilePerThread, t.vectorSize},
                      {{vectorIndex, Interval{0, d[1] * d[2] / t.vectorSize - 1}}}, context);
}

IndexingMap SmallColumnReductionEmitter::threadIdToReducedIndexing(MLIRContext *context) const {
  const ReductionTiling &t = tiling();
  AffineExpr thread = threadIdExpr(context);
  AffineExpr vector = getAffineSymbolExpr(0, context);
  return reductionMap({blockIds(context)[0], (thread + vector * t.threads[0]).floorDiv(t.sharedRows)},
                      {t.vectorSize}, {{thread % t.sharedRows, Interval{0, 0}}}, context);
}

SmallVector<Value> SmallColumnReductionEmitter::emitCrossThreadReduction(GroupEmission &group) {
  MLIRContext *context = group.context.b.getContext();
  const ReductionTiling &t = tiling();
  int64_t columns = t.dimensions.dimensions[2];
  AffineExpr thread = threadIdExpr(context);
  AffineExpr vector = getAffineSymbolExpr(0, context);
  AffineExpr written = thread * t.vectorSize + vector;
  IndexingMap writeMap = reductionMap({written.floorDiv(columns), written % columns},
                                      {t.vectorSize}, {}, context);
  AffineExpr read = thread + vector * t.threads[0];
  IndexingMap readMap = reductionMap({read % t.sharedRows, read.floorDiv(t.sharedRows)},
                                     {t.vectorSize}, {}, context);
  return reduceThroughSharedMemory(group, group.accumulators, writeMap, readMap,
                                   t.shuffleDistance);
}

} // namespace hlo
