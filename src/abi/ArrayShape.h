//===- ArrayShape.h - A buffer's array as the manifest states it -*- C++ -*-===//
//
// The ABI's own description of the array a kernel parameter's buffer
// holds: the element type by the name HLO gives it ("f32", "bf16",
// "f8e4m3fn", ...), the dimensions, and the layout (most minor first), as
// the manifest's "element_type", "shape" and "layout" fields state them.
// Small on purpose: hlo-compile fills it from its HLO shapes and hlo-run
// turns it into the interpreter's, and neither tool's types are part of
// the file format between them.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_ABI_ARRAYSHAPE_H
#define HLO_ABI_ARRAYSHAPE_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hlo::abi {

struct ArrayShape {
  /// The element type's HLO name; one isArrayElementType accepts.
  std::string elementType;
  std::vector<int64_t> dimensions;
  /// The layout, most minor dimension first: a permutation of the
  /// dimensions' positions.
  std::vector<int64_t> minorToMajor;

  /// An array of `dimensions` in the default (row-major) layout.
  static ArrayShape rowMajor(std::string elementType, std::vector<int64_t> dimensions);

  int64_t elementCount() const;
  /// "f32[4,8]{1,0}", as HLO writes a shape with its layout.
  std::string str() const;
  bool operator==(const ArrayShape &other) const {
    return elementType == other.elementType && dimensions == other.dimensions &&
           minorToMajor == other.minorToMajor;
  }
};

/// Whether `name` is an element type an array buffer may hold: the
/// integer, float and complex types HLO names (not token, tuple, opaque).
bool isArrayElementType(std::string_view name);

} // namespace hlo::abi

#endif // HLO_ABI_ARRAYSHAPE_H
