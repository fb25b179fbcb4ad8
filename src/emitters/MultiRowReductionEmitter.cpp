//===- MultiRowReductionEmitter.cpp - Several short rows per warp --------===//
//
// Rows whose (power-of-two) length fits in one warp's vectors: each row
// gets d2 / vector consecutive lanes, each lane one vector of the row (and
// the d0 major elements); shuffles within those lanes reduce the row, and
// its first lane writes. No shared memory, no barrier.
//
//===----------------------------------------------------------------------===//
#include "emitters/ReductionEmitter.h"

using namespace mlir;

namespace hlo {

IndexingMap MultiRowReductionEmitter::threadIdToInputIndexing(MLIRContext *context) const {
  const ReductionTiling &t = tiling();
  const auto &d = t.dimensions.dimensions;
  auto [kept, reduced] = threadIds(context);
  AffineExpr row = blockIds(context)[0] * t.threads[0] + kept;
  AffineExpr major = getAffineSymbolExpr(0, context);
  AffineExpr vector = getAffineSymbolExpr(1, context);
  return reductionMap({major, row, reduced * t.vectorSize + vector}, {d[0], t.vectorSize},
                      {{row, Interval{0, d[1] - 1}}}, context);
}

IndexingMap MultiRowReductionEmitter::threadIdToReducedIndexing(MLIRContext *context) const {
  return keptRowReducedIndexing(context);
}

SmallVector<Value> MultiRowReductionEmitter::emitCrossThreadReduction(GroupEmission &group) {
  HeroValues reduced = shuffleReduce(group, group.accumulators, tiling().shuffleDistance);
  return evaluateEpilogues(group, reduced, group.outputs, {});
}

} // namespace hlo
