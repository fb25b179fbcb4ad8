//===- UnrollSmallLoops.cpp - Full unrolling of small loops ---------------===//
//
// Owns xla-gpu-unroll-small-loops (see Passes.td), on top of upstream's
// scf::loopUnrollFull.
//
//===----------------------------------------------------------------------===//
#include "dialect/KernelContract.h"
#include "pipeline/Passes.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_UNROLLSMALLLOOPSPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

struct UnrollSmallLoopsPass
    : impl::UnrollSmallLoopsPassBase<UnrollSmallLoopsPass> {
  using UnrollSmallLoopsPassBase::UnrollSmallLoopsPassBase;

  void runOnOperation() override {
    // Innermost first (post-order), so nests unroll from the inside.
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      if (loop->hasAttr(xla_gpu::kKeepLoopAttr))
        continue;
      std::optional<llvm::APInt> trips = loop.getStaticTripCount();
      if (!trips || trips->getSExtValue() > maxTripCount)
        continue;
      int64_t bodyOps = 0;
      loop.getBody()->walk([&](Operation *) { ++bodyOps; });
      if (bodyOps > maxBodyOps)
        continue;
      (void)loopUnrollFull(loop);
    }
  }
};

} // namespace
} // namespace hlo::pipeline
