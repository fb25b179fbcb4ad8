//===- LowerAtomicRmw.cpp - generic atomics to native ones ----------------===//
//
// Owns xla-gpu-lower-atomic-rmw (Passes.td): native atomics for the
// combiners that have one, and compare-and-swap loops on integer words for
// the rest of the floats (LLVM's cmpxchg takes no floats) and for elements
// narrower than a byte (pred, s2, s4, u2, u4), which LLVM has no atomics
// on; the 2- and 4-bit elements of kernel arguments are left to the
// packing pass. (Complex elements never get here: their bufferization
// writes their updates out, AtomicRmwBufferization.cpp.)
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/AtomicUpdates.h"
#include "pipeline/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_LOWERATOMICRMWPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// The native kind of `combiner` if it is one of those operations.
std::optional<arith::AtomicRMWKind> nativeKind(Operation *combiner) {
  return llvm::TypeSwitch<Operation *, std::optional<arith::AtomicRMWKind>>(combiner)
      .Case([](arith::AddFOp) { return arith::AtomicRMWKind::addf; })
      .Case([](arith::AddIOp) { return arith::AtomicRMWKind::addi; })
      .Case([](arith::MaximumFOp) { return arith::AtomicRMWKind::maximumf; })
      .Case([](arith::MinimumFOp) { return arith::AtomicRMWKind::minimumf; })
      .Case([](arith::MaxSIOp) { return arith::AtomicRMWKind::maxs; })
      .Case([](arith::MinSIOp) { return arith::AtomicRMWKind::mins; })
      .Case([](arith::MaxUIOp) { return arith::AtomicRMWKind::maxu; })
      .Case([](arith::MinUIOp) { return arith::AtomicRMWKind::minu; })
      .Case([](arith::AndIOp) { return arith::AtomicRMWKind::andi; })
      .Case([](arith::OrIOp) { return arith::AtomicRMWKind::ori; })
      .Default([](Operation *) { return std::nullopt; });
}

/// An update as a compare-and-swap loop on an integer word (AtomicUpdates.h):
/// LLVM's cmpxchg takes integers only.
LogicalResult lowerToCompareAndSwap(memref::GenericAtomicRMWOp generic) {
  OpBuilder b(generic);
  FailureOr<Value> stored = emitCompareAndSwapLoop(
      b, generic.getLoc(), generic.getMemref(), generic.getIndices(),
      [&](OpBuilder &b, Location, Value current) {
        IRMapping mapping;
        mapping.map(generic.getCurrentValue(), current);
        for (Operation &op : generic.getBody()->without_terminator())
          b.clone(op, mapping);
        auto yield = cast<memref::AtomicYieldOp>(generic.getBody()->getTerminator());
        return mapping.lookupOrDefault(yield.getResult());
      });
  if (failed(stored))
    return failure();
  // The value stored, as memref.generic_atomic_rmw defines its result.
  generic.getResult().replaceAllUsesWith(*stored);
  generic.erase();
  return success();
}

/// Replaces `generic` by a native atomic if its body is one; false if not.
bool lowerToNative(memref::GenericAtomicRMWOp generic) {
  Block *body = generic.getBody();
  auto replaceBy = [&](arith::AtomicRMWKind kind, Value value) {
    OpBuilder b(generic);
    auto native = memref::AtomicRMWOp::create(b, generic.getLoc(), kind, value,
                                              generic.getMemref(), generic.getIndices());
    generic.getResult().replaceAllUsesWith(native.getResult());
    generic.erase();
  };
  // Exactly: atomic_yield %x with %x from outside (an overwrite): an
  // exchange.
  auto onlyYield = dyn_cast<memref::AtomicYieldOp>(body->front());
  if (onlyYield && onlyYield.getResult().getParentBlock() != body) {
    replaceBy(arith::AtomicRMWKind::assign, onlyYield.getResult());
    return true;
  }
  // Exactly: %new = OP %current, %x (either order); atomic_yield %new.
  if (body->getOperations().size() != 2)
    return false;
  Operation *combiner = &body->front();
  auto yield = dyn_cast<memref::AtomicYieldOp>(body->getTerminator());
  std::optional<arith::AtomicRMWKind> kind = nativeKind(combiner);
  if (!yield || !kind || combiner->getNumOperands() != 2 ||
      yield.getResult() != combiner->getResult(0))
    return false;
  Value current = generic.getCurrentValue();
  Value other;
  if (combiner->getOperand(0) == current)
    other = combiner->getOperand(1);
  else if (combiner->getOperand(1) == current)
    other = combiner->getOperand(0);
  if (!other || other == current || other.getParentBlock() == body)
    return false;
  replaceBy(*kind, other);
  return true;
}

/// Whether `buffer` is an argument of the function it is used in.
bool isKernelArgument(Value buffer) {
  auto argument = dyn_cast<BlockArgument>(buffer);
  return argument && isa<func::FuncOp>(argument.getOwner()->getParentOp());
}

struct LowerAtomicRmwPass : impl::LowerAtomicRmwPassBase<LowerAtomicRmwPass> {
  void runOnOperation() override {
    SmallVector<memref::GenericAtomicRMWOp> generics;
    getOperation().walk([&](memref::GenericAtomicRMWOp op) { generics.push_back(op); });
    for (memref::GenericAtomicRMWOp generic : generics) {
      Type element = generic.getCurrentValue().getType();
      // Integers of a byte or more without a native atomic stay generic
      // (upstream lowers them to cmpxchg); floats and sub-byte elements
      // swap integer words here.
      bool wide = element.getIntOrFloatBitWidth() >= 8;
      // A 2- or 4-bit element of a kernel argument shares its byte with
      // others once xla-gpu-pack-sub-byte-buffers packs the buffer: that
      // pass makes the update one on the byte, which stays generic.
      bool packed = element.isInteger(2) || element.isInteger(4);
      if (packed && isKernelArgument(generic.getMemref()))
        continue;
      if (wide && (lowerToNative(generic) || element.isInteger()))
        continue;
      if (failed(lowerToCompareAndSwap(generic))) {
        signalPassFailure();
        return;
      }
    }
  }
};

} // namespace
} // namespace hlo::pipeline
