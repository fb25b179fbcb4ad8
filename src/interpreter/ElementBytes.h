//===- ElementBytes.h - Literals <-> raw element bytes ---------*- C++ -*-===//
//
// Owns the byte encoding of array elements shared by .npy files and the
// kernels' buffers: little-endian, one element after another in row-major
// logical order, pred as one byte, sub-byte integers and f4 one byte each,
// bf16 / f8 as their bit patterns, complex as (real, imag).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_INTERPRETER_ELEMENTBYTES_H
#define HLO_INTERPRETER_ELEMENTBYTES_H

#include "hlo_parser/Literal.h"

#include <cstdint>
#include <vector>

namespace hlo::interp {

/// Bytes per element in this encoding.
int64_t elementByteSize(PrimitiveType type);

std::vector<uint8_t> encodeElements(const Literal &array);
/// Decodes `elementCount(shape) * elementByteSize` bytes.
Literal decodeElements(const uint8_t *bytes, const Shape &shape);

} // namespace hlo::interp

#endif // HLO_INTERPRETER_ELEMENTBYTES_H
