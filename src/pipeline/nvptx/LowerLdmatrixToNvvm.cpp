//===- LowerLdmatrixToNvvm.cpp - xla_gpu.ldmatrix as nvvm.ldmatrix -------===//
//
// Owns xla-gpu-lower-ldmatrix-to-nvvm (NvptxPasses.td).
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/SharedMemoryLayout.h"
#include "pipeline/nvptx/NvptxPasses.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERLDMATRIXTONVVMPASS
#include "pipeline/nvptx/NvptxPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

LogicalResult lower(xla_gpu::LdmatrixOp op) {
  auto tile = dyn_cast<MemRefType>(op.getTile().getType());
  if (!tile)
    return op.emitOpError("expects its tile's buffer (bufferize first)");
  ImplicitLocOpBuilder b(op.getLoc(), op);
  MLIRContext *context = b.getContext();
  auto pointerType = LLVM::LLVMPointerType::get(context, kSharedMemoryAddressSpace);
  Value row = xla_gpu::ElementPointerOp::create(b, pointerType, op.getTile(), op.getIndices());
  int64_t count = op.getCount();
  Type i32 = b.getI32Type();
  Type resultType = count == 1 ? i32
                               : Type(LLVM::LLVMStructType::getLiteral(
                                     context, SmallVector<Type>(count, i32)));
  Value loaded = NVVM::LdMatrixOp::create(b, resultType, row, static_cast<uint32_t>(count),
                                          op.getTranspose() ? NVVM::MMALayout::col
                                                            : NVVM::MMALayout::row,
                                          NVVM::LdStMatrixShapeAttr::get(context, 8, 8),
                                          NVVM::LdStMatrixEltType::B16);
  SmallVector<Value> words;
  if (count == 1)
    words.push_back(loaded);
  for (int64_t i = 0; i < count && count > 1; ++i)
    words.push_back(LLVM::ExtractValueOp::create(b, loaded, i));
  Value packed = vector::FromElementsOp::create(b, VectorType::get({count}, i32), words);
  op.getResult().replaceAllUsesWith(vector::BitCastOp::create(b, op.getType(), packed));
  op.erase();
  return success();
}

struct LowerLdmatrixToNvvmPass : impl::LowerLdmatrixToNvvmPassBase<LowerLdmatrixToNvvmPass> {
  using LowerLdmatrixToNvvmPassBase::LowerLdmatrixToNvvmPassBase;

  void runOnOperation() override {
    SmallVector<xla_gpu::LdmatrixOp> ops;
    getOperation().walk([&](xla_gpu::LdmatrixOp op) { ops.push_back(op); });
    for (xla_gpu::LdmatrixOp op : ops)
      if (failed(lower(op)))
        return signalPassFailure();
  }
};

} // namespace
} // namespace hlo::pipeline
