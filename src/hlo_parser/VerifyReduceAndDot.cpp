//===- VerifyReduceAndDot.cpp - Reduction and contraction rules -----------===//
//
// Shape rules of the ops that combine many input elements into one: reduce,
// reduce-window (with the windowed output size), dot (also ragged and
// scaled dot) and convolution.
//
//===----------------------------------------------------------------------===//
#include "OpAttributes.h"
#include "VerifierImpl.h"

#include <algorithm>

namespace hlo {

namespace {

/// Output size of one windowed dimension (reduce-window, convolution); -1
/// if it does not fit in int64.
int64_t windowedOutputSize(int64_t size, const WindowDimension &window) {
  __int128 dilatedBase =
      size == 0 ? 0 : (__int128)(size - 1) * window.baseDilation + 1;
  __int128 padded = dilatedBase + window.padLow + window.padHigh;
  __int128 dilatedWindow = (__int128)(window.size - 1) * window.windowDilation + 1;
  if (padded < dilatedWindow)
    return 0;
  __int128 result = (padded - dilatedWindow) / window.stride + 1;
  return fitsInt64(result) ? static_cast<int64_t>(result) : -1;
}

} // namespace

bool InstructionChecker::checkReduce() {
  int64_t count = inst.operandCount();
  if (count < 2 || count % 2 != 0)
    return fail("reduce expects N inputs and N init values");
  if (!expectArrayOperands())
    return false;
  int64_t n = count / 2;
  const Shape &input = operandShape(0);
  const auto &dims = inst.dimensions();
  if (!allUnique(dims) || !allInRange(dims, input.rank()))
    return fail("dimensions " + formatList(dims) +
                " must be unique dimensions of the input (rank " +
                std::to_string(input.rank()) + ")");
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < input.rank(); ++d)
    if (!contains(dims, d))
      kept.push_back(input.dimension(d));
  for (int64_t i = 0; i < n; ++i) {
    if (!sameDims(operandShape(i), input))
      return fail("all reduce inputs must have the same dimensions");
    if (operandShape(n + i).rank() != 0)
      return fail("init value " + std::to_string(i) + " must be a scalar");
  }
  const HloComputation *reducer = toApply(inst);
  if (isDefined(reducer) && reducer->parameterCount() != 2 * n)
    return fail("the reducer must take " + std::to_string(2 * n) +
                " parameters, but takes " +
                std::to_string(reducer->parameterCount()));
  if (n == 1)
    return expectResult(Shape(inst.shape().isTuple()
                                  ? operandShape(0).elementType()
                                  : inst.shape().elementType(),
                              kept));
  std::vector<Shape> results;
  const Shape &resultShape = inst.shape();
  for (int64_t i = 0; i < n; ++i)
    results.emplace_back(resultShape.isTuple() && i < resultShape.tupleSize()
                             ? resultShape.tupleShapes()[i].elementType()
                             : operandShape(i).elementType(),
                         kept);
  return expectResult(Shape::tuple(results));
}

bool InstructionChecker::checkReduceWindow() {
  int64_t count = inst.operandCount();
  if (count < 2 || count % 2 != 0)
    return fail("reduce-window expects N inputs and N init values");
  if (!expectArrayOperands())
    return false;
  int64_t n = count / 2;
  const Shape &input = operandShape(0);
  const std::vector<WindowDimension> &window = windowOf(inst);
  if (static_cast<int64_t>(window.size()) != input.rank())
    return fail("window has " + std::to_string(window.size()) +
                " dimensions but the input has rank " +
                std::to_string(input.rank()));
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < input.rank(); ++d) {
    const WindowDimension &w = window[d];
    if (w.size <= 0 || w.stride <= 0 || w.baseDilation <= 0 ||
        w.windowDilation <= 0)
      return fail("window sizes, strides and dilations must be positive");
    if (hasUnbounded(input))
      return true;
    int64_t size = windowedOutputSize(input.dimension(d), w);
    if (size < 0)
      return fail("windowed size of dimension " + std::to_string(d) +
                  " overflows");
    dims.push_back(size);
  }
  if (n == 1)
    return expectResult(Shape(input.elementType(), dims));
  std::vector<Shape> results;
  for (int64_t i = 0; i < n; ++i)
    results.emplace_back(operandShape(i).elementType(), dims);
  return expectResult(Shape::tuple(results));
}

bool InstructionChecker::checkDot() {
  if (inst.operandCount() < 2 || !expectArrayOperands())
    return fail("dot expects two operands");
  const Shape &lhs = operandShape(0);
  const Shape &rhs = operandShape(1);
  DotDimensionNumbers numbers = dotDimensionNumbers(inst);
  const auto &lhsContracting = numbers.lhsContracting;
  const auto &rhsContracting = numbers.rhsContracting;
  const auto &lhsBatch = numbers.lhsBatch;
  const auto &rhsBatch = numbers.rhsBatch;
  if (inst.opcode() != HloOpcode::Dot)
    return true; // ragged / scaled dots: attributes only.
  if (lhsContracting.size() != rhsContracting.size())
    return fail("lhs and rhs must have the same number of contracting dims");
  if (lhsBatch.size() != rhsBatch.size())
    return fail("lhs and rhs must have the same number of batch dims");
  std::vector<int64_t> lhsUsed = lhsContracting, rhsUsed = rhsContracting;
  lhsUsed.insert(lhsUsed.end(), lhsBatch.begin(), lhsBatch.end());
  rhsUsed.insert(rhsUsed.end(), rhsBatch.begin(), rhsBatch.end());
  if (!allUnique(lhsUsed) || !allInRange(lhsUsed, lhs.rank()) ||
      !allUnique(rhsUsed) || !allInRange(rhsUsed, rhs.rank()))
    return fail("contracting and batch dims must be unique dimensions of "
                "their operand");
  for (size_t i = 0; i < lhsContracting.size(); ++i)
    if (lhs.dimension(lhsContracting[i]) != rhs.dimension(rhsContracting[i]))
      return fail("contracting dimension sizes differ: lhs dim " +
                  std::to_string(lhsContracting[i]) + " is " +
                  std::to_string(lhs.dimension(lhsContracting[i])) +
                  ", rhs dim " + std::to_string(rhsContracting[i]) + " is " +
                  std::to_string(rhs.dimension(rhsContracting[i])));
  std::vector<int64_t> dims;
  for (size_t i = 0; i < lhsBatch.size(); ++i) {
    if (lhs.dimension(lhsBatch[i]) != rhs.dimension(rhsBatch[i]))
      return fail("batch dimension sizes differ");
    dims.push_back(lhs.dimension(lhsBatch[i]));
  }
  for (int64_t d = 0; d < lhs.rank(); ++d)
    if (!contains(lhsUsed, d))
      dims.push_back(lhs.dimension(d));
  for (int64_t d = 0; d < rhs.rank(); ++d)
    if (!contains(rhsUsed, d))
      dims.push_back(rhs.dimension(d));
  // The result element type may differ (preferred element type).
  return expectResult(Shape(inst.shape().elementType(), dims));
}

bool InstructionChecker::checkConvolution() {
  if (inst.operandCount() != 2 || !expectArrayOperands())
    return fail("convolution expects two operands");
  const ConvDimLabels &labels = *convDimLabelsOf(inst);
  const Shape &input = operandShape(0);
  const Shape &kernel = operandShape(1);
  int64_t spatial = static_cast<int64_t>(labels.inputSpatial.size());
  if (input.rank() != spatial + 2 || kernel.rank() != spatial + 2 ||
      inst.shape().rank() != spatial + 2)
    return fail("dim_labels " + labels.text +
                " do not match the ranks of the input, kernel and result");
  const std::vector<WindowDimension> &window = windowOf(inst);
  if (static_cast<int64_t>(window.size()) != spatial)
    return fail("window has " + std::to_string(window.size()) +
                " dimensions but dim_labels have " + std::to_string(spatial) +
                " spatial dimensions");
  return true;
}

} // namespace hlo
