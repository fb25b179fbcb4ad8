//===- LowerSyncThreads.cpp - sync_threads to gpu.barrier -----------------===//
//
// Owns xla-gpu-lower-sync-threads (Passes.td).
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
      gpu::BarrierOp::create(b, op.getLoc());
      op.replaceAllUsesWith(op.getTiles());
      op.erase();
    }
  }
};

} // namespace
} // namespace hlo::pipeline
