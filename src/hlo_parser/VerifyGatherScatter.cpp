//===- VerifyGatherScatter.cpp - Gather and scatter shape rules -----------===//
//
// Constraints C1-C23 (gather) and C1-C25 (scatter) of the StableHLO
// batching-dims RFC, which HLO's gather/scatter attributes follow.
//
//===----------------------------------------------------------------------===//
#include "OpAttributes.h"
#include "VerifierImpl.h"

namespace hlo {

/// Builds `combine(batchSizes at batchDims, offsetSizes at offsetDims)`.
static std::vector<int64_t> combine(int64_t rank,
                                    const std::vector<int64_t> &offsetDims,
                                    const std::vector<int64_t> &offsetSizes,
                                    const std::vector<int64_t> &batchSizes) {
  std::vector<int64_t> dims(rank, 0);
  size_t offsetIndex = 0, batchIndex = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (contains(offsetDims, d))
      dims[d] = offsetIndex < offsetSizes.size() ? offsetSizes[offsetIndex++] : 0;
    else
      dims[d] = batchIndex < batchSizes.size() ? batchSizes[batchIndex++] : 0;
  }
  return dims;
}

/// Sizes of the indices tensor without index_vector_dim.
static std::vector<int64_t> batchSizesOf(const Shape &indices,
                                         int64_t indexVectorDim) {
  std::vector<int64_t> sizes;
  for (int64_t d = 0; d < indices.rank(); ++d)
    if (d != indexVectorDim)
      sizes.push_back(indices.dimension(d));
  return sizes;
}

bool InstructionChecker::checkGather() {
  if (!expectOperandCount(2) || !expectArrayOperands())
    return false;
  const Shape &operand = operandShape(0);
  const Shape &indices = operandShape(1);
  GatherDimensionNumbers numbers = gatherDimensionNumbers(inst);
  const auto &offsetDims = numbers.offsetDims;
  const auto &collapsed = numbers.collapsedSliceDims;
  const auto &operandBatching = numbers.operandBatchingDims;
  const auto &indicesBatching = numbers.startIndicesBatchingDims;
  const auto &startIndexMap = numbers.startIndexMap;
  const auto &sliceSizes = numbers.sliceSizes;
  int64_t indexVectorDim = numbers.indexVectorDim;
  const int64_t rank = operand.rank();
  const Shape &result = inst.shape();

  if (!isIntegral(indices.elementType()))
    return fail("start_indices must have an integer type");
  if (rank != static_cast<int64_t>(offsetDims.size() + collapsed.size() +
                                   operandBatching.size()))
    return fail("(C1) rank(operand) = " + std::to_string(rank) +
                " must equal size(offset_dims) + size(collapsed_slice_dims) "
                "+ size(operand_batching_dims)");
  if (indexVectorDim < 0 || indexVectorDim > indices.rank())
    return fail("(C2) index_vector_dim " + std::to_string(indexVectorDim) +
                " must be in [0, rank(start_indices)]");
  int64_t indexVectorSize =
      indexVectorDim < indices.rank() ? indices.dimension(indexVectorDim) : 1;
  if (static_cast<int64_t>(startIndexMap.size()) != indexVectorSize)
    return fail("(C3) size(start_index_map) = " +
                std::to_string(startIndexMap.size()) +
                " must equal the index vector size " +
                std::to_string(indexVectorSize));
  if (!allUnique(offsetDims) || !isSortedAscending(offsetDims))
    return fail("(C4) offset_dims " + formatList(offsetDims) +
                " must be sorted and unique");
  if (!allInRange(offsetDims, result.rank()))
    return fail("(C5) offset_dims " + formatList(offsetDims) +
                " must be in [0, rank(result))");
  std::vector<int64_t> collapsedAndBatching = collapsed;
  collapsedAndBatching.insert(collapsedAndBatching.end(),
                              operandBatching.begin(), operandBatching.end());
  if (!allUnique(collapsedAndBatching))
    return fail("(C6) collapsed_slice_dims and operand_batching_dims must be "
                "disjoint and unique");
  if (!isSortedAscending(collapsed))
    return fail("(C7) collapsed_slice_dims must be sorted");
  if (!allInRange(collapsed, rank))
    return fail("(C8) collapsed_slice_dims " + formatList(collapsed) +
                " must be in [0, rank(operand))");
  if (static_cast<int64_t>(sliceSizes.size()) != rank)
    return fail("(C20) size(slice_sizes) = " +
                std::to_string(sliceSizes.size()) + " must equal rank(operand) " +
                std::to_string(rank));
  for (int64_t d : collapsed)
    if (sliceSizes[d] > 1)
      return fail("(C9) slice_sizes[" + std::to_string(d) +
                  "] of a collapsed dimension must be <= 1");
  if (!isSortedAscending(operandBatching))
    return fail("(C10) operand_batching_dims must be sorted");
  if (!allInRange(operandBatching, rank))
    return fail("(C11) operand_batching_dims must be in [0, rank(operand))");
  for (int64_t d : operandBatching)
    if (sliceSizes[d] > 1)
      return fail("(C12) slice_sizes[" + std::to_string(d) +
                  "] of a batching dimension must be <= 1");
  if (!allUnique(indicesBatching))
    return fail("(C13) start_indices_batching_dims must be unique");
  if (!allInRange(indicesBatching, indices.rank()))
    return fail("(C14) start_indices_batching_dims must be in "
                "[0, rank(start_indices))");
  if (contains(indicesBatching, indexVectorDim))
    return fail("(C15) index_vector_dim must not be a start_indices batching "
                "dimension");
  if (operandBatching.size() != indicesBatching.size())
    return fail("(C16) operand_batching_dims and start_indices_batching_dims "
                "must have the same size");
  for (size_t i = 0; i < operandBatching.size(); ++i)
    if (operand.dimension(operandBatching[i]) !=
        indices.dimension(indicesBatching[i]))
      return fail("(C17) operand batching dimension " +
                  std::to_string(operandBatching[i]) +
                  " and start_indices batching dimension " +
                  std::to_string(indicesBatching[i]) + " differ in size");
  std::vector<int64_t> mapAndBatching = startIndexMap;
  mapAndBatching.insert(mapAndBatching.end(), operandBatching.begin(),
                        operandBatching.end());
  if (!allUnique(mapAndBatching))
    return fail("(C18) start_index_map and operand_batching_dims must be "
                "disjoint and unique");
  if (!allInRange(startIndexMap, rank))
    return fail("(C19) start_index_map " + formatList(startIndexMap) +
                " must be in [0, rank(operand))");
  for (int64_t d = 0; d < rank; ++d)
    if (sliceSizes[d] < 0 || (operand.dimension(d) != kUnboundedSize &&
                              sliceSizes[d] > operand.dimension(d)))
      return fail("(C21) slice_sizes[" + std::to_string(d) + "] = " +
                  std::to_string(sliceSizes[d]) + " must be in [0, " +
                  std::to_string(operand.dimension(d)) + "]");
  std::vector<int64_t> offsetSizes;
  for (int64_t d = 0; d < rank; ++d)
    if (!contains(collapsed, d) && !contains(operandBatching, d))
      offsetSizes.push_back(sliceSizes[d]);
  std::vector<int64_t> batchSizes = batchSizesOf(indices, indexVectorDim);
  int64_t expectedRank =
      static_cast<int64_t>(batchSizes.size() + offsetSizes.size());
  if (result.rank() != expectedRank)
    return fail("(C22) result rank " + std::to_string(result.rank()) +
                " must be " + std::to_string(expectedRank));
  Shape expected(operand.elementType(),
                 combine(expectedRank, offsetDims, offsetSizes, batchSizes));
  if (result.elementType() != operand.elementType())
    return fail("(C23) result element type must equal the operand's");
  return expectResult(expected);
}

bool InstructionChecker::checkScatter() {
  int64_t count = inst.operandCount();
  if (count < 3 || count % 2 != 1)
    return fail("scatter expects N inputs, the indices and N updates (an odd "
                "number >= 3 of operands), but has " +
                std::to_string(count));
  if (!expectArrayOperands())
    return false;
  const int64_t n = (count - 1) / 2;
  const Shape &input = operandShape(0);
  const Shape &indices = operandShape(n);
  const Shape &update = operandShape(n + 1);
  ScatterDimensionNumbers numbers = scatterDimensionNumbers(inst);
  const auto &updateWindowDims = numbers.updateWindowDims;
  const auto &insertedWindowDims = numbers.insertedWindowDims;
  const auto &inputBatching = numbers.inputBatchingDims;
  const auto &indicesBatching = numbers.scatterIndicesBatchingDims;
  const auto &toOperandDims = numbers.scatterDimsToOperandDims;
  int64_t indexVectorDim = numbers.indexVectorDim;
  const int64_t rank = input.rank();

  for (int64_t i = 1; i < n; ++i)
    if (!operandShape(i).compatible(Shape(operandShape(i).elementType(),
                                          input.dimensions())))
      return fail("(C1) all scatter inputs must have the same shape");
  if (rank != static_cast<int64_t>(updateWindowDims.size() +
                                   insertedWindowDims.size() +
                                   inputBatching.size()))
    return fail("(C2) rank(inputs[0]) = " + std::to_string(rank) +
                " must equal size(update_window_dims) + "
                "size(inserted_window_dims) + size(input_batching_dims)");
  for (int64_t i = 1; i < n; ++i)
    if (operandShape(n + 1 + i).dimensions() != update.dimensions())
      return fail("(C3) all scatter updates must have the same shape");
  if (!isIntegral(indices.elementType()))
    return fail("scatter_indices must have an integer type");
  if (indexVectorDim < 0 || indexVectorDim > indices.rank())
    return fail("(C22) index_vector_dim " + std::to_string(indexVectorDim) +
                " must be in [0, rank(scatter_indices)]");
  for (int64_t i = 0; i < n; ++i)
    if (operandShape(n + 1 + i).elementType() !=
        operandShape(i).elementType())
      return fail("(C6) element type of updates[" + std::to_string(i) +
                  "] must equal that of inputs[" + std::to_string(i) + "]");
  if (!allUnique(updateWindowDims) || !isSortedAscending(updateWindowDims))
    return fail("(C7) update_window_dims must be sorted and unique");
  if (!allInRange(updateWindowDims, update.rank()))
    return fail("(C8) update_window_dims " + formatList(updateWindowDims) +
                " must be in [0, rank(updates[0]))");
  std::vector<int64_t> insertedAndBatching = insertedWindowDims;
  insertedAndBatching.insert(insertedAndBatching.end(), inputBatching.begin(),
                             inputBatching.end());
  if (!allUnique(insertedAndBatching))
    return fail("(C9) inserted_window_dims and input_batching_dims must be "
                "disjoint and unique");
  if (!isSortedAscending(insertedWindowDims))
    return fail("(C10) inserted_window_dims must be sorted");
  if (!allInRange(insertedWindowDims, rank))
    return fail("(C11) inserted_window_dims must be in [0, rank(inputs[0]))");
  if (!isSortedAscending(inputBatching))
    return fail("(C12) input_batching_dims must be sorted");
  if (!allInRange(inputBatching, rank))
    return fail("(C13) input_batching_dims must be in [0, rank(inputs[0]))");
  if (!allUnique(indicesBatching))
    return fail("(C14) scatter_indices_batching_dims must be unique");
  if (!allInRange(indicesBatching, indices.rank()))
    return fail("(C15) scatter_indices_batching_dims must be in "
                "[0, rank(scatter_indices))");
  if (contains(indicesBatching, indexVectorDim))
    return fail("(C16) index_vector_dim must not be a scatter_indices "
                "batching dimension");
  if (inputBatching.size() != indicesBatching.size())
    return fail("(C17) input_batching_dims and scatter_indices_batching_dims "
                "must have the same size");
  for (size_t i = 0; i < inputBatching.size(); ++i)
    if (input.dimension(inputBatching[i]) !=
        indices.dimension(indicesBatching[i]))
      return fail("(C18) input batching dimension " +
                  std::to_string(inputBatching[i]) +
                  " and scatter_indices batching dimension " +
                  std::to_string(indicesBatching[i]) + " differ in size");
  int64_t indexVectorSize =
      indexVectorDim < indices.rank() ? indices.dimension(indexVectorDim) : 1;
  if (static_cast<int64_t>(toOperandDims.size()) != indexVectorSize)
    return fail("(C19) size(scatter_dims_to_operand_dims) = " +
                std::to_string(toOperandDims.size()) +
                " must equal the index vector size " +
                std::to_string(indexVectorSize));
  std::vector<int64_t> mapAndBatching = toOperandDims;
  mapAndBatching.insert(mapAndBatching.end(), inputBatching.begin(),
                        inputBatching.end());
  if (!allUnique(mapAndBatching))
    return fail("(C20) scatter_dims_to_operand_dims and input_batching_dims "
                "must be disjoint and unique");
  if (!allInRange(toOperandDims, rank))
    return fail("(C21) scatter_dims_to_operand_dims must be in "
                "[0, rank(inputs[0]))");
  // (C4) shape(updates[0]) = combine(scatter dim sizes, window dim sizes).
  std::vector<int64_t> scatterSizes = batchSizesOf(indices, indexVectorDim);
  int64_t expectedRank =
      static_cast<int64_t>(scatterSizes.size() + updateWindowDims.size());
  if (update.rank() != expectedRank)
    return fail("(C4) rank(updates[0]) = " + std::to_string(update.rank()) +
                " must be " + std::to_string(expectedRank));
  std::vector<int64_t> windowBounds;
  for (int64_t d = 0; d < rank; ++d)
    if (!contains(insertedWindowDims, d) && !contains(inputBatching, d))
      windowBounds.push_back(input.dimension(d));
  size_t window = 0, scatter = 0;
  for (int64_t d = 0; d < update.rank(); ++d) {
    if (contains(updateWindowDims, d)) {
      if (window < windowBounds.size() &&
          update.dimension(d) > windowBounds[window])
        return fail("(C4) update window dimension " + std::to_string(d) +
                    " (size " + std::to_string(update.dimension(d)) +
                    ") is larger than the input's " +
                    std::to_string(windowBounds[window]));
      ++window;
    } else {
      if (scatter < scatterSizes.size() &&
          update.dimension(d) != scatterSizes[scatter])
        return fail("(C4) update scatter dimension " + std::to_string(d) +
                    " has size " + std::to_string(update.dimension(d)) +
                    " but the indices give " +
                    std::to_string(scatterSizes[scatter]));
      ++scatter;
    }
  }
  // (C23) update_computation: 2N scalar parameters, N results.
  if (const HloComputation *computation = toApply(inst);
      computation && !computation->isDeclaration()) {
    if (computation->parameterCount() != 2 * n)
      return fail("(C23) the update computation must take " +
                  std::to_string(2 * n) + " parameters, but takes " +
                  std::to_string(computation->parameterCount()));
  }
  // (C24, C25) results have the inputs' shapes.
  if (n == 1)
    return expectResult(input);
  std::vector<Shape> results;
  for (int64_t i = 0; i < n; ++i)
    results.push_back(operandShape(i));
  return expectResult(Shape::tuple(results));
}

} // namespace hlo
