//===- OperandBufferSharing.cpp - Results that may take an operand's memory -===//
#include "analysis/OperandBufferSharing.h"

#include "hlo_parser/HloInstruction.h"
#include "hlo_parser/HloOpcode.h"

#include <algorithm>
#include <vector>

namespace hlo {
namespace {

/// Whether every use of `parameter`, and of what is computed from it, is
/// an elementwise op over `dimensions` (the result's).
bool readElementwiseOnly(const HloInstruction *parameter, const std::vector<int64_t> &dimensions) {
  std::vector<const HloInstruction *> work = {parameter};
  std::vector<const HloInstruction *> seen;
  while (!work.empty()) {
    const HloInstruction *value = work.back();
    work.pop_back();
    for (const HloInstruction *user : value->users()) {
      if (std::find(seen.begin(), seen.end(), user) != seen.end())
        continue;
      seen.push_back(user);
      if (!isElementwiseOpcode(user->opcode()) || !user->shape().isArray() ||
          user->shape().dimensions() != dimensions)
        return false;
      for (const HloInstruction *operand : user->operands())
        if (!operand->shape().isArray() || operand->shape().dimensions() != dimensions)
          return false; // an implicit broadcast would read other elements
      work.push_back(user);
    }
  }
  return true;
}

} // namespace

int64_t elementwiseSharableParameter(const HloComputation &fused) {
  const Shape &result = fused.root()->shape();
  if (!result.isArray())
    return -1;
  for (int64_t i = 0; i < fused.parameterCount(); ++i) {
    const HloInstruction *parameter = fused.parameter(i);
    if (parameter != fused.root() && parameter->shape() == result &&
        !parameter->users().empty() &&
        readElementwiseOnly(parameter, result.dimensions()))
      return i;
  }
  return -1;
}

} // namespace hlo
