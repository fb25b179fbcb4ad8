//===- LowerAllocateShared.cpp - allocate_shared to workgroup globals -----===//
//
// Owns xla-gpu-lower-allocate-shared (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/Passes.h"

#include "mlir/IR/SymbolTable.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERALLOCATESHAREDPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// Every tile starts at a 16-byte boundary (or its own alignment, if
/// larger), as the shared memory layout places it (SharedMemoryLayout.h)
/// and ldmatrix's row addresses need.
constexpr int64_t kSharedTileAlignment = 16;

struct LowerAllocateSharedPass
    : impl::LowerAllocateSharedPassBase<LowerAllocateSharedPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    SymbolTable symbols(module);
    SmallVector<xla_gpu::AllocateSharedOp> allocations;
    module.walk([&](xla_gpu::AllocateSharedOp op) { allocations.push_back(op); });
    auto workgroup = gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
    for (xla_gpu::AllocateSharedOp op : allocations) {
      auto tensor = cast<RankedTensorType>(op.getType());
      auto type = MemRefType::get(tensor.getShape(), tensor.getElementType(),
                                  MemRefLayoutAttrInterface(), workgroup);
      auto function = op->getParentOfType<FunctionOpInterface>();
      OpBuilder global(module.getBodyRegion());
      global.setInsertionPoint(function);
      // Named after the kernel; the symbol table makes each name unique.
      auto tile = memref::GlobalOp::create(
          global, op.getLoc(), (function.getName() + "_shared").str(),
          global.getStringAttr("private"), type, Attribute(), /*constant=*/false,
          /*alignment=*/global.getI64IntegerAttr(
              std::max<int64_t>(kSharedTileAlignment, op.getAlignment().value_or(1))));
      symbols.insert(tile);
      OpBuilder b(op);
      Value buffer = memref::GetGlobalOp::create(b, op.getLoc(), type, tile.getSymName());
      Value value = bufferization::ToTensorOp::create(b, op.getLoc(), tensor, buffer,
                                                      /*restrict=*/true, /*writable=*/true);
      op.replaceAllUsesWith(value);
      op.erase();
    }
  }
};

} // namespace
} // namespace hlo::pipeline
