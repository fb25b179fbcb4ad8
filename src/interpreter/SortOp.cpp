//===- SortOp.cpp - sort --------------------------------------------------===//
//
// sort of one or more arrays along one dimension by a comparator
// computation taking (lhs_0, rhs_0, lhs_1, rhs_1, ...). The sort is stable,
// which is one valid order also when is_stable is false.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"
#include "ScalarFunction.h"
#include "hlo_parser/OpAttributes.h"

#include <algorithm>
#include <numeric>

namespace hlo::interp {

Literal evaluateSort(const HloInstruction &instruction, const Operands &operands,
                     Evaluator &evaluator) {
  ScalarFunction comparator(*toApply(instruction), evaluator);
  int64_t dimension = instruction.dimensions().at(0);
  const std::vector<int64_t> &dims = operands[0]->shape().dimensions();
  std::vector<int64_t> strides = rowMajorStrides(dims);
  std::vector<int64_t> outer = dims;
  outer[dimension] = 1;
  int64_t length = dims[dimension], stride = strides[dimension];

  std::vector<Literal> results;
  for (const Literal *operand : operands)
    results.push_back(*operand);
  std::vector<int64_t> order(length);
  std::vector<Scalar> arguments(2 * operands.size());
  forEachIndex(outer, [&](const std::vector<int64_t> &index, int64_t) {
    int64_t base = linearIndex(index, strides);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      for (size_t k = 0; k < operands.size(); ++k) {
        arguments[2 * k] = loadScalar(*operands[k], base + a * stride);
        arguments[2 * k + 1] = loadScalar(*operands[k], base + b * stride);
      }
      return comparator(arguments)[0].i != 0;
    });
    for (size_t k = 0; k < operands.size(); ++k)
      for (int64_t i = 0; i < length; ++i)
        copyElement(results[k], base + i * stride, *operands[k], base + order[i] * stride);
  });
  return packLeaves(instruction.shape(), std::move(results));
}

} // namespace hlo::interp
