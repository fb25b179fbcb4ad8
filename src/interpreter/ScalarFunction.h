//===- ScalarFunction.h - Calling a computation on scalars -----*- C++ -*-===//
//
// Owns calls of the small computations that reduce, reduce-window, scatter,
// select-and-scatter, sort and map apply per element. A computation that
// is one binary op of its two parameters (add, max, ...) is applied
// directly; anything else is evaluated by the Evaluator on rank-0 values.
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
};

} // namespace hlo::interp

#endif // HLO_INTERPRETER_SCALARFUNCTION_H
