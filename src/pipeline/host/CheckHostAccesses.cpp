//===- CheckHostAccesses.cpp - Bounds checks for the host target ----------===//
//
// Owns xla-gpu-check-host-accesses: each memory access of a kernel checked
// against the shape of the memref it goes through, and a call that reports
// the first index outside it instead of the access.
//
//===----------------------------------------------------------------------===//
#include "abi/HostKernelAbi.h"
#include "dialect/KernelContract.h"
#include "dialect/XlaGpuDialect.h"
#include "pipeline/host/HostPasses.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_CHECKHOSTACCESSESPASS
#include "pipeline/host/HostPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// One access to check: the memref, its indices, how many elements it
/// covers in each trailing dimension (a vector), and what it does.
struct Access {
  Value memref;
  SmallVector<Value> indices;
  SmallVector<int64_t> span; // per dimension of the memref, 1 if scalar
  HloHostAccessKind kind;
};

std::optional<Access> accessOf(Operation *op) {
  auto make = [](Value memref, ValueRange indices, ArrayRef<int64_t> vectorShape,
                 HloHostAccessKind kind) {
    Access access{memref, SmallVector<Value>(indices), {}, kind};
    access.span.assign(indices.size(), 1);
    // A vector covers the trailing dimensions of the memref.
    for (size_t i = 0; i < vectorShape.size() && i < indices.size(); ++i)
      access.span[indices.size() - vectorShape.size() + i] = vectorShape[i];
    return access;
  };
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return make(load.getMemRef(), load.getIndices(), {}, HLO_HOST_ACCESS_LOAD);
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return make(store.getMemRef(), store.getIndices(), {}, HLO_HOST_ACCESS_STORE);
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return make(load.getBase(), load.getIndices(), load.getVectorType().getShape(),
                HLO_HOST_ACCESS_LOAD);
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return make(store.getBase(), store.getIndices(),
                store.getVectorType().getShape(), HLO_HOST_ACCESS_STORE);
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
    return make(atomic.getMemref(), atomic.getIndices(), {}, HLO_HOST_ACCESS_ATOMIC);
  if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(op))
    return make(atomic.getMemref(), atomic.getIndices(), {}, HLO_HOST_ACCESS_ATOMIC);
  return std::nullopt;
}

/// Which buffer the launcher names: a kernel parameter by position, shared
/// memory, or other memory.
int32_t bufferCode(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace()))
    if (space.getValue() == gpu::AddressSpace::Workgroup)
      return HLO_HOST_BUFFER_SHARED;
  if (auto argument = dyn_cast<BlockArgument>(memref)) {
    auto function = dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp());
    if (xla_gpu::isKernel(function))
      return static_cast<int32_t>(argument.getArgNumber());
  }
  return HLO_HOST_BUFFER_OTHER;
}

Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

struct CheckHostAccessesPass
    : impl::CheckHostAccessesPassBase<CheckHostAccessesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> accesses;
    module.walk([&](Operation *op) {
      if (accessOf(op) && op->getParentOfType<func::FuncOp>())
        accesses.push_back(op);
    });
    if (accesses.empty())
      return;
    MLIRContext *context = &getContext();
    auto pointer = LLVM::LLVMPointerType::get(context);
    Type i32 = IntegerType::get(context, 32), i64 = IntegerType::get(context, 64);
    if (!module.lookupSymbol(kOutOfBoundsFunction)) {
      OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
      auto type = FunctionType::get(context, {pointer, i32, i32, i32, i64, i64}, {});
      func::FuncOp::create(b, module.getLoc(), kOutOfBoundsFunction, type).setPrivate();
    }
    for (Operation *op : accesses)
      check(op, *accessOf(op));
  }

  void check(Operation *op, const Access &access) {
    auto function = op->getParentOfType<func::FuncOp>();
    if (function.getNumArguments() == 0 ||
        !function.getArgAttr(function.getNumArguments() - 1, kHostThreadArgAttr))
      return; // Not a function the launcher calls into.
    Value record = function.getArgument(function.getNumArguments() - 1);
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto type = cast<MemRefType>(access.memref.getType());

    // For each dimension: its extent, and whether the access's last element
    // lies below it (an unsigned compare also rejects negative indices).
    SmallVector<Value> extents, lastIndices, inside;
    Value allInside;
    for (size_t d = 0; d < access.indices.size(); ++d) {
      Value extent = type.isDynamicDim(d)
                         ? Value(memref::DimOp::create(b, loc, access.memref, d))
                         : indexConstant(b, loc, type.getDimSize(d));
      Value last = access.indices[d];
      if (access.span[d] > 1)
        last = arith::AddIOp::create(b, loc, last, indexConstant(b, loc, access.span[d] - 1));
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, last, extent);
      extents.push_back(extent);
      lastIndices.push_back(last);
      inside.push_back(ok);
      allInside = allInside ? Value(arith::AndIOp::create(b, loc, allInside, ok)) : ok;
    }
    if (!allInside)
      return; // rank 0: always in bounds
    Value outside = arith::XOrIOp::create(
        b, loc, allInside, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
    auto report = scf::IfOp::create(b, loc, outside, /*withElseRegion=*/false);
    OpBuilder then = report.getThenBodyBuilder();
    Type i32 = then.getI32Type(), i64 = then.getI64Type();
    Value kind = arith::ConstantIntOp::create(then, loc, i32, access.kind);
    Value buffer = arith::ConstantIntOp::create(then, loc, i32, bufferCode(access.memref));
    // The first dimension outside its extent: start from the last, let
    // each earlier one that fails take over.
    int last = static_cast<int>(access.indices.size()) - 1;
    Value dimension = arith::ConstantIntOp::create(then, loc, i32, last);
    Value index = arith::IndexCastOp::create(then, loc, i64, lastIndices[last]);
    Value extent = arith::IndexCastOp::create(then, loc, i64, extents[last]);
    for (int d = last - 1; d >= 0; --d) {
      Value failsHere = arith::XOrIOp::create(
          then, loc, inside[d], arith::ConstantIntOp::create(then, loc, then.getI1Type(), 1));
      dimension = arith::SelectOp::create(
          then, loc, failsHere, arith::ConstantIntOp::create(then, loc, i32, d), dimension);
      index = arith::SelectOp::create(
          then, loc, failsHere, arith::IndexCastOp::create(then, loc, i64, lastIndices[d]),
          index);
      extent = arith::SelectOp::create(
          then, loc, failsHere, arith::IndexCastOp::create(then, loc, i64, extents[d]), extent);
    }
    func::CallOp::create(then, loc, kOutOfBoundsFunction, TypeRange(),
                         ValueRange{record, kind, buffer, dimension, index, extent});
  }
};

} // namespace
} // namespace hlo::pipeline
