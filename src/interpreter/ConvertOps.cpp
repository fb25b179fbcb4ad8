//===- ConvertOps.cpp - bitcast-convert -----------------------------------===//
//
// Reinterpreting element bits between types, including the width-changing
// forms: a wider source splits into a new minor dimension of narrower
// elements (little-endian: element 0 holds the low bits), a narrower source
// has its minor dimension joined.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseOps.h"

#include "hlo_parser/FloatFormat.h"

namespace hlo::interp {
namespace {

int bitWidth(PrimitiveType type) {
  return type == PrimitiveType::Pred ? 8 : primitiveBitWidth(type);
}

uint64_t elementBits(const Literal &literal, int64_t i) {
  return scalarBits(loadScalar(literal, i), literal.shape().elementType());
}

void setElementBits(Literal &literal, int64_t i, uint64_t bits) {
  storeScalar(literal, i, scalarFromBits(bits, literal.shape().elementType()));
}

} // namespace

uint64_t scalarBits(Scalar value, PrimitiveType type) {
  if (isFloatingPoint(type))
    return encodeFloatBits(value.re, type);
  return static_cast<uint64_t>(value.i) & widthMask(bitWidth(type));
}

Scalar scalarFromBits(uint64_t bits, PrimitiveType type) {
  Scalar value;
  if (isFloatingPoint(type))
    value.re = decodeFloatBits(bits, type);
  else
    value.i = wrapInteger(static_cast<int64_t>(bits), type);
  return value;
}

Literal evaluateBitcastConvert(const HloInstruction &instruction,
                               const Literal &operand) {
  PrimitiveType from = operand.shape().elementType();
  PrimitiveType to = instruction.shape().elementType();
  if (isComplex(from) || isComplex(to))
    fail(instruction, "bitcast-convert of complex values is not supported by "
                      "the interpreter");
  Literal result(instruction.shape());
  int fromWidth = bitWidth(from), toWidth = bitWidth(to);
  int64_t count = result.elementCount();
  if (fromWidth == toWidth) {
    for (int64_t i = 0; i < count; ++i)
      setElementBits(result, i, elementBits(operand, i));
  } else if (fromWidth > toWidth) {
    int64_t ratio = fromWidth / toWidth;
    for (int64_t i = 0; i < count; ++i)
      setElementBits(result, i,
                     (elementBits(operand, i / ratio) >> ((i % ratio) * toWidth)) &
                         widthMask(toWidth));
  } else {
    int64_t ratio = toWidth / fromWidth;
    for (int64_t i = 0; i < count; ++i) {
      uint64_t bits = 0;
      for (int64_t k = 0; k < ratio; ++k)
        bits |= elementBits(operand, i * ratio + k) << (k * fromWidth);
      setElementBits(result, i, bits);
    }
  }
  return result;
}

} // namespace hlo::interp
