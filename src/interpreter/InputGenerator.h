//===- InputGenerator.h - Deterministic test inputs ------------*- C++ -*-===//
//
// Owns the seeded inputs that hlo-run feeds a module when no .npy is given:
// a fixed generator (splitmix64, so every platform and libstdc++ gives the
// same bytes) and a value range chosen from how the parameter is used:
// the reducer's identity for a reduction's init (HLO lets a reduction apply
// its init any number of times, so only the identity gives one answer),
// positive for log/sqrt/rsqrt/pow bases/divisors, small non-negative for
// indices (kept unique or sorted where a scatter promises it), [-1, 1]
// floats and [-20, 20] integers otherwise.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_INTERPRETER_INPUTGENERATOR_H
#define HLO_INTERPRETER_INPUTGENERATOR_H

#include "hlo_parser/HloInstruction.h"
#include "hlo_parser/Literal.h"

#include <cstdint>

namespace hlo::interp {

struct InputRange {
  double low = -1;
  double high = 1;
};

/// The range suited to `parameter`'s uses (looking through fusions, calls
/// and data-movement ops).
InputRange inputRangeFor(const HloInstruction &parameter);

/// An array (or tuple) of `shape` with values uniform in `range` (integers:
/// in [ceil(low), floor(high)]; pred: 0/1; every element `low` when low ==
/// high) from `seed`.
Literal generateInput(const Shape &shape, InputRange range, uint64_t seed);

/// `parameter`'s generated value of `shape` from `seed`: generateInput in
/// inputRangeFor's range, except the indices of a scatter that promises
/// unique or sorted indices, which keep the promise (ScatterIndexInputs.h).
Literal generateInputFor(const HloInstruction &parameter, const Shape &shape, uint64_t seed);

} // namespace hlo::interp

#endif // HLO_INTERPRETER_INPUTGENERATOR_H
