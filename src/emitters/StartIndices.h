//===- StartIndices.h - Runtime start indices as MLIR indices ---*- C++ -*-===//
//
// The start indices HLO reads from data (dynamic-slice, dynamic-update-slice,
// gather and scatter starts), turned into `index` values. The NVPTX target
// makes `index` 32 bits wide when every buffer allows it, so a 64-bit start
// is clamped or bounds-checked in 64 bits before it becomes an index:
// truncated first, an s64 start of -10^12 becomes 727,379,968, and a clamp
// to [0, 1] picks 1 instead of 0. A start of up to 32 bits becomes an index
// first (every index is at least as wide).
//
//===----------------------------------------------------------------------===//
#ifndef HLO_EMITTERS_STARTINDICES_H
#define HLO_EMITTERS_STARTINDICES_H

#include "hlo_parser/PrimitiveType.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Value.h"

namespace hlo {

/// `start`, an integer of HLO type `type` (or an index), clamped to
/// [0, maxStart] as HLO clamps dynamic-slice, dynamic-update-slice and
/// gather starts: an unsigned start is zero-extended (a u64 of 2^63 is past
/// every end), a signed one sign-extended and clamped on both sides.
mlir::Value clampStartToIndex(mlir::ImplicitLocOpBuilder &b, mlir::Value start,
                              PrimitiveType type, int64_t maxStart);

/// A scatter start: the index, and whether 0 <= start <= last holds in the
/// start's own width (out of bounds, the index is not meaningful).
struct CheckedStart {
  mlir::Value index;
  mlir::Value inBounds;
};
CheckedStart checkStartInBounds(mlir::ImplicitLocOpBuilder &b, mlir::Value start,
                                PrimitiveType type, int64_t last);

} // namespace hlo

#endif // HLO_EMITTERS_STARTINDICES_H
