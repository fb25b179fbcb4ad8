//===- GuardConstantAtan2.cpp - atan2 of constant zeros kept finite -------===//
//
// Owns xla-gpu-guard-constant-atan2 (Passes.td): a math.atan2 whose
// operands are computed from constants alone gets a select of its value at
// (+-0, +-0), +-0 or +-pi, beside it.
//
// Why: MLIR's math.atan2 folder makes a NaN of atan2(+-0, +-0), where the
// runtime's atan2 (libdevice's, libm's) and XLA's constant folding give
// +-0 or +-pi. Constants reach atan2 through an HLO atan2, and through
// complex-to-standard's formulas for log, log1p, sqrt, rsqrt and power
// (arg z = atan2(im, re)): log1p of the constant (-1, 0) folded to
// (0, nan) (its atan2(0, -1 + 1)). The select folds with its operands, so
// only atan2s the canonicalizer could fold are guarded: a runtime atan2
// keeps XLA's instructions.
//
//===----------------------------------------------------------------------===//
#include "pipeline/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/DenseMap.h"

#include "llvm/Support/MathExtras.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_GUARDCONSTANTATAN2PASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// Whether `value` is computed from constants by ops without regions or
/// side effects: what the canonicalizer can fold to a constant.
class ConstantSlice {
public:
  bool contains(Value value, int depth = 0) {
    Operation *op = value.getDefiningOp();
    if (!op || depth > kMaxDepth)
      return false;
    if (auto known = known_.find(op); known != known_.end())
      return known->second;
    bool result = op->getNumRegions() == 0 && isPure(op);
    for (Value operand : op->getOperands())
      result = result && contains(operand, depth + 1);
    known_[op] = result;
    return result;
  }

private:
  static constexpr int kMaxDepth = 64;
  llvm::DenseMap<Operation *, bool> known_;
};

/// A scalar or splat-vector float constant shaped as `type`.
Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  auto element = cast<FloatType>(getElementTypeOrSelf(type));
  auto scalar = b.getFloatAttr(element, value);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vector, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

/// atan2(y, x) -> select(x == 0 && y == 0, copysign(x < +0 ? pi : 0, y),
/// atan2(y, x)), where "x < +0" reads x's sign bit (true for -0).
void guard(math::Atan2Op atan2) {
  OpBuilder b(atan2);
  b.setInsertionPointAfter(atan2);
  Location loc = atan2.getLoc();
  Value y = atan2.getLhs(), x = atan2.getRhs();
  Type type = atan2.getType();
  Value zero = floatConstant(b, loc, type, 0.0), one = floatConstant(b, loc, type, 1.0);
  Value pi = floatConstant(b, loc, type, llvm::numbers::pi);
  auto isZero = [&](Value v) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, v, zero);
  };
  Value bothZero = arith::AndIOp::create(b, loc, isZero(x), isZero(y));
  Value xSign = math::CopySignOp::create(b, loc, one, x);
  Value xNegative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, xSign, zero);
  Value magnitude = arith::SelectOp::create(b, loc, xNegative, pi, zero);
  Value atZero = math::CopySignOp::create(b, loc, magnitude, y);
  auto select = arith::SelectOp::create(b, loc, bothZero, atZero, atan2.getResult());
  atan2.getResult().replaceAllUsesExcept(select.getResult(), select);
}

struct GuardConstantAtan2Pass
    : impl::GuardConstantAtan2PassBase<GuardConstantAtan2Pass> {
  void runOnOperation() override {
    ConstantSlice constants;
    SmallVector<math::Atan2Op> foldable;
    getOperation().walk([&](math::Atan2Op atan2) {
      if (constants.contains(atan2.getLhs()) && constants.contains(atan2.getRhs()))
        foldable.push_back(atan2);
    });
    for (math::Atan2Op atan2 : foldable)
      guard(atan2);
  }
};

} // namespace
} // namespace hlo::pipeline
