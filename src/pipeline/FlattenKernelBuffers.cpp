//===- FlattenKernelBuffers.cpp - 1-D kernel buffers ----------------------===//
//
// Owns xla-gpu-flatten-buffers (see Passes.td).
//
//===----------------------------------------------------------------------===//
#include "dialect/KernelContract.h"
#include "dialect/XlaGpuDialect.h"
#include "pipeline/LinearIndex.h"
#include "pipeline/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_FLATTENKERNELBUFFERSPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// The memref an access reads or writes, and its indices; null for other
/// operations.
std::pair<Value, OperandRange> accessOf(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return {load.getMemRef(), load.getIndices()};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return {store.getMemRef(), store.getIndices()};
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return {load.getBase(), load.getIndices()};
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return {store.getBase(), store.getIndices()};
  return {Value(), OperandRange(op->operand_end(), op->operand_end())};
}

bool canFlatten(BlockArgument argument) {
  auto type = dyn_cast<MemRefType>(argument.getType());
  if (!type || type.getRank() < 2 || !type.hasStaticShape() ||
      !type.getLayout().isIdentity())
    return false;
  for (OpOperand &use : argument.getUses()) {
    auto [memref, indices] = accessOf(use.getOwner());
    if (memref != argument)
      return false; // passed along, or stored as a value
  }
  return true;
}

void flattenArgument(BlockArgument argument) {
  auto type = cast<MemRefType>(argument.getType());
  auto flat = MemRefType::get({type.getNumElements()}, type.getElementType(),
                              MemRefLayoutAttrInterface(), type.getMemorySpace());
  argument.setType(flat);
  for (Operation *user : llvm::to_vector(argument.getUsers())) {
    OpBuilder b(user);
    Location loc = user->getLoc();
    auto [memref, indices] = accessOf(user);
    Value linear = linearIndex(b, loc, indices, type.getShape());
    Operation *replacement = nullptr;
    if (auto load = dyn_cast<memref::LoadOp>(user))
      replacement = memref::LoadOp::create(b, loc, argument, ValueRange{linear});
    else if (auto store = dyn_cast<memref::StoreOp>(user))
      replacement = memref::StoreOp::create(b, loc, store.getValueToStore(),
                                            argument, ValueRange{linear});
    else if (auto load = dyn_cast<vector::LoadOp>(user))
      replacement = vector::LoadOp::create(b, loc, load.getVectorType(), argument,
                                           ValueRange{linear});
    else if (auto store = dyn_cast<vector::StoreOp>(user))
      replacement = vector::StoreOp::create(b, loc, store.getValueToStore(),
                                            argument, ValueRange{linear});
    user->replaceAllUsesWith(replacement);
    user->erase();
  }
}

struct FlattenKernelBuffersPass
    : impl::FlattenKernelBuffersPassBase<FlattenKernelBuffersPass> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp function) {
      // Kernels only: other functions would need their call sites changed.
      if (!xla_gpu::isKernel(function))
        return;
      for (BlockArgument argument : function.getArguments())
        if (canFlatten(argument))
          flattenArgument(argument);
      function.setType(FunctionType::get(
          function.getContext(), function.getBody().getArgumentTypes(),
          function.getResultTypes()));
    });
  }
};

} // namespace
} // namespace hlo::pipeline
