//===- LowerTmaToNvvm.cpp - mbarriers and TMA loads as NVVM ---------------===//
//
// Owns xla-gpu-lower-tma-to-nvvm (NvptxPasses.td): mbarriers (and a
// cluster's: arrivals at another block's through mapa, the cluster
// barrier), TMA loads (multicast across a cluster), the register moves
// (setmaxnreg) of warp-specialized kernels, and the epilogue's way out
// through the async proxy (stmatrix, TMA stores and their bulk-group
// waits).
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/SharedMemoryLayout.h"
#include "pipeline/nvptx/NvptxPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERTMATONVVMPASS
#include "pipeline/nvptx/NvptxPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// The suspend-time hint of each try_wait in the wait loop, in ns (as
/// CUTLASS's barriers use).
constexpr int32_t kTryWaitTicks = 0x989680;

/// NVVM's shared::cluster address space.
constexpr unsigned kSharedClusterAddressSpace = 7;

Value i32(ImplicitLocOpBuilder &b, Value index) {
  return arith::IndexCastUIOp::create(b, b.getI32Type(), index);
}

/// The shared address of barrier `index` of `barriers`.
Value barrierAddress(ImplicitLocOpBuilder &b, Value barriers, Value index) {
  auto shared = LLVM::LLVMPointerType::get(b.getContext(), kSharedMemoryAddressSpace);
  return xla_gpu::ElementPointerOp::create(b, shared, barriers, ValueRange{index});
}

/// The shared address of a TMA op's tile (from `indices` on, if any).
Value tileAddress(ImplicitLocOpBuilder &b, Value tile, ValueRange indices) {
  auto shared = LLVM::LLVMPointerType::get(b.getContext(), kSharedMemoryAddressSpace);
  SmallVector<Value> at(indices);
  if (at.empty())
    at.assign(cast<MemRefType>(tile.getType()).getRank(), arith::ConstantIndexOp::create(b, 0));
  return xla_gpu::ElementPointerOp::create(b, shared, tile, at);
}

/// The tensor map of a TMA op's global buffer: the kernel parameter is
/// the map itself (a grid constant passed by value), so its generic
/// address is the descriptor's.
Value descriptorAddress(ImplicitLocOpBuilder &b, Value global) {
  auto type = cast<MemRefType>(global.getType());
  return xla_gpu::ElementPointerOp::create(
      b, LLVM::LLVMPointerType::get(b.getContext()), global,
      SmallVector<Value>(type.getRank(), arith::ConstantIndexOp::create(b, 0)));
}

SmallVector<Value> coordinatesI32(ImplicitLocOpBuilder &b, ValueRange coordinates) {
  SmallVector<Value> result;
  for (Value coordinate : coordinates)
    result.push_back(arith::IndexCastOp::create(b, b.getI32Type(), coordinate));
  return result;
}

LogicalResult lower(Operation *op) {
  if (op->getNumResults() > 0)
    return op->emitOpError("expects buffers (bufferize first)");
  ImplicitLocOpBuilder b(op->getLoc(), op);
  if (auto init = dyn_cast<xla_gpu::MbarrierInitOp>(op)) {
    NVVM::MBarrierInitOp::create(
        b, barrierAddress(b, init.getBarriers(), init.getIndex()),
        arith::ConstantIntOp::create(b, init.getCount(), 32), Value());
    // The initialized barrier visible to the copy engine's completions
    // (the async proxy), as CUTLASS's pipelines fence it.
    NVVM::FenceMbarrierInitOp::create(b);
  } else if (auto sync = dyn_cast<xla_gpu::SyncThreadsOp>(op)) {
    // barrier.cluster.arrive (release) and .wait (acquire), not .aligned:
    // the producer's and consumers' threads reach it on their own paths.
    NVVM::ClusterArriveOp::create(b, UnitAttr());
    NVVM::ClusterWaitOp::create(b, UnitAttr());
  } else if (auto arrive = dyn_cast<xla_gpu::MbarrierArriveOp>(op);
             arrive && arrive.getInBlock()) {
    // The same barrier in block `in_block` of the cluster.
    Value remote = NVVM::MapaOp::create(
        b, LLVM::LLVMPointerType::get(b.getContext(), kSharedClusterAddressSpace),
        barrierAddress(b, arrive.getBarriers(), arrive.getIndex()), i32(b, arrive.getInBlock()));
    NVVM::MBarrierArriveOp::create(b, Type(), remote, Value(),
                                   NVVM::MemScopeKind::CLUSTER, /*relaxed=*/false);
  } else if (auto arrive = dyn_cast<xla_gpu::MbarrierArriveOp>(op);
             arrive && arrive.getTransactionBytes() == 0) {
    NVVM::MBarrierArriveOp::create(b, Type(),
                                   barrierAddress(b, arrive.getBarriers(), arrive.getIndex()),
                                   Value());
  } else if (auto arrive = dyn_cast<xla_gpu::MbarrierArriveOp>(op)) {
    NVVM::MBarrierArriveExpectTxOp::create(
        b, Type(), barrierAddress(b, arrive.getBarriers(), arrive.getIndex()),
        arith::ConstantIntOp::create(b, arrive.getTransactionBytes(), 32),
        NVVM::MemScopeKindAttr::get(b.getContext(), NVVM::MemScopeKind::CTA),
        b.getBoolAttr(false), Value());
  } else if (auto wait = dyn_cast<xla_gpu::MbarrierWaitOp>(op)) {
    NVVM::MBarrierTryWaitParityOp::create(
        b, barrierAddress(b, wait.getBarriers(), wait.getIndex()), i32(b, wait.getParity()),
        arith::ConstantIntOp::create(b, kTryWaitTicks, 32));
  } else if (auto registers = dyn_cast<xla_gpu::SetMaxRegistersOp>(op)) {
    NVVM::SetMaxRegisterOp::create(b, static_cast<int32_t>(registers.getCount()),
                                   registers.getIncrease()
                                       ? NVVM::SetMaxRegisterAction::increase
                                       : NVVM::SetMaxRegisterAction::decrease);
  } else if (auto store = dyn_cast<xla_gpu::StmatrixOp>(op)) {
    MLIRContext *context = b.getContext();
    auto shared = LLVM::LLVMPointerType::get(context, kSharedMemoryAddressSpace);
    Value row = xla_gpu::ElementPointerOp::create(b, shared, store.getTile(), store.getIndices());
    int64_t count = store.getCount();
    Value words = vector::BitCastOp::create(b, VectorType::get({count}, b.getI32Type()),
                                            store.getValues());
    SmallVector<Value> registers;
    for (int64_t i = 0; i < count; ++i)
      registers.push_back(vector::ExtractOp::create(b, words, i));
    NVVM::StMatrixOp::create(b, row, registers, NVVM::MMALayout::row,
                             NVVM::LdStMatrixShapeAttr::get(context, 8, 8),
                             NVVM::LdStMatrixEltType::B16);
    // Every lane's stores visible to the copy engine, then the warp meets:
    // any lane may issue the TMA store of what the warp wrote.
    NVVM::FenceProxyOp::create(b, NVVM::ProxyKindAttr::get(context, NVVM::ProxyKind::async_shared),
                               NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
    NVVM::SyncWarpOp::create(b, arith::ConstantIntOp::create(b, -1, 32));
  } else if (auto store = dyn_cast<xla_gpu::TmaStoreOp>(op)) {
    Value source = tileAddress(b, store.getTile(), store.getTileIndices());
    Value descriptor = descriptorAddress(b, store.getDestination());
    SmallVector<Value> coordinates = coordinatesI32(b, store.getCoordinates());
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(b, descriptor, source, coordinates, Value(),
                                                       NVVM::TMAStoreMode::TILE, Value());
    NVVM::CpAsyncBulkCommitGroupOp::create(b);
  } else if (auto wait = dyn_cast<xla_gpu::TmaStoreWaitOp>(op)) {
    NVVM::CpAsyncBulkWaitGroupOp::create(b, static_cast<int32_t>(wait.getPending()),
                                         wait.getRead() ? b.getUnitAttr() : UnitAttr());
  } else {
    auto load = cast<xla_gpu::TmaLoadOp>(op);
    MLIRContext *context = b.getContext();
    Value destination = tileAddress(b, load.getTile(), load.getTileIndices());
    Value descriptor = descriptorAddress(b, load.getSource());
    SmallVector<Value> coordinates = coordinatesI32(b, load.getCoordinates());
    // The PTX of sm_90 names the destination in the cluster's window: the
    // block's own address there (shared::cta addresses are valid in it).
    destination = LLVM::AddrSpaceCastOp::create(
        b, LLVM::LLVMPointerType::get(context, kSharedClusterAddressSpace), destination);
    // .multicast::cluster: the box and its bytes also land in the blocks
    // of the mask, at the same offsets.
    Value multicast;
    if (load.getMulticast() != 0)
      multicast = arith::ConstantIntOp::create(b, load.getMulticast(), 16);
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, destination, descriptor, coordinates,
        barrierAddress(b, load.getBarriers(), load.getBarrierIndex()), ValueRange(), multicast,
        Value(), NVVM::TMALoadModeAttr::get(context, NVVM::TMALoadMode::TILE),
        b.getBoolAttr(false), NVVM::CTAGroupKindAttr(), Value());
  }
  op->erase();
  return success();
}

struct LowerTmaToNvvmPass : impl::LowerTmaToNvvmPassBase<LowerTmaToNvvmPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (auto sync = dyn_cast<xla_gpu::SyncThreadsOp>(op); sync && sync.getCluster())
        ops.push_back(op);
      if (isa<xla_gpu::MbarrierInitOp, xla_gpu::MbarrierArriveOp, xla_gpu::MbarrierWaitOp,
              xla_gpu::TmaLoadOp, xla_gpu::SetMaxRegistersOp, xla_gpu::StmatrixOp,
              xla_gpu::TmaStoreOp, xla_gpu::TmaStoreWaitOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (failed(lower(op)))
        return signalPassFailure();
  }
};

} // namespace
} // namespace hlo::pipeline
