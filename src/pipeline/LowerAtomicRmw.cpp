//===- LowerAtomicRmw.cpp - generic atomics to native ones ----------------===//
//
// Owns xla-gpu-lower-atomic-rmw (Passes.td): native atomics for the
// combiners that have one, and a byte-wide compare-and-swap loop for
// elements narrower than a byte (pred, s4, u4), which LLVM has no atomics
// on.
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

/// A sub-byte element's update as a compare-and-swap loop on its byte:
/// LLVM's atomics need at least a byte. The first guess is the element as a
/// plain load reads it (the access the host target bounds-checks); a
/// failed exchange returns the byte as it is and the loop retries with it.
/// Only the low bits of the byte are the element (the buffers' encoding,
/// interpreter/ElementBytes.h), so the new byte is the new element
/// zero-extended.
LogicalResult lowerSubByte(memref::GenericAtomicRMWOp generic) {
  auto type = cast<MemRefType>(generic.getMemref().getType());
  if (type.getMemorySpace())
    return generic.emitOpError("an atomic update of sub-byte elements in memory space ")
           << type.getMemorySpace() << " is not supported";
  OpBuilder b(generic);
  Location loc = generic.getLoc();
  Type element = generic.getCurrentValue().getType();
  Type byte = b.getI8Type();
  if (!element.isInteger()) // f4: through its bits
    return generic.emitOpError("an atomic update of ") << element << " is not supported";
  Value pointer = xla_gpu::ElementPointerOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), generic.getMemref(), generic.getIndices());
  Value first = memref::LoadOp::create(b, loc, generic.getMemref(), generic.getIndices());
  Value firstByte = arith::ExtUIOp::create(b, loc, byte, first);
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{byte, element}, ValueRange{firstByte},
      [&](OpBuilder &b, Location loc, ValueRange arguments) {
        Value expected = arguments[0];
        IRMapping mapping;
        mapping.map(generic.getCurrentValue(),
                    arith::TruncIOp::create(b, loc, element, expected));
        for (Operation &op : generic.getBody()->without_terminator())
          b.clone(op, mapping);
        auto yield = cast<memref::AtomicYieldOp>(generic.getBody()->getTerminator());
        Value updated = mapping.lookupOrDefault(yield.getResult());
        Value updatedByte = arith::ExtUIOp::create(b, loc, byte, updated);
        auto exchange = LLVM::AtomicCmpXchgOp::create(
            b, loc, pointer, expected, updatedByte, LLVM::AtomicOrdering::acq_rel,
            LLVM::AtomicOrdering::monotonic);
        Value seen = LLVM::ExtractValueOp::create(b, loc, exchange, 0);
        Value stored = LLVM::ExtractValueOp::create(b, loc, exchange, 1);
        Value retry = arith::XOrIOp::create(
            b, loc, stored, arith::ConstantIntOp::create(b, loc, 1, 1));
        scf::ConditionOp::create(b, loc, retry, ValueRange{seen, updated});
      },
      [&](OpBuilder &b, Location loc, ValueRange arguments) {
        scf::YieldOp::create(b, loc, arguments[0]);
      });
  // The value stored, as memref.generic_atomic_rmw defines its result.
  generic.getResult().replaceAllUsesWith(loop.getResult(1));
  generic.erase();
  return success();
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
    for (memref::GenericAtomicRMWOp generic : generics) {
      if (generic.getCurrentValue().getType().getIntOrFloatBitWidth() >= 8) {
        lower(generic);
      } else if (failed(lowerSubByte(generic))) {
        signalPassFailure();
        return;
      }
    }
  }
};

} // namespace
} // namespace hlo::pipeline
