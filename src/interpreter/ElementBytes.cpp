//===- ElementBytes.cpp - Literals <-> raw element bytes ------------------===//
#include "ElementBytes.h"

#include "ArrayUtils.h"

#include "hlo_parser/FloatFormat.h"

namespace hlo::interp {
namespace {

void storeLittleEndian(uint8_t *out, uint64_t value, int64_t bytes) {
  for (int64_t i = 0; i < bytes; ++i)
    out[i] = static_cast<uint8_t>(value >> (8 * i));
}

uint64_t loadLittleEndian(const uint8_t *in, int64_t bytes) {
  uint64_t value = 0;
  for (int64_t i = 0; i < bytes; ++i)
    value |= static_cast<uint64_t>(in[i]) << (8 * i);
  return value;
}

} // namespace

int64_t elementByteSize(PrimitiveType type) {
  if (type == PrimitiveType::Pred)
    return 1;
  return std::max(1, primitiveBitWidth(type) / 8);
}

std::vector<uint8_t> encodeElements(const Literal &array) {
  PrimitiveType type = array.shape().elementType();
  int64_t size = elementByteSize(type), count = array.elementCount();
  std::vector<uint8_t> bytes(static_cast<size_t>(count * size));
  for (int64_t i = 0; i < count; ++i) {
    uint8_t *out = bytes.data() + i * size;
    if (isComplex(type)) {
      PrimitiveType part = complexComponentType(type);
      storeLittleEndian(out, encodeFloatBits(array.realData()[i], part), size / 2);
      storeLittleEndian(out + size / 2, encodeFloatBits(array.imagData()[i], part), size / 2);
    } else if (isFloatingPoint(type)) {
      storeLittleEndian(out, encodeFloatBits(array.realData()[i], type), size);
    } else {
      storeLittleEndian(out, static_cast<uint64_t>(array.intData()[i]), size);
    }
  }
  return bytes;
}

Literal decodeElements(const uint8_t *bytes, const Shape &shape) {
  Literal array(shape);
  PrimitiveType type = shape.elementType();
  int64_t size = elementByteSize(type), count = array.elementCount();
  for (int64_t i = 0; i < count; ++i) {
    const uint8_t *in = bytes + i * size;
    if (isComplex(type)) {
      PrimitiveType part = complexComponentType(type);
      array.realData()[i] = decodeFloatBits(loadLittleEndian(in, size / 2), part);
      array.imagData()[i] = decodeFloatBits(loadLittleEndian(in + size / 2, size / 2), part);
    } else if (isFloatingPoint(type)) {
      array.realData()[i] = decodeFloatBits(loadLittleEndian(in, size), type);
    } else {
      array.intData()[i] = wrapInteger(static_cast<int64_t>(loadLittleEndian(in, size)), type);
    }
  }
  return array;
}

} // namespace hlo::interp
