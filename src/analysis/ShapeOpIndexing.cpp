//===- ShapeOpIndexing.cpp - Elementwise and index-permuting ops ----------===//
//
// Elementwise ops (incl. compare, select, clamp, convert, bitcast-convert),
// broadcast, transpose, reverse, slice, concatenate, pad, copy, map, tuple,
// get-tuple-element, and the operand-less iota / constant / parameter.
//
//===----------------------------------------------------------------------===//
#include "analysis/OpIndexingUtils.h"
#include "hlo_parser/OpAttributes.h"

using namespace mlir;

namespace hlo {
namespace {

IndexingMap identityMap(const std::vector<int64_t> &dims, MLIRContext *context) {
  return IndexingMap::identity(dims, context);
}

std::vector<AffineExpr> dimExprs(int64_t count, MLIRContext *context) {
  std::vector<AffineExpr> exprs;
  for (int64_t i = 0; i < count; ++i)
    exprs.push_back(getAffineDimExpr(i, context));
  return exprs;
}

/// bitcast-convert between widths adds (narrowing) or drops (widening) a
/// minor dimension.
IndexingMap bitcastConvertMap(const Shape &from, const Shape &to,
                              MLIRContext *context) {
  std::vector<int64_t> fromDims = dimsOf(from), toDims = dimsOf(to);
  std::vector<AffineExpr> results = dimExprs(toDims.size(), context);
  if (fromDims.size() == toDims.size())
    return makeMap(fromDims, {}, {}, results, context);
  if (fromDims.size() > toDims.size()) // to has fewer dims: drop the minor
    return makeMap(fromDims, {}, {}, results, context);
  // to has one more (minor) dim: it spans all of it.
  results.back() = getAffineSymbolExpr(0, context);
  return makeMap(fromDims, {toDims.back()}, {}, results, context);
}

bool padOutputToInput(const HloInstruction &inst, MLIRContext *context,
                      IndexingMapSets &maps) {
  const Shape &output = inst.shape();
  const Shape &input = inst.operand(0)->shape();
  const auto &padding = paddingOf(inst);
  std::vector<AffineExpr> results;
  std::vector<IndexingVar> dims;
  std::vector<IndexingConstraint> constraints;
  for (int64_t d = 0; d < output.rank(); ++d) {
    const PaddingDimension &pad = padding[d];
    int64_t step = pad.interior + 1;
    AffineExpr dim = getAffineDimExpr(d, context);
    int64_t last = pad.low + (input.dimension(d) - 1) * step;
    dims.push_back({Interval{std::max<int64_t>(pad.low, 0),
                             std::min(last, output.dimension(d) - 1)},
                    ""});
    results.push_back(step == 1 ? dim - pad.low : (dim - pad.low).floorDiv(step));
    if (step > 1)
      constraints.push_back({(dim - pad.low) % step, Interval{0, 0}});
  }
  maps[0].push_back(finalize(IndexingMap(
      AffineMap::get(output.rank(), 0, results, context), std::move(dims), {},
      {}, std::move(constraints))));
  maps[1].push_back(scalarMap(dimsOf(output), context));
  return true;
}

bool padInputToOutput(const HloInstruction &inst, int64_t operandIndex,
                      MLIRContext *context, IndexingMapSets &maps) {
  const Shape &output = inst.shape();
  if (operandIndex == 1) {
    maps[0].push_back(allElementsMap({}, dimsOf(output), context));
    return true;
  }
  const Shape &input = inst.operand(0)->shape();
  const auto &padding = paddingOf(inst);
  std::vector<AffineExpr> results;
  IndexingMap map = makeMap(dimsOf(input), {}, {}, {}, context);
  for (int64_t d = 0; d < input.rank(); ++d)
    results.push_back(getAffineDimExpr(d, context) * (padding[d].interior + 1) +
                      padding[d].low);
  IndexingMap result = makeMap(dimsOf(input), {}, {}, results, context);
  // Negative padding drops input elements.
  for (int64_t d = 0; d < input.rank(); ++d)
    result.addConstraint(results[d], Interval{0, output.dimension(d) - 1});
  maps[0].push_back(finalize(result));
  return true;
}

} // namespace

bool shapeOpOutputToInput(const HloInstruction &inst, int64_t outputIndex,
                          MLIRContext *context, IndexingMapSets &maps) {
  const Shape &output = outputShape(inst, outputIndex);
  std::vector<int64_t> outDims = dimsOf(output);
  HloOpcode opcode = inst.opcode();
  switch (opcode) {
  case HloOpcode::Parameter:
  case HloOpcode::Constant:
  case HloOpcode::Iota:
    return true; // no operands
  case HloOpcode::Broadcast: {
    std::vector<AffineExpr> results;
    for (int64_t dim : inst.dimensions())
      results.push_back(getAffineDimExpr(dim, context));
    maps[0].push_back(makeMap(outDims, {}, {}, results, context));
    return true;
  }
  case HloOpcode::Transpose: {
    // output[i] = input[perm[i]]: input dim perm[i] reads output dim i.
    const auto &perm = inst.dimensions();
    std::vector<AffineExpr> results(perm.size());
    for (size_t i = 0; i < perm.size(); ++i)
      results[perm[i]] = getAffineDimExpr(i, context);
    maps[0].push_back(makeMap(outDims, {}, {}, results, context));
    return true;
  }
  case HloOpcode::Reverse: {
    std::vector<AffineExpr> results = dimExprs(outDims.size(), context);
    for (int64_t dim : inst.dimensions())
      results[dim] = -results[dim] + (outDims[dim] - 1);
    maps[0].push_back(makeMap(outDims, {}, {}, results, context));
    return true;
  }
  case HloOpcode::Slice: {
    const auto &slices = sliceRangesOf(inst);
    std::vector<AffineExpr> results;
    for (size_t d = 0; d < slices.size(); ++d)
      results.push_back(getAffineDimExpr(d, context) * slices[d].stride +
                        slices[d].start);
    maps[0].push_back(makeMap(outDims, {}, {}, results, context));
    return true;
  }
  case HloOpcode::Concatenate: {
    int64_t dim = inst.dimensions()[0];
    int64_t offset = 0;
    for (int64_t i = 0; i < inst.operandCount(); ++i) {
      const Shape &operand = inst.operand(i)->shape();
      std::vector<AffineExpr> results = dimExprs(outDims.size(), context);
      results[dim] = results[dim] - offset;
      IndexingMap map = makeMap(outDims, {}, {}, results, context);
      map.mutableDimVars()[dim].bounds = {offset,
                                          offset + operand.dimension(dim) - 1};
      maps[i].push_back(finalize(map));
      offset += operand.dimension(dim);
    }
    return true;
  }
  case HloOpcode::Pad:
    return padOutputToInput(inst, context, maps);
  case HloOpcode::Tuple:
    maps[outputIndex].push_back(identityMap(outDims, context));
    return true;
  case HloOpcode::GetTupleElement:
  case HloOpcode::Copy:
  case HloOpcode::OptimizationBarrier:
    maps[0].push_back(identityMap(outDims, context));
    return true;
  case HloOpcode::Map:
    for (int64_t i = 0; i < inst.operandCount(); ++i)
      maps[i].push_back(identityMap(outDims, context));
    return true;
  case HloOpcode::BitcastConvert:
    maps[0].push_back(
        bitcastConvertMap(output, inst.operand(0)->shape(), context));
    return true;
  default:
    break;
  }
  if (!isElementwiseOpcode(opcode))
    return false;
  for (int64_t i = 0; i < inst.operandCount(); ++i) {
    const Shape &operand = inst.operand(i)->shape();
    if (operand.rank() == 0 && output.rank() > 0)
      maps[i].push_back(scalarMap(outDims, context)); // clamp's bounds
    else
      maps[i].push_back(identityMap(outDims, context));
  }
  return true;
}

bool shapeOpInputToOutput(const HloInstruction &inst, int64_t operandIndex,
                          MLIRContext *context, IndexingMapSets &maps) {
  const Shape &input = inst.operand(operandIndex)->shape();
  std::vector<int64_t> inDims = dimsOf(input);
  const Shape &output = outputShape(inst, 0);
  std::vector<int64_t> outDims = dimsOf(output);
  switch (inst.opcode()) {
  case HloOpcode::Broadcast: {
    // Output dims the operand does not have become range variables.
    const auto &dims = inst.dimensions();
    std::vector<AffineExpr> results;
    std::vector<int64_t> rangeSizes;
    for (int64_t d = 0; d < output.rank(); ++d) {
      auto it = std::find(dims.begin(), dims.end(), d);
      if (it != dims.end()) {
        results.push_back(getAffineDimExpr(it - dims.begin(), context));
      } else {
        results.push_back(getAffineSymbolExpr(rangeSizes.size(), context));
        rangeSizes.push_back(output.dimension(d));
      }
    }
    maps[0].push_back(makeMap(inDims, rangeSizes, {}, results, context));
    return true;
  }
  case HloOpcode::Transpose: {
    const auto &perm = inst.dimensions();
    std::vector<AffineExpr> results;
    for (int64_t p : perm)
      results.push_back(getAffineDimExpr(p, context));
    maps[0].push_back(makeMap(inDims, {}, {}, results, context));
    return true;
  }
  case HloOpcode::Reverse: {
    std::vector<AffineExpr> results = dimExprs(inDims.size(), context);
    for (int64_t dim : inst.dimensions())
      results[dim] = -results[dim] + (inDims[dim] - 1);
    maps[0].push_back(makeMap(inDims, {}, {}, results, context));
    return true;
  }
  case HloOpcode::Slice: {
    const auto &slices = sliceRangesOf(inst);
    std::vector<AffineExpr> results;
    std::vector<IndexingVar> dims;
    std::vector<IndexingConstraint> constraints;
    for (size_t d = 0; d < slices.size(); ++d) {
      const SliceRange &range = slices[d];
      AffineExpr dim = getAffineDimExpr(d, context);
      int64_t last = range.start + (output.dimension(d) - 1) * range.stride;
      dims.push_back({Interval{range.start, last}, ""});
      if (range.stride == 1) {
        results.push_back(dim - range.start);
      } else {
        results.push_back((dim - range.start).floorDiv(range.stride));
        constraints.push_back({(dim - range.start) % range.stride, Interval{0, 0}});
      }
    }
    maps[0].push_back(IndexingMap(
        AffineMap::get(inDims.size(), 0, results, context), std::move(dims),
        {}, {}, std::move(constraints)));
    return true;
  }
  case HloOpcode::Concatenate: {
    int64_t dim = inst.dimensions()[0];
    int64_t offset = 0;
    for (int64_t i = 0; i < operandIndex; ++i)
      offset += inst.operand(i)->shape().dimension(dim);
    std::vector<AffineExpr> results = dimExprs(inDims.size(), context);
    results[dim] = results[dim] + offset;
    maps[0].push_back(makeMap(inDims, {}, {}, results, context));
    return true;
  }
  case HloOpcode::Pad:
    return padInputToOutput(inst, operandIndex, context, maps);
  case HloOpcode::Tuple:
    maps[operandIndex].push_back(IndexingMap::identity(inDims, context));
    return true;
  case HloOpcode::GetTupleElement:
  case HloOpcode::Copy:
  case HloOpcode::OptimizationBarrier:
    maps[0].push_back(IndexingMap::identity(outDims, context));
    return true;
  case HloOpcode::Map:
    maps[0].push_back(IndexingMap::identity(inDims, context));
    return true;
  case HloOpcode::BitcastConvert:
    maps[0].push_back(bitcastConvertMap(input, output, context));
    return true;
  default:
    break;
  }
  if (!isElementwiseOpcode(inst.opcode()))
    return false;
  if (input.rank() == 0 && output.rank() > 0)
    maps[0].push_back(allElementsMap({}, outDims, context));
  else
    maps[0].push_back(IndexingMap::identity(inDims, context));
  return true;
}

} // namespace hlo
