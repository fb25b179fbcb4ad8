//===- KeepEmulatedRounding.cpp - f16/bf16 rounded after each op ----------===//
//
// Owns xla-gpu-keep-emulated-rounding (HostPasses.td): the conversions
// arith-emulate-unsupported-floats wraps around each f16/bf16 operation
// lose their `contract` flag, so that no rounding between operations is
// folded away.
//
//===----------------------------------------------------------------------===//
#include "pipeline/host/HostPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_KEEPEMULATEDROUNDINGPASS
#include "pipeline/host/HostPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

struct KeepEmulatedRoundingPass : impl::KeepEmulatedRoundingPassBase<KeepEmulatedRoundingPass> {
  void runOnOperation() override {
    getOperation().walk([&](Operation *op) {
      if (isa<arith::ExtFOp, arith::TruncFOp>(op))
        if (auto flags = dyn_cast<arith::ArithFastMathInterface>(op))
          op->removeAttr(flags.getFastMathAttrName());
    });
  }
};

} // namespace
} // namespace hlo::pipeline
