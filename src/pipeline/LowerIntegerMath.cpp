//===- LowerIntegerMath.cpp - Integer math ops as LLVM intrinsics ---------===//
//
// Owns xla-gpu-lower-integer-math (Passes.td): math.absi, math.ctpop,
// math.ctlz and math.cttz become the LLVM dialect's intrinsic ops, for
// every integer width and both targets. Neither target's conversion covers
// them all: convert-gpu-to-nvvm turns only the widths libdevice has
// (__nv_abs, __nv_popc, ...) into calls, and the host's math-to-libm marks
// the whole math dialect illegal.
//
//===----------------------------------------------------------------------===//
#include "pipeline/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERINTEGERMATHPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

struct LowerIntegerMathPass : impl::LowerIntegerMathPassBase<LowerIntegerMathPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<math::AbsIOp, math::CtPopOp, math::CountLeadingZerosOp,
              math::CountTrailingZerosOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value x = op->getOperand(0);
      Type type = x.getType();
      Value result;
      // Defined for every input: abs(INT_MIN) wraps to INT_MIN, and the
      // counts of 0 are the width (HLO's semantics).
      if (isa<math::AbsIOp>(op))
        result = LLVM::AbsOp::create(b, loc, type, x, /*is_int_min_poison=*/false);
      else if (isa<math::CtPopOp>(op))
        result = LLVM::CtPopOp::create(b, loc, type, x);
      else if (isa<math::CountLeadingZerosOp>(op))
        result = LLVM::CountLeadingZerosOp::create(b, loc, type, x, /*is_zero_poison=*/false);
      else
        result = LLVM::CountTrailingZerosOp::create(b, loc, type, x, /*is_zero_poison=*/false);
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};

} // namespace
} // namespace hlo::pipeline
