//===- PackSubByteBuffers.cpp - 2- and 4-bit elements packed in bytes -----===//
//
// Owns xla-gpu-pack-sub-byte-buffers (Passes.td): buffers of 4-bit elements
// (s4, u4 as i4; f4E2M1FN) stored two per byte and of 2-bit ones (s2, u2
// as i2) four per byte, as XLA stores them (the `E(4)`, `E(2)` of its
// layouts): over the flat row-major index of the buffer, element 2k in the
// low nibble of byte k and 2k+1 in the high one (4k..4k+3 from the low
// bits up for 2-bit elements).
//
// f4E2M1FN buffers first become i4 buffers (their loads and stores bitcast
// the value); then every i4 or i2 kernel buffer (the arguments: XLA's
// buffers) becomes an i8 buffer: a load reads the byte and shifts its
// element out; a store clears and sets its bits with two 8-bit atomics
// (the rest of the byte may be another thread's); an atomic update is a
// compare-and-swap loop on the byte.
// Shared tiles, allocas and constants are the kernel's own and keep one
// element per byte.
// (Upstream's narrow-type emulation left loads from kernel arguments
// unconverted here, and has no atomic update of a nibble.)
//
//===----------------------------------------------------------------------===//
#include "pipeline/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_PACKSUBBYTEBUFFERSPASS
#include "pipeline/Passes.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

bool isF4(Type type) { return isa<Float4E2M1FNType>(type); }

/// `type` with f4E2M1FN elements as i4; other types unchanged.
Type withIntegerF4(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !isF4(memref.getElementType()))
    return type;
  return memref.clone(IntegerType::get(type.getContext(), 4));
}

/// Every f4E2M1FN memref as an i4 memref, in place: function arguments,
/// op results, globals; loads and stores bitcast their values.
LogicalResult retypeF4Buffers(ModuleOp module) {
  WalkResult walked = module.walk([&](Operation *op) -> WalkResult {
    if (auto global = dyn_cast<memref::GlobalOp>(op)) {
      if (!isF4(global.getType().getElementType()))
        return WalkResult::advance();
      auto type = cast<MemRefType>(withIntegerF4(global.getType()));
      global.setType(type);
      if (auto initial = dyn_cast_or_null<DenseElementsAttr>(global.getInitialValueAttr()))
        global.setInitialValueAttr(initial.bitcast(type.getElementType()));
      return WalkResult::advance();
    }
    if (auto function = dyn_cast<func::FuncOp>(op)) {
      SmallVector<Type> inputs, results;
      for (Type type : function.getArgumentTypes())
        inputs.push_back(withIntegerF4(type));
      for (Type type : function.getResultTypes())
        results.push_back(withIntegerF4(type));
      function.setType(FunctionType::get(op->getContext(), inputs, results));
      for (BlockArgument argument : function.getArguments())
        argument.setType(withIntegerF4(argument.getType()));
      return WalkResult::advance();
    }
    OpBuilder b(op);
    if (auto load = dyn_cast<memref::LoadOp>(op); load && isF4(load.getType())) {
      b.setInsertionPointAfter(load);
      load.getResult().setType(b.getIntegerType(4));
      auto cast = arith::BitcastOp::create(b, load.getLoc(), b.getType<Float4E2M1FNType>(),
                                           load.getResult());
      load.getResult().replaceAllUsesExcept(cast, cast);
      return WalkResult::advance();
    }
    if (auto store = dyn_cast<memref::StoreOp>(op); store && isF4(store.getValueToStore().getType())) {
      auto cast = arith::BitcastOp::create(b, store.getLoc(), b.getIntegerType(4),
                                           store.getValueToStore());
      store.getValueMutable().assign(cast);
      return WalkResult::advance();
    }
    for (Value result : op->getResults()) {
      Type retyped = withIntegerF4(result.getType());
      if (retyped == result.getType())
        continue;
      if (!isa<memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp, memref::ReinterpretCastOp,
               memref::CastOp, memref::SubViewOp, memref::CollapseShapeOp,
               memref::ExpandShapeOp>(op))
        return op->emitOpError("unsupported: a buffer of f4E2M1FN elements used by this op "
                               "(4-bit buffers are packed two elements per byte)");
      result.setType(retyped);
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          argument.setType(withIntegerF4(argument.getType()));
    return WalkResult::advance();
  });
  return failure(walked.wasInterrupted());
}

/// Bits of an element of `type` packed several to a byte (i2, i4); 0 if
/// the buffer is not packed.
unsigned packedBits(MemRefType type) {
  Type element = type.getElementType();
  return element.isInteger(2) || element.isInteger(4) ? element.getIntOrFloatBitWidth() : 0;
}

/// memref<...xiN> (N = 2, 4) as memref<ceil(n / (8 / N))xi8> in the same
/// memory space.
MemRefType packedType(MemRefType type) {
  int64_t count = type.getNumElements(), perByte = 8 / packedBits(type);
  return MemRefType::get({count / perByte + (count % perByte != 0)},
                         IntegerType::get(type.getContext(), 8), MemRefLayoutAttrInterface(),
                         type.getMemorySpace());
}

bool isPackedBuffer(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.hasStaticShape() && packedBits(memref) != 0;
}

/// Where element `indices` of a packed buffer of `type` lies: its byte and
/// the element's shift in it (an i8).
std::pair<Value, Value> packedAddress(OpBuilder &b, Location loc, MemRefType type,
                                      ValueRange indices) {
  Value linear = arith::ConstantIndexOp::create(b, loc, 0);
  int64_t stride = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    Value scaled = arith::MulIOp::create(
        b, loc, indices[d], arith::ConstantIndexOp::create(b, loc, stride));
    linear = arith::AddIOp::create(b, loc, linear, scaled);
    stride *= type.getDimSize(d);
  }
  // i4: byte = linear >> 1, shift = (linear & 1) << 2;
  // i2: byte = linear >> 2, shift = (linear & 3) << 1.
  unsigned bits = packedBits(type);
  int64_t log2PerByte = bits == 4 ? 1 : 2, log2Bits = bits == 4 ? 2 : 1;
  Value byte = arith::ShRUIOp::create(b, loc, linear,
                                      arith::ConstantIndexOp::create(b, loc, log2PerByte));
  Value within = arith::AndIOp::create(
      b, loc, linear, arith::ConstantIndexOp::create(b, loc, (1 << log2PerByte) - 1));
  Value shift = arith::ShLIOp::create(
      b, loc, arith::IndexCastUIOp::create(b, loc, b.getI8Type(), within),
      arith::ConstantIntOp::create(b, loc, b.getI8Type(), log2Bits));
  return {byte, shift};
}

/// `byte` with the element at `shift` replaced by `element` (an i4 or i2).
Value insertPacked(OpBuilder &b, Location loc, Value byte, Value element, Value shift) {
  int64_t ones8 = (1 << element.getType().getIntOrFloatBitWidth()) - 1;
  Value mask = arith::ConstantIntOp::create(b, loc, b.getI8Type(), ones8);
  Value ones = arith::ConstantIntOp::create(b, loc, b.getI8Type(), -1);
  Value keep = arith::XOrIOp::create(b, loc, arith::ShLIOp::create(b, loc, mask, shift), ones);
  Value wide = arith::ShLIOp::create(
      b, loc, arith::ExtUIOp::create(b, loc, b.getI8Type(), element), shift);
  return arith::OrIOp::create(b, loc, arith::AndIOp::create(b, loc, byte, keep), wide);
}

Value extractPacked(OpBuilder &b, Location loc, Value byte, Value shift, Type element) {
  return arith::TruncIOp::create(b, loc, element,
                                 arith::ShRUIOp::create(b, loc, byte, shift));
}

/// Rewrites the accesses of `buffer` (a packed buffer of `oldType`,
/// already retyped) to its bytes.
LogicalResult rewriteAccesses(Value buffer, MemRefType oldType) {
  Type element = oldType.getElementType();
  for (Operation *user : llvm::make_early_inc_range(buffer.getUsers())) {
    OpBuilder b(user);
    Location loc = user->getLoc();
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      auto [byte, shift] = packedAddress(b, loc, oldType, load.getIndices());
      Value bits = memref::LoadOp::create(b, loc, buffer, byte);
      load.replaceAllUsesWith(extractPacked(b, loc, bits, shift, element));
      load.erase();
    } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
      // The rest of the byte may be other threads': clear ours, then set it,
      // each an atomic on the byte.
      auto [byte, shift] = packedAddress(b, loc, oldType, store.getIndices());
      Value zero = arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0);
      Value clear = insertPacked(b, loc, arith::ConstantIntOp::create(b, loc, b.getI8Type(), -1),
                                 arith::ConstantIntOp::create(b, loc, element, 0), shift);
      Value set = insertPacked(b, loc, zero, store.getValueToStore(), shift);
      memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::andi, clear, buffer, byte);
      memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::ori, set, buffer, byte);
      store.erase();
    } else if (auto atomic = dyn_cast<memref::AtomicRMWOp>(user); atomic && atomic.use_empty()) {
      auto [byte, shift] = packedAddress(b, loc, oldType, atomic.getIndices());
      auto generic = memref::GenericAtomicRMWOp::create(b, loc, buffer, byte);
      OpBuilder body = OpBuilder::atBlockEnd(generic.getBody());
      Value current = generic.getCurrentValue();
      Value old = extractPacked(body, loc, current, shift, element);
      Value updated = arith::getReductionOp(atomic.getKind(), body, loc, atomic.getValue(), old);
      memref::AtomicYieldOp::create(body, loc, insertPacked(body, loc, current, updated, shift));
      atomic.erase();
    } else if (auto atomic = dyn_cast<memref::GenericAtomicRMWOp>(user);
               atomic && atomic.use_empty()) {
      auto [byte, shift] = packedAddress(b, loc, oldType, atomic.getIndices());
      auto generic = memref::GenericAtomicRMWOp::create(b, loc, buffer, byte);
      OpBuilder body = OpBuilder::atBlockEnd(generic.getBody());
      Value current = generic.getCurrentValue();
      IRMapping mapping;
      mapping.map(atomic.getCurrentValue(), extractPacked(body, loc, current, shift, element));
      Value updated;
      for (Operation &op : atomic.getBody()->getOperations()) {
        if (auto yield = dyn_cast<memref::AtomicYieldOp>(op)) {
          updated = mapping.lookup(yield.getResult());
          break;
        }
        body.clone(op, mapping);
      }
      memref::AtomicYieldOp::create(body, loc, insertPacked(body, loc, current, updated, shift));
      atomic.erase();
    } else {
      return user->emitOpError("unsupported: this use of a buffer of ")
             << element << " elements (stored " << 8 / element.getIntOrFloatBitWidth()
             << " per byte)";
    }
  }
  return success();
}

struct PackSubByteBuffersPass : impl::PackSubByteBuffersPassBase<PackSubByteBuffersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(retypeF4Buffers(module)))
      return signalPassFailure();
    SmallVector<std::pair<Value, MemRefType>> buffers;
    // Only the kernels' buffers: shared tiles, allocas and constants stay
    // one element per byte (no sub-byte atomics in shared memory).
    module.walk([&](func::FuncOp function) {
      if (function.isExternal())
        return;
      for (BlockArgument argument : function.getArguments())
        if (isPackedBuffer(argument.getType()))
          buffers.push_back({argument, cast<MemRefType>(argument.getType())});
    });
    for (auto &[buffer, oldType] : buffers) {
      buffer.setType(packedType(oldType));
      if (failed(rewriteAccesses(buffer, oldType)))
        return signalPassFailure();
    }
    module.walk([&](func::FuncOp function) {
      if (function.isExternal())
        return;
      function.setType(FunctionType::get(function.getContext(),
                                         function.getBody().getArgumentTypes(),
                                         function.getResultTypes()));
    });
  }
};

} // namespace
} // namespace hlo::pipeline
