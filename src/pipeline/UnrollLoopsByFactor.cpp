//===- UnrollLoopsByFactor.cpp - Partial unrolling of the loops left ------===//
//
// Owns xla-gpu-unroll-loops-by-factor (see Passes.td): after small loops are
// fully unrolled, each remaining loop with constant bounds is unrolled by
// the largest divisor of its trip count whose unrolled body stays within a
// size budget, so that several iterations' loads are issued back to back.
// The size model (and the budget of 400) follows XLA's loop optimization:
// one per operation times its vector width, more for float math that is
// no single instruction; a call or a nested loop makes a body too costly.
//
//===----------------------------------------------------------------------===//
#include "dialect/KernelContract.h"
#include "pipeline/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_UNROLLLOOPSBYFACTORPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// Float math lowered to a sequence (or a libdevice call) rather than one
/// instruction.
constexpr int64_t kMathSequenceSize = 20;
constexpr int64_t kExpOrLogSize = 40;

/// The size one operation adds to a loop body, or none where the body
/// must not be unrolled (a call, a nested loop).
std::optional<int64_t> operationSize(Operation *op) {
  if (isa<func::CallOp, scf::ForOp, scf::WhileOp>(op))
    return std::nullopt;
  int64_t size = 1;
  Type result = op->getNumResults() ? op->getResultTypes().front() : Type();
  if (isa<math::MathDialect>(op->getDialect()) && result &&
      !getElementTypeOrSelf(result).isIntOrIndex()) {
    if (isa<math::ExpOp, math::LogOp>(op))
      size = kExpOrLogSize;
    else if (!isa<math::AbsFOp, math::CeilOp, math::CopySignOp, math::FloorOp, math::FmaOp,
                  math::RoundEvenOp, math::RoundOp, math::RsqrtOp, math::SqrtOp,
                  math::TruncOp>(op))
      size = kMathSequenceSize;
  }
  if (auto vector = dyn_cast_or_null<VectorType>(result))
    size *= vector.getNumElements();
  return size;
}

std::optional<int64_t> bodySize(scf::ForOp loop) {
  int64_t size = 0;
  WalkResult walked = loop.getBody()->walk([&](Operation *op) {
    std::optional<int64_t> own = operationSize(op);
    if (!own)
      return WalkResult::interrupt();
    size += *own;
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return std::nullopt;
  return size;
}

struct UnrollLoopsByFactorPass : impl::UnrollLoopsByFactorPassBase<UnrollLoopsByFactorPass> {
  using UnrollLoopsByFactorPassBase::UnrollLoopsByFactorPassBase;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      if (loop->hasAttr(xla_gpu::kKeepLoopAttr))
        continue;
      std::optional<llvm::APInt> trips = loop.getStaticTripCount();
      if (!trips)
        continue;
      int64_t tripCount = trips->getSExtValue();
      std::optional<int64_t> size = bodySize(loop);
      if (tripCount < 2 || !size)
        continue;
      int64_t factor = std::min(tripCount, maxUnrolledSize / std::max<int64_t>(*size, 1));
      while (factor > 1 && tripCount % factor != 0)
        --factor;
      if (factor > 1)
        (void)loopUnrollByFactor(loop, static_cast<uint64_t>(factor));
    }
  }
};

} // namespace
} // namespace hlo::pipeline
