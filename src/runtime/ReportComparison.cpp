//===- ReportComparison.cpp - One output judged and printed ---------------===//
//
// The comparison line both hlo-run commands print for an output (against
// the interpreter on a GPU run, against --expect-dir files with
// --interpret), with the tolerances the command line chose.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace hlo::runtime {

std::string formatNumber(double value, int precision) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", precision, value);
  return text;
}

Tolerance toleranceFor(const RunOptions &options, PrimitiveType type) {
  Tolerance tolerance = defaultTolerance(type);
  if (options.absoluteTolerance)
    tolerance.absolute = *options.absoluteTolerance;
  if (options.relativeTolerance)
    tolerance.relative = *options.relativeTolerance;
  return tolerance;
}

ComparisonResult reportComparison(const std::string &label, const Literal &expected,
                                  const Literal &actual, const RunOptions &options,
                                  const ReductionDepth &depth, const Literal *magnitudes) {
  // A reduced float's bits are judged as that float.
  if (depth.bitsOfFloat && reductionGrowth(depth) > 0 &&
      isIntegral(expected.shape().elementType()) && expected.shape().isArray()) {
    ReductionDepth asFloat = depth;
    asFloat.bitsOfFloat.reset();
    return reportComparison(label + " (as " +
                                std::string(primitiveTypeName(*depth.bitsOfFloat)) + " bits)",
                            reinterpretAsFloat(expected, *depth.bitsOfFloat),
                            reinterpretAsFloat(actual, *depth.bitsOfFloat), options, asFloat);
  }
  PrimitiveType type = expected.shape().elementType();
  Tolerance tolerance = toleranceFor(options, type);
  if (!options.absoluteTolerance && !options.relativeTolerance) {
    // A value computed in a coarser type than it is stored in keeps that
    // type's rounding.
    if (depth.computedIn && (isFloatingPoint(type) || isComplex(type))) {
      Tolerance coarser = defaultTolerance(*depth.computedIn);
      tolerance.absolute = std::max(tolerance.absolute, coarser.absolute);
      tolerance.relative = std::max(tolerance.relative, coarser.relative);
    }
    tolerance = reductionTolerance(tolerance, depth, type);
  }
  ComparisonResult result = compareArrays(expected, actual, tolerance, magnitudes);
  // With made-up constants, values that are not finite on both sides say
  // nothing of the kernels: such an output is not called a pass.
  int64_t nonFinite = 0;
  if (options.filledConstants > 0 && (isFloatingPoint(type) || isComplex(type)))
    for (double value : expected.realData())
      nonFinite += !std::isfinite(value);
  bool unchecked = result.passed() && result.elements > 0 && nonFinite == result.elements;
  std::cout << "  " << label << " " << expected.shape().toString(false)
            << ": max abs error " << formatNumber(result.maxAbsoluteError)
            << ", max rel error " << formatNumber(result.maxRelativeError) << ", "
            << result.mismatches << " of " << result.elements << " outside (abs "
            << formatNumber(tolerance.absolute) << ", rel "
            << formatNumber(tolerance.relative);
  if (tolerance.growth > 0)
    std::cout << ", + " << formatNumber(tolerance.growth) << " x |terms|";
  std::cout << ")  "
            << (unchecked ? "NOT CHECKED (every value is inf or NaN: the module's made-up "
                            "constants)"
                : result.passed() ? "PASS"
                                  : "FAIL")
            << "\n";
  if (nonFinite > 0 && !unchecked)
    std::cout << "    note: " << nonFinite << " of " << result.elements
              << " expected values are inf or NaN (the module's made-up constants)\n";
  if (!result.passed())
    std::cout << "    first mismatch " << result.firstMismatch << "\n";
  if (result.wideElements > 0)
    std::cout << "    note: " << result.wideElements << " of " << result.elements
              << " values may err by as much as themselves (their terms cancel): there the "
                 "check cannot tell a small slip from rounding\n";
  if (result.overflowElements > 0)
    std::cout << "    note: " << result.overflowElements << " of " << result.elements
              << " values sum terms beyond the largest finite value of the type they "
                 "accumulate in (" << formatNumber(tolerance.overflowMagnitude)
              << "): a partial sum may overflow in one order and not the other, so "
                 "infinities and NaN are accepted there\n";
  return result;
}

} // namespace hlo::runtime
