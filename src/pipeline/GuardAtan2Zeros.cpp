//===- GuardAtan2Zeros.cpp - atan2 at zeros kept finite under folding -----===//
//
// Owns xla-gpu-guard-atan2-zeros (Passes.td): every math.atan2 gets a
// select of its value at (+-0, +-0), +-0 or +-pi, beside it, once (the
// atan2 is marked).
//
// Why: MLIR's math.atan2 folder makes a NaN of atan2(+-0, +-0), where the
// runtime's atan2 (libdevice's, libm's) and XLA's constant folding give
// +-0 or +-pi. Operands become constants in many ways: an HLO atan2 of
// constants or iotas; complex-to-standard's formulas for log, log1p,
// sqrt, rsqrt and power (arg z = atan2(im, re)); and indices that only
// later passes prove constant (a one-thread launch's thread index after
// integer range analysis, a dynamic-update-slice start clamped into a
// range of one: fuzz seeds 35794, 407029 and 643397). Guarding only the
// atan2s of constants at each canonicalization missed the last kind, so
// every atan2 is guarded: at run time the select costs a few instructions
// beside atan2's polynomial, and with constant operands it folds away.
//
//===----------------------------------------------------------------------===//
#include "pipeline/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/Support/MathExtras.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_GUARDATAN2ZEROSPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// Marks an atan2 guarded already (the pass runs before every
/// canonicalization).
constexpr llvm::StringLiteral kGuardedAttr = "xla_gpu.zeros_guarded";

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

struct GuardAtan2ZerosPass : impl::GuardAtan2ZerosPassBase<GuardAtan2ZerosPass> {
  void runOnOperation() override {
    SmallVector<math::Atan2Op> unguarded;
    getOperation().walk([&](math::Atan2Op atan2) {
      if (!atan2->hasAttr(kGuardedAttr))
        unguarded.push_back(atan2);
    });
    for (math::Atan2Op atan2 : unguarded) {
      guard(atan2);
      atan2->setAttr(kGuardedAttr, UnitAttr::get(atan2.getContext()));
    }
  }
};

} // namespace
} // namespace hlo::pipeline
