//===- VectorizeLoopAccesses.cpp - Vector loads and stores ----------------===//
//
// Owns xla-gpu-vectorize-accesses (see Passes.td): the loop emitter's
// vector-index loop, after bufferization, reads and writes `base + iv`;
// those accesses become one vector load before and one vector store after
// the loop.
//
//===----------------------------------------------------------------------===//
#include "pipeline/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_VECTORIZELOOPACCESSESPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

constexpr int64_t kMaxVectorLength = 8;

/// Whether `index` is `iv` plus a sum of loop-invariant values.
bool isIvPlusInvariant(Value index, scf::ForOp loop) {
  if (index == loop.getInductionVar())
    return true;
  auto add = index.getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  if (loop.isDefinedOutsideOfLoop(add.getLhs()))
    return isIvPlusInvariant(add.getRhs(), loop);
  if (loop.isDefinedOutsideOfLoop(add.getRhs()))
    return isIvPlusInvariant(add.getLhs(), loop);
  return false;
}

/// The invariant part of such an index, computed before the loop.
Value invariantPart(OpBuilder &b, Value index, scf::ForOp loop) {
  if (index == loop.getInductionVar())
    return arith::ConstantIndexOp::create(b, loop.getLoc(), 0);
  auto add = index.getDefiningOp<arith::AddIOp>();
  bool lhsInvariant = loop.isDefinedOutsideOfLoop(add.getLhs());
  Value invariant = lhsInvariant ? add.getLhs() : add.getRhs();
  Value rest = lhsInvariant ? add.getRhs() : add.getLhs();
  return arith::AddIOp::create(b, loop.getLoc(), invariant,
                               invariantPart(b, rest, loop));
}

/// Whether an access at `indices` reads or writes `base + iv` in the minor
/// dimension with every other index loop-invariant.
bool isContiguous(ValueRange indices, scf::ForOp loop) {
  if (indices.empty())
    return false;
  for (Value index : indices.drop_back())
    if (!loop.isDefinedOutsideOfLoop(index))
      return false;
  return isIvPlusInvariant(indices.back(), loop);
}

/// The indices of the vector access, computed before the loop.
SmallVector<Value> vectorIndices(OpBuilder &b, ValueRange indices,
                                 scf::ForOp loop) {
  SmallVector<Value> result(indices.drop_back());
  result.push_back(invariantPart(b, indices.back(), loop));
  return result;
}

void vectorizeLoop(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lower || !upper || !step || *lower != 0 || *step != 1 || *upper < 2 ||
      *upper > kMaxVectorLength)
    return;
  // Loop-carried values (a reduction's accumulators) stay as they are; the
  // vectors of the stores are carried after them.
  unsigned carriedCount = loop.getNumResults();
  int64_t length = *upper;
  // Only accesses directly in the body are vectorized (not under scf.if:
  // those may be masked off).
  SmallVector<memref::LoadOp> loads;
  SmallVector<memref::StoreOp> stores;
  llvm::DenseSet<Value> written, read;
  // Buffers every access in the loop reads or writes, nested ones too (a
  // concatenate's branches), by their memory effects (a load's, a store's,
  // an atomic's): a vectorized load's buffer must not be written in the
  // loop, a vectorized store's not read. An access to an unknown buffer
  // stops the vectorization.
  bool unknownAccess = false;
  auto record = [&](Operation *op) {
    auto effecting = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effecting)
      return;
    SmallVector<MemoryEffects::EffectInstance> effects;
    effecting.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      Value buffer = effect.getValue();
      if (!isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect()))
        continue;
      if (!buffer || !isa<BaseMemRefType>(buffer.getType()))
        unknownAccess = true;
      else if (isa<MemoryEffects::Write>(effect.getEffect()))
        written.insert(buffer);
      else
        read.insert(buffer);
    }
  };
  for (Operation &op : loop.getBody()->without_terminator()) {
    op.walk([&](Operation *inner) { record(inner); });
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (isContiguous(load.getIndices(), loop))
        loads.push_back(load);
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (isContiguous(store.getIndices(), loop))
        stores.push_back(store);
    }
  }
  if (unknownAccess)
    return;
  // Vectors of sub-byte elements (pred as i1, s4) are bit-packed in LLVM,
  // while their buffers hold them otherwise, and LLVM has no vectors of
  // structs (complex<f32> is one): leave those accesses scalar.
  auto isSubByte = [](Type type) {
    return !type.isIntOrFloat() || type.getIntOrFloatBitWidth() % 8 != 0;
  };
  llvm::erase_if(loads, [&](memref::LoadOp load) {
    return isSubByte(load.getType()) || written.contains(load.getMemRef()) ||
           !loop.isDefinedOutsideOfLoop(load.getMemRef());
  });
  llvm::erase_if(stores, [&](memref::StoreOp store) {
    return isSubByte(store.getValueToStore().getType()) ||
           read.contains(store.getMemRef()) ||
           !loop.isDefinedOutsideOfLoop(store.getMemRef());
  });
  if (loads.empty() && stores.empty())
    return;

  IRRewriter rewriter(loop.getContext());
  Location loc = loop.getLoc();
  Value iv = loop.getInductionVar();
  // Loads: one vector load before the loop, an element extract inside.
  for (memref::LoadOp load : loads) {
    rewriter.setInsertionPoint(loop);
    auto type = VectorType::get({length}, load.getType());
    Value vector = vector::LoadOp::create(
        rewriter, loc, type, load.getMemRef(),
        vectorIndices(rewriter, load.getIndices(), loop));
    rewriter.setInsertionPoint(load);
    rewriter.replaceOpWithNewOp<vector::ExtractOp>(load, vector, OpFoldResult(iv));
  }
  if (stores.empty())
    return;
  // Stores: a loop-carried vector per store, written once after the loop.
  SmallVector<Value> inits;
  SmallVector<SmallVector<Value>> storeIndices;
  rewriter.setInsertionPoint(loop);
  for (memref::StoreOp store : stores) {
    storeIndices.push_back(vectorIndices(rewriter, store.getIndices(), loop));
    auto type = VectorType::get({length}, store.getValueToStore().getType());
    inits.push_back(arith::ConstantOp::create(rewriter, loc, type,
                                              rewriter.getZeroAttr(type)));
  }
  auto newLoop = loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location, ArrayRef<BlockArgument> carried) {
        // The body now belongs to the new loop: its first argument is the
        // induction variable.
        Value newIv = carried.front().getOwner()->getArgument(0);
        SmallVector<Value> yielded;
        for (auto [store, vector] : llvm::zip(stores, carried)) {
          b.setInsertionPoint(store);
          yielded.push_back(vector::InsertOp::create(
              b, loc, store.getValueToStore(), vector, OpFoldResult(newIv)));
        }
        return yielded;
      });
  if (failed(newLoop))
    return;
  auto vectorized = cast<scf::ForOp>(newLoop->getOperation());
  rewriter.setInsertionPointAfter(vectorized);
  for (auto [i, store] : llvm::enumerate(stores))
    vector::StoreOp::create(rewriter, loc, vectorized.getResult(carriedCount + i),
                            store.getMemRef(), storeIndices[i]);
  for (memref::StoreOp store : stores)
    rewriter.eraseOp(store);
}

struct VectorizeLoopAccessesPass
    : impl::VectorizeLoopAccessesPassBase<VectorizeLoopAccessesPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      vectorizeLoop(loop);
  }
};

} // namespace
} // namespace hlo::pipeline
