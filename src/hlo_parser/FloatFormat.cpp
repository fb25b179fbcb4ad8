//===- FloatFormat.cpp - Rounding to HLO's narrow float formats -----------===//
#include "FloatFormat.h"

#include <cmath>
#include <limits>

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

double roundToFloatType(double value, PrimitiveType type) {
  if (type == PrimitiveType::F64 || type == PrimitiveType::C128 ||
      std::isnan(value))
    return value;
  if (type == PrimitiveType::F32 || type == PrimitiveType::C64)
    return static_cast<double>(static_cast<float>(value));
  FloatFormat format = floatFormatOf(type);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  if (std::isinf(value)) {
    if (format.hasInf)
      return value;
    return format.hasNaN ? nan : std::copysign(format.maxFinite(), value);
  }
  if (!format.hasSign && value < 0)
    return format.hasNaN ? nan : 0.0;
  double magnitude = std::fabs(value);
  if (magnitude == 0.0)
    return format.hasNegZero ? value : 0.0;

  double result = roundMagnitude(magnitude, format);
  if (result > format.maxFinite()) {
    if (format.hasInf)
      result = inf;
    else if (format.hasNaN)
      return nan;
    else
      result = format.maxFinite(); // f4e2m1fn saturates.
  }
  if (result == 0.0 && !format.hasNegZero)
    return 0.0;
  return std::copysign(result, value);
}

} // namespace hlo
