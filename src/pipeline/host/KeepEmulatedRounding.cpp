//===- KeepEmulatedRounding.cpp - f16/bf16 rounded after each op ----------===//
//
// Owns xla-gpu-keep-emulated-rounding (HostPasses.td): the conversions
// arith-emulate-unsupported-floats wraps around each f16/bf16 operation
// lose their `contract` flag, so that no rounding between operations is
// folded away, and their f16 results pass through llvm.arithmetic.fence,
// which LLVM's InstCombine does not look through (HostPasses.td says why).
//
//===----------------------------------------------------------------------===//
#include "pipeline/host/HostPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_KEEPEMULATEDROUNDINGPASS
#include "pipeline/host/HostPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

struct KeepEmulatedRoundingPass : impl::KeepEmulatedRoundingPassBase<KeepEmulatedRoundingPass> {
  void runOnOperation() override {
    SmallVector<arith::TruncFOp> halfResults;
    getOperation().walk([&](Operation *op) {
      if (isa<arith::ExtFOp, arith::TruncFOp>(op))
        if (auto flags = dyn_cast<arith::ArithFastMathInterface>(op))
          op->removeAttr(flags.getFastMathAttrName());
      if (auto truncate = dyn_cast<arith::TruncFOp>(op))
        if (getElementTypeOrSelf(truncate.getType()).isF16())
          halfResults.push_back(truncate);
    });
    for (arith::TruncFOp truncate : halfResults) {
      OpBuilder b(truncate);
      b.setInsertionPointAfter(truncate);
      auto fence = LLVM::CallIntrinsicOp::create(
          b, truncate.getLoc(), truncate.getType(),
          b.getStringAttr("llvm.arithmetic.fence"), ValueRange{truncate.getResult()});
      truncate.getResult().replaceAllUsesExcept(fence.getResult(0), fence);
    }
  }
};

} // namespace
} // namespace hlo::pipeline
