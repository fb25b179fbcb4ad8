//===- Shape.h - HLO shapes and layouts -------------------------*- C++ -*-===//
//
// Owns Shape (array, tuple, token, opaque), its dimensions with bounded
// (`<=N`) and unbounded (`?`) dynamic sizes, and Layout: minor_to_major,
// tiles `T(8,128)(2,1)`, element size `E(4)`, memory space `S(1)`; other
// layout items are kept verbatim so they print back unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_SHAPE_H
#define HLO_PARSER_SHAPE_H

#include "PrimitiveType.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hlo {

/// Size of an unbounded dynamic dimension (`?`).
inline constexpr int64_t kUnboundedSize = INT64_MIN;
/// A tile dimension written `*`: combine with the next-minor dimension.
inline constexpr int64_t kCombineTileDimension = INT64_MIN;

struct Tile {
  std::vector<int64_t> dimensions;
  bool operator==(const Tile &other) const {
    return dimensions == other.dimensions;
  }
};

struct Layout {
  std::vector<int64_t> minorToMajor;
  std::vector<Tile> tiles;
  int64_t elementSizeInBits = 0; // E(n); 0 = natural size.
  int64_t memorySpace = 0;       // S(n)
  /// Other items after ':' (D(...), L(...), P(...), M(...), SC(...), ...),
  /// verbatim, in the order written.
  std::string extraItems;

  bool operator==(const Layout &other) const;
  bool operator!=(const Layout &other) const { return !(*this == other); }
  /// The default (major-to-minor) layout of a rank-`rank` array.
  static Layout defaultForRank(int64_t rank);
};

class Shape {
public:
  Shape() = default;
  /// An array shape with static dimensions and no explicit layout.
  Shape(PrimitiveType type, std::vector<int64_t> dimensions);
  static Shape tuple(std::vector<Shape> elements);
  static Shape token() { return Shape(PrimitiveType::Token, {}); }

  PrimitiveType elementType() const { return type; }
  void setElementType(PrimitiveType newType) { type = newType; }
  bool isTuple() const { return type == PrimitiveType::Tuple; }
  bool isToken() const { return type == PrimitiveType::Token; }
  bool isArray() const { return isArrayType(type); }

  // Arrays.
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  const std::vector<int64_t> &dimensions() const { return dims; }
  int64_t dimension(int64_t i) const { return dims[i]; }
  bool isDynamicDimension(int64_t i) const {
    return !dynamic.empty() && dynamic[i];
  }
  void setDimensions(std::vector<int64_t> newDims);
  void setDynamicDimension(int64_t i, bool isDynamic);
  bool isStatic() const;
  /// Product of the dimensions (upper bounds for bounded dynamic ones);
  /// -1 if a dimension is unbounded.
  int64_t elementCount() const;
  /// The bytes of an array's buffer: 4-bit elements (s4, u4, f4e2m1fn)
  /// two per byte and 2-bit ones (s2, u2) four, as XLA stores them
  /// (`E(4)`, `E(2)`), pred one byte, the rest their width.
  int64_t bufferBytes() const;

  bool hasLayout() const { return layoutValue.has_value(); }
  const Layout &layout() const { return *layoutValue; }
  Layout &mutableLayout() { return *layoutValue; }
  void setLayout(Layout layout) { layoutValue = std::move(layout); }
  void clearLayout() { layoutValue.reset(); }
  /// The layout if present, else the default one.
  Layout layoutOrDefault() const;
  /// The logical dimensions in physical order, major to minor.
  std::vector<int64_t> physicalOrder() const;

  // Tuples.
  const std::vector<Shape> &tupleShapes() const { return elements; }
  std::vector<Shape> &mutableTupleShapes() { return elements; }
  int64_t tupleSize() const { return static_cast<int64_t>(elements.size()); }

  /// Same element types and dimensions (layouts ignored), recursively.
  bool compatible(const Shape &other) const;
  /// Same dims and element type, and same layout where both have one.
  bool equalIgnoringMissingLayout(const Shape &other) const;
  bool operator==(const Shape &other) const;
  bool operator!=(const Shape &other) const { return !(*this == other); }

  /// HLO text, e.g. `f32[2,3]{1,0}`. Layouts of arrays of rank >= 1 are
  /// always printed (the default one where none was given).
  std::string toString(bool printLayout = true) const;
  void print(std::string &out, bool printLayout = true) const;

private:
  PrimitiveType type = PrimitiveType::Tuple;
  std::vector<int64_t> dims;
  /// Empty while every dimension is static (the common case).
  std::vector<bool> dynamic;
  std::optional<Layout> layoutValue;
  std::vector<Shape> elements;
};

void printLayout(std::string &out, const Layout &layout);

} // namespace hlo

#endif // HLO_PARSER_SHAPE_H
