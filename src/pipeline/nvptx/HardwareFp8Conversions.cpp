//===- HardwareFp8Conversions.cpp - sm_89+ f8E4M3FN/f8E5M2 conversions ----===//
//
// Owns xla-gpu-hardware-fp8-conversions (NvptxPasses.td): on sm_89 and
// later, f32 -> f8E4M3FN/f8E5M2 is PTX's `cvt.rn.satfinite.{e4m3,e5m2}x2.f32`
// and f8E4M3FN -> f32 is `cvt.rn.f16x2.e4m3x2` then f16 -> f32 (f8E5M2 is
// the top byte of an f16: a shift). The hardware saturates where the
// types do not (e4m3fn overflows to NaN, e5m2 to inf) and its NaN bits
// are not the interpreter's: a fix-up selects those results, so the code
// gives the bits of the software lowering (ExpandSmallFloats.cpp)
// everywhere. Vectors are converted one element at a time, as XLA does.
//
//===----------------------------------------------------------------------===//
#include "pipeline/Passes.h"
#include "pipeline/nvptx/NvptxPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_HARDWAREFP8CONVERSIONSPASS
#include "pipeline/nvptx/NvptxPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

bool isHardwareF8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

Value i32Constant(OpBuilder &b, Location loc, uint32_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

/// f32 -> f8 (bits, i8) for one scalar.
Value truncateScalar(OpBuilder &b, Location loc, Value x, Type f8) {
  using P = arith::CmpIPredicate;
  bool e4m3 = isa<Float8E4M3FNType>(f8);
  Value packed = NVVM::ConvertF32x2ToF8x2Op::create(
      b, loc, b.getI16Type(), x, x, NVVM::FPRoundingMode::RN, NVVM::SaturationMode::SATFINITE,
      /*relu=*/false, f8);
  Value hardware = arith::TruncIOp::create(b, loc, b.getI8Type(), packed);
  // The fix-up, on the f32's bits.
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), x);
  Value magnitude = arith::AndIOp::create(b, loc, bits, i32Constant(b, loc, 0x7fffffff));
  Value sign = arith::TruncIOp::create(
      b, loc, b.getI8Type(),
      arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, bits, i32Constant(b, loc, 24)),
                            i32Constant(b, loc, 0x80)));
  auto byte = [&](uint32_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(b.getI8Type(), v));
  };
  Value isNan = arith::CmpIOp::create(b, loc, P::ugt, magnitude, i32Constant(b, loc, 0x7f800000));
  // Past the rounding boundary of the largest finite value (464 for
  // e4m3fn, 61440 for e5m2), inf included.
  Value overflow = arith::CmpIOp::create(b, loc, e4m3 ? P::ugt : P::uge, magnitude,
                                         i32Constant(b, loc, e4m3 ? 0x43e80000 : 0x47700000));
  Value special;
  Value nan;
  if (e4m3) {
    special = arith::OrIOp::create(b, loc, sign, byte(0x7f));
    nan = special;
  } else {
    special = arith::OrIOp::create(b, loc, sign, byte(0x7c));
    // A quiet NaN with the top of the payload.
    Value payload = arith::TruncIOp::create(
        b, loc, b.getI8Type(),
        arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, magnitude, i32Constant(b, loc, 21)),
                              i32Constant(b, loc, 3)));
    nan = arith::OrIOp::create(b, loc, arith::OrIOp::create(b, loc, special, payload), byte(2));
  }
  Value result = arith::SelectOp::create(b, loc, overflow, special, hardware);
  return arith::SelectOp::create(b, loc, isNan, nan, result);
}

/// f8 bits (i8) -> f32 for one scalar.
Value extendScalar(OpBuilder &b, Location loc, Value bits, Type f8) {
  using P = arith::CmpIPredicate;
  Value wide = arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
  Value magnitude = arith::AndIOp::create(b, loc, wide, i32Constant(b, loc, 0x7f));
  Value signBit = arith::ShLIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, wide, i32Constant(b, loc, 7)), i32Constant(b, loc, 31));
  Value half;
  Value nan;
  if (isa<Float8E4M3FNType>(f8)) {
    auto pair = VectorType::get({2}, b.getI8Type());
    Value both = vector::FromElementsOp::create(b, loc, pair, ValueRange{bits, bits});
    Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
        b, loc, VectorType::get({2}, b.getF16Type()), both, /*relu=*/false, f8);
    half = vector::ExtractOp::create(b, loc, halves, ArrayRef<int64_t>{0});
    nan = arith::CmpIOp::create(b, loc, P::eq, magnitude, i32Constant(b, loc, 0x7f));
  } else { // e5m2: the top byte of an f16
    Value shifted = arith::ShLIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, b.getI16Type(), bits),
        arith::ConstantOp::create(b, loc, b.getI16IntegerAttr(8)));
    half = arith::BitcastOp::create(b, loc, b.getF16Type(), shifted);
    nan = arith::CmpIOp::create(b, loc, P::ugt, magnitude, i32Constant(b, loc, 0x7c));
  }
  Value single = arith::ExtFOp::create(b, loc, b.getF32Type(), half);
  // NaN bits as the software lowering gives them: quiet, the sign and (for
  // e5m2) the payload at the top of f32's.
  Value payload = isa<Float8E4M3FNType>(f8)
                      ? i32Constant(b, loc, 0x7fc00000)
                      : arith::OrIOp::create(
                            b, loc, i32Constant(b, loc, 0x7fc00000),
                            arith::ShLIOp::create(
                                b, loc,
                                arith::AndIOp::create(b, loc, magnitude, i32Constant(b, loc, 3)),
                                i32Constant(b, loc, 21)));
  Value nanBits = arith::OrIOp::create(b, loc, payload, signBit);
  Value nanValue = arith::BitcastOp::create(b, loc, b.getF32Type(), nanBits);
  return arith::SelectOp::create(b, loc, nan, nanValue, single);
}

/// Applies `scalar` to each element of `value` (a scalar or a vector).
Value perElement(OpBuilder &b, Location loc, Value value, Type resultType,
                 llvm::function_ref<Value(Value)> scalar) {
  auto vector = dyn_cast<VectorType>(value.getType());
  if (!vector)
    return scalar(value);
  SmallVector<Value> elements;
  for (int64_t i = 0; i < vector.getNumElements(); ++i)
    elements.push_back(scalar(vector::ExtractOp::create(b, loc, value, ArrayRef<int64_t>{i})));
  return vector::FromElementsOp::create(b, loc, cast<VectorType>(resultType), elements);
}

struct HardwareFp8ConversionsPass
    : impl::HardwareFp8ConversionsPassBase<HardwareFp8ConversionsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> conversions;
    getOperation().walk([&](Operation *op) {
      auto extend = dyn_cast<arith::ExtFOp>(op);
      auto truncate = dyn_cast<arith::TruncFOp>(op);
      if (extend && isHardwareF8(getElementTypeOrSelf(extend.getIn().getType())) &&
          getElementTypeOrSelf(extend.getType()).isF32())
        conversions.push_back(op);
      if (truncate && isHardwareF8(getElementTypeOrSelf(truncate.getType())) &&
          getElementTypeOrSelf(truncate.getIn().getType()).isF32())
        conversions.push_back(op);
    });
    for (Operation *op : conversions) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value in = op->getOperand(0);
      Type resultType = op->getResult(0).getType();
      Value result;
      if (isa<arith::ExtFOp>(op)) {
        Type f8 = getElementTypeOrSelf(in.getType());
        Type bitsType = isa<VectorType>(in.getType())
                            ? Type(cast<VectorType>(in.getType()).clone(b.getI8Type()))
                            : b.getI8Type();
        Value bits = arith::BitcastOp::create(b, loc, bitsType, in);
        result = perElement(b, loc, bits, resultType,
                            [&](Value x) { return extendScalar(b, loc, x, f8); });
      } else {
        Type f8 = getElementTypeOrSelf(resultType);
        Type bitsType = isa<VectorType>(resultType)
                            ? Type(cast<VectorType>(resultType).clone(b.getI8Type()))
                            : b.getI8Type();
        Value bits = perElement(b, loc, in, bitsType,
                                [&](Value x) { return truncateScalar(b, loc, x, f8); });
        result = arith::BitcastOp::create(b, loc, resultType, bits);
      }
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};

} // namespace
} // namespace hlo::pipeline
