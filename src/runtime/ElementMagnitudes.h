//===- ElementMagnitudes.h - The scale each element's error has -*- C++ -*-===//
//
// Owns the per-element magnitude that hlo-run's bounds scale with: for an
// output element, the size of the terms its rounding errors come from, as
// the interpreter computes them. For a dot that is sum_k |a_ik| |b_kj|; for
// a sum, the sum of its terms' magnitudes; through data movement, the
// magnitude of the element moved; through any other elementwise op f, the
// first-order propagation sum_k |df/dx_k| m_k, the derivatives taken by
// finite differences in double. Where no rule applies (sorts, loops,
// conditionals, other custom-calls), the element's own |value|.
//
// Why: a kernel sums a dot's products in f32 in its own order and the
// interpreter in double, so the two differ by up to about 4 sqrt(K) u_f32
// sum_k |a_ik||b_kj| per element (ReductionTolerance.h); scaling that by
// the largest |value| of the whole array instead lets a missing K step,
// a swapped tile or a wrong epilogue pass wherever values are small.
//
// The values are the interpreter's own (each instruction through
// Evaluator::evaluateInstruction), so `value` is what Evaluator::evaluate
// returns; magnitudes are f64 arrays, one per array leaf, never rounded
// to the value's type.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_RUNTIME_ELEMENTMAGNITUDES_H
#define HLO_RUNTIME_ELEMENTMAGNITUDES_H

#include "interpreter/Evaluator.h"

#include <vector>

namespace hlo::runtime {

struct ValueWithMagnitudes {
  interp::ValuePtr value;
  /// Per array leaf of `value` (depth-first), an f64 array of its
  /// dimensions.
  std::vector<Literal> magnitudes;
};

/// `computation` on `arguments` (whose magnitudes are their |values|).
ValueWithMagnitudes evaluateWithMagnitudes(interp::Evaluator &evaluator,
                                           const HloComputation &computation,
                                           const std::vector<interp::ValuePtr> &arguments);

/// One instruction on its operands' values (a kernel that wraps it).
ValueWithMagnitudes evaluateInstructionWithMagnitudes(
    interp::Evaluator &evaluator, const HloInstruction &instruction,
    const std::vector<interp::ValuePtr> &operands);

/// Arrays past this many elements make a module too large to carry
/// magnitudes beside its values (they double the interpreter's memory):
/// the interpreter's default --max-elements.
constexpr int64_t kMagnitudeElementLimit = int64_t(1) << 26;

/// The element count of the largest array any instruction of `module`
/// computes.
int64_t largestArrayElements(const HloModule &module);

/// A module's expected outputs (its entry run on `inputs`) and, where
/// `withMagnitudes` and they fit (kMagnitudeElementLimit), their
/// magnitudes; else `scaleByLargest` says the fallback applies.
struct ModuleReference {
  std::vector<Literal> expected;
  std::vector<Literal> magnitudes;
  bool scaleByLargest = false;
};
ModuleReference evaluateModuleReference(interp::Evaluator &evaluator,
                                        const std::vector<interp::ValuePtr> &inputs,
                                        bool withMagnitudes);

/// The fallback scale for such modules: each element of `expected` scaled
/// by the largest finite |value| of the array plus its own (f64,
/// `expected`'s dimensions).
Literal largestValueScale(const Literal &expected);

} // namespace hlo::runtime

#endif // HLO_RUNTIME_ELEMENTMAGNITUDES_H
