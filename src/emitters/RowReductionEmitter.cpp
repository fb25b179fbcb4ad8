//===- RowReductionEmitter.cpp - Reductions of rows ------------------------===//
//
// Row reductions ([major reduced d0, kept d1, minor reduced d2]): a block
// of {kept, reduced} threads covers `kept` rows; thread (k, r) reads
// vectors r, r + reduced, ... of its row (coalesced across r), folding the
// d0 major elements in too. Warp shuffles reduce each warp's lanes; a row
// that spans several warps meets in a shared tile [kept][warps], which the
// row's first warp reads back and shuffles again. Thread (k, 0) writes.
//
//===----------------------------------------------------------------------===//
#include "emitters/ReductionEmitter.h"

using namespace mlir;

namespace hlo {

std::vector<int64_t> RowReductionEmitter::normalizedInputShape() const {
  const auto &d = tiling().dimensions.dimensions;
  int64_t vector = tiling().vectorSize;
  return {d[0], d[1], d[2] / vector, vector};
}

IndexingMap RowReductionEmitter::threadIdToInputIndexing(MLIRContext *context) const {
  const ReductionTiling &t = tiling();
  const auto &d = t.dimensions.dimensions;
  auto [kept, reduced] = threadIds(context);
  auto [block, minorBlock] = blockIds(context);
  AffineExpr major = getAffineSymbolExpr(0, context);
  AffineExpr minor = getAffineSymbolExpr(1, context);
  AffineExpr vector = getAffineSymbolExpr(2, context);
  AffineExpr row = block * t.threads[0] + kept;
  AffineExpr position =
      minorBlock * (t.tilePerThread * t.threads[1]) + minor * t.threads[1] + reduced;
  return reductionMap({major, row, position, vector},
                      {d[0], t.tilePerThread, t.vectorSize},
                      {{row, Interval{0, d[1] - 1}},
                       {position, Interval{0, d[2] / t.vectorSize - 1}}},
                      context);
}

IndexingMap RowReductionEmitter::threadIdToReducedIndexing(MLIRContext *context) const {
  return keptRowReducedIndexing(context);
}

SmallVector<Value> RowReductionEmitter::emitCrossThreadReduction(GroupEmission &group) {
  MLIRContext *context = group.context.b.getContext();
  const ReductionTiling &t = tiling();
  HeroValues perWarp = shuffleReduce(group, group.accumulators, t.shuffleDistance);
  if (t.warpsPerRow() == 1)
    return evaluateEpilogues(group, perWarp, group.outputs, {});
  // Lane 0 of each warp writes [kept][warp]; the row's first `warps`
  // threads read them back.
  auto [kept, reduced] = threadIds(context);
  IndexingMap writeMap = reductionMap({kept, reduced.floorDiv(32)}, {},
                                      {{reduced % 32, Interval{0, 0}}}, context);
  IndexingMap readMap = reductionMap({kept, reduced % 32}, {},
                                     {{reduced, Interval{0, t.warpsPerRow() - 1}}}, context);
  return reduceThroughSharedMemory(group, perWarp, writeMap, readMap, t.shuffleDistance);
}

} // namespace hlo
