//===- TypeConversion.h - HLO types as MLIR types ---------------*- C++ -*-===//
//
// pred -> i1, sN/uN -> iN (signless; signedness lives in the ops), the
// float family incl. f8/f4 -> MLIR's float types, c64/c128 -> complex,
// array shapes -> ranked tensors.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_TYPECONVERSION_H
#define HLO_EMITTERS_TYPECONVERSION_H

#include "hlo_parser/Shape.h"

#include "mlir/IR/BuiltinTypes.h"

namespace hlo {

mlir::Type elementType(PrimitiveType type, mlir::MLIRContext *context);
mlir::RankedTensorType tensorType(const Shape &shape, mlir::MLIRContext *context);

} // namespace hlo

#endif // HLO_EMITTERS_TYPECONVERSION_H
