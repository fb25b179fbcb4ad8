//===- Comparison.cpp - Checking results against the reference ------------===//
#include "Comparison.h"

#include "hlo_parser/FloatFormat.h"

#include <cmath>

namespace hlo::runtime {
namespace {

std::string indexText(const std::vector<int64_t> &dims, int64_t linear) {
  std::vector<int64_t> index(dims.size());
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    index[d] = dims[d] ? linear % dims[d] : 0;
    linear = dims[d] ? linear / dims[d] : 0;
  }
  std::string text = "[";
  for (size_t i = 0; i < index.size(); ++i)
    text += (i ? ", " : "") + std::to_string(index[i]);
  return text + "]";
}

/// Whether `actual` matches `expected`; updates the error maxima.
bool floatMatches(double expected, double actual, Tolerance tolerance, double magnitude,
                  ComparisonResult &result) {
  if (!(std::isfinite(expected) && std::isfinite(actual)) &&
      magnitude > tolerance.overflowMagnitude)
    return true;
  if (std::isnan(expected) || std::isnan(actual))
    return std::isnan(expected) && std::isnan(actual);
  if (std::isinf(expected) || std::isinf(actual))
    return expected == actual;
  double error = std::fabs(actual - expected);
  result.maxAbsoluteError = std::max(result.maxAbsoluteError, error);
  if (expected != 0)
    result.maxRelativeError = std::max(result.maxRelativeError, error / std::fabs(expected));
  return error <= tolerance.absolute + tolerance.relative * std::fabs(expected) +
                      tolerance.growth * magnitude;
}

std::string valueText(const Literal &array, int64_t i) {
  PrimitiveType type = array.shape().elementType();
  if (isComplex(type))
    return "(" + formatFloat(array.realData()[i], type) + ", " +
           formatFloat(array.imagData()[i], type) + ")";
  if (isFloatingPoint(type))
    return formatFloat(array.realData()[i], type);
  if (isUnsignedIntegral(type))
    return std::to_string(static_cast<uint64_t>(array.intData()[i]));
  return std::to_string(array.intData()[i]);
}

} // namespace

Tolerance defaultTolerance(PrimitiveType type) {
  switch (type) {
  case PrimitiveType::F64:
  case PrimitiveType::C128:
    return {1e-9, 1e-9};
  case PrimitiveType::F32:
  case PrimitiveType::C64:
    return {1e-5, 1e-5};
  default:
    break;
  }
  if (!isFloatingPoint(type))
    return {0, 0};
  double ulps = std::ldexp(2.0, -floatFormatOf(type).mantissaBits);
  return {ulps, ulps};
}

ComparisonResult compareArrays(const Literal &expected, const Literal &actual,
                               Tolerance tolerance, const Literal *magnitudes) {
  ComparisonResult result;
  PrimitiveType type = expected.shape().elementType();
  result.elements = std::max<int64_t>(expected.elementCount(), 0);
  if (!expected.shape().compatible(actual.shape())) {
    result.mismatches = result.elements;
    result.firstMismatch = "the shapes differ: expected " +
                           expected.shape().toString(false) + ", got " +
                           actual.shape().toString(false);
    return result;
  }
  bool isFloat = isFloatingPoint(type) || isComplex(type);
  if (magnitudes && magnitudes->realData().size() != static_cast<size_t>(result.elements))
    magnitudes = nullptr;
  for (int64_t i = 0; i < result.elements; ++i) {
    bool matches;
    if (isFloat) {
      // The element's magnitude, else its own size (a complex value's
      // modulus for both parts).
      double magnitude = magnitudes ? magnitudes->realData()[i]
                         : isComplex(type)
                             ? std::hypot(expected.realData()[i], expected.imagData()[i])
                             : std::fabs(expected.realData()[i]);
      if (!std::isfinite(magnitude))
        magnitude = 0;
      double grown = tolerance.growth * magnitude;
      if (magnitude > tolerance.overflowMagnitude)
        ++result.overflowElements;
      else if (grown > 0 && grown >= std::fabs(expected.realData()[i]) &&
               (!isComplex(type) || grown >= std::fabs(expected.imagData()[i])))
        ++result.wideElements;
      auto isNanPart = [&](const Literal &array) {
        return std::isnan(array.realData()[i]) || std::isnan(array.imagData()[i]);
      };
      if (isComplex(type) && (isNanPart(expected) || isNanPart(actual))) {
        // A complex value with a NaN part is a NaN as a whole: XLA's
        // simplifier and MLIR's folders turn (nan, 0) * (1, 0) into
        // (nan, 0), the formula gives (nan, nan).
        matches = isNanPart(expected) && isNanPart(actual);
      } else {
        matches = floatMatches(expected.realData()[i], actual.realData()[i], tolerance,
                               magnitude, result);
        if (isComplex(type))
          matches = floatMatches(expected.imagData()[i], actual.imagData()[i], tolerance,
                                 magnitude, result) &&
                    matches;
      }
    } else {
      matches = expected.intData()[i] == actual.intData()[i];
      // An integer converted from a reduced float may differ by that
      // float's bound, rounded up (Tolerance::growth, set only then).
      if (!matches && tolerance.growth > 0 && magnitudes) {
        double allowed = std::ceil(tolerance.growth * magnitudes->realData()[i]);
        matches = std::fabs(static_cast<double>(expected.intData()[i]) -
                            static_cast<double>(actual.intData()[i])) <= allowed;
      }
      if (!matches) {
        double error = std::fabs(static_cast<double>(expected.intData()[i]) -
                                 static_cast<double>(actual.intData()[i]));
        result.maxAbsoluteError = std::max(result.maxAbsoluteError, error);
      }
    }
    if (matches)
      continue;
    if (result.mismatches++ == 0)
      result.firstMismatch = "at " + indexText(expected.shape().dimensions(), i) +
                             ": expected " + valueText(expected, i) + ", got " +
                             valueText(actual, i);
  }
  return result;
}

} // namespace hlo::runtime
