//===- ShapeOps.cpp - Data-movement ops -----------------------------------===//
//
// broadcast, reshape, bitcast (through the layouts: physical order is kept),
// transpose, slice, dynamic-slice and dynamic-update-slice (starts clamped so
// the window fits), pad (low/high may be negative, interior), concatenate,
// reverse, iota and copy.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseOps.h"
#include "Ops.h"
#include "hlo_parser/OpAttributes.h"

#include <algorithm>

namespace hlo::interp {
namespace {

/// result[index] = operand[sourceOf(index)] for every result index.
template <typename SourceOf>
Literal gatherElements(const Shape &shape, const Literal &operand, SourceOf sourceOf) {
  Literal result(shape);
  std::vector<int64_t> strides = rowMajorStrides(operand.shape().dimensions());
  std::vector<int64_t> source(operand.shape().rank());
  forEachIndex(shape.dimensions(), [&](const std::vector<int64_t> &index, int64_t linear) {
    sourceOf(index, source);
    copyElement(result, linear, operand, linearIndex(source, strides));
  });
  return result;
}

/// Clamped start indices of dynamic-slice / dynamic-update-slice.
std::vector<int64_t> clampedStarts(const Operands &operands, size_t firstStart,
                                   const std::vector<int64_t> &operandDims,
                                   const std::vector<int64_t> &windowDims) {
  std::vector<int64_t> starts(operandDims.size());
  for (size_t d = 0; d < operandDims.size(); ++d) {
    int64_t start = indexValue(*operands[firstStart + d], 0);
    starts[d] = std::clamp<int64_t>(start, 0, operandDims[d] - windowDims[d]);
  }
  return starts;
}

Literal evaluateIota(const HloInstruction &instruction) {
  const Shape &shape = instruction.shape();
  int64_t dimension = iotaDimension(instruction);
  Literal result(shape);
  PrimitiveType type = shape.elementType();
  forEachIndex(shape.dimensions(), [&](const std::vector<int64_t> &index, int64_t linear) {
    Scalar value{index[dimension], 0, 0};
    storeScalar(result, linear, convertScalar(value, PrimitiveType::S64, type));
  });
  return result;
}

Literal evaluatePad(const HloInstruction &instruction, const Operands &operands) {
  const Literal &operand = *operands[0];
  const Shape &shape = instruction.shape();
  const std::vector<PaddingDimension> &padding = paddingOf(instruction);
  if (padding.empty() && shape.rank() == 0)
    return operand.withShape(shape);
  if (static_cast<int64_t>(padding.size()) != shape.rank())
    fail(instruction, "pad needs one padding entry per dimension");
  Literal result = filledWith(shape, *operands[1]);
  std::vector<int64_t> resultStrides = rowMajorStrides(shape.dimensions());
  std::vector<int64_t> target(shape.rank());
  forEachIndex(operand.shape().dimensions(),
               [&](const std::vector<int64_t> &index, int64_t linear) {
                 for (int64_t d = 0; d < shape.rank(); ++d) {
                   const PaddingDimension &pad = padding[d];
                   target[d] = pad.low + index[d] * (pad.interior + 1);
                   if (target[d] < 0 || target[d] >= shape.dimension(d))
                     return;
                 }
                 copyElement(result, linearIndex(target, resultStrides), operand, linear);
               });
  return result;
}

Literal evaluateConcatenate(const HloInstruction &instruction, const Operands &operands) {
  const Shape &shape = instruction.shape();
  int64_t dimension = instruction.dimensions().at(0);
  Literal result(shape);
  std::vector<int64_t> strides = rowMajorStrides(shape.dimensions());
  int64_t offset = 0;
  for (const Literal *operand : operands) {
    std::vector<int64_t> target(shape.rank());
    forEachIndex(operand->shape().dimensions(),
                 [&](const std::vector<int64_t> &index, int64_t linear) {
                   target = index;
                   target[dimension] += offset;
                   copyElement(result, linearIndex(target, strides), *operand, linear);
                 });
    offset += operand->shape().dimension(dimension);
  }
  return result;
}

/// bitcast: the result reads the operand's bytes in physical order.
Literal evaluateBitcast(const HloInstruction &instruction, const Literal &operand) {
  std::vector<int64_t> resultOffsets = physicalOffsets(instruction.shape());
  std::vector<int64_t> operandOffsets = physicalOffsets(instruction.operand(0)->shape());
  std::vector<int64_t> logicalOfPhysical(operandOffsets.size());
  for (size_t logical = 0; logical < operandOffsets.size(); ++logical)
    logicalOfPhysical[operandOffsets[logical]] = static_cast<int64_t>(logical);
  Literal result(instruction.shape());
  for (size_t i = 0; i < resultOffsets.size(); ++i)
    copyElement(result, static_cast<int64_t>(i), operand,
                logicalOfPhysical[resultOffsets[i]]);
  return result;
}

} // namespace

bool isShapeOpcode(HloOpcode opcode) {
  switch (opcode) {
  case HloOpcode::Broadcast: case HloOpcode::Reshape: case HloOpcode::Bitcast:
  case HloOpcode::Transpose: case HloOpcode::Slice: case HloOpcode::DynamicSlice:
  case HloOpcode::DynamicUpdateSlice: case HloOpcode::Pad:
  case HloOpcode::Concatenate: case HloOpcode::Reverse: case HloOpcode::Iota:
  case HloOpcode::Copy:
    return true;
  default:
    return false;
  }
}

Literal evaluateShapeOp(const HloInstruction &instruction, const Operands &operands) {
  const Shape &shape = instruction.shape();
  switch (instruction.opcode()) {
  case HloOpcode::Iota:
    return evaluateIota(instruction);
  case HloOpcode::Copy:
  case HloOpcode::Reshape: // row-major order is kept
    return operands[0]->withShape(shape);
  case HloOpcode::Bitcast:
    if (instruction.operand(0)->shape().elementType() != shape.elementType())
      return evaluateBitcastConvert(instruction, *operands[0]);
    return evaluateBitcast(instruction, *operands[0]);
  case HloOpcode::Broadcast: {
    if (operands[0]->shape().rank() == 0)
      return filledWith(shape, *operands[0]);
    const std::vector<int64_t> &dims = instruction.dimensions();
    return gatherElements(shape, *operands[0],
                          [&](const std::vector<int64_t> &index, std::vector<int64_t> &source) {
                            for (size_t i = 0; i < dims.size(); ++i)
                              source[i] = index[dims[i]];
                          });
  }
  case HloOpcode::Transpose: {
    const std::vector<int64_t> &permutation = instruction.dimensions();
    return gatherElements(shape, *operands[0],
                          [&](const std::vector<int64_t> &index, std::vector<int64_t> &source) {
                            for (size_t i = 0; i < permutation.size(); ++i)
                              source[permutation[i]] = index[i];
                          });
  }
  case HloOpcode::Reverse: {
    const std::vector<int64_t> &dims = instruction.dimensions();
    return gatherElements(shape, *operands[0],
                          [&](const std::vector<int64_t> &index, std::vector<int64_t> &source) {
                            source = index;
                            for (int64_t d : dims)
                              source[d] = shape.dimension(d) - 1 - index[d];
                          });
  }
  case HloOpcode::Slice: {
    const std::vector<SliceRange> &slices = sliceRangesOf(instruction);
    if (slices.empty() && shape.rank() == 0)
      return operands[0]->withShape(shape);
    if (static_cast<int64_t>(slices.size()) != shape.rank())
      fail(instruction, "slice needs one range per dimension");
    return gatherElements(shape, *operands[0],
                          [&](const std::vector<int64_t> &index, std::vector<int64_t> &source) {
                            for (size_t d = 0; d < index.size(); ++d)
                              source[d] = slices[d].start + index[d] * slices[d].stride;
                          });
  }
  case HloOpcode::DynamicSlice: {
    std::vector<int64_t> starts = clampedStarts(
        operands, 1, operands[0]->shape().dimensions(), shape.dimensions());
    return gatherElements(shape, *operands[0],
                          [&](const std::vector<int64_t> &index, std::vector<int64_t> &source) {
                            for (size_t d = 0; d < index.size(); ++d)
                              source[d] = starts[d] + index[d];
                          });
  }
  case HloOpcode::DynamicUpdateSlice: {
    const Literal &update = *operands[1];
    std::vector<int64_t> starts = clampedStarts(
        operands, 2, shape.dimensions(), update.shape().dimensions());
    Literal result = operands[0]->withShape(shape);
    std::vector<int64_t> strides = rowMajorStrides(shape.dimensions());
    std::vector<int64_t> target(shape.rank());
    forEachIndex(update.shape().dimensions(),
                 [&](const std::vector<int64_t> &index, int64_t linear) {
                   for (size_t d = 0; d < index.size(); ++d)
                     target[d] = starts[d] + index[d];
                   copyElement(result, linearIndex(target, strides), update, linear);
                 });
    return result;
  }
  case HloOpcode::Pad:
    return evaluatePad(instruction, operands);
  case HloOpcode::Concatenate:
    return evaluateConcatenate(instruction, operands);
  default:
    fail(instruction, "not a data-movement op");
  }
}

} // namespace hlo::interp
