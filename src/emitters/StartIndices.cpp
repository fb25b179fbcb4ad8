//===- StartIndices.cpp - Runtime start indices as MLIR indices -----------===//
//
// Clamps and bounds checks of data-dependent start indices in a width that
// holds them (64-bit starts before they become possibly 32-bit indices).
// See StartIndices.h.
//
//===----------------------------------------------------------------------===//
#include "emitters/StartIndices.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace hlo {
namespace {

/// `start` where it is clamped or checked: a start of up to 32 bits as an
/// index (every index is at least that wide: the cast loses nothing), a
/// 64-bit start as it is (a 32-bit index would lose its high bits).
Value widen(ImplicitLocOpBuilder &b, Value start, bool isUnsigned) {
  if (start.getType().isIndex() || start.getType().getIntOrFloatBitWidth() == 64)
    return start;
  if (isUnsigned || start.getType().getIntOrFloatBitWidth() == 1)
    return arith::IndexCastUIOp::create(b, b.getIndexType(), start);
  return arith::IndexCastOp::create(b, b.getIndexType(), start);
}

Value constantLike(ImplicitLocOpBuilder &b, Value like, int64_t value) {
  if (like.getType().isIndex())
    return arith::ConstantIndexOp::create(b, value);
  return arith::ConstantIntOp::create(b, like.getType(), value);
}

Value toIndex(ImplicitLocOpBuilder &b, Value wide, bool isUnsigned) {
  if (wide.getType().isIndex())
    return wide;
  if (isUnsigned)
    return arith::IndexCastUIOp::create(b, b.getIndexType(), wide);
  return arith::IndexCastOp::create(b, b.getIndexType(), wide);
}

} // namespace

Value clampStartToIndex(ImplicitLocOpBuilder &b, Value start, PrimitiveType type,
                        int64_t maxStart) {
  bool isUnsigned = isUnsignedIntegral(type);
  Value wide = widen(b, start, isUnsigned);
  Value clamped;
  if (isUnsigned) {
    clamped = arith::MinUIOp::create(b, wide, constantLike(b, wide, maxStart));
  } else {
    clamped = arith::MaxSIOp::create(b, wide, constantLike(b, wide, 0));
    clamped = arith::MinSIOp::create(b, clamped, constantLike(b, wide, maxStart));
  }
  // In [0, maxStart]: it fits any index.
  return toIndex(b, clamped, isUnsigned);
}

CheckedStart checkStartInBounds(ImplicitLocOpBuilder &b, Value start, PrimitiveType type,
                                int64_t last) {
  bool isUnsigned = isUnsignedIntegral(type);
  Value wide = widen(b, start, isUnsigned);
  Value inBounds;
  if (isUnsigned) {
    inBounds = arith::CmpIOp::create(b, arith::CmpIPredicate::ule, wide,
                                     constantLike(b, wide, last));
  } else {
    inBounds = arith::AndIOp::create(
        b,
        arith::CmpIOp::create(b, arith::CmpIPredicate::sge, wide, constantLike(b, wide, 0)),
        arith::CmpIOp::create(b, arith::CmpIPredicate::sle, wide,
                              constantLike(b, wide, last)));
  }
  return {toIndex(b, wide, isUnsigned), inBounds};
}

} // namespace hlo
