//===- ReductionTolerance.h - Tolerances that grow with reductions -*- C++ -*-===//
//
// Owns how much further than the per-type default a float result may lie
// from the interpreter's when it comes out of reductions. The interpreter
// folds a reduce's n elements in order; a kernel folds them as a tree (a
// thread's run, then warps, then a block), and float addition is not
// associative, so the two may differ by the rounding each order commits.
//
// Derivation. For a sum of n terms in precision u (unit roundoff, 2^-p for
// p significand bits), any order errs by at most gamma_{n-1} * sum|x_i|,
// gamma_k = k u / (1 - k u) (Higham, Accuracy and Stability of Numerical
// Algorithms, 2nd ed., sec. 4.2); with rounding errors modelled as
// independent and zero-mean, by lambda * sqrt(n) * u * sum|x_i| with
// probability that grows quickly with lambda (Higham & Mary, SIAM J. Sci.
// Comput. 41(5), 2019, Thm 3.1). Kernel and interpreter each err that much,
// so their difference is bounded by 2 lambda sqrt(n) u sum|x_i|. The check
// cannot see sum|x_i|; it bounds it by the output's own scale M (the
// largest |expected| of the array), which holds within a constant for the
// sums test inputs produce (terms of one sign: sum|x| = |sum|; terms of
// both signs: errors grow with the partial sums, of order sqrt(n) as M).
// With lambda = 2:
//
//   |actual - expected| <= atol + rtol |expected| + 4 sqrt(n) u (M + |expected|)
//
// where n multiplies the element counts of the float reductions (reduce,
// reduce-window, dot, and scatters whose indices may repeat: the slices
// that may land on one element, plus the operand, since atomics combine
// them in no fixed order) along the deepest path to the output and u is the
// coarsest of their types' unit roundoffs. Integer, pred and exact
// (max/min) results keep the default, except integers that are a reduced
// float's bits (a bitcast), which are compared as those floats; an explicit
// --atol/--rtol wins.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_REDUCTIONTOLERANCE_H
#define HLO_RUNTIME_REDUCTIONTOLERANCE_H

#include "Comparison.h"

#include "hlo_parser/HloComputation.h"
#include "hlo_parser/Literal.h"

#include <optional>
#include <vector>

namespace hlo::runtime {

/// The float reductions a value has gone through.
struct ReductionDepth {
  /// Product of the reduced element counts along the deepest path (1:
  /// none).
  double elements = 1;
  /// The largest unit roundoff among those reductions' types.
  double unitRoundoff = 0;
  /// An integer output that holds a float's bits (a bitcast of a reduced
  /// float): compared as that float type.
  std::optional<PrimitiveType> bitsOfFloat;
};

/// For each array leaf of `computation`'s result, in order, when its
/// parameters carry `parameterDepths` (empty: none reduced).
std::vector<ReductionDepth> reductionDepths(const HloComputation &computation,
                                            const std::vector<ReductionDepth> &parameterDepths = {});

/// The reductions of one instruction on fresh inputs (a wrapped kernel).
ReductionDepth reductionDepthOf(const HloInstruction &instruction);

/// `value` (integers holding `floatType`'s bit patterns) as floats.
Literal reinterpretAsFloat(const Literal &value, PrimitiveType floatType);

/// `base` widened for an output of that depth, whose expected values are
/// `expected` (see above).
Tolerance reductionTolerance(Tolerance base, const ReductionDepth &depth,
                             const Literal &expected);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_REDUCTIONTOLERANCE_H
