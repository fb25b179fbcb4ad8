//===- ReportComparison.cpp - One output judged and printed ---------------===//
//
// The comparison line both hlo-run commands print for an output (against
// the interpreter on a GPU run, against --expect-dir files with
// --interpret), with the tolerances the command line chose.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <algorithm>
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
                                  const ReductionDepth &depth) {
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
    tolerance = reductionTolerance(tolerance, depth, expected);
  }
  ComparisonResult result = compareArrays(expected, actual, tolerance);
  std::cout << "  " << label << " " << expected.shape().toString(false)
            << ": max abs error " << formatNumber(result.maxAbsoluteError)
            << ", max rel error " << formatNumber(result.maxRelativeError) << ", "
            << result.mismatches << " of " << result.elements << " outside (abs "
            << formatNumber(tolerance.absolute) << ", rel "
            << formatNumber(tolerance.relative) << ")  "
            << (result.passed() ? "PASS" : "FAIL") << "\n";
  if (!result.passed())
    std::cout << "    first mismatch " << result.firstMismatch << "\n";
  return result;
}

} // namespace hlo::runtime
