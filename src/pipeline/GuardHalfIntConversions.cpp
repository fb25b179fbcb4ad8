//===- GuardHalfIntConversions.cpp - int -> f16 overflow made explicit ----===//
//
// Owns xla-gpu-guard-half-int-conversions (Passes.td): an integer -> f16
// conversion whose source can reach f16's overflow threshold (65520)
// selects +-inf for such sources explicitly, beside the conversion itself.
//
// Why: LLVM 22's InstCombine folds `fpext (uitofp x to half) to float`
// into `uitofp x to float` once x's known significant bits fit half's
// 11-bit significand, without checking half's exponent range. An f16
// `iota * 16384` became such an x (the multiply folded into the integer),
// and 65536 converted to 65536.0 instead of inf (fuzz seed 206066). With
// the select, a folded conversion is only used where it is exact.
//
//===----------------------------------------------------------------------===//
#include "pipeline/Passes.h"

#include "llvm/ADT/APFloat.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_GUARDHALFINTCONVERSIONSPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// The smallest magnitude that rounds to inf in f16 (round to nearest even:
/// halfway between 65504 and 2^16).
constexpr int64_t kHalfOverflowThreshold = 65520;

/// A scalar or splat-vector constant shaped as `type`.
Value splatConstant(OpBuilder &b, Location loc, Type type, TypedAttr scalar) {
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vector, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

/// Whether a `width`-bit integer can reach the threshold in magnitude
/// (2^16 - 1 >= 65520 > 2^15).
bool canOverflowHalf(unsigned width, bool isSigned) {
  unsigned magnitudeBits = isSigned ? width - 1 : width;
  return magnitudeBits >= 16;
}

void guard(Operation *conversion, bool isSigned) {
  Value source = conversion->getOperand(0);
  Value converted = conversion->getResult(0);
  Type intType = source.getType();
  Type resultType = converted.getType();
  auto intElement = cast<IntegerType>(getElementTypeOrSelf(intType));
  auto halfElement = cast<FloatType>(getElementTypeOrSelf(resultType));

  SmallVector<OpOperand *> uses =
      llvm::map_to_vector(converted.getUses(), [](OpOperand &use) { return &use; });
  OpBuilder b(conversion->getContext());
  b.setInsertionPointAfter(conversion);
  Location loc = conversion->getLoc();
  auto limit = [&](int64_t value) {
    return splatConstant(b, loc, intType, b.getIntegerAttr(intElement, value));
  };
  auto infinity = [&](bool negative) {
    APFloat inf = APFloat::getInf(halfElement.getFloatSemantics(), negative);
    return splatConstant(b, loc, resultType, b.getFloatAttr(halfElement, inf));
  };
  Value tooLarge = arith::CmpIOp::create(
      b, loc, isSigned ? arith::CmpIPredicate::sge : arith::CmpIPredicate::uge, source,
      limit(kHalfOverflowThreshold));
  Value result = arith::SelectOp::create(b, loc, tooLarge, infinity(false), converted);
  if (isSigned) {
    Value tooSmall = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, source,
                                           limit(-kHalfOverflowThreshold));
    result = arith::SelectOp::create(b, loc, tooSmall, infinity(true), result);
  }
  for (OpOperand *use : uses)
    use->set(result);
}

struct GuardHalfIntConversionsPass
    : impl::GuardHalfIntConversionsPassBase<GuardHalfIntConversionsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<Operation *, bool>> conversions;
    getOperation().walk([&](Operation *op) {
      bool isSigned = isa<arith::SIToFPOp>(op);
      if (!isSigned && !isa<arith::UIToFPOp>(op))
        return;
      if (!getElementTypeOrSelf(op->getResult(0).getType()).isF16())
        return;
      unsigned width = getElementTypeOrSelf(op->getOperand(0).getType()).getIntOrFloatBitWidth();
      if (canOverflowHalf(width, isSigned))
        conversions.push_back({op, isSigned});
    });
    for (auto [op, isSigned] : conversions)
      guard(op, isSigned);
  }
};

} // namespace
} // namespace hlo::pipeline
