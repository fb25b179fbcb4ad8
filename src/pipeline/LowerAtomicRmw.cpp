//===- LowerAtomicRmw.cpp - generic atomics to native ones ----------------===//
//
// Owns xla-gpu-lower-atomic-rmw (Passes.td).
//
//===----------------------------------------------------------------------===//
#include "pipeline/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
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

void lower(memref::GenericAtomicRMWOp generic) {
  Block *body = generic.getBody();
  auto replaceBy = [&](arith::AtomicRMWKind kind, Value value) {
    OpBuilder b(generic);
    auto native = memref::AtomicRMWOp::create(b, generic.getLoc(), kind, value,
                                              generic.getMemref(), generic.getIndices());
    generic.getResult().replaceAllUsesWith(native.getResult());
    generic.erase();
  };
  // Sub-byte elements (s4, u4) have no native atomics: the compare-and-swap
  // loop.
  if (generic.getCurrentValue().getType().getIntOrFloatBitWidth() < 8)
    return;
  // Exactly: atomic_yield %x with %x from outside (an overwrite): an
  // exchange.
  auto onlyYield = dyn_cast<memref::AtomicYieldOp>(body->front());
  if (onlyYield && onlyYield.getResult().getParentBlock() != body) {
    replaceBy(arith::AtomicRMWKind::assign, onlyYield.getResult());
    return;
  }
  // Exactly: %new = OP %current, %x (either order); atomic_yield %new.
  if (body->getOperations().size() != 2)
    return;
  Operation *combiner = &body->front();
  auto yield = dyn_cast<memref::AtomicYieldOp>(body->getTerminator());
  std::optional<arith::AtomicRMWKind> kind = nativeKind(combiner);
  if (!yield || !kind || combiner->getNumOperands() != 2 ||
      yield.getResult() != combiner->getResult(0))
    return;
  Value current = generic.getCurrentValue();
  Value other;
  if (combiner->getOperand(0) == current)
    other = combiner->getOperand(1);
  else if (combiner->getOperand(1) == current)
    other = combiner->getOperand(0);
  if (!other || other == current || other.getParentBlock() == body)
    return;
  replaceBy(*kind, other);
}

struct LowerAtomicRmwPass : impl::LowerAtomicRmwPassBase<LowerAtomicRmwPass> {
  void runOnOperation() override {
    SmallVector<memref::GenericAtomicRMWOp> generics;
    getOperation().walk([&](memref::GenericAtomicRMWOp op) { generics.push_back(op); });
    for (memref::GenericAtomicRMWOp generic : generics)
      lower(generic);
  }
};

} // namespace
} // namespace hlo::pipeline
