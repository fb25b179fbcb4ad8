//===- Comparison.h - Checking results against the reference ---*- C++ -*-===//
//
// Owns how a computed array is judged against the interpreter's: integers
// and pred exactly; floats element by element within
//   |actual - expected| <= absolute + relative |expected| + growth m
// (defaults per type, overridable; m the element's magnitude, see
// ElementMagnitudes.h, else |expected|), with NaN where and only where the
// reference has NaN (a complex value with a NaN part counting as a NaN),
// and infinities equal -- except where the element's magnitude is beyond
// what a partial sum could hold (Tolerance::overflowMagnitude).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_COMPARISON_H
#define HLO_RUNTIME_COMPARISON_H

#include "hlo_parser/Literal.h"

#include <limits>
#include <optional>
#include <string>

namespace hlo::runtime {

struct Tolerance {
  double absolute = 0;
  double relative = 0;
  /// The relative error reductions and stages may add, to each element's
  /// magnitude (ReductionTolerance.h); 0: none.
  double growth = 0;
  /// Elements whose magnitude exceeds this may have overflowed a partial
  /// sum on one side only (ReductionDepth::accumulatorLimit): there an
  /// infinity or NaN on either side is accepted, and the element counts as
  /// one of ComparisonResult::overflowElements.
  double overflowMagnitude = std::numeric_limits<double>::infinity();
};

/// f64 1e-9, f32/c64 1e-5, narrow floats 2^(1 - mantissa bits) (two units
/// in the last place: bf16 0.0156, f16 0.00195), both bounds alike; 0 for
/// integers and pred.
Tolerance defaultTolerance(PrimitiveType type);

struct ComparisonResult {
  int64_t elements = 0;
  int64_t mismatches = 0;
  double maxAbsoluteError = 0;
  double maxRelativeError = 0;
  /// The first mismatch, described ("at [1, 2]: expected 1.5, got 2"), or
  /// empty.
  std::string firstMismatch;
  /// Elements whose growth term alone is at least their own |expected|
  /// (their terms cancel): there the bound cannot tell a slip from noise.
  int64_t wideElements = 0;
  /// Elements whose sum of |terms| is beyond what the narrowest
  /// accumulator holds (Tolerance::overflowMagnitude): infinities and NaN
  /// accepted there.
  int64_t overflowElements = 0;
  bool passed() const { return mismatches == 0; }
};

/// Compares `actual` with `expected` (same shape and element type);
/// `magnitudes` (f64, one per element) scale `tolerance.growth`, else each
/// element's |expected| does.
ComparisonResult compareArrays(const Literal &expected, const Literal &actual,
                               Tolerance tolerance, const Literal *magnitudes = nullptr);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_COMPARISON_H
