//===- GatherScatterOps.cpp - gather and scatter --------------------------===//
//
// gather and (variadic) scatter with the dimension numbers of the StableHLO batching-dims RFC,
// batching dimensions included. gather clamps each slice's start so the
// slice fits; scatter skips an update window that does not fit entirely
// (as XLA's GPU scatter does) and applies updates in row-major order of the
// updates.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"
#include "ScalarFunction.h"
#include "hlo_parser/OpAttributes.h"

#include <algorithm>

namespace hlo::interp {
namespace {

bool contains(const std::vector<int64_t> &list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

/// Reads start/batch indices out of the indices array.
struct IndexReader {
  IndexReader(const Literal &indices, int64_t indexVectorDim)
      : indices(indices), indexVectorDim(indexVectorDim),
        strides(rowMajorStrides(indices.shape().dimensions())) {}

  /// Component `k` of the index vector at batch position `batch` (the
  /// indices dimensions other than index_vector_dim, in order).
  int64_t component(const std::vector<int64_t> &batch, int64_t k) const {
    int64_t linear = 0;
    size_t b = 0;
    for (int64_t d = 0; d < indices.shape().rank(); ++d)
      linear += strides[d] * (d == indexVectorDim ? k : batch[b++]);
    return indexValue(indices, linear);
  }
  /// Position in `batch` of indices dimension `dim`.
  size_t batchPosition(int64_t dim) const {
    return static_cast<size_t>(dim < indexVectorDim ? dim : dim - 1);
  }

  const Literal &indices;
  int64_t indexVectorDim;
  std::vector<int64_t> strides;
};

} // namespace

Literal evaluateGather(const HloInstruction &instruction, const Operands &operands) {
  const Literal &operand = *operands[0], &indices = *operands[1];
  GatherDimensionNumbers numbers = gatherDimensionNumbers(instruction);
  const std::vector<int64_t> &offsetDims = numbers.offsetDims;
  const std::vector<int64_t> &collapsed = numbers.collapsedSliceDims;
  const std::vector<int64_t> &startIndexMap = numbers.startIndexMap;
  const std::vector<int64_t> &sliceSizes = numbers.sliceSizes;
  const std::vector<int64_t> &operandBatching = numbers.operandBatchingDims;
  const std::vector<int64_t> &indicesBatching =
      numbers.startIndicesBatchingDims;
  IndexReader reader(indices, numbers.indexVectorDim);
  const std::vector<int64_t> &operandDims = operand.shape().dimensions();
  std::vector<int64_t> operandStrides = rowMajorStrides(operandDims);
  // Operand dimensions that the offset dimensions walk, in order.
  std::vector<int64_t> windowOperandDims;
  for (int64_t d = 0; d < operand.shape().rank(); ++d)
    if (!contains(collapsed, d) && !contains(operandBatching, d))
      windowOperandDims.push_back(d);

  Literal result(instruction.shape());
  std::vector<int64_t> batch, source(operandDims.size());
  forEachIndex(instruction.shape().dimensions(), [&](const std::vector<int64_t> &out, int64_t linear) {
    batch.clear();
    for (int64_t d = 0; d < static_cast<int64_t>(out.size()); ++d)
      if (!contains(offsetDims, d))
        batch.push_back(out[d]);
    std::fill(source.begin(), source.end(), 0);
    for (size_t k = 0; k < startIndexMap.size(); ++k) {
      int64_t d = startIndexMap[k];
      source[d] = std::clamp<int64_t>(reader.component(batch, static_cast<int64_t>(k)), 0,
                                      operandDims[d] - sliceSizes[d]);
    }
    for (size_t i = 0; i < operandBatching.size(); ++i)
      source[operandBatching[i]] = batch[reader.batchPosition(indicesBatching[i])];
    for (size_t j = 0; j < offsetDims.size(); ++j)
      source[windowOperandDims[j]] += out[offsetDims[j]];
    copyElement(result, linear, operand, linearIndex(source, operandStrides));
  });
  return result;
}

Literal evaluateScatter(const HloInstruction &instruction, const Operands &operands,
                        Evaluator &evaluator) {
  size_t arrays = (operands.size() - 1) / 2;
  const Literal &indices = *operands[arrays];
  ScatterDimensionNumbers numbers = scatterDimensionNumbers(instruction);
  const std::vector<int64_t> &updateWindowDims = numbers.updateWindowDims;
  const std::vector<int64_t> &inserted = numbers.insertedWindowDims;
  const std::vector<int64_t> &toOperand =
      numbers.scatterDimsToOperandDims;
  const std::vector<int64_t> &inputBatching = numbers.inputBatchingDims;
  const std::vector<int64_t> &indicesBatching =
      numbers.scatterIndicesBatchingDims;
  IndexReader reader(indices, numbers.indexVectorDim);
  ScalarFunction combiner(*toApply(instruction), evaluator);

  std::vector<Literal> results;
  for (size_t k = 0; k < arrays; ++k)
    results.push_back(*operands[k]);
  const std::vector<int64_t> &operandDims = operands[0]->shape().dimensions();
  std::vector<int64_t> operandStrides = rowMajorStrides(operandDims);
  const Literal &firstUpdate = *operands[arrays + 1];
  std::vector<int64_t> windowOperandDims;
  for (int64_t d = 0; d < static_cast<int64_t>(operandDims.size()); ++d)
    if (!contains(inserted, d) && !contains(inputBatching, d))
      windowOperandDims.push_back(d);
  std::vector<int64_t> windowSize(operandDims.size(), 1);
  for (size_t j = 0; j < updateWindowDims.size(); ++j)
    windowSize[windowOperandDims[j]] = firstUpdate.shape().dimension(updateWindowDims[j]);

  std::vector<int64_t> batch, target(operandDims.size());
  std::vector<Scalar> arguments(2 * arrays);
  forEachIndex(firstUpdate.shape().dimensions(), [&](const std::vector<int64_t> &update, int64_t updateLinear) {
    batch.clear();
    for (int64_t d = 0; d < static_cast<int64_t>(update.size()); ++d)
      if (!contains(updateWindowDims, d))
        batch.push_back(update[d]);
    std::fill(target.begin(), target.end(), 0);
    for (size_t k = 0; k < toOperand.size(); ++k)
      target[toOperand[k]] = reader.component(batch, static_cast<int64_t>(k));
    for (size_t i = 0; i < inputBatching.size(); ++i)
      target[inputBatching[i]] = batch[reader.batchPosition(indicesBatching[i])];
    for (size_t d = 0; d < operandDims.size(); ++d)
      if (target[d] < 0 || target[d] > operandDims[d] - windowSize[d])
        return; // the window does not fit: skipped (no overflow at INT64_MAX)
    for (size_t j = 0; j < updateWindowDims.size(); ++j)
      target[windowOperandDims[j]] += update[updateWindowDims[j]];
    int64_t linear = linearIndex(target, operandStrides);
    for (size_t k = 0; k < arrays; ++k) {
      arguments[k] = loadScalar(results[k], linear);
      arguments[arrays + k] = loadScalar(*operands[arrays + 1 + k], updateLinear);
    }
    std::vector<Scalar> combined = combiner(arguments);
    for (size_t k = 0; k < arrays; ++k)
      storeScalar(results[k], linear, combined[k]);
  });
  return packLeaves(instruction.shape(), std::move(results));
}

} // namespace hlo::interp
