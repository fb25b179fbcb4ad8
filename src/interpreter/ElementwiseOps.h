//===- ElementwiseOps.h - Scalar HLO semantics -----------------*- C++ -*-===//
//
// Owns the per-element meaning of every elementwise HLO op (unary, binary,
// compare, select, clamp, convert, bitcast-convert, reduce-precision) on a
// Scalar, and their application to whole arrays. Integer edge cases follow
// XLA (division by zero, INT_MIN / -1, shifts past the width, saturating
// float -> int with NaN -> 0); narrow floats are computed in double and
// rounded to nearest-even into their type.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_INTERPRETER_ELEMENTWISEOPS_H
#define HLO_INTERPRETER_ELEMENTWISEOPS_H

#include "ArrayUtils.h"

#include "hlo_parser/HloInstruction.h"
#include "hlo_parser/HloOpcode.h"

namespace hlo::interp {

/// One element of any type: pred/integers in `i` (wrapped to their type),
/// floats in `re`, complex in `re` + `im`.
struct Scalar {
  int64_t i = 0;
  double re = 0;
  double im = 0;
};

Scalar loadScalar(const Literal &literal, int64_t index);
void storeScalar(Literal &literal, int64_t index, Scalar value);
/// `value` rounded (floats) or wrapped (integers) to `type`.
Scalar roundScalar(Scalar value, PrimitiveType type);

/// A unary or binary op on elements of `operandType` giving `resultType`
/// (already rounded). `instruction` supplies compare's direction and type.
Scalar evaluateUnary(HloOpcode opcode, PrimitiveType operandType,
                     PrimitiveType resultType, Scalar x);
Scalar evaluateBinary(HloOpcode opcode, const HloInstruction *instruction,
                      PrimitiveType operandType, PrimitiveType resultType,
                      Scalar x, Scalar y);
Scalar convertScalar(Scalar value, PrimitiveType from, PrimitiveType to);
/// clamp(low, x, high) on elements of `type`: max(x, low), then min with
/// high.
Scalar clampScalar(PrimitiveType type, Scalar low, Scalar x, Scalar high);
/// A real or integer scalar's storage bits (pred: 8), and back
/// (ConvertOps.cpp).
uint64_t scalarBits(Scalar value, PrimitiveType type);
Scalar scalarFromBits(uint64_t bits, PrimitiveType type);

/// An elementwise instruction (incl. select, clamp, convert) on whole
/// arrays; scalar operands of select/clamp are broadcast.
Literal evaluateElementwise(const HloInstruction &instruction,
                            const std::vector<const Literal *> &operands);

/// bitcast-convert, including width-changing ones (which add or drop the
/// minor dimension).
Literal evaluateBitcastConvert(const HloInstruction &instruction,
                               const Literal &operand);

} // namespace hlo::interp

#endif // HLO_INTERPRETER_ELEMENTWISEOPS_H
