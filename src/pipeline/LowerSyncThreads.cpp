//===- LowerSyncThreads.cpp - sync_threads to gpu.barrier -----------------===//
//
// Owns xla-gpu-lower-sync-threads (Passes.td): block barriers become
// gpu.barrier; cluster barriers lose their tiles and stay for the target.
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/Passes.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERSYNCTHREADSPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

struct LowerSyncThreadsPass : impl::LowerSyncThreadsPassBase<LowerSyncThreadsPass> {
  void runOnOperation() override {
    SmallVector<xla_gpu::SyncThreadsOp> syncs;
    getOperation().walk([&](xla_gpu::SyncThreadsOp op) { syncs.push_back(op); });
    for (xla_gpu::SyncThreadsOp op : syncs) {
      OpBuilder b(op);
      // A cluster barrier stays, without tiles, for the target to lower
      // (it keeps its place by its memory effects).
      if (op.getCluster()) {
        if (op.getTiles().empty())
          continue;
        xla_gpu::SyncThreadsOp::create(b, op.getLoc(), ValueRange(), /*cluster=*/true);
      } else {
        gpu::BarrierOp::create(b, op.getLoc());
      }
      op.replaceAllUsesWith(op.getTiles());
      op.erase();
    }
    // Async commits and waits, and mbarrier waits, keep their place by
    // their memory effects from here on, without tiles.
    SmallVector<Operation *> asyncOps;
    getOperation().walk([&](Operation *op) {
      if (isa<xla_gpu::AsyncCommitOp, xla_gpu::AsyncWaitOp>(op) && op->getNumOperands() > 0)
        asyncOps.push_back(op);
    });
    getOperation().walk([&](xla_gpu::MbarrierWaitOp op) {
      if (!op.getTiles().empty())
        asyncOps.push_back(op);
    });
    for (Operation *op : asyncOps) {
      OpBuilder b(op);
      if (auto wait = dyn_cast<xla_gpu::MbarrierWaitOp>(op)) {
        xla_gpu::MbarrierWaitOp::create(b, op->getLoc(), wait.getBarriers(), wait.getIndex(),
                                        wait.getParity(), ValueRange());
        op->replaceAllUsesWith(wait.getTiles());
        op->erase();
        continue;
      }
      if (auto wait = dyn_cast<xla_gpu::AsyncWaitOp>(op))
        xla_gpu::AsyncWaitOp::create(b, op->getLoc(), ValueRange(), wait.getPending());
      else
        xla_gpu::AsyncCommitOp::create(b, op->getLoc(), ValueRange());
      op->replaceAllUsesWith(op->getOperands());
      op->erase();
    }
  }
};

} // namespace
} // namespace hlo::pipeline
