//===- TypeConversion.h - HLO types as MLIR types ---------------*- C++ -*-===//
//
// pred -> i1, sN/uN -> iN (signless; signedness lives in the ops), the
// float family incl. f8/f4 -> MLIR's float types, c64/c128 -> complex,
// array shapes -> ranked tensors; and a kernel buffer's tensor, whose
// dimensions are in the buffer's physical order (its layout, major to
// minor), so that the row-major buffer of that tensor is the buffer's bytes.
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_TYPECONVERSION_H
#define HLO_EMITTERS_TYPECONVERSION_H

#include "hlo_parser/Shape.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/IR/ValueRange.h"
#include "llvm/ADT/SmallVector.h"

namespace hlo {

mlir::Type elementType(PrimitiveType type, mlir::MLIRContext *context);
mlir::RankedTensorType tensorType(const Shape &shape, mlir::MLIRContext *context);

/// The tensor of a kernel buffer (fusion parameter or output) of `shape`:
/// its dimensions major to minor as the layout stores them.
mlir::RankedTensorType bufferTensorType(const Shape &shape, mlir::MLIRContext *context);

/// Logical `indices` of `shape` in the order of bufferTensorType(shape).
llvm::SmallVector<mlir::Value> bufferIndices(const Shape &shape, mlir::ValueRange indices);

} // namespace hlo

#endif // HLO_EMITTERS_TYPECONVERSION_H
