//===- Shape.cpp - HLO shapes and layouts ---------------------------------===//
#include "Shape.h"

#include <string>

namespace hlo {

bool Layout::operator==(const Layout &other) const {
  return minorToMajor == other.minorToMajor && tiles == other.tiles &&
         elementSizeInBits == other.elementSizeInBits &&
         memorySpace == other.memorySpace && extraItems == other.extraItems;
}

Layout Layout::defaultForRank(int64_t rank) {
  Layout layout;
  for (int64_t i = rank - 1; i >= 0; --i)
    layout.minorToMajor.push_back(i);
  return layout;
}

Shape::Shape(PrimitiveType type, std::vector<int64_t> dimensions)
    : type(type), dims(std::move(dimensions)) {}

Shape Shape::tuple(std::vector<Shape> elements) {
  Shape shape;
  shape.type = PrimitiveType::Tuple;
  shape.elements = std::move(elements);
  return shape;
}

void Shape::setDimensions(std::vector<int64_t> newDims) {
  dims = std::move(newDims);
  dynamic.clear();
}

void Shape::setDynamicDimension(int64_t i, bool isDynamic) {
  if (dynamic.empty()) {
    if (!isDynamic)
      return;
    dynamic.assign(dims.size(), false);
  }
  dynamic[i] = isDynamic;
}

bool Shape::isStatic() const {
  if (isTuple()) {
    for (const Shape &element : elements)
      if (!element.isStatic())
        return false;
    return true;
  }
  for (bool isDynamic : dynamic)
    if (isDynamic)
      return false;
  return true;
}

/// Dynamic flags compare equal whether stored or implied (empty = static).
static bool sameDynamic(const Shape &a, const Shape &b) {
  for (int64_t i = 0; i < a.rank(); ++i)
    if (a.isDynamicDimension(i) != b.isDynamicDimension(i))
      return false;
  return true;
}

int64_t Shape::bufferBytes() const {
  int64_t count = elementCount();
  if (count < 0)
    return count;
  if (int bits = packedElementBits(type)) {
    int64_t perByte = 8 / bits;
    return count / perByte + (count % perByte != 0);
  }
  return count * primitiveByteWidth(type);
}

int64_t Shape::elementCount() const {
  int64_t count = 1;
  for (int64_t dim : dims) {
    if (dim == kUnboundedSize)
      return -1;
    if (__builtin_mul_overflow(count, dim, &count))
      return INT64_MAX;
  }
  return count;
}

Layout Shape::layoutOrDefault() const {
  return layoutValue ? *layoutValue : Layout::defaultForRank(rank());
}

std::vector<int64_t> Shape::physicalOrder() const {
  Layout layout = layoutOrDefault();
  return std::vector<int64_t>(layout.minorToMajor.rbegin(),
                              layout.minorToMajor.rend());
}

bool Shape::compatible(const Shape &other) const {
  if (type != other.type)
    return false;
  if (isTuple()) {
    if (elements.size() != other.elements.size())
      return false;
    for (size_t i = 0; i < elements.size(); ++i)
      if (!elements[i].compatible(other.elements[i]))
        return false;
    return true;
  }
  if (dims.size() != other.dims.size())
    return false;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == kUnboundedSize || other.dims[i] == kUnboundedSize)
      continue;
    if (dims[i] != other.dims[i])
      return false;
  }
  return true;
}

bool Shape::equalIgnoringMissingLayout(const Shape &other) const {
  if (!compatible(other))
    return false;
  if (isTuple()) {
    for (size_t i = 0; i < elements.size(); ++i)
      if (!elements[i].equalIgnoringMissingLayout(other.elements[i]))
        return false;
    return true;
  }
  if (!sameDynamic(*this, other))
    return false;
  if (hasLayout() && other.hasLayout())
    return layout().minorToMajor == other.layout().minorToMajor;
  return true;
}

bool Shape::operator==(const Shape &other) const {
  return type == other.type && dims == other.dims && sameDynamic(*this, other) &&
         layoutOrDefault() == other.layoutOrDefault() &&
         elements == other.elements;
}

static void appendInt(std::string &out, int64_t value) {
  out += std::to_string(value);
}

void printLayout(std::string &out, const Layout &layout) {
  out += '{';
  for (size_t i = 0; i < layout.minorToMajor.size(); ++i) {
    if (i)
      out += ',';
    appendInt(out, layout.minorToMajor[i]);
  }
  bool hasItems = !layout.tiles.empty() || layout.elementSizeInBits != 0 ||
                  layout.memorySpace != 0 || !layout.extraItems.empty();
  if (hasItems) {
    out += ':';
    if (!layout.tiles.empty())
      out += 'T';
    for (const Tile &tile : layout.tiles) {
      out += "(";
      for (size_t i = 0; i < tile.dimensions.size(); ++i) {
        if (i)
          out += ',';
        if (tile.dimensions[i] == kCombineTileDimension)
          out += '*';
        else
          appendInt(out, tile.dimensions[i]);
      }
      out += ')';
    }
    if (layout.elementSizeInBits != 0) {
      out += "E(";
      appendInt(out, layout.elementSizeInBits);
      out += ')';
    }
    if (layout.memorySpace != 0) {
      out += "S(";
      appendInt(out, layout.memorySpace);
      out += ')';
    }
    out += layout.extraItems;
  }
  out += '}';
}

void Shape::print(std::string &out, bool printLayoutToo) const {
  if (isTuple()) {
    out += '(';
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i)
        out += ", ";
      elements[i].print(out, printLayoutToo);
    }
    out += ')';
    return;
  }
  out += primitiveTypeName(type);
  out += '[';
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      out += ',';
    if (dims[i] == kUnboundedSize) {
      out += '?';
      continue;
    }
    if (isDynamicDimension(i))
      out += "<=";
    appendInt(out, dims[i]);
  }
  out += ']';
  if (!printLayoutToo || !isArray())
    return;
  if (hasLayout())
    printLayout(out, layout());
  else if (!dims.empty())
    printLayout(out, Layout::defaultForRank(rank()));
}

std::string Shape::toString(bool printLayoutToo) const {
  std::string out;
  print(out, printLayoutToo);
  return out;
}

} // namespace hlo
