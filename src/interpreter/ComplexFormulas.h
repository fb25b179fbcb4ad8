//===- ComplexFormulas.h - Complex functions as XLA's GPU computes them -*- C++ -*-===//
//
// Owns the interpreter's complex elementary functions (abs, sign, sqrt,
// rsqrt, exp, expm1, log, log1p, sin, cos, tan, tanh, logistic, multiply,
// divide, power). They follow the formulas XLA's GPU kernels use, not C99
// Annex G's (std::complex): XLA's PTX for a c64/c128 op from the reference
// tool has the same instructions as ours, and both come from MLIR's
// complex-to-standard lowering with Smith's range-reduced division. The
// special values follow from those formulas: sqrt(-1 - 0i) = -i with a real
// part of cos(pi/2), abs(inf + nan i) = nan, no infinity recovered from a
// NaN part, and overflow where the element type overflows: each function
// is evaluated in the element type (float for c64, double for c128), so
// that sin(100i) of a c64 is (nan, inf) as on the GPU (0 * cosh(100) with
// cosh(100) past f32's range), not (0, inf).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_INTERPRETER_COMPLEXFORMULAS_H
#define HLO_INTERPRETER_COMPLEXFORMULAS_H

#include "hlo_parser/HloOpcode.h"

#include <complex>
#include <optional>

namespace hlo::interp {

/// `opcode` applied to `x` in the precision of T (float: c64, double:
/// c128); std::nullopt for an op that is not a complex function here
/// (real, imag, negate and the like are the caller's). Abs returns its
/// real result in the real part.
template <typename T>
std::optional<std::complex<T>> evaluateComplexUnary(HloOpcode opcode, std::complex<T> x);

/// `opcode` (add, subtract, multiply, divide, power) applied to `x`, `y` in
/// the precision of T; std::nullopt for other ops.
template <typename T>
std::optional<std::complex<T>> evaluateComplexBinary(HloOpcode opcode, std::complex<T> x,
                                                     std::complex<T> y);

} // namespace hlo::interp

#endif // HLO_INTERPRETER_COMPLEXFORMULAS_H
