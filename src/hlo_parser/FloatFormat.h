//===- FloatFormat.h - Rounding to HLO's narrow float formats ---*- C++ -*-===//
//
// Owns the description of each HLO floating-point format (exponent and
// mantissa widths, bias, which of inf / NaN / -0 exist) and round-to-nearest-
// even conversion of a double into a value representable in that format.
// The parser uses it to range-check float literals; the reference
// interpreter uses it to round results.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_PARSER_FLOATFORMAT_H
#define HLO_PARSER_FLOATFORMAT_H

#include "PrimitiveType.h"

#include <cstdint>

namespace hlo {

struct FloatFormat {
  int exponentBits;
  int mantissaBits;
  int bias;
  bool hasInf;      // IEEE-style infinities.
  bool hasNaN;      // Some encoding is NaN.
  bool hasNegZero;  // -0 exists (false for the *fnuz formats).
  bool hasSign;     // false for f8e8m0fnu.
  bool allOnesMantissaIsNaN; // "fn" formats: only s.1111.111 is NaN.

  /// Largest finite value.
  double maxFinite() const;
  /// Smallest positive value (subnormal where the format has them).
  double minPositive() const;
};

/// The format of a floating-point type; types f32/f64 included.
FloatFormat floatFormatOf(PrimitiveType type);

/// Rounds `value` to the nearest representable value of `type` (ties to
/// even). Values past the largest finite one become inf where the format has
/// it and NaN otherwise; NaN stays NaN.
double roundToFloatType(double value, PrimitiveType type);

/// True if a finite `value` rounds past the largest finite value of `type`
/// (what the parser calls "out of range for literal's primitive type").
bool overflowsFloatType(double value, PrimitiveType type);

/// The bit pattern of `value` rounded to `type` (f32/f64 and the narrow
/// float formats), in the low primitiveBitWidth(type) bits. NaN gets the
/// format's canonical quiet NaN.
uint64_t encodeFloatBits(double value, PrimitiveType type);

/// The value of the bit pattern `bits` of `type` (the inverse of
/// encodeFloatBits on representable values).
double decodeFloatBits(uint64_t bits, PrimitiveType type);

} // namespace hlo

#endif // HLO_PARSER_FLOATFORMAT_H
