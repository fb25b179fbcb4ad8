//===- VerifyDataMovement.cpp - Data-movement shape rules -----------------===//
//
// Shape rules of the ops that move or re-index data without computing on
// it: broadcast, reshape, transpose, slice, dynamic-slice,
// dynamic-update-slice, pad, concatenate, reverse, bitcast and iota.
//
//===----------------------------------------------------------------------===//
#include "OpAttributes.h"
#include "VerifierImpl.h"

#include <algorithm>

namespace hlo {

bool InstructionChecker::checkBroadcast() {
  if (!expectOperandCount(1) || !expectArrayOperands())
    return false;
  const Shape &operand = operandShape(0);
  const auto &dims = inst.dimensions();
  const Shape &result = inst.shape();
  if (static_cast<int64_t>(dims.size()) != operand.rank())
    return fail("dimensions " + formatList(dims) + " must have one entry per "
                "operand dimension (rank " + std::to_string(operand.rank()) +
                ")");
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= result.rank())
      return fail("dimension " + std::to_string(dims[i]) +
                  " is out of range for the result rank " +
                  std::to_string(result.rank()));
    if (operand.dimension(i) != result.dimension(dims[i]) &&
        operand.dimension(i) != kUnboundedSize)
      return fail("operand dimension " + std::to_string(i) + " (size " +
                  std::to_string(operand.dimension(i)) +
                  ") must equal result dimension " + std::to_string(dims[i]) +
                  " (size " + std::to_string(result.dimension(dims[i])) + ")");
  }
  if (result.elementType() != operand.elementType())
    return fail("result element type differs from the operand's");
  return true;
}

bool InstructionChecker::checkReshape() {
  if (!expectOperandCount(1) || !expectArrayOperands())
    return false;
  const Shape &operand = operandShape(0);
  if (inst.shape().elementType() != operand.elementType())
    return fail("result element type differs from the operand's");
  if (operand.isStatic() && inst.shape().isStatic() &&
      operand.elementCount() != inst.shape().elementCount())
    return fail("reshape from " + operand.toString(false) + " to " +
                inst.shape().toString(false) +
                " changes the element count (" +
                std::to_string(operand.elementCount()) + " vs " +
                std::to_string(inst.shape().elementCount()) + ")");
  return true;
}

bool InstructionChecker::checkTranspose() {
  if (!expectOperandCount(1) || !expectArrayOperands())
    return false;
  const Shape &operand = operandShape(0);
  const auto &perm = inst.dimensions();
  if (static_cast<int64_t>(perm.size()) != operand.rank() || !allUnique(perm) ||
      !allInRange(perm, operand.rank()))
    return fail("dimensions " + formatList(perm) +
                " must be a permutation of the operand's " +
                std::to_string(operand.rank()) + " dimensions");
  std::vector<int64_t> dims;
  for (int64_t d : perm)
    dims.push_back(operand.dimension(d));
  return expectResult(Shape(operand.elementType(), dims));
}

bool InstructionChecker::checkSlice() {
  if (!expectOperandCount(1) || !expectArrayOperands())
    return false;
  const Shape &operand = operandShape(0);
  const std::vector<SliceRange> &slices = sliceRangesOf(inst);
  if (static_cast<int64_t>(slices.size()) != operand.rank())
    return fail("slice has " + std::to_string(slices.size()) +
                " ranges but the operand has rank " +
                std::to_string(operand.rank()));
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    const SliceRange &range = slices[d];
    if (range.stride <= 0)
      return fail("slice stride must be positive in dimension " +
                  std::to_string(d));
    if (range.start < 0 || range.start > range.limit ||
        (operand.dimension(d) != kUnboundedSize &&
         range.limit > operand.dimension(d)))
      return fail("slice [" + std::to_string(range.start) + ":" +
                  std::to_string(range.limit) + "] is out of bounds of " +
                  "dimension " + std::to_string(d) + " (size " +
                  std::to_string(operand.dimension(d)) + ")");
    dims.push_back(static_cast<int64_t>(
        ((__int128)range.limit - range.start + range.stride - 1) /
        range.stride));
  }
  return expectResult(Shape(operand.elementType(), dims));
}

bool InstructionChecker::checkDynamicSlice() {
  if (inst.operandCount() < 1)
    return fail("expects an operand");
  const Shape &operand = operandShape(0);
  const auto &sizes = dynamicSliceSizesOf(inst);
  int64_t indexCount = inst.operandCount() - 1;
  bool vectorForm = indexCount == 1 && operandShape(1).rank() == 1;
  if (!vectorForm && indexCount != operand.rank())
    return fail("expects " + std::to_string(operand.rank()) +
                " scalar start indices, but has " + std::to_string(indexCount));
  for (int64_t i = 1; i < inst.operandCount(); ++i)
    if (!isIntegral(operandShape(i).elementType()))
      return fail("start indices must be integers");
  if (static_cast<int64_t>(sizes.size()) != operand.rank())
    return fail("dynamic_slice_sizes must have one entry per dimension");
  for (int64_t d = 0; d < operand.rank(); ++d)
    if (sizes[d] < 0 || (operand.dimension(d) != kUnboundedSize &&
                         sizes[d] > operand.dimension(d)))
      return fail("slice size " + std::to_string(sizes[d]) +
                  " is out of bounds of dimension " + std::to_string(d) +
                  " (size " + std::to_string(operand.dimension(d)) + ")");
  return expectResult(Shape(operand.elementType(), sizes));
}

bool InstructionChecker::checkDynamicUpdateSlice() {
  if (inst.operandCount() < 2)
    return fail("expects an operand and an update");
  const Shape &operand = operandShape(0);
  const Shape &update = operandShape(1);
  int64_t indexCount = inst.operandCount() - 2;
  bool vectorForm = indexCount == 1 && operandShape(2).rank() == 1;
  if (!vectorForm && indexCount != operand.rank())
    return fail("expects " + std::to_string(operand.rank()) +
                " scalar start indices, but has " + std::to_string(indexCount));
  if (update.rank() != operand.rank())
    return fail("update rank " + std::to_string(update.rank()) +
                " differs from operand rank " + std::to_string(operand.rank()));
  for (int64_t d = 0; d < operand.rank(); ++d)
    if (operand.dimension(d) != kUnboundedSize &&
        update.dimension(d) > operand.dimension(d))
      return fail("update dimension " + std::to_string(d) + " (size " +
                  std::to_string(update.dimension(d)) +
                  ") is larger than the operand's (" +
                  std::to_string(operand.dimension(d)) + ")");
  if (update.elementType() != operand.elementType())
    return fail("update element type differs from the operand's");
  return expectResult(operand);
}

bool InstructionChecker::checkPad() {
  if (!expectOperandCount(2) || !expectArrayOperands())
    return false;
  const Shape &operand = operandShape(0);
  if (operandShape(1).rank() != 0)
    return fail("the padding value must be a scalar");
  const std::vector<PaddingDimension> &padding = paddingOf(inst);
  if (static_cast<int64_t>(padding.size()) != operand.rank())
    return fail("padding has " + std::to_string(padding.size()) +
                " dimensions but the operand has rank " +
                std::to_string(operand.rank()));
  if (hasUnbounded(operand))
    return true;
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    const PaddingDimension &pad = padding[d];
    if (pad.interior < 0)
      return fail("interior padding must not be negative");
    int64_t size = operand.dimension(d);
    __int128 wide = (__int128)pad.low + pad.high + size +
                    (__int128)std::max<int64_t>(size - 1, 0) * pad.interior;
    if (!fitsInt64(wide))
      return fail("padded size of dimension " + std::to_string(d) +
                  " overflows");
    int64_t padded = static_cast<int64_t>(wide);
    if (padded < 0)
      return fail("padding makes dimension " + std::to_string(d) +
                  " negative");
    dims.push_back(padded);
  }
  return expectResult(Shape(operand.elementType(), dims));
}

bool InstructionChecker::checkConcatenate() {
  if (inst.operandCount() < 1 || !expectArrayOperands())
    return fail("expects at least one operand");
  const auto &dims = inst.dimensions();
  const Shape &first = operandShape(0);
  if (dims.size() != 1 || dims[0] < 0 || dims[0] >= first.rank())
    return fail("dimensions must name one dimension of the operands");
  int64_t dim = dims[0];
  if (hasUnbounded(first))
    return true;
  std::vector<int64_t> result = first.dimensions();
  result[dim] = 0;
  for (int64_t i = 0; i < inst.operandCount(); ++i) {
    const Shape &operand = operandShape(i);
    if (operand.rank() != first.rank())
      return fail("operand " + std::to_string(i) + " has a different rank");
    for (int64_t d = 0; d < first.rank(); ++d)
      if (d != dim && operand.dimension(d) != first.dimension(d))
        return fail("operand " + std::to_string(i) + " differs in dimension " +
                    std::to_string(d) + " from operand 0");
    if (operand.dimension(dim) == kUnboundedSize ||
        __builtin_add_overflow(result[dim], operand.dimension(dim),
                               &result[dim]))
      return true;
  }
  return expectResult(Shape(first.elementType(), result));
}

bool InstructionChecker::checkReverse() {
  if (!expectOperandCount(1) || !expectArrayOperands())
    return false;
  const auto &dims = inst.dimensions();
  if (!allUnique(dims) || !allInRange(dims, operandShape(0).rank()))
    return fail("dimensions " + formatList(dims) + " are not unique "
                "dimensions of the operand");
  return expectResult(operandShape(0));
}

bool InstructionChecker::checkBitcast() {
  if (!expectOperandCount(1))
    return false;
  const Shape &operand = operandShape(0);
  const Shape &result = inst.shape();
  if (!operand.isArray() || !result.isArray() || !operand.isStatic() ||
      !result.isStatic())
    return true;
  auto bits = [](const Shape &shape) {
    int64_t element = shape.hasLayout() && shape.layout().elementSizeInBits
                          ? shape.layout().elementSizeInBits
                          : primitiveBitWidth(shape.elementType());
    if (shape.elementType() == PrimitiveType::Pred)
      element = 8;
    return (__int128)shape.elementCount() * element;
  };
  if (bits(operand) != bits(result))
    return fail("bitcast from " + operand.toString(false) + " to " +
                result.toString(false) + " changes the size in bits");
  return true;
}

bool InstructionChecker::checkIota() {
  if (!expectOperandCount(0))
    return false;
  int64_t dim = iotaDimension(inst);
  if (dim < 0 || dim >= std::max<int64_t>(inst.shape().rank(), 1))
    return fail("iota_dimension " + std::to_string(dim) +
                " is out of range for rank " +
                std::to_string(inst.shape().rank()));
  return true;
}

} // namespace hlo
