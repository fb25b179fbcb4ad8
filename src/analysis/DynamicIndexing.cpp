//===- DynamicIndexing.cpp - Dynamic slices, gather and scatter -----------===//
//
// Ops whose offsets are only known at run time: the offsets become runtime
// variables (rt), bounded so that the accessed slice stays in bounds (as
// XLA clamps it). Gather and scatter follow the batching-dims semantics of
// the StableHLO batching-dims RFC (operand_batching_dims / start_indices_batching_dims,
// input_batching_dims / scatter_indices_batching_dims).
//
//===----------------------------------------------------------------------===//
#include "analysis/OpIndexingUtils.h"
#include "hlo_parser/OpAttributes.h"

#include <algorithm>

using namespace mlir;

namespace hlo {
namespace {

int64_t positionOf(const std::vector<int64_t> &values, int64_t value) {
  auto it = std::find(values.begin(), values.end(), value);
  return it == values.end() ? -1 : it - values.begin();
}

/// Operand indices read by a dynamic slice of `sizes` at runtime offsets:
/// (d_i + rt_i), or (d_i - rt_i) for `negate`.
IndexingMap runtimeOffsetMap(const std::vector<int64_t> &fromDims,
                             const std::vector<int64_t> &operandDims,
                             const std::vector<int64_t> &sliceSizes, bool negate,
                             MLIRContext *context) {
  std::vector<AffineExpr> results;
  std::vector<Interval> runtime;
  for (size_t d = 0; d < fromDims.size(); ++d) {
    AffineExpr offset = getAffineSymbolExpr(d, context);
    AffineExpr dim = getAffineDimExpr(d, context);
    results.push_back(negate ? dim - offset : dim + offset);
    runtime.push_back({0, operandDims[d] - sliceSizes[d]});
  }
  return makeMap(fromDims, {}, runtime, results, context);
}

/// Index operands of dynamic-(update-)slice: scalars, or one index vector.
IndexingMap offsetOperandMap(const HloInstruction &inst, int64_t operand,
                             const std::vector<int64_t> &dims,
                             MLIRContext *context) {
  const Shape &shape = inst.operand(operand)->shape();
  if (shape.rank() == 1)
    return makeMap(dims, {shape.dimension(0)}, {},
                   {getAffineSymbolExpr(0, context)}, context);
  return scalarMap(dims, context);
}

struct GatherDims {
  std::vector<int64_t> offsetDims, collapsed, operandBatching, indicesBatching,
      startIndexMap, sliceSizes;
  int64_t indexVectorDim;
  /// Result dims that are not offset dims, in order (they walk the indices'
  /// dims other than index_vector_dim, in order).
  std::vector<int64_t> batchResultDims;
  std::vector<int64_t> indicesBatchDims; // indices dims != index_vector_dim
};

GatherDims gatherDims(const HloInstruction &inst) {
  GatherDims g;
  GatherDimensionNumbers numbers = gatherDimensionNumbers(inst);
  g.offsetDims = numbers.offsetDims;
  g.collapsed = numbers.collapsedSliceDims;
  g.operandBatching = numbers.operandBatchingDims;
  g.indicesBatching = numbers.startIndicesBatchingDims;
  g.startIndexMap = numbers.startIndexMap;
  g.sliceSizes = numbers.sliceSizes;
  g.indexVectorDim = numbers.indexVectorDim;
  for (int64_t d = 0; d < inst.shape().rank(); ++d)
    if (positionOf(g.offsetDims, d) < 0)
      g.batchResultDims.push_back(d);
  for (int64_t d = 0; d < inst.operand(1)->shape().rank(); ++d)
    if (d != g.indexVectorDim)
      g.indicesBatchDims.push_back(d);
  return g;
}

void gatherOutputToInput(const HloInstruction &inst, MLIRContext *context,
                         IndexingMapSets &maps) {
  GatherDims g = gatherDims(inst);
  const Shape &operand = inst.operand(0)->shape();
  const Shape &indices = inst.operand(1)->shape();
  std::vector<int64_t> outDims = dimsOf(inst.shape());
  std::vector<AffineExpr> results;
  std::vector<Interval> runtime(g.startIndexMap.size());
  int64_t window = 0;
  for (int64_t o = 0; o < operand.rank(); ++o) {
    AffineExpr index = getAffineConstantExpr(0, context);
    int64_t start = positionOf(g.startIndexMap, o);
    bool isWindow = positionOf(g.collapsed, o) < 0 &&
                    positionOf(g.operandBatching, o) < 0;
    if (isWindow)
      index = getAffineDimExpr(g.offsetDims[window++], context);
    if (start >= 0) {
      index = index + getAffineSymbolExpr(start, context);
      runtime[start] = {0, operand.dimension(o) - g.sliceSizes[o]};
    }
    if (int64_t batch = positionOf(g.operandBatching, o); batch >= 0) {
      int64_t p = positionOf(g.indicesBatchDims, g.indicesBatching[batch]);
      index = getAffineDimExpr(g.batchResultDims[p], context);
    }
    results.push_back(index);
  }
  maps[0].push_back(makeMap(outDims, {}, runtime, results, context));
  // The indices: the row of the index vector for this batch position.
  std::vector<AffineExpr> indexResults;
  std::vector<int64_t> rangeSizes;
  for (int64_t d = 0; d < indices.rank(); ++d) {
    if (d == g.indexVectorDim) {
      indexResults.push_back(getAffineSymbolExpr(0, context));
      rangeSizes.push_back(indices.dimension(d));
    } else {
      int64_t p = positionOf(g.indicesBatchDims, d);
      indexResults.push_back(getAffineDimExpr(g.batchResultDims[p], context));
    }
  }
  maps[1].push_back(makeMap(outDims, rangeSizes, {}, indexResults, context));
}

void gatherInputToOutput(const HloInstruction &inst, int64_t operandIndex,
                         MLIRContext *context, IndexingMapSets &maps) {
  GatherDims g = gatherDims(inst);
  if (operandIndex == 0) {
    // An operand element is read by every batch position whose window, at
    // its runtime start, covers it.
    const Shape &operand = inst.operand(0)->shape();
    std::vector<AffineExpr> results(inst.shape().rank());
    std::vector<int64_t> rangeSizes;
    std::vector<Interval> runtime(g.startIndexMap.size());
    std::vector<std::pair<AffineExpr, Interval>> constraints;
    for (int64_t p = 0; p < static_cast<int64_t>(g.batchResultDims.size()); ++p) {
      results[g.batchResultDims[p]] =
          getAffineSymbolExpr(rangeSizes.size(), context);
      rangeSizes.push_back(inst.shape().dimension(g.batchResultDims[p]));
    }
    int64_t window = 0;
    for (int64_t o = 0; o < operand.rank(); ++o) {
      AffineExpr index = getAffineDimExpr(o, context);
      if (int64_t start = positionOf(g.startIndexMap, o); start >= 0) {
        index = index - getAffineSymbolExpr(
                            g.batchResultDims.size() + start, context);
        runtime[start] = {0, operand.dimension(o) - g.sliceSizes[o]};
      }
      if (int64_t batch = positionOf(g.operandBatching, o); batch >= 0) {
        int64_t p = positionOf(g.indicesBatchDims, g.indicesBatching[batch]);
        results[g.batchResultDims[p]] = getAffineDimExpr(o, context);
        continue;
      }
      if (positionOf(g.collapsed, o) >= 0) {
        constraints.push_back({index, Interval{0, 0}});
        continue;
      }
      results[g.offsetDims[window++]] = index;
      constraints.push_back({index, Interval{0, g.sliceSizes[o] - 1}});
    }
    IndexingMap map =
        makeMap(dimsOf(operand), rangeSizes, runtime, results, context);
    for (const auto &[expr, range] : constraints)
      map.addConstraint(expr, range);
    maps[0].push_back(finalize(map));
    return;
  }
  const Shape &indices = inst.operand(1)->shape();
  std::vector<AffineExpr> results(inst.shape().rank());
  std::vector<int64_t> rangeSizes;
  for (size_t p = 0; p < g.batchResultDims.size(); ++p)
    results[g.batchResultDims[p]] =
        getAffineDimExpr(g.indicesBatchDims[p], context);
  for (int64_t d : g.offsetDims) {
    results[d] = getAffineSymbolExpr(rangeSizes.size(), context);
    rangeSizes.push_back(inst.shape().dimension(d));
  }
  maps[0].push_back(makeMap(dimsOf(indices), rangeSizes, {}, results, context));
}

void scatterInputToOutput(const HloInstruction &inst, int64_t operandIndex,
                          MLIRContext *context, IndexingMapSets &maps) {
  int64_t n = (inst.operandCount() - 1) / 2;
  const Shape &input = inst.operand(0)->shape();
  std::vector<int64_t> outDims = dimsOf(input);
  if (operandIndex < n) {
    maps[operandIndex].push_back(IndexingMap::identity(outDims, context));
    return;
  }
  if (operandIndex == n) {
    for (auto &outputMaps : maps)
      outputMaps.push_back(
          allElementsMap(dimsOf(inst.operand(n)->shape()), outDims, context));
    return;
  }
  const Shape &update = inst.operand(operandIndex)->shape();
  ScatterDimensionNumbers numbers = scatterDimensionNumbers(inst);
  const auto &windowDims = numbers.updateWindowDims;
  const auto &inserted = numbers.insertedWindowDims;
  const auto &inputBatching = numbers.inputBatchingDims;
  const auto &indicesBatching = numbers.scatterIndicesBatchingDims;
  const auto &toOperand = numbers.scatterDimsToOperandDims;
  int64_t indexVectorDim = numbers.indexVectorDim;
  std::vector<int64_t> scatterDims, indicesBatchDims;
  for (int64_t d = 0; d < update.rank(); ++d)
    if (positionOf(windowDims, d) < 0)
      scatterDims.push_back(d);
  for (int64_t d = 0; d < inst.operand(n)->shape().rank(); ++d)
    if (d != indexVectorDim)
      indicesBatchDims.push_back(d);
  std::vector<AffineExpr> results;
  std::vector<Interval> runtime(toOperand.size());
  int64_t window = 0;
  for (int64_t o = 0; o < input.rank(); ++o) {
    AffineExpr index = getAffineConstantExpr(0, context);
    int64_t windowSize = 1;
    if (positionOf(inserted, o) < 0 && positionOf(inputBatching, o) < 0) {
      int64_t updateDim = windowDims[window++];
      index = getAffineDimExpr(updateDim, context);
      windowSize = update.dimension(updateDim);
    }
    if (int64_t start = positionOf(toOperand, o); start >= 0) {
      index = index + getAffineSymbolExpr(start, context);
      runtime[start] = {0, input.dimension(o) - windowSize};
    }
    if (int64_t batch = positionOf(inputBatching, o); batch >= 0) {
      int64_t p = positionOf(indicesBatchDims, indicesBatching[batch]);
      index = getAffineDimExpr(scatterDims[p], context);
    }
    results.push_back(index);
  }
  IndexingMap map = makeMap(dimsOf(update), {}, runtime, results, context);
  for (auto &outputMaps : maps)
    outputMaps.push_back(map);
}

} // namespace

llvm::Error dynamicOpOutputToInput(const HloInstruction &inst, int64_t outputIndex,
                                   MLIRContext *context, IndexingMapSets &maps) {
  std::vector<int64_t> outDims = dimsOf(outputShape(inst, outputIndex));
  switch (inst.opcode()) {
  case HloOpcode::DynamicSlice:
    maps[0].push_back(runtimeOffsetMap(outDims, dimsOf(inst.operand(0)->shape()),
                                       outDims, false, context));
    for (int64_t i = 1; i < inst.operandCount(); ++i)
      maps[i].push_back(offsetOperandMap(inst, i, outDims, context));
    return llvm::Error::success();
  case HloOpcode::DynamicUpdateSlice:
    maps[0].push_back(IndexingMap::identity(outDims, context));
    maps[1].push_back(runtimeOffsetMap(outDims, outDims,
                                       dimsOf(inst.operand(1)->shape()), true,
                                       context));
    for (int64_t i = 2; i < inst.operandCount(); ++i)
      maps[i].push_back(offsetOperandMap(inst, i, outDims, context));
    return llvm::Error::success();
  case HloOpcode::Gather:
    gatherOutputToInput(inst, context, maps);
    return llvm::Error::success();
  case HloOpcode::Scatter: {
    // An output element may receive any update: the indices and updates
    // are read whole; the inputs are read in place (the update computation
    // sees all of them).
    int64_t n = (inst.operandCount() - 1) / 2;
    for (int64_t i = 0; i < n; ++i)
      maps[i].push_back(IndexingMap::identity(outDims, context));
    for (int64_t i = n; i < inst.operandCount(); ++i)
      maps[i].push_back(
          allElementsMap(outDims, dimsOf(inst.operand(i)->shape()), context));
    return llvm::Error::success();
  }
  default:
    return indexingError("no output-to-input indexing rule for " +
                         std::string(opcodeName(inst.opcode())));
  }
}

llvm::Error dynamicOpInputToOutput(const HloInstruction &inst, int64_t operandIndex,
                                   MLIRContext *context, IndexingMapSets &maps) {
  std::vector<int64_t> outDims = dimsOf(outputShape(inst, 0));
  std::vector<int64_t> inDims = dimsOf(inst.operand(operandIndex)->shape());
  switch (inst.opcode()) {
  case HloOpcode::DynamicSlice: {
    if (operandIndex > 0) {
      maps[0].push_back(allElementsMap(inDims, outDims, context));
      return llvm::Error::success();
    }
    IndexingMap map = runtimeOffsetMap(inDims, inDims, outDims, true, context);
    for (size_t d = 0; d < outDims.size(); ++d)
      map.addConstraint(map.getAffineMap().getResult(d),
                        Interval{0, outDims[d] - 1});
    maps[0].push_back(finalize(map));
    return llvm::Error::success();
  }
  case HloOpcode::DynamicUpdateSlice:
    if (operandIndex == 0)
      maps[0].push_back(IndexingMap::identity(outDims, context));
    else if (operandIndex == 1)
      maps[0].push_back(runtimeOffsetMap(inDims, outDims, inDims, false, context));
    else
      maps[0].push_back(allElementsMap(inDims, outDims, context));
    return llvm::Error::success();
  case HloOpcode::Gather:
    gatherInputToOutput(inst, operandIndex, context, maps);
    return llvm::Error::success();
  case HloOpcode::Scatter:
    scatterInputToOutput(inst, operandIndex, context, maps);
    return llvm::Error::success();
  default:
    return indexingError("no input-to-output indexing rule for " +
                         std::string(opcodeName(inst.opcode())));
  }
}

} // namespace hlo
