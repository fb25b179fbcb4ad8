//===- ScatterIndexInputs.cpp - Inputs that keep a scatter's promises -----===//
//
// A scatter may promise unique_indices (no two updates reach one element of
// the operand, so a kernel may update without atomics) and
// indices_are_sorted. Generated indices must keep those promises: broken,
// the kernel's result is undefined and the check fails for the input's
// sake. The first GPU run showed it: scatter_sorted_unique_indices scatters
// 10 windows of 32 elements, and starts drawn from [0, 16] overlapped, so
// unsynchronized updates raced and 38 of 10,000 elements differed.
//
// Unique: the windows of distinct update slices do not overlap. With one
// index component, the starts are drawn with gaps of at least a window;
// with several, distinct window-aligned slots are drawn. Slices past the
// slots get a start out of bounds (the scatter skips them). Sorted: the
// index vectors in lexicographic order. Scatters with batching dimensions
// keep the default inputs.
//
//===----------------------------------------------------------------------===//
#include "ScatterIndexInputs.h"

#include "ArrayUtils.h"
#include "hlo_parser/HloComputation.h"
#include "hlo_parser/OpAttributes.h"

#include <algorithm>
#include <random>
#include <set>

namespace hlo::interp {
namespace {

/// The scatter that reads `value` as its indices and promises unique or
/// sorted indices, looking through fusion and call parameters.
const HloInstruction *promisingScatter(const HloInstruction &value, int depth) {
  if (depth > 8)
    return nullptr;
  for (const HloInstruction *user : value.users())
    for (int64_t i = 0; i < user->operandCount(); ++i) {
      if (user->operand(i) != &value)
        continue;
      if (user->opcode() == HloOpcode::Scatter) {
        ScatterDimensionNumbers numbers = scatterDimensionNumbers(*user);
        if (i == (user->operandCount() - 1) / 2 &&
            (numbers.uniqueIndices || numbers.indicesAreSorted))
          return user;
        continue;
      }
      if (user->opcode() != HloOpcode::Fusion && user->opcode() != HloOpcode::Call)
        continue;
      const HloComputation *called = user->opcode() == HloOpcode::Fusion
                                         ? user->fusedComputation()
                                         : toApply(*user);
      if (called && i < called->parameterCount())
        if (const HloInstruction *found = promisingScatter(*called->parameter(i), depth + 1))
          return found;
    }
  return nullptr;
}

/// The largest value an index of `type` holds.
int64_t largestIndex(PrimitiveType type) {
  switch (type) {
  case PrimitiveType::S8: return 127;
  case PrimitiveType::U8: return 255;
  case PrimitiveType::S16: return 32767;
  case PrimitiveType::U16: return 65535;
  case PrimitiveType::S32: return 2147483647;
  default: return INT64_MAX / 2;
  }
}

} // namespace

std::optional<Literal> promisedScatterIndices(const HloInstruction &parameter,
                                              const Shape &shape, uint64_t seed) {
  const HloInstruction *scatter = promisingScatter(parameter, 0);
  if (!scatter || !shape.isArray() || !isIntegral(shape.elementType()))
    return std::nullopt;
  int64_t arrays = (scatter->operandCount() - 1) / 2;
  ScatterDimensionNumbers numbers = scatterDimensionNumbers(*scatter);
  const Shape &indicesShape = scatter->operand(arrays)->shape();
  if (!indicesShape.isArray() || indicesShape.dimensions() != shape.dimensions() ||
      !numbers.inputBatchingDims.empty())
    return std::nullopt;

  // Each operand dimension's window, as the scatter defines it.
  const Shape &operand = scatter->operand(0)->shape().isTuple()
                             ? scatter->operand(0)->shape().tupleShapes().front()
                             : scatter->operand(0)->shape();
  const Shape &updates = scatter->operand(arrays + 1)->shape();
  const std::vector<int64_t> &updateWindowDims = numbers.updateWindowDims;
  const std::vector<int64_t> &inserted = numbers.insertedWindowDims;
  const std::vector<int64_t> &toOperand = numbers.scatterDimsToOperandDims;
  std::vector<int64_t> windowSize(static_cast<size_t>(operand.rank()), 1);
  for (int64_t d = 0, j = 0; d < operand.rank(); ++d)
    if (std::find(inserted.begin(), inserted.end(), d) == inserted.end() &&
        j < static_cast<int64_t>(updateWindowDims.size()))
      windowSize[d] = std::max<int64_t>(updates.dimension(updateWindowDims[j++]), 1);

  const std::vector<int64_t> &dims = shape.dimensions();
  int64_t indexVectorDim = numbers.indexVectorDim;
  std::vector<int64_t> batchDims;
  for (int64_t d = 0; d < static_cast<int64_t>(dims.size()); ++d)
    if (d != indexVectorDim)
      batchDims.push_back(dims[d]);
  int64_t slices = 1;
  for (int64_t n : batchDims)
    slices *= n;
  size_t components = toOperand.size();
  if (components == 0)
    return std::nullopt;
  PrimitiveType type = shape.elementType();
  int64_t largest = largestIndex(type);
  bool unique = numbers.uniqueIndices;
  bool sorted = numbers.indicesAreSorted;
  std::mt19937_64 random(seed);
  auto below = [&](int64_t n) { return n <= 0 ? 0 : static_cast<int64_t>(random() % n); };

  // One index vector per update slice, in slice order.
  std::vector<std::vector<int64_t>> vectors;
  if (unique) {
    // Slots per component: how many whole windows the dimension holds
    // (within the index type's range).
    std::vector<int64_t> slots(components);
    int64_t total = 1;
    for (size_t k = 0; k < components; ++k) {
      int64_t d = toOperand[k];
      int64_t reach = std::min(operand.dimension(d), largest + 1);
      slots[k] = reach / windowSize[d];
      total = total > INT64_MAX / std::max<int64_t>(slots[k], 1) ? INT64_MAX : total * slots[k];
    }
    int64_t inBounds = std::min(slices, total);
    if (components == 1) {
      // Starts v_i + i * window, v sorted in [0, reach - n * window].
      int64_t d = toOperand[0];
      int64_t reach = std::min(operand.dimension(d), largest + 1);
      std::vector<int64_t> offsets;
      for (int64_t i = 0; i < inBounds; ++i)
        offsets.push_back(below(reach - inBounds * windowSize[d] + 1));
      std::sort(offsets.begin(), offsets.end());
      for (int64_t i = 0; i < inBounds; ++i)
        vectors.push_back({offsets[i] + i * windowSize[d]});
    } else {
      std::set<int64_t> chosen;
      if (total <= 4 * inBounds) { // few slots: a shuffle of all of them
        std::vector<int64_t> all(static_cast<size_t>(total));
        for (int64_t i = 0; i < total; ++i)
          all[i] = i;
        std::shuffle(all.begin(), all.end(), random);
        chosen.insert(all.begin(), all.begin() + inBounds);
      }
      while (static_cast<int64_t>(chosen.size()) < inBounds)
        chosen.insert(below(total));
      for (int64_t slot : chosen) { // ascending: lexicographic order
        std::vector<int64_t> vector(components);
        for (size_t k = components; k-- > 0;) {
          vector[k] = (slot % slots[k]) * windowSize[toOperand[k]];
          slot /= slots[k];
        }
        vectors.push_back(vector);
      }
    }
    // The rest out of bounds: one past the last start, where the type
    // holds it (else -1, before every start, for signed types).
    for (int64_t i = inBounds; i < slices; ++i) {
      std::vector<int64_t> vector(components, 0);
      int64_t d = toOperand.empty() ? 0 : toOperand[0];
      int64_t past = operand.dimension(d) - windowSize[d] + 1;
      if (past <= largest)
        vector[0] = past;
      else if (isSignedIntegral(type) && !sorted)
        vector[0] = -1;
      else
        return std::nullopt;
      vectors.push_back(vector);
    }
    if (!sorted)
      std::shuffle(vectors.begin(), vectors.end(), random);
  } else {
    // Sorted only: the default range ([0, 16]), in lexicographic order.
    for (int64_t i = 0; i < slices; ++i) {
      std::vector<int64_t> vector(components);
      for (int64_t &value : vector)
        value = std::min<int64_t>(below(17), largest);
      vectors.push_back(vector);
    }
    std::sort(vectors.begin(), vectors.end());
  }

  Literal result(shape);
  std::vector<int64_t> strides = rowMajorStrides(dims);
  std::vector<int64_t> batch(batchDims.size(), 0);
  for (int64_t s = 0; s < slices; ++s) {
    for (size_t k = 0; k < components; ++k) {
      int64_t linear = 0;
      for (int64_t d = 0, b = 0; d < static_cast<int64_t>(dims.size()); ++d)
        linear += strides[d] * (d == indexVectorDim ? static_cast<int64_t>(k) : batch[b++]);
      result.intData()[linear] = wrapInteger(vectors[s][k], type);
    }
    for (size_t d = batch.size(); d-- > 0;) { // the next slice, row-major
      if (++batch[d] < batchDims[d])
        break;
      batch[d] = 0;
    }
  }
  return result;
}

} // namespace hlo::interp
