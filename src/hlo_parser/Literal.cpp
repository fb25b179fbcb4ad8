//===- Literal.cpp - Constant values of HLO instructions ------------------===//
#include "Literal.h"

#include "FloatFormat.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace hlo {

Literal::Literal(const Shape &shape) : shapeValue(shape) {
  if (shape.isTuple()) {
    for (const Shape &element : shape.tupleShapes())
      elements.emplace_back(element);
    return;
  }
  int64_t count = std::max<int64_t>(shape.elementCount(), 0);
  PrimitiveType type = shape.elementType();
  if (isFloatingPoint(type) || isComplex(type))
    reals.assign(count, 0.0);
  else
    ints.assign(count, 0);
  if (isComplex(type))
    imags.assign(count, 0.0);
}

Literal Literal::tuple(std::vector<Literal> elements) {
  std::vector<Shape> shapes;
  for (const Literal &element : elements)
    shapes.push_back(element.shape());
  Literal result;
  result.shapeValue = Shape::tuple(std::move(shapes));
  result.elements = std::move(elements);
  return result;
}

Literal Literal::withShape(const Shape &shape) const {
  Literal result = *this;
  result.shapeValue = shape;
  return result;
}

int64_t Literal::elementCount() const { return shapeValue.elementCount(); }

double Literal::getAsDouble(int64_t i) const {
  PrimitiveType type = shapeValue.elementType();
  if (isFloatingPoint(type) || isComplex(type))
    return reals[i];
  if (isUnsignedIntegral(type))
    return static_cast<double>(getUInt(i));
  return static_cast<double>(ints[i]);
}

std::string formatFloat(double value, PrimitiveType type) {
  if (std::isnan(value))
    return std::signbit(value) ? "-nan" : "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char buffer[64];
  if (type == PrimitiveType::F64 || type == PrimitiveType::C128) {
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    return std::string(buffer, result.ptr);
  }
  if (type == PrimitiveType::F32 || type == PrimitiveType::C64) {
    auto result = std::to_chars(buffer, buffer + sizeof(buffer),
                                static_cast<float>(value));
    return std::string(buffer, result.ptr);
  }
  // Narrow formats: the fewest significant digits that round back, in
  // fixed notation where the magnitude allows (448, not 4.5e+02).
  double magnitude = std::fabs(value);
  bool fixed = magnitude == 0 || (magnitude >= 1e-4 && magnitude < 1e15);
  int exponent = magnitude == 0 ? 0 : static_cast<int>(std::floor(std::log10(magnitude)));
  for (int digits = 1; digits <= 17; ++digits) {
    if (fixed)
      std::snprintf(buffer, sizeof(buffer), "%.*f",
                    std::max(0, digits - 1 - exponent), value);
    else
      std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
    if (roundToFloatType(std::strtod(buffer, nullptr), type) == value)
      break;
  }
  return buffer;
}

static void printElement(std::string &out, const Literal &literal,
                         PrimitiveType type, int64_t i) {
  if (type == PrimitiveType::Pred) {
    out += literal.getInt(i) ? "true" : "false";
  } else if (isUnsignedIntegral(type)) {
    out += std::to_string(literal.getUInt(i));
  } else if (isSignedIntegral(type)) {
    out += std::to_string(literal.getInt(i));
  } else if (isComplex(type)) {
    std::complex<double> value = literal.getComplex(i);
    out += '(';
    out += formatFloat(value.real(), type);
    out += ", ";
    out += formatFloat(value.imag(), type);
    out += ')';
  } else {
    out += formatFloat(literal.getFloat(i), type);
  }
}

/// Prints dimensions [dim, rank) of the sub-array starting at `offset`.
static void printArray(std::string &out, const Literal &literal, int64_t dim,
                       int64_t &offset) {
  const Shape &shape = literal.shape();
  if (dim == shape.rank()) {
    printElement(out, literal, shape.elementType(), offset++);
    return;
  }
  out += '{';
  for (int64_t i = 0; i < shape.dimension(dim); ++i) {
    if (i)
      out += ", ";
    printArray(out, literal, dim + 1, offset);
  }
  out += '}';
}

void Literal::print(std::string &out) const {
  if (shapeValue.isTuple()) {
    out += '(';
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i)
        out += ", ";
      elements[i].print(out);
    }
    out += ')';
    return;
  }
  if (elided) {
    out += "{...}";
    return;
  }
  if (!shapeValue.isArray())
    return;
  int64_t offset = 0;
  printArray(out, *this, 0, offset);
}

std::string Literal::toString() const {
  std::string out;
  print(out);
  return out;
}

} // namespace hlo
