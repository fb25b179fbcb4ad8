//===- LowerWgmmaToNvvm.cpp - xla_gpu.wgmma as nvvm.wgmma.mma_async ------===//
//
// Owns xla-gpu-lower-wgmma-to-nvvm (NvptxPasses.td): each xla_gpu.wgmma on
// shared buffers as a proxy fence, wgmma.fence, one wgmma.mma_async
// m64nNk16 (m64nNk8 for TF32, m64nNk32 for 8-bit floats) per 32 bytes of K
// (shared-memory descriptors of the tiles in the op's layout: core matrices, or swizzled rows), a commit and -- unless
// the op is in flight -- a wait for it; each xla_gpu.wgmma_wait as
// wgmma.wait_group in inline assembly that takes and returns the
// accumulators (tied registers), so that no read of them is scheduled
// before the wait.
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
#define GEN_PASS_DEF_LOWERWGMMATONVVMPASS
#include "pipeline/nvptx/NvptxPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// The bytes of one core matrix (8 rows of 16 bytes): the step between
/// core matrices adjacent along K in the unswizzled layout.
constexpr int64_t kCoreMatrixBytes = 128;

/// The indices of element (8 * `rowGroup`, `k`) of a tile in the op's
/// layout (before any swizzle).
SmallVector<Value> tileIndicesOf(ImplicitLocOpBuilder &b, Value tile, Value rowGroup, int64_t k,
                                 int64_t swizzle) {
  auto constant = [&](int64_t value) { return arith::ConstantIndexOp::create(b, value); };
  auto type = cast<MemRefType>(tile.getType());
  if (swizzle == 0)
    return {rowGroup, constant(k / type.getDimSize(3)), constant(0), constant(0)};
  int64_t perRow = type.getDimSize(2);
  return {constant(k / perRow), arith::MulIOp::create(b, rowGroup, constant(8)),
          constant(k % perRow)};
}

/// The matrix descriptor (the PTX ISA's "matrix descriptor format") of a
/// K-major operand from element (8 * `rowGroup`, `k`) of `tile` on: its
/// shared address, the byte offsets between core matrices adjacent along K
/// (leading; unused when swizzled) and between 8-row groups (stride), each
/// in 16-byte units, and the swizzle mode (bits 62-63: 1 for 128 bytes, 2
/// for 64, 3 for 32).
/// An MN-major operand (`transposed`, swizzled: a [N/T][K][T] tile, an
/// N-major B or an M-major A) starts at element (8 * `rowGroup`, `k`)
/// instead; its leading offset is between atoms of T columns (a whole K
/// extent of rows), its stride between 8-k groups (the PTX ISA's MN-major
/// canonical layouts).
Value descriptorOf(ImplicitLocOpBuilder &b, Value tile, Value rowGroup, int64_t k,
                   int64_t swizzle, bool transposed = false) {
  auto type = cast<MemRefType>(tile.getType());
  auto pointerType = LLVM::LLVMPointerType::get(b.getContext(), kSharedMemoryAddressSpace);
  SmallVector<Value> indices;
  if (transposed) {
    auto index = [&](int64_t value) { return arith::ConstantIndexOp::create(b, value); };
    Value column = arith::MulIOp::create(b, rowGroup, index(8));
    indices = {arith::DivUIOp::create(b, column, index(type.getDimSize(2))), index(k),
               index(0)};
  } else {
    indices = tileIndicesOf(b, tile, rowGroup, k, swizzle);
  }
  Value start = xla_gpu::ElementPointerOp::create(b, pointerType, tile, indices);
  Type i64 = b.getI64Type();
  Value address = LLVM::PtrToIntOp::create(b, i64, start);
  auto constant = [&](int64_t value) { return LLVM::ConstantOp::create(b, i64, value); };
  int64_t leading = transposed ? type.getDimSize(1) * swizzle : swizzle == 0 ? kCoreMatrixBytes : 16;
  int64_t stride = swizzle == 0 ? type.getDimSize(1) * kCoreMatrixBytes : 8 * swizzle;
  int64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : swizzle == 32 ? 3 : 0;
  Value field = LLVM::LShrOp::create(b, LLVM::AndOp::create(b, address, constant(0x3ffff)),
                                     constant(4));
  return LLVM::OrOp::create(
      b, field, constant((leading >> 4) << 16 | (stride >> 4) << 32 | mode << 62));
}

NVVM::WGMMATypes wgmmaTypeOf(Type element) {
  return element.isBF16()                   ? NVVM::WGMMATypes::bf16
         : element.isF16()                  ? NVVM::WGMMATypes::f16
         : isa<Float8E4M3FNType>(element)   ? NVVM::WGMMATypes::e4m3
         : isa<Float8E5M2Type>(element)     ? NVVM::WGMMATypes::e5m2
                                            : NVVM::WGMMATypes::tf32;
}

LogicalResult lower(xla_gpu::WgmmaOp op) {
  if (!isa<MemRefType>(op.getA().getType()) || !isa<MemRefType>(op.getB().getType()))
    return op.emitOpError("expects its tiles' buffers (bufferize first)");
  ImplicitLocOpBuilder b(op.getLoc(), op);
  MLIRContext *context = b.getContext();
  int64_t width = op.getWidth(), values = width / 2;
  Type f32 = b.getF32Type();
  auto accumulators = LLVM::LLVMStructType::getLiteral(context, SmallVector<Type>(values, f32));
  Value inout = LLVM::UndefOp::create(b, accumulators);
  for (int64_t i = 0; i < values; ++i)
    inout = LLVM::InsertValueOp::create(b, inout, vector::ExtractOp::create(b, op.getC(), i), i);

  // The tiles were written through the generic proxy; wgmma reads them
  // through the async proxy.
  NVVM::FenceProxyOp::create(b, NVVM::ProxyKindAttr::get(context, NVVM::ProxyKind::async_shared),
                             NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
  NVVM::WgmmaFenceAlignedOp::create(b);
  // A's and B's types (8-bit floats may differ).
  auto typeA = NVVM::WGMMATypesAttr::get(
      context, wgmmaTypeOf(cast<ShapedType>(op.getA().getType()).getElementType()));
  auto typeB = NVVM::WGMMATypesAttr::get(
      context, wgmmaTypeOf(cast<ShapedType>(op.getB().getType()).getElementType()));
  auto one = NVVM::WGMMAScaleInAttr::get(context, NVVM::WGMMAScaleIn::one);
  int64_t swizzle = op.getSwizzle();
  int64_t step = op.getStepDepth();
  for (int64_t k = 0; k < op.getDepth(); k += step) {
    Value descriptorA =
        descriptorOf(b, op.getA(), op.getARow(), k, swizzle, op.getATransposed());
    Value descriptorB =
        descriptorOf(b, op.getB(), op.getBRow(), k, swizzle, op.getBTransposed());
    inout = NVVM::WgmmaMmaAsyncOp::create(
        b, accumulators, inout, descriptorA, descriptorB,
        NVVM::MMAShapeAttr::get(context, 64, static_cast<int>(width), static_cast<int>(step)),
        typeA, typeB, NVVM::WGMMATypesAttr::get(context, NVVM::WGMMATypes::f32),
        NVVM::WGMMAScaleOutAttr::get(context, NVVM::WGMMAScaleOut::one), one, one,
        // A K-major is "row" (no transpose); M-major "col" (imm-trans-a).
        NVVM::MMALayoutAttr::get(context, op.getATransposed() ? NVVM::MMALayout::col
                                                              : NVVM::MMALayout::row),
        // B K-major is "col" (no transpose); N-major "row" (imm-trans-b).
        NVVM::MMALayoutAttr::get(context, op.getBTransposed() ? NVVM::MMALayout::row
                                                              : NVVM::MMALayout::col),
        nullptr);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b);
  if (!op.getInFlight())
    NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
  SmallVector<Value> results;
  for (int64_t i = 0; i < values; ++i)
    results.push_back(LLVM::ExtractValueOp::create(b, inout, i));
  op.getD().replaceAllUsesWith(vector::FromElementsOp::create(b, op.getD().getType(), results));
  op.erase();
  return success();
}

/// wgmma.wait_group N with the accumulators as tied operands ("=f" each,
/// "0", "1", ...): their uses depend on the wait.
void lower(xla_gpu::WgmmaWaitOp op) {
  ImplicitLocOpBuilder b(op.getLoc(), op);
  auto type = cast<VectorType>(op.getAccumulators().getType());
  int64_t values = type.getNumElements();
  SmallVector<Value> inputs;
  std::string constraints;
  for (int64_t i = 0; i < values; ++i) {
    inputs.push_back(vector::ExtractOp::create(b, op.getAccumulators(), i));
    constraints += (i ? ",=f" : "=f");
  }
  for (int64_t i = 0; i < values; ++i)
    constraints += "," + std::to_string(i);
  Type f32 = b.getF32Type();
  Type resultType = values == 1 ? f32
                                : Type(LLVM::LLVMStructType::getLiteral(
                                      b.getContext(), SmallVector<Type>(values, f32)));
  std::string text = "wgmma.wait_group.sync.aligned " + std::to_string(op.getPending()) + ";";
  Value waited = LLVM::InlineAsmOp::create(b, resultType, inputs, text, constraints,
                                           /*has_side_effects=*/true, /*is_align_stack=*/false,
                                           LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
                                           /*operand_attrs=*/nullptr)
                     .getResult(0);
  SmallVector<Value> results;
  for (int64_t i = 0; i < values; ++i)
    results.push_back(values == 1 ? waited : LLVM::ExtractValueOp::create(b, waited, i));
  op.getResult().replaceAllUsesWith(vector::FromElementsOp::create(b, type, results));
  op.erase();
}

struct LowerWgmmaToNvvmPass : impl::LowerWgmmaToNvvmPassBase<LowerWgmmaToNvvmPass> {
  using LowerWgmmaToNvvmPassBase::LowerWgmmaToNvvmPassBase;

  void runOnOperation() override {
    SmallVector<xla_gpu::WgmmaOp> ops;
    getOperation().walk([&](xla_gpu::WgmmaOp op) { ops.push_back(op); });
    for (xla_gpu::WgmmaOp op : ops)
      if (failed(lower(op)))
        return signalPassFailure();
    SmallVector<xla_gpu::WgmmaWaitOp> waits;
    getOperation().walk([&](xla_gpu::WgmmaWaitOp op) { waits.push_back(op); });
    for (xla_gpu::WgmmaWaitOp op : waits)
      lower(op);
  }
};

} // namespace
} // namespace hlo::pipeline
