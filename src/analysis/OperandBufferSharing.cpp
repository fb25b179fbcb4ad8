//===- OperandBufferSharing.cpp - Results that may take an operand's memory -===//
#include "analysis/OperandBufferSharing.h"
#include "analysis/HeroAnalysis.h"

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

/// An array in a layout whose linear order is its logical row-major one
/// (bitcasts and reshapes between such arrays keep every element's linear
/// index), of whole-byte elements.
bool isRowMajorArray(const Shape &shape) {
  if (!shape.isArray() || !shape.isStatic() || shape.elementCount() <= 0 ||
      shape.bufferBytes() % shape.elementCount() != 0)
    return false;
  if (!shape.hasLayout())
    return true;
  const Layout &layout = shape.layout();
  if (!layout.tiles.empty() || layout.elementSizeInBits != 0)
    return false;
  std::vector<int64_t> order = shape.physicalOrder();
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] != static_cast<int64_t>(i))
      return false;
  return true;
}

/// Whether `parameter`, and all computed from it, is read only at the
/// linear index the reduction loop is at: through elementwise ops,
/// bitcasts and reshapes of `elements` row-major elements, into reduces as
/// their inputs, or into the root. Adds the values computed from it to
/// `derived`.
bool readAtLinearIndexOnly(const HloInstruction *parameter, int64_t elements,
                           std::vector<const HloInstruction *> &derived) {
  std::vector<const HloInstruction *> work = {parameter};
  derived.push_back(parameter);
  while (!work.empty()) {
    const HloInstruction *value = work.back();
    work.pop_back();
    for (const HloInstruction *user : value->users()) {
      HloOpcode opcode = user->opcode();
      if (opcode == HloOpcode::Tuple)
        continue; // the root, or a tuple in it
      if (opcode == HloOpcode::Reduce) {
        // Read as an input (not an init) of the loop's element count, by a
        // reduce whose result only the root takes: one computed into
        // another value (a broadcast of it, or a reduce the elemental
        // emitter inlines into a side output) would be read where the
        // operand may be overwritten already.
        for (int64_t k = user->operandCount() / 2; k < user->operandCount(); ++k)
          if (user->operand(k) == value)
            return false;
        if (value->shape().elementCount() != elements)
          return false;
        for (const HloInstruction *result : user->users())
          if (result->opcode() != HloOpcode::Tuple)
            return false;
        continue;
      }
      bool linear = opcode == HloOpcode::Bitcast || opcode == HloOpcode::Reshape ||
                    isElementwiseOpcode(opcode);
      if (!linear || !isRowMajorArray(user->shape()) || user->shape().elementCount() != elements)
        return false;
      for (const HloInstruction *operand : user->operands())
        if (!isRowMajorArray(operand->shape()) ||
            (isElementwiseOpcode(opcode) && operand->shape().dimensions() != user->shape().dimensions()))
          return false;
      if (std::find(derived.begin(), derived.end(), user) != derived.end())
        continue;
      derived.push_back(user);
      work.push_back(user);
    }
  }
  return true;
}

} // namespace

std::vector<int64_t> sideOutputSharableParameters(const HloComputation &fused) {
  std::vector<const HloInstruction *> leaves = getFusionRoots(fused);
  std::vector<int64_t> sharable(leaves.size(), -1);
  std::vector<bool> taken(fused.parameterCount(), false);
  for (size_t leaf = 0; leaf < leaves.size(); ++leaf) {
    const Shape &shape = leaves[leaf]->shape();
    if (leaves[leaf]->opcode() == HloOpcode::Reduce || !isRowMajorArray(shape) ||
        std::count(leaves.begin(), leaves.end(), leaves[leaf]) != 1)
      continue;
    for (int64_t i = 0; i < fused.parameterCount() && sharable[leaf] < 0; ++i) {
      const HloInstruction *parameter = fused.parameter(i);
      const Shape &operand = parameter->shape();
      std::vector<const HloInstruction *> derived;
      if (taken[i] || parameter == leaves[leaf] || parameter->users().empty() ||
          !isRowMajorArray(operand) ||
          operand.elementCount() != shape.elementCount() ||
          operand.bufferBytes() != shape.bufferBytes() ||
          !readAtLinearIndexOnly(parameter, shape.elementCount(), derived) ||
          std::find(derived.begin(), derived.end(), leaves[leaf]) == derived.end())
        continue;
      sharable[leaf] = i;
      taken[i] = true;
    }
  }
  return sharable;
}

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
