//===- ReduceOps.cpp - Ops that apply a computation -----------------------===//
//
// reduce (variadic; each output element accumulates its inputs in row-major
// order of the reduced dimensions; float sums in double, rounded once), reduce-window (strides, padding, base and
// window dilation; padding contributes nothing), select-and-scatter and map.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"
#include "ScalarFunction.h"

#include "hlo_parser/HloComputation.h"
#include "hlo_parser/OpAttributes.h"

#include <algorithm>
#include <optional>

namespace hlo::interp {
namespace {

std::vector<const Shape *> resultLeaves(const Shape &shape) {
  std::vector<const Shape *> leaves;
  if (shape.isTuple())
    for (const Shape &leaf : shape.tupleShapes())
      leaves.push_back(&leaf);
  else
    leaves.push_back(&shape);
  return leaves;
}

/// Accumulators of `count` output elements for `arrays` reductions at once:
/// acc[element * arrays + k].
/// A float add reducer sums in double and rounds once at the end: the
/// reference is the exactly rounded sum, whatever order the GPU adds in
/// (rounding every step of a long f16 chain loses several bits).
struct Accumulators {
  Accumulators(const Operands &inits, int64_t count, const ScalarFunction &reducer)
      : arrays(inits.size()), values(count * inits.size()),
        exactSum(arrays == 1 && reducer.isFloatAdd()) {
    for (int64_t element = 0; element < count; ++element)
      for (size_t k = 0; k < arrays; ++k)
        values[element * arrays + k] = loadScalar(*inits[k], 0);
  }
  void accumulate(const ScalarFunction &function, int64_t element,
                  const Operands &inputs, int64_t inputIndex) {
    if (exactSum) {
      Scalar x = loadScalar(*inputs[0], inputIndex);
      values[element].re += x.re;
      values[element].im += x.im;
      return;
    }
    std::vector<Scalar> arguments(2 * arrays);
    for (size_t k = 0; k < arrays; ++k) {
      arguments[k] = values[element * arrays + k];
      arguments[arrays + k] = loadScalar(*inputs[k], inputIndex);
    }
    std::vector<Scalar> results = function(arguments);
    for (size_t k = 0; k < arrays; ++k)
      values[element * arrays + k] = results[k];
  }
  Literal finish(const Shape &instructionShape) const {
    std::vector<const Shape *> leaves = resultLeaves(instructionShape);
    std::vector<Literal> outputs;
    for (size_t k = 0; k < arrays; ++k) {
      Literal output(*leaves[k]);
      for (int64_t element = 0; element < output.elementCount(); ++element)
        storeScalar(output, element,
                    roundScalar(values[element * arrays + k], leaves[k]->elementType()));
      outputs.push_back(std::move(output));
    }
    return packLeaves(instructionShape, std::move(outputs));
  }
  size_t arrays;
  std::vector<Scalar> values;
  bool exactSum;
};

/// The input position of window element `window` for output `output` in
/// dimension `d`, or -1 where it falls in padding or a dilation hole.
int64_t windowInputPosition(const WindowDimension &dim, int64_t inputSize,
                            int64_t output, int64_t window) {
  int64_t dilated = output * dim.stride + window * dim.windowDilation - dim.padLow;
  if (dilated < 0 || dilated % dim.baseDilation != 0)
    return -1;
  int64_t position = dilated / dim.baseDilation;
  return position < inputSize ? position : -1;
}

std::vector<int64_t> windowSizes(const std::vector<WindowDimension> &window) {
  std::vector<int64_t> sizes;
  for (const WindowDimension &dim : window)
    sizes.push_back(dim.size);
  return sizes;
}

/// Calls visit(inputLinear) for each valid input element in the window of
/// output index `output`.
template <typename Visit>
void forEachWindowElement(const std::vector<WindowDimension> &window,
                          const std::vector<int64_t> &inputDims,
                          const std::vector<int64_t> &inputStrides,
                          const std::vector<int64_t> &output, Visit visit) {
  forEachIndex(windowSizes(window), [&](const std::vector<int64_t> &position, int64_t) {
    int64_t linear = 0;
    for (size_t d = 0; d < window.size(); ++d) {
      int64_t input = windowInputPosition(window[d], inputDims[d], output[d], position[d]);
      if (input < 0)
        return;
      linear += input * inputStrides[d];
    }
    visit(linear);
  });
}


/// Variadic reductions take N inputs then N initial values.
std::pair<Operands, Operands> splitInputsAndInits(const Operands &operands) {
  size_t arrays = operands.size() / 2;
  return {Operands(operands.begin(), operands.begin() + arrays),
          Operands(operands.begin() + arrays, operands.end())};
}

} // namespace

Literal evaluateReduce(const HloInstruction &instruction, const Operands &operands,
                       Evaluator &evaluator) {
  auto [inputs, inits] = splitInputsAndInits(operands);
  ScalarFunction reducer(*toApply(instruction), evaluator);
  const std::vector<int64_t> &inputDims = inputs[0]->shape().dimensions();
  const std::vector<int64_t> &reduced = instruction.dimensions();
  // Output stride of each input dimension (0 for reduced ones).
  std::vector<int64_t> keptDims;
  for (size_t d = 0; d < inputDims.size(); ++d)
    if (std::find(reduced.begin(), reduced.end(), static_cast<int64_t>(d)) == reduced.end())
      keptDims.push_back(inputDims[d]);
  std::vector<int64_t> keptStrides = rowMajorStrides(keptDims);
  std::vector<int64_t> outputStrides(inputDims.size(), 0);
  for (size_t d = 0, kept = 0; d < inputDims.size(); ++d)
    if (std::find(reduced.begin(), reduced.end(), static_cast<int64_t>(d)) == reduced.end())
      outputStrides[d] = keptStrides[kept++];
  int64_t outputCount = 1;
  for (int64_t dim : keptDims)
    outputCount *= dim;
  Accumulators accumulators(inits, outputCount, reducer);
  forEachIndex(inputDims, [&](const std::vector<int64_t> &index, int64_t linear) {
    accumulators.accumulate(reducer, linearIndex(index, outputStrides), inputs, linear);
  });
  return accumulators.finish(instruction.shape());
}

/// The dimension a prefix scan runs along (JAX's cumsum: the window the
/// whole of that dimension, padded n-1 low, nothing else), if `window` is one.
std::optional<int64_t> prefixScanDimension(const std::vector<WindowDimension> &window,
                                           const std::vector<int64_t> &inputDims,
                                           const Shape &outputShape) {
  if (outputShape.dimensions() != inputDims || window.size() != inputDims.size())
    return std::nullopt;
  std::optional<int64_t> scanned;
  for (size_t d = 0; d < window.size(); ++d) {
    const WindowDimension &w = window[d];
    if (w.stride != 1 || w.baseDilation != 1 || w.windowDilation != 1 || w.reversal ||
        w.padHigh != 0)
      return std::nullopt;
    if (w.size == 1 && w.padLow == 0)
      continue;
    if (scanned || w.size != inputDims[d] || w.padLow != inputDims[d] - 1)
      return std::nullopt;
    scanned = static_cast<int64_t>(d);
  }
  return scanned;
}

Literal evaluateReduceWindow(const HloInstruction &instruction, const Operands &operands,
                             Evaluator &evaluator) {
  auto [inputs, inits] = splitInputsAndInits(operands);
  ScalarFunction reducer(*toApply(instruction), evaluator);
  const std::vector<WindowDimension> &window = windowOf(instruction);
  const std::vector<int64_t> &inputDims = inputs[0]->shape().dimensions();
  std::vector<int64_t> inputStrides = rowMajorStrides(inputDims);
  const Shape &outputShape = *resultLeaves(instruction.shape())[0];
  Accumulators accumulators(inits, std::max<int64_t>(outputShape.elementCount(), 0), reducer);
  if (std::optional<int64_t> d = prefixScanDimension(window, inputDims, outputShape)) {
    // Each output continues its predecessor's accumulation: the same
    // operations in the same order as the window's, O(n) instead of O(n^2).
    int64_t stride = inputStrides[*d], length = inputDims[*d];
    for (int64_t element = 0; element < outputShape.elementCount(); ++element) {
      if ((element / stride) % length > 0)
        for (size_t k = 0; k < accumulators.arrays; ++k)
          accumulators.values[element * accumulators.arrays + k] =
              accumulators.values[(element - stride) * accumulators.arrays + k];
      accumulators.accumulate(reducer, element, inputs, element);
    }
    return accumulators.finish(instruction.shape());
  }
  forEachIndex(outputShape.dimensions(), [&](const std::vector<int64_t> &output, int64_t outLinear) {
    forEachWindowElement(window, inputDims, inputStrides, output, [&](int64_t input) {
      accumulators.accumulate(reducer, outLinear, inputs, input);
    });
  });
  return accumulators.finish(instruction.shape());
}

Literal evaluateSelectAndScatter(const HloInstruction &instruction,
                                 const Operands &operands, Evaluator &evaluator) {
  const Literal &operand = *operands[0], &source = *operands[1];
  ScalarFunction select(*selectComputation(instruction), evaluator);
  ScalarFunction scatter(*scatterComputation(instruction), evaluator);
  const std::vector<WindowDimension> &window = windowOf(instruction);
  const std::vector<int64_t> &inputDims = operand.shape().dimensions();
  std::vector<int64_t> inputStrides = rowMajorStrides(inputDims);
  Literal result = filledWith(instruction.shape(), *operands[2]);
  forEachIndex(source.shape().dimensions(), [&](const std::vector<int64_t> &output, int64_t sourceLinear) {
    int64_t selected = -1;
    forEachWindowElement(window, inputDims, inputStrides, output, [&](int64_t input) {
      if (selected < 0 ||
          !select({loadScalar(operand, selected), loadScalar(operand, input)})[0].i)
        selected = input;
    });
    if (selected < 0)
      return;
    storeScalar(result, selected,
                scatter({loadScalar(result, selected), loadScalar(source, sourceLinear)})[0]);
  });
  return result;
}

Literal evaluateMap(const HloInstruction &instruction, const Operands &operands,
                    Evaluator &evaluator) {
  ScalarFunction function(*toApply(instruction), evaluator);
  Literal result(instruction.shape());
  std::vector<Scalar> arguments(operands.size());
  for (int64_t i = 0; i < result.elementCount(); ++i) {
    for (size_t k = 0; k < operands.size(); ++k)
      arguments[k] = loadScalar(*operands[k], i);
    storeScalar(result, i, function(arguments)[0]);
  }
  return result;
}

} // namespace hlo::interp
