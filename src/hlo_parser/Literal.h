//===- Literal.h - Constant values of HLO instructions ----------*- C++ -*-===//
//
// Owns Literal: the value of a `constant` (array, scalar or tuple), stored
// flat in row-major order of the logical dimensions, one 64-bit slot per
// element (integers as int64 bit patterns, floats as the double nearest the
// rounded value, complex as two doubles), and its HLO text form. A literal
// printed as `{...}` by XLA (elided) is kept as elided, or filled with
// made-up values (FillElidedLiteral.h) and marked so.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_LITERAL_H
#define HLO_PARSER_LITERAL_H

#include "Shape.h"

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace hlo {

class Literal {
public:
  Literal() = default;
  /// A zero-filled array literal of `shape` (or a tuple of those).
  explicit Literal(const Shape &shape);
  /// A tuple of `elements` (its shape: theirs), built without first
  /// allocating zero-filled elements.
  static Literal tuple(std::vector<Literal> elements);
  /// This array's elements (row-major) under `shape`, which must have the
  /// same element type and count (reshape, copy, a new layout).
  Literal withShape(const Shape &shape) const;

  const Shape &shape() const { return shapeValue; }
  int64_t elementCount() const;
  bool isElided() const { return elided; }
  void setElided(bool value) { elided = value; }
  /// Whether the values were made up for an elided literal (printed in
  /// full: they are the values every reader of the text then uses).
  bool isFilled() const { return filled; }
  void setFilled(bool value) { filled = value; }

  // Array element access by flat (row-major) index.
  int64_t getInt(int64_t i) const { return ints[i]; }
  uint64_t getUInt(int64_t i) const { return static_cast<uint64_t>(ints[i]); }
  double getFloat(int64_t i) const { return reals[i]; }
  std::complex<double> getComplex(int64_t i) const {
    return {reals[i], imags[i]};
  }
  void setInt(int64_t i, int64_t value) { ints[i] = value; }
  void setFloat(int64_t i, double value) { reals[i] = value; }
  void setComplex(int64_t i, std::complex<double> value) {
    reals[i] = value.real();
    imags[i] = value.imag();
  }
  /// The element storage, for code that walks whole arrays (the
  /// interpreter): pred and integers in intData (unsigned 64-bit values as
  /// their bit pattern), floats in realData, complex in realData/imagData.
  std::vector<int64_t> &intData() { return ints; }
  const std::vector<int64_t> &intData() const { return ints; }
  std::vector<double> &realData() { return reals; }
  const std::vector<double> &realData() const { return reals; }
  std::vector<double> &imagData() { return imags; }
  const std::vector<double> &imagData() const { return imags; }

  /// Value as double whatever the element type (pred/int converted).
  double getAsDouble(int64_t i) const;

  const std::vector<Literal> &tupleElements() const { return elements; }
  std::vector<Literal> &mutableTupleElements() { return elements; }

  /// HLO text: `42`, `{1, 2}`, `{{1, 2}, {3, 4}}`, `(1, {2})`, `{...}`.
  void print(std::string &out) const;
  std::string toString() const;

private:
  Shape shapeValue;
  bool elided = false;
  bool filled = false;
  std::vector<int64_t> ints;  // pred and integer types
  std::vector<double> reals;  // floats; real part of complex
  std::vector<double> imags;  // imaginary part of complex
  std::vector<Literal> elements;
};

/// Shortest decimal text that reads back to the same value of `type`
/// (`inf`, `-inf`, `nan` for the non-finite values).
std::string formatFloat(double value, PrimitiveType type);

} // namespace hlo

#endif // HLO_PARSER_LITERAL_H
