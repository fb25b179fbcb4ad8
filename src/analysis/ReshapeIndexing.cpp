//===- ReshapeIndexing.cpp - Reshape and bitcast --------------------------===//
//
// A reshape maps an output index to its row-major linear index and back to
// an input index; the simplifier reduces that to the collapse / expand /
// generic forms of XLA's "Indexing Analysis". A bitcast is a transpose to the physical
// (layout) order, a reshape of the physical shapes, and a transpose back.
//
//===----------------------------------------------------------------------===//
#include "analysis/OpIndexingUtils.h"

using namespace mlir;

namespace hlo {

IndexingMap reshapeOutputToInput(const std::vector<int64_t> &inputDims,
                                 const std::vector<int64_t> &outputDims,
                                 MLIRContext *context) {
  // Row-major linear index, major dimensions first (d0 * 8 + d1).
  int64_t stride = 1;
  std::vector<int64_t> strides(outputDims.size());
  for (int64_t d = static_cast<int64_t>(outputDims.size()) - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= outputDims[d];
  }
  AffineExpr linear = getAffineConstantExpr(0, context);
  for (size_t d = 0; d < outputDims.size(); ++d)
    linear = linear + getAffineDimExpr(d, context) * strides[d];
  std::vector<AffineExpr> results;
  int64_t inputStride = 1;
  std::vector<int64_t> inputStrides(inputDims.size());
  for (int64_t d = static_cast<int64_t>(inputDims.size()) - 1; d >= 0; --d) {
    inputStrides[d] = inputStride;
    inputStride *= inputDims[d];
  }
  for (size_t d = 0; d < inputDims.size(); ++d) {
    AffineExpr index = linear.floorDiv(inputStrides[d]);
    results.push_back(d == 0 ? index : index % inputDims[d]);
  }
  return finalize(makeMap(outputDims, {}, {}, results, context));
}

namespace {

/// Logical index -> physical index.
IndexingMap toPhysical(const Shape &shape, MLIRContext *context) {
  std::vector<AffineExpr> results;
  for (int64_t dim : shape.physicalOrder())
    results.push_back(getAffineDimExpr(dim, context));
  return makeMap(dimsOf(shape), {}, {}, results, context);
}

/// Physical index -> logical index.
IndexingMap toLogical(const Shape &shape, MLIRContext *context) {
  std::vector<int64_t> order = shape.physicalOrder();
  std::vector<AffineExpr> results(order.size());
  std::vector<int64_t> physicalDims;
  for (size_t p = 0; p < order.size(); ++p) {
    results[order[p]] = getAffineDimExpr(p, context);
    physicalDims.push_back(shape.dimension(order[p]));
  }
  return makeMap(physicalDims, {}, {}, results, context);
}

std::vector<int64_t> physicalDims(const Shape &shape) {
  std::vector<int64_t> dims;
  for (int64_t dim : shape.physicalOrder())
    dims.push_back(shape.dimension(dim));
  return dims;
}

/// A bitcast's map from `from`'s logical index to `to`'s: to physical
/// order, reshape the physical shapes, back to logical order.
IndexingMap bitcastMap(const Shape &from, const Shape &to,
                       MLIRContext *context) {
  return finalize(composeIndexingMaps(
      composeIndexingMaps(
          toPhysical(from, context),
          reshapeOutputToInput(physicalDims(to), physicalDims(from), context)),
      toLogical(to, context)));
}

} // namespace

IndexingMap bitcastIndexingMap(const Shape &from, const Shape &to, MLIRContext *context) {
  return bitcastMap(from, to, context);
}

namespace {

llvm::Error checkBitcast(const HloInstruction &inst) {
  const Shape &input = inst.operand(0)->shape();
  const Shape &output = inst.shape();
  if ((input.hasLayout() && !input.layout().tiles.empty()) ||
      (output.hasLayout() && !output.layout().tiles.empty())) {
    return indexingError("no indexing rule for bitcast ('" + inst.name() +
                         "') between tiled layouts");
  }
  if (!input.isArray() || !output.isArray() ||
      input.elementCount() != output.elementCount()) {
    return indexingError("no indexing rule for bitcast ('" + inst.name() +
                         "') that changes the element count");
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error reshapeOutputToInputIndexing(const HloInstruction &inst,
                                         MLIRContext *context,
                                         IndexingMapSets &maps) {
  const Shape &input = inst.operand(0)->shape();
  const Shape &output = inst.shape();
  if (inst.opcode() == HloOpcode::Reshape) {
    maps[0].push_back(reshapeOutputToInput(dimsOf(input), dimsOf(output), context));
    return llvm::Error::success();
  }
  if (llvm::Error error = checkBitcast(inst))
    return error;
  maps[0].push_back(bitcastMap(output, input, context));
  return llvm::Error::success();
}

llvm::Error reshapeInputToOutputIndexing(const HloInstruction &inst,
                                         MLIRContext *context,
                                         IndexingMapSets &maps) {
  const Shape &input = inst.operand(0)->shape();
  const Shape &output = inst.shape();
  if (inst.opcode() == HloOpcode::Reshape) {
    maps[0].push_back(reshapeOutputToInput(dimsOf(output), dimsOf(input), context));
    return llvm::Error::success();
  }
  if (llvm::Error error = checkBitcast(inst))
    return error;
  maps[0].push_back(bitcastMap(input, output, context));
  return llvm::Error::success();
}

} // namespace hlo
