//===- ScalarFunction.h - Calling a computation on scalars -----*- C++ -*-===//
//
// Owns calls of the small computations that reduce, reduce-window, scatter,
// select-and-scatter, sort and map apply per element. A computation that
// is one binary op of its two parameters (add, max, ...) is applied
// directly; one of scalar elementwise ops, selects, converts and constants
// (a sort's total-order comparator) runs as a list of steps on Scalars,
// with the same per-element functions as whole arrays; anything else is
// evaluated by the Evaluator on rank-0 values.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_INTERPRETER_SCALARFUNCTION_H
#define HLO_INTERPRETER_SCALARFUNCTION_H

#include "ElementwiseOps.h"
#include "Evaluator.h"

namespace hlo::interp {

class ScalarFunction {
public:
  ScalarFunction(const HloComputation &computation, Evaluator &evaluator);

  /// Results (one per output leaf) of the computation on `arguments`
  /// (one per parameter, in parameter order).
  std::vector<Scalar> operator()(const std::vector<Scalar> &arguments) const;

  /// True for `add(p0, p1)` on floating-point or complex scalars.
  bool isFloatAdd() const;

private:
  const HloComputation &computation;
  Evaluator &evaluator;
  std::vector<PrimitiveType> parameterTypes;
  /// Set when the computation is `op(p0, p1)` or `op(p1, p0)`.
  const HloInstruction *binaryRoot = nullptr;
  bool swapped = false;

  /// The computation as steps on Scalars, in instruction order (empty: it
  /// has an instruction that is not a scalar elementwise op).
  struct Step {
    const HloInstruction *instruction;
    std::vector<size_t> operands; // indices of earlier steps
    Scalar constant;              // a constant's value
  };
  std::vector<Step> steps;
  std::vector<size_t> resultSteps; // the root, or the root tuple's operands
  bool buildSteps();
  std::vector<Scalar> runSteps(const std::vector<Scalar> &arguments) const;
};

} // namespace hlo::interp

#endif // HLO_INTERPRETER_SCALARFUNCTION_H
