//===- LegalizeHostFloats.cpp - f16/bf16 without host arithmetic ----------===//
//
// Owns xla-gpu-legalize-host-floats: math on f16/bf16 computed in f32 (negate
// and abs as sign-bit operations, which keep a NaN's bits), the
// conversions the host's compiler runtime lacks (f64 -> bf16, bf16 -> f64)
// written as conversions it has, with the rounding of a direct one, and
// copysign as LLVM's intrinsic (upstream's math-to-libm cannot take it),
// and IEEE maximum/minimum as LLVM's intrinsics (arith-expand's
// compare-and-select gets the order of -0 and +0 wrong), on f16/bf16 as
// compares in f32 that select an operand's bits.
//
//===----------------------------------------------------------------------===//
#include "pipeline/host/HostPasses.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LEGALIZEHOSTFLOATSPASS
#include "pipeline/host/HostPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

bool isNarrowFloat(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16();
}

/// `type` with its element type replaced (scalars and vectors).
Type withElementType(Type type, Type element) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(element);
  return element;
}

Value constantLike(OpBuilder &b, Location loc, Type type, int64_t value) {
  Type element = getElementTypeOrSelf(type);
  TypedAttr scalar = b.getIntegerAttr(element, value);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vector, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

/// A math op on f16/bf16 values: its operands extended to f32, the op in
/// f32, float results truncated back.
void promoteToF32(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type f32 = b.getF32Type();
  IRMapping mapping;
  for (Value operand : op->getOperands())
    if (isNarrowFloat(operand.getType()))
      mapping.map(operand, arith::ExtFOp::create(
                               b, loc, withElementType(operand.getType(), f32), operand));
  Operation *wide = b.clone(*op, mapping);
  for (auto [narrow, result] : llvm::zip(op->getResults(), wide->getResults())) {
    if (!isNarrowFloat(narrow.getType()))
      continue;
    result.setType(withElementType(narrow.getType(), f32));
    narrow.replaceAllUsesWith(arith::TruncFOp::create(b, loc, narrow.getType(), result));
  }
  for (auto [narrow, result] : llvm::zip(op->getResults(), wide->getResults()))
    if (!narrow.use_empty())
      narrow.replaceAllUsesWith(result);
  op->erase();
}

/// f64 -> bf16 rounded once: to f32 with round-to-odd (truncate, then set
/// the lowest bit if anything was lost), which keeps enough information for
/// the final round-to-nearest-even to f32's 8-bit-mantissa neighbour to be
/// the correctly rounded result.
void truncateThroughOddF32(arith::TruncFOp truncate) {
  OpBuilder b(truncate);
  Location loc = truncate.getLoc();
  Value x = truncate.getIn();
  Type type = x.getType();
  Type f32Type = withElementType(type, b.getF32Type());
  Type i32Type = withElementType(type, b.getI32Type());
  Value nearest = arith::TruncFOp::create(b, loc, f32Type, x);
  Value back = arith::ExtFOp::create(b, loc, type, nearest);
  // Exact (or NaN, which compares unordered): the nearest f32 is the value.
  Value exact = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UEQ, back, x);
  Value awayFromZero = arith::CmpFOp::create(
      b, loc, arith::CmpFPredicate::OGT, math::AbsFOp::create(b, loc, back),
      math::AbsFOp::create(b, loc, x));
  Value bits = arith::BitcastOp::create(b, loc, i32Type, nearest);
  Value truncated = arith::SelectOp::create(
      b, loc, awayFromZero, arith::SubIOp::create(b, loc, bits, constantLike(b, loc, i32Type, 1)),
      bits);
  Value odd = arith::OrIOp::create(b, loc, truncated, constantLike(b, loc, i32Type, 1));
  Value rounded = arith::SelectOp::create(b, loc, exact, bits, odd);
  Value f32Value = arith::BitcastOp::create(b, loc, f32Type, rounded);
  truncate.replaceAllUsesWith(
      arith::TruncFOp::create(b, loc, truncate.getType(), f32Value).getResult());
  truncate.erase();
}

/// bf16 -> f64 through f32 (both steps exact).
void extendThroughF32(arith::ExtFOp extend) {
  OpBuilder b(extend);
  Location loc = extend.getLoc();
  Type f32Type = withElementType(extend.getIn().getType(), b.getF32Type());
  Value f32Value = arith::ExtFOp::create(b, loc, f32Type, extend.getIn());
  extend.replaceAllUsesWith(
      arith::ExtFOp::create(b, loc, extend.getType(), f32Value).getResult());
  extend.erase();
}

/// negate and abs of f16/bf16 as the sign-bit operations they are, so that
/// a NaN keeps its sign and payload (through f32 the truncation back would
/// make it the canonical NaN, as the GPU's neg.bf16 / abs.bf16 do not).
void flipOrClearSign(Operation *op, bool negate) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type type = op->getResult(0).getType();
  Type bits = withElementType(type, b.getI16Type());
  Value word = arith::BitcastOp::create(b, loc, bits, op->getOperand(0));
  Value result =
      negate ? Value(arith::XOrIOp::create(b, loc, word, constantLike(b, loc, bits, 0x8000)))
             : Value(arith::AndIOp::create(b, loc, word, constantLike(b, loc, bits, 0x7fff)));
  op->getResult(0).replaceAllUsesWith(arith::BitcastOp::create(b, loc, type, result).getResult());
  op->erase();
}

/// maximum/minimum of f16/bf16 values: compared in f32, the result the
/// chosen operand's bits -- a NaN operand as it is (x's if both), -0
/// below +0 -- as XLA's kernels select it. (LLVM's bf16 maximum followed
/// by a look at its sign bit crashed the x86 back end: fuzz seed 615241.)
Value narrowMinMax(OpBuilder &b, Location loc, Value x, Value y, bool isMax) {
  Type type = x.getType();
  Type wide = withElementType(type, b.getF32Type());
  Type bits = withElementType(type, b.getI16Type());
  Type flags = withElementType(type, b.getI1Type());
  Value xWide = arith::ExtFOp::create(b, loc, wide, x);
  Value yWide = arith::ExtFOp::create(b, loc, wide, y);
  Value xBits = arith::BitcastOp::create(b, loc, bits, x);
  Value yBits = arith::BitcastOp::create(b, loc, bits, y);
  auto compare = [&](arith::CmpFPredicate predicate, Value lhs, Value rhs) -> Value {
    return arith::CmpFOp::create(b, loc, predicate, lhs, rhs);
  };
  Value xNaN = compare(arith::CmpFPredicate::UNO, xWide, xWide);
  Value yNumber = compare(arith::CmpFPredicate::ORD, yWide, yWide);
  Value xWins = compare(isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, xWide,
                        yWide);
  Value equal = compare(arith::CmpFPredicate::OEQ, xWide, yWide);
  // Equal (+0 and -0): maximum takes the one without the sign bit,
  // minimum the one with it.
  Value xNegative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, xBits,
                                          constantLike(b, loc, bits, 0));
  Value xOnTie = isMax ? Value(arith::XOrIOp::create(b, loc, xNegative,
                                                     constantLike(b, loc, flags, 1)))
                       : xNegative;
  Value pickX = arith::OrIOp::create(
      b, loc, xNaN,
      arith::AndIOp::create(b, loc, yNumber,
                            arith::OrIOp::create(b, loc, xWins,
                                                 arith::AndIOp::create(b, loc, equal, xOnTie))));
  Value chosen = arith::SelectOp::create(b, loc, pickX, xBits, yBits);
  return arith::BitcastOp::create(b, loc, type, chosen);
}

struct LegalizeHostFloatsPass
    : impl::LegalizeHostFloatsPassBase<LegalizeHostFloatsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> signOps;
    getOperation().walk([&](Operation *op) {
      if (isa<arith::NegFOp, math::AbsFOp>(op) && isNarrowFloat(op->getResult(0).getType()))
        signOps.push_back(op);
    });
    for (Operation *op : signOps)
      flipOrClearSign(op, isa<arith::NegFOp>(op));
    SmallVector<Operation *> mathOps;
    SmallVector<arith::TruncFOp> truncations;
    SmallVector<arith::ExtFOp> extensions;
    getOperation().walk([&](Operation *op) {
      if (isa_and_nonnull<math::MathDialect>(op->getDialect()) &&
          (llvm::any_of(op->getOperandTypes(), isNarrowFloat) ||
           llvm::any_of(op->getResultTypes(), isNarrowFloat)))
        mathOps.push_back(op);
      auto f64 = [](Value value) { return getElementTypeOrSelf(value.getType()).isF64(); };
      auto bf16 = [](Value value) { return getElementTypeOrSelf(value.getType()).isBF16(); };
      if (auto truncate = dyn_cast<arith::TruncFOp>(op))
        if (f64(truncate.getIn()) && bf16(truncate.getOut()))
          truncations.push_back(truncate);
      if (auto extend = dyn_cast<arith::ExtFOp>(op))
        if (bf16(extend.getIn()) && f64(extend.getOut()))
          extensions.push_back(extend);
    });
    for (Operation *op : mathOps)
      promoteToF32(op);
    // (Narrow copysigns were promoted above: those are f32 now.)
    getOperation().walk([&](math::CopySignOp op) {
      OpBuilder b(op);
      op.replaceAllUsesWith(
          LLVM::CopySignOp::create(b, op.getLoc(), op.getLhs(), op.getRhs()).getResult());
      op.erase();
    });
    // IEEE maximum/minimum as LLVM's intrinsics, which order -0 below +0:
    // arith-expand (run later for bf16) would make them compare-and-select,
    // which gives -0 for maximum(+0, -0) (fuzz seed 306957).
    getOperation().walk([&](Operation *op) {
      if (!isa<arith::MaximumFOp, arith::MinimumFOp>(op))
        return;
      OpBuilder b(op);
      Value lhs = op->getOperand(0), rhs = op->getOperand(1);
      if (isNarrowFloat(lhs.getType())) {
        op->getResult(0).replaceAllUsesWith(
            narrowMinMax(b, op->getLoc(), lhs, rhs, isa<arith::MaximumFOp>(op)));
        op->erase();
        return;
      }
      Value result = isa<arith::MaximumFOp>(op)
                         ? Value(LLVM::MaximumOp::create(b, op->getLoc(), lhs, rhs))
                         : Value(LLVM::MinimumOp::create(b, op->getLoc(), lhs, rhs));
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    });
    for (arith::TruncFOp truncate : truncations)
      truncateThroughOddF32(truncate);
    for (arith::ExtFOp extend : extensions)
      extendThroughF32(extend);
  }
};

} // namespace
} // namespace hlo::pipeline
