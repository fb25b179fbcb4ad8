//===- ScalarOpEmitter.h - Scalar HLO ops as arith/math ---------*- C++ -*-===//
//
// Emits one element of an elementwise HLO op from its operands' elements
// (one HLO op on scalars; the IndexedValueEmitter calls it per element),
// with HLO's semantics rather than C's: integer division and remainder by
// zero and INT_MIN / -1, shifts by at least the bit width, NaN-propagating
// maximum / minimum, total-order compare, saturating float->int convert
// with NaN -> 0, integer power, sign of 0 / NaN. f8 and f4 values are
// computed in f32.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_SCALAROPEMITTER_H
#define HLO_EMITTERS_SCALAROPEMITTER_H

#include "hlo_parser/HloInstruction.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/Support/Error.h"

#include <string>

namespace hlo {

/// The element of `instruction` from its operands' elements, or an
/// "unsupported: ..." error for ops or type combinations without one.
[[nodiscard]] llvm::Expected<mlir::Value> emitElementwise(mlir::ImplicitLocOpBuilder &b,
                                                          const HloInstruction &instruction,
                                                          mlir::ValueRange operands);

/// Converts one element between HLO element types (HLO `convert`).
mlir::Value emitConvert(mlir::ImplicitLocOpBuilder &b, mlir::Value value,
                        PrimitiveType from, PrimitiveType to);

/// A constant of an element type from a double / integer value.
mlir::Value emitConstant(mlir::ImplicitLocOpBuilder &b, PrimitiveType type,
                         double realPart, int64_t intValue, double imagPart = 0);

} // namespace hlo

#endif // HLO_EMITTERS_SCALAROPEMITTER_H
