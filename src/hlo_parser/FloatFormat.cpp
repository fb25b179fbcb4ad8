//===- FloatFormat.cpp - Rounding to HLO's narrow float formats -----------===//
#include "FloatFormat.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace hlo {

double FloatFormat::maxFinite() const {
  int maxExponentField = (1 << exponentBits) - 1;
  if (hasInf)
    maxExponentField -= 1; // all-ones exponent is inf/NaN.
  int maxExponent = maxExponentField - bias;
  double mantissaOnes = 2.0 - std::ldexp(1.0, -mantissaBits);
  if (allOnesMantissaIsNaN)
    mantissaOnes -= std::ldexp(1.0, -mantissaBits);
  if (mantissaBits == 0 && hasNaN && !hasInf)
    maxExponent -= 1; // e8m0: 0xff is NaN.
  return mantissaOnes * std::ldexp(1.0, maxExponent);
}

double FloatFormat::minPositive() const {
  if (mantissaBits == 0)
    return std::ldexp(1.0, -bias);
  return std::ldexp(1.0, 1 - bias - mantissaBits);
}

FloatFormat floatFormatOf(PrimitiveType type) {
  switch (type) {
  case PrimitiveType::F16:
    return {5, 10, 15, true, true, true, true, false};
  case PrimitiveType::BF16:
    return {8, 7, 127, true, true, true, true, false};
  case PrimitiveType::F32:
  case PrimitiveType::C64:
    return {8, 23, 127, true, true, true, true, false};
  case PrimitiveType::F64:
  case PrimitiveType::C128:
    return {11, 52, 1023, true, true, true, true, false};
  case PrimitiveType::F8E5M2:
    return {5, 2, 15, true, true, true, true, false};
  case PrimitiveType::F8E4M3:
    return {4, 3, 7, true, true, true, true, false};
  case PrimitiveType::F8E3M4:
    return {3, 4, 3, true, true, true, true, false};
  case PrimitiveType::F8E4M3FN:
    return {4, 3, 7, false, true, true, true, true};
  case PrimitiveType::F8E4M3FNUZ:
    return {4, 3, 8, false, true, false, true, false};
  case PrimitiveType::F8E5M2FNUZ:
    return {5, 2, 16, false, true, false, true, false};
  case PrimitiveType::F8E4M3B11FNUZ:
    return {4, 3, 11, false, true, false, true, false};
  case PrimitiveType::F8E8M0FNU:
    return {8, 0, 127, false, true, false, false, false};
  case PrimitiveType::F4E2M1FN:
    return {2, 1, 1, false, false, true, true, false};
  default:
    return {11, 52, 1023, true, true, true, true, false};
  }
}

/// Rounds a positive finite magnitude to the format's precision, ignoring
/// its largest exponent (the result may exceed maxFinite).
static double roundMagnitude(double magnitude, const FloatFormat &format) {
  int exponent; // magnitude = m * 2^exponent with m in [0.5, 1).
  std::frexp(magnitude, &exponent);
  int unbiased = exponent - 1;
  int minNormalExponent =
      format.mantissaBits == 0 ? -format.bias : 1 - format.bias;
  int quantumExponent =
      (unbiased < minNormalExponent ? minNormalExponent : unbiased) -
      format.mantissaBits;
  double scaled = std::ldexp(magnitude, -quantumExponent);
  double rounded = std::nearbyint(scaled); // Default mode: ties to even.
  double result = std::ldexp(rounded, quantumExponent);
  if (format.mantissaBits == 0 && result < format.minPositive())
    result = format.minPositive(); // e8m0 has no zero: flush up.
  return result;
}

bool overflowsFloatType(double value, PrimitiveType type) {
  if (!std::isfinite(value) || type == PrimitiveType::F64 ||
      type == PrimitiveType::C128)
    return false;
  FloatFormat format = floatFormatOf(type);
  double magnitude = std::fabs(value);
  if (magnitude == 0.0)
    return false;
  return roundMagnitude(magnitude, format) > format.maxFinite();
}

static uint64_t encodeNan(double value, const FloatFormat &format, int width);

/// maxFinite() of every type, computed once (the rounding fast path needs
/// it per element).
static double maxFiniteOf(PrimitiveType type) {
  static const std::vector<double> table = [] {
    std::vector<double> values;
    for (int t = 0; t <= static_cast<int>(PrimitiveType::Tuple); ++t)
      values.push_back(floatFormatOf(static_cast<PrimitiveType>(t)).maxFinite());
    return values;
  }();
  return table[static_cast<size_t>(type)];
}

double roundToFloatType(double value, PrimitiveType type) {
  if (type == PrimitiveType::F64 || type == PrimitiveType::C128)
    return value;
  if (type == PrimitiveType::F32 || type == PrimitiveType::C64)
    return static_cast<double>(static_cast<float>(value));
  FloatFormat format = floatFormatOf(type);
  // ml_dtypes and XLA's GPU code convert an f64 to the 8-, 6- and 4-bit
  // floats through f32 (rounding twice); XLA's CPU backend rounds once.
  if (primitiveBitWidth(type) < 16 && !std::isnan(value))
    value = static_cast<double>(static_cast<float>(value));
  if (std::isnan(value)) {
    if (primitiveBitWidth(type) >= 16)
      return value;
    // The NaN the format holds (f4e2m1fn, which has none: -0, as XLA
    // converts a NaN), not the payload of the value it came from.
    return format.hasNaN ? decodeFloatBits(encodeNan(value, format, primitiveBitWidth(type)), type)
                         : -0.0;
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  // A NaN for a value the format cannot hold keeps the value's sign (as
  // XLA's conversions give it) where the format has signed NaNs. Made only
  // on those paths: this function rounds every f16/bf16/f8 element.
  auto signedNan = [&] {
    return decodeFloatBits(encodeNan(std::copysign(nan, value), format, primitiveBitWidth(type)),
                           type);
  };
  if (std::isinf(value)) {
    if (format.hasInf)
      return value;
    return format.hasNaN ? signedNan() : std::copysign(format.maxFinite(), value);
  }
  if (!format.hasSign && value < 0)
    return format.hasNaN ? signedNan() : 0.0;
  double magnitude = std::fabs(value);
  if (magnitude == 0.0) {
    if (!format.hasSign) // f8e8m0fnu has no zero: NaN, as ml_dtypes gives
      return signedNan();
    return format.hasNegZero ? value : 0.0;
  }
  if (format.mantissaBits > 0) {
    // Fast path for results in the normal range: round the double's
    // mantissa to the format's width in place (ties to even).
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    int exponent = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
    if (exponent >= 1 - format.bias) {
      int dropped = 52 - format.mantissaBits;
      uint64_t lsb = (bits >> dropped) & 1;
      bits += (uint64_t(1) << (dropped - 1)) - 1 + lsb;
      bits &= ~((uint64_t(1) << dropped) - 1);
      double rounded;
      std::memcpy(&rounded, &bits, sizeof rounded);
      if (std::fabs(rounded) <= maxFiniteOf(type))
        return rounded;
    }
  }

  double result = roundMagnitude(magnitude, format);
  // f8e8m0fnu: ml_dtypes rounds every value between 2^-127 and 2^-126 (f32
  // subnormals) up.
  if (format.mantissaBits == 0 && magnitude > format.minPositive() &&
      magnitude < 2 * format.minPositive())
    result = 2 * format.minPositive();
  if (result > format.maxFinite()) {
    if (format.hasInf)
      result = inf;
    else if (format.hasNaN)
      return signedNan();
    else
      result = format.maxFinite(); // f4e2m1fn saturates.
  }
  if (result == 0.0 && !format.hasNegZero)
    return 0.0;
  return std::copysign(result, value);
}

/// The bits of the NaN `value` (a NaN) becomes in a format of `width` bits.
static uint64_t encodeNan(double value, const FloatFormat &format, int width) {
  uint64_t signBit = format.hasSign ? uint64_t(1) << (width - 1) : 0;
  uint64_t exponentOnes = (uint64_t(1) << format.exponentBits) - 1;
  uint64_t mantissaOnes = (uint64_t(1) << format.mantissaBits) - 1;
  int m = format.mantissaBits;
  if (!format.hasNaN)
    return signBit; // f4e2m1fn: -0, as XLA converts a NaN
  uint64_t sign = std::signbit(value) ? signBit : 0;
  if (format.hasInf) {
    // IEEE: the sign and the top of the payload, as a narrowing
    // conversion keeps them (the inverse of decodeFloatBits); a payload
    // that does not survive becomes the quiet bit. In the 8-bit formats
    // the NaN is always quiet, as the kernels convert it.
    uint64_t doubleBits;
    std::memcpy(&doubleBits, &value, sizeof doubleBits);
    uint64_t payload = (doubleBits & ((uint64_t(1) << 52) - 1)) >> (52 - m);
    if (payload == 0 || width < 16)
      payload |= uint64_t(1) << (m - 1);
    return sign | (exponentOnes << m) | payload;
  }
  if (format.allOnesMantissaIsNaN)
    return sign | (exponentOnes << m) | mantissaOnes;
  if (!format.hasSign)
    return (exponentOnes << m) | mantissaOnes;
  return signBit; // fnuz: the "negative zero" encoding.
}

uint64_t encodeFloatBits(double value, PrimitiveType type) {
  if (type == PrimitiveType::F64) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
  }
  if (type == PrimitiveType::F32 && !std::isnan(value)) {
    float narrow = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &narrow, sizeof bits);
    return bits;
  }
  FloatFormat format = floatFormatOf(type);
  value = roundToFloatType(value, type);
  int width = primitiveBitWidth(type);
  uint64_t signBit = format.hasSign ? uint64_t(1) << (width - 1) : 0;
  uint64_t exponentOnes = (uint64_t(1) << format.exponentBits) - 1;
  int m = format.mantissaBits;
  if (std::isnan(value))
    return encodeNan(value, format, width);
  uint64_t sign = std::signbit(value) && format.hasNegZero ? signBit : 0;
  if (std::isinf(value))
    return sign | (exponentOnes << m);
  double magnitude = std::fabs(value);
  if (magnitude == 0.0)
    return sign;
  if (std::signbit(value))
    sign = signBit;
  int exponent;
  std::frexp(magnitude, &exponent);
  int unbiased = exponent - 1;
  int minNormalExponent = m == 0 ? -format.bias : 1 - format.bias;
  if (unbiased < minNormalExponent) // subnormal
    return sign | static_cast<uint64_t>(
                      std::ldexp(magnitude, format.bias - 1 + m));
  uint64_t exponentField = static_cast<uint64_t>(unbiased + format.bias);
  uint64_t mantissa = static_cast<uint64_t>(
      std::ldexp(std::ldexp(magnitude, -unbiased) - 1.0, m));
  return sign | (exponentField << m) | mantissa;
}

double decodeFloatBits(uint64_t bits, PrimitiveType type) {
  if (type == PrimitiveType::F64) {
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
  FloatFormat format = floatFormatOf(type);
  int width = primitiveBitWidth(type);
  int m = format.mantissaBits;
  uint64_t exponentOnes = (uint64_t(1) << format.exponentBits) - 1;
  uint64_t mantissaOnes = (uint64_t(1) << m) - 1;
  bool negative = format.hasSign && ((bits >> (width - 1)) & 1);
  uint64_t exponentField = (bits >> m) & exponentOnes;
  uint64_t mantissa = bits & mantissaOnes;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (format.hasInf && exponentField == exponentOnes && mantissa) {
    // An IEEE NaN keeps its sign and payload (at the top of the double's
    // mantissa, as a widening conversion puts it) without quieting, so
    // that negate, abs, copysign and bitcast-convert see the bits the
    // kernels see, and encodeFloatBits gives them back.
    uint64_t doubleBits = (negative ? uint64_t(1) << 63 : 0) |
                          (uint64_t(0x7ff) << 52) | (mantissa << (52 - m));
    double value;
    std::memcpy(&value, &doubleBits, sizeof value);
    return value;
  }
  if (type == PrimitiveType::F32) {
    uint32_t narrow = static_cast<uint32_t>(bits);
    float value;
    std::memcpy(&value, &narrow, sizeof value);
    return value;
  }
  if (!format.hasSign) { // e8m0: a bare power of two.
    if (exponentField == exponentOnes)
      return nan;
    return std::ldexp(1.0, static_cast<int>(exponentField) - format.bias);
  }
  if (format.hasInf && exponentField == exponentOnes)
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  if (format.allOnesMantissaIsNaN && exponentField == exponentOnes &&
      mantissa == mantissaOnes)
    return negative ? -nan : nan;
  if (format.hasNaN && !format.hasNegZero && negative && exponentField == 0 &&
      mantissa == 0)
    return nan; // fnuz
  double magnitude =
      exponentField == 0
          ? std::ldexp(static_cast<double>(mantissa), 1 - format.bias - m)
          : std::ldexp(static_cast<double>(mantissa | (mantissaOnes + 1)),
                       static_cast<int>(exponentField) - format.bias - m);
  return negative ? -magnitude : magnitude;
}

} // namespace hlo
