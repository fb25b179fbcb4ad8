//===- LowerAsyncCopiesToNvvm.cpp - async copies as cp.async --------------===//
//
// Owns xla-gpu-lower-async-copies-to-nvvm (NvptxPasses.td).
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/SharedMemoryLayout.h"
#include "pipeline/nvptx/NvptxPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERASYNCCOPIESTONVVMPASS
#include "pipeline/nvptx/NvptxPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// NVPTX's global address space.
constexpr unsigned kGlobalAddressSpace = 1;

LogicalResult lower(xla_gpu::AsyncCopyOp op) {
  if (op.getResult())
    return op.emitOpError("expects buffers (bufferize first)");
  ImplicitLocOpBuilder b(op.getLoc(), op);
  MLIRContext *context = b.getContext();
  auto shared = LLVM::LLVMPointerType::get(context, kSharedMemoryAddressSpace);
  auto global = LLVM::LLVMPointerType::get(context, kGlobalAddressSpace);
  Value destination = xla_gpu::ElementPointerOp::create(b, shared, op.getTile(),
                                                        op.getTileIndices());
  // The source is a kernel buffer: generic (or already global) pointers.
  auto sourceSpace = dyn_cast_or_null<IntegerAttr>(
      cast<MemRefType>(op.getSource().getType()).getMemorySpace());
  Value source;
  if (sourceSpace && sourceSpace.getInt() == kGlobalAddressSpace) {
    source = xla_gpu::ElementPointerOp::create(b, global, op.getSource(), op.getSourceIndices());
  } else {
    Value generic = xla_gpu::ElementPointerOp::create(b, LLVM::LLVMPointerType::get(context),
                                                      op.getSource(), op.getSourceIndices());
    source = LLVM::AddrSpaceCastOp::create(b, global, generic);
  }
  int32_t bytes = static_cast<int32_t>(op.getBytes());
  // Zero source bytes where the condition fails: the tile gets zeros.
  Value sourceSize = arith::SelectOp::create(
      b, op.getCondition(), arith::ConstantIntOp::create(b, bytes, 32),
      arith::ConstantIntOp::create(b, 0, 32));
  auto modifier = NVVM::LoadCacheModifierKindAttr::get(
      context, bytes == 16 ? NVVM::LoadCacheModifierKind::CG : NVVM::LoadCacheModifierKind::CA);
  NVVM::CpAsyncOp::create(b, destination, source, b.getI32IntegerAttr(bytes), modifier,
                          sourceSize);
  op.erase();
  return success();
}

struct LowerAsyncCopiesToNvvmPass
    : impl::LowerAsyncCopiesToNvvmPassBase<LowerAsyncCopiesToNvvmPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<xla_gpu::AsyncCopyOp, xla_gpu::AsyncCommitOp, xla_gpu::AsyncWaitOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto copy = dyn_cast<xla_gpu::AsyncCopyOp>(op)) {
        if (failed(lower(copy)))
          return signalPassFailure();
        continue;
      }
      if (op->getNumOperands() > 0) {
        op->emitOpError("expects no tiles (xla-gpu-lower-sync-threads first)");
        return signalPassFailure();
      }
      OpBuilder b(op);
      if (auto wait = dyn_cast<xla_gpu::AsyncWaitOp>(op))
        NVVM::CpAsyncWaitGroupOp::create(b, op->getLoc(),
                                         static_cast<int32_t>(wait.getPending()));
      else
        NVVM::CpAsyncCommitGroupOp::create(b, op->getLoc());
      op->erase();
    }
  }
};

} // namespace
} // namespace hlo::pipeline
