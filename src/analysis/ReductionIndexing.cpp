//===- ReductionIndexing.cpp - Reduce, reduce-window, dot -----------------===//
//
// Ops whose output element reads a range of input elements: the range
// becomes range variables (s). Reduce-window is a window over the padded
// input, composed with pad's indexing.
//
//===----------------------------------------------------------------------===//
#include "analysis/OpIndexingUtils.h"
#include "hlo_parser/OpAttributes.h"

#include <algorithm>

using namespace mlir;

namespace hlo {
namespace {

bool contains(const std::vector<int64_t> &values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

void reduceOutputToInput(const HloInstruction &inst, int64_t outputIndex,
                         MLIRContext *context, IndexingMapSets &maps) {
  int64_t inputs = inst.operandCount() / 2;
  const Shape &input = inst.operand(0)->shape();
  std::vector<int64_t> outDims = dimsOf(outputShape(inst, outputIndex));
  const auto &reduced = inst.dimensions();
  std::vector<int64_t> sortedReduced = reduced;
  std::sort(sortedReduced.begin(), sortedReduced.end());
  std::vector<AffineExpr> results;
  std::vector<int64_t> rangeSizes;
  int64_t kept = 0;
  for (int64_t d = 0; d < input.rank(); ++d) {
    if (contains(sortedReduced, d)) {
      results.push_back(getAffineSymbolExpr(rangeSizes.size(), context));
      rangeSizes.push_back(input.dimension(d));
    } else {
      results.push_back(getAffineDimExpr(kept++, context));
    }
  }
  IndexingMap inputMap = makeMap(outDims, rangeSizes, {}, results, context);
  for (int64_t i = 0; i < inputs; ++i) {
    maps[i].push_back(inputMap);
    maps[inputs + i].push_back(scalarMap(outDims, context));
  }
}

void reduceInputToOutput(const HloInstruction &inst, int64_t operandIndex,
                         MLIRContext *context, IndexingMapSets &maps) {
  int64_t inputs = inst.operandCount() / 2;
  const Shape &input = inst.operand(0)->shape();
  std::vector<int64_t> outDims = dimsOf(outputShape(inst, 0));
  IndexingMap map;
  if (operandIndex >= inputs) {
    map = allElementsMap({}, outDims, context);
  } else {
    std::vector<AffineExpr> results;
    for (int64_t d = 0; d < input.rank(); ++d)
      if (!contains(inst.dimensions(), d))
        results.push_back(getAffineDimExpr(d, context));
    map = makeMap(dimsOf(input), {}, {}, results, context);
  }
  for (auto &outputMaps : maps)
    outputMaps.push_back(map);
}

/// The window over the padded input; padding composed in afterwards.
void reduceWindowOutputToInput(const HloInstruction &inst, int64_t outputIndex,
                               MLIRContext *context, IndexingMapSets &maps) {
  int64_t inputs = inst.operandCount() / 2;
  const Shape &input = inst.operand(0)->shape();
  std::vector<int64_t> outDims = dimsOf(outputShape(inst, outputIndex));
  const std::vector<WindowDimension> &window = windowOf(inst);
  std::vector<AffineExpr> windowResults;
  std::vector<int64_t> rangeSizes;
  std::vector<int64_t> paddedDims;
  std::vector<AffineExpr> padResults;
  std::vector<IndexingVar> padVars;
  std::vector<IndexingConstraint> padConstraints;
  for (int64_t d = 0; d < input.rank(); ++d) {
    WindowDimension w = d < static_cast<int64_t>(window.size()) ? window[d]
                                                                : WindowDimension();
    AffineExpr index = getAffineDimExpr(d, context) * w.stride;
    if (w.size > 1) {
      index = index + getAffineSymbolExpr(rangeSizes.size(), context) *
                          w.windowDilation;
      rangeSizes.push_back(w.size);
    }
    windowResults.push_back(index);
    // Padded (and base-dilated) input -> input, like pad's indexing.
    int64_t step = w.baseDilation;
    int64_t padded = w.padLow + w.padHigh + (input.dimension(d) - 1) * step + 1;
    paddedDims.push_back(padded);
    AffineExpr p = getAffineDimExpr(d, context);
    padResults.push_back(step == 1 ? p - w.padLow : (p - w.padLow).floorDiv(step));
    padVars.push_back({Interval{std::max<int64_t>(w.padLow, 0),
                                std::min(padded - 1,
                                         w.padLow + (input.dimension(d) - 1) * step)},
                       ""});
    if (step > 1)
      padConstraints.push_back({(p - w.padLow) % step, Interval{0, 0}});
  }
  IndexingMap windowMap = makeMap(outDims, rangeSizes, {}, windowResults, context);
  IndexingMap padMap(AffineMap::get(input.rank(), 0, padResults, context),
                     std::move(padVars), {}, {}, std::move(padConstraints));
  IndexingMap inputMap = finalize(composeIndexingMaps(windowMap, padMap));
  for (int64_t i = 0; i < inputs; ++i) {
    maps[i].push_back(inputMap);
    maps[inputs + i].push_back(scalarMap(outDims, context));
  }
}

/// An input element reaches every window that covers it: a range variable
/// walks the window positions; strides and output bounds are constraints.
void reduceWindowInputToOutput(const HloInstruction &inst, int64_t operandIndex,
                               MLIRContext *context, IndexingMapSets &maps) {
  int64_t inputs = inst.operandCount() / 2;
  std::vector<int64_t> outDims = dimsOf(outputShape(inst, 0));
  if (operandIndex >= inputs) {
    for (auto &outputMaps : maps)
      outputMaps.push_back(allElementsMap({}, outDims, context));
    return;
  }
  const Shape &input = inst.operand(0)->shape();
  const std::vector<WindowDimension> &window = windowOf(inst);
  std::vector<AffineExpr> results, positions;
  std::vector<int64_t> rangeSizes;
  for (int64_t d = 0; d < input.rank(); ++d) {
    WindowDimension w = d < static_cast<int64_t>(window.size()) ? window[d]
                                                                : WindowDimension();
    AffineExpr position =
        getAffineDimExpr(d, context) * w.baseDilation + w.padLow;
    if (w.size > 1) {
      position = position - getAffineSymbolExpr(rangeSizes.size(), context) *
                                w.windowDilation;
      rangeSizes.push_back(w.size);
    }
    positions.push_back(position);
    results.push_back(w.stride == 1 ? position : position.floorDiv(w.stride));
  }
  IndexingMap map = makeMap(dimsOf(input), rangeSizes, {}, results, context);
  for (int64_t d = 0; d < input.rank(); ++d) {
    WindowDimension w = d < static_cast<int64_t>(window.size()) ? window[d]
                                                                : WindowDimension();
    if (w.stride > 1)
      map.addConstraint(positions[d] % w.stride, Interval{0, 0});
    map.addConstraint(results[d], Interval{0, outDims[d] - 1});
  }
  IndexingMap finalized = finalize(map);
  for (auto &outputMaps : maps)
    outputMaps.push_back(finalized);
}

/// The dot's dimension numbers and each operand's free dims.
struct DotDims : DotDimensionNumbers {
  std::vector<int64_t> lhsFree, rhsFree;
};

DotDims dotDims(const HloInstruction &inst) {
  DotDims dims;
  static_cast<DotDimensionNumbers &>(dims) = dotDimensionNumbers(inst);
  for (int64_t d = 0; d < inst.operand(0)->shape().rank(); ++d)
    if (!contains(dims.lhsBatch, d) && !contains(dims.lhsContracting, d))
      dims.lhsFree.push_back(d);
  for (int64_t d = 0; d < inst.operand(1)->shape().rank(); ++d)
    if (!contains(dims.rhsBatch, d) && !contains(dims.rhsContracting, d))
      dims.rhsFree.push_back(d);
  return dims;
}

void dotOutputToInput(const HloInstruction &inst, MLIRContext *context,
                      IndexingMapSets &maps) {
  DotDims dims = dotDims(inst);
  std::vector<int64_t> outDims = dimsOf(inst.shape());
  std::vector<int64_t> contractingSizes;
  for (int64_t d : dims.lhsContracting)
    contractingSizes.push_back(inst.operand(0)->shape().dimension(d));
  auto operandMap = [&](int64_t operand, const std::vector<int64_t> &batch,
                        const std::vector<int64_t> &contracting,
                        const std::vector<int64_t> &free, int64_t freeOffset) {
    std::vector<AffineExpr> results(inst.operand(operand)->shape().rank());
    for (size_t i = 0; i < batch.size(); ++i)
      results[batch[i]] = getAffineDimExpr(i, context);
    for (size_t i = 0; i < contracting.size(); ++i)
      results[contracting[i]] = getAffineSymbolExpr(i, context);
    for (size_t i = 0; i < free.size(); ++i)
      results[free[i]] = getAffineDimExpr(freeOffset + i, context);
    return makeMap(outDims, contractingSizes, {}, results, context);
  };
  int64_t batch = dims.lhsBatch.size();
  maps[0].push_back(operandMap(0, dims.lhsBatch, dims.lhsContracting,
                               dims.lhsFree, batch));
  maps[1].push_back(operandMap(1, dims.rhsBatch, dims.rhsContracting,
                               dims.rhsFree, batch + dims.lhsFree.size()));
}

void dotInputToOutput(const HloInstruction &inst, int64_t operandIndex,
                      MLIRContext *context, IndexingMapSets &maps) {
  DotDims dims = dotDims(inst);
  const Shape &operand = inst.operand(operandIndex)->shape();
  const auto &batch = operandIndex == 0 ? dims.lhsBatch : dims.rhsBatch;
  const auto &free = operandIndex == 0 ? dims.lhsFree : dims.rhsFree;
  const auto &otherFree = operandIndex == 0 ? dims.rhsFree : dims.lhsFree;
  const Shape &other = inst.operand(1 - operandIndex)->shape();
  std::vector<AffineExpr> results;
  std::vector<int64_t> rangeSizes;
  for (int64_t d : batch)
    results.push_back(getAffineDimExpr(d, context));
  auto addFree = [&](bool mine) {
    if (mine) {
      for (int64_t d : free)
        results.push_back(getAffineDimExpr(d, context));
    } else {
      for (int64_t d : otherFree) {
        results.push_back(getAffineSymbolExpr(rangeSizes.size(), context));
        rangeSizes.push_back(other.dimension(d));
      }
    }
  };
  addFree(operandIndex == 0); // lhs free dims come first in the output
  addFree(operandIndex == 1);
  maps[0].push_back(makeMap(dimsOf(operand), rangeSizes, {}, results, context));
}

} // namespace

llvm::Error reductionOutputToInput(const HloInstruction &inst, int64_t outputIndex,
                                   MLIRContext *context, IndexingMapSets &maps) {
  switch (inst.opcode()) {
  case HloOpcode::Reduce:
    reduceOutputToInput(inst, outputIndex, context, maps);
    break;
  case HloOpcode::ReduceWindow:
    reduceWindowOutputToInput(inst, outputIndex, context, maps);
    break;
  default:
    dotOutputToInput(inst, context, maps);
    break;
  }
  return llvm::Error::success();
}

llvm::Error reductionInputToOutput(const HloInstruction &inst, int64_t operandIndex,
                                   MLIRContext *context, IndexingMapSets &maps) {
  switch (inst.opcode()) {
  case HloOpcode::Reduce:
    reduceInputToOutput(inst, operandIndex, context, maps);
    break;
  case HloOpcode::ReduceWindow:
    reduceWindowInputToOutput(inst, operandIndex, context, maps);
    break;
  default:
    dotInputToOutput(inst, operandIndex, context, maps);
    break;
  }
  return llvm::Error::success();
}

} // namespace hlo
