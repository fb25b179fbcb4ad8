//===- PackAtomics.cpp - f16x2/bf16x2 atomics from pairs ------------------===//
//
// Owns xla-gpu-pack-atomics (NvptxPasses.td): neighbouring 16-bit float
// atomic adds as one packed PTX reduction.
//
//===----------------------------------------------------------------------===//
#include "dialect/XlaGpuDialect.h"
#include "pipeline/nvptx/NvptxPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/IR/Matchers.h"

namespace hlo::pipeline {
#define GEN_PASS_DEF_PACKATOMICSPASS
#include "pipeline/nvptx/NvptxPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// Whether `value` is even by its arithmetic.
bool isEven(Value value, int depth = 0) {
  if (depth > 16)
    return false;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return !constant[0];
  Operation *op = value.getDefiningOp();
  if (!op)
    return false;
  if (isa<arith::MulIOp>(op))
    return isEven(op->getOperand(0), depth + 1) || isEven(op->getOperand(1), depth + 1);
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return isEven(op->getOperand(0), depth + 1) && isEven(op->getOperand(1), depth + 1);
  if (isa<arith::ShLIOp>(op)) {
    APInt shift;
    return matchPattern(op->getOperand(1), m_ConstantInt(&shift)) && !shift.isZero();
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return isEven(op->getOperand(0), depth + 1);
  return false;
}

/// Whether `next` is `first` + 1.
bool isSuccessor(Value first, Value next) {
  auto add = next.getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  APInt one;
  for (int i = 0; i < 2; ++i)
    if (add.getOperand(i) == first && matchPattern(add.getOperand(1 - i), m_ConstantInt(&one)) &&
        one.isOne())
      return true;
  // first = x + c and next = x + (c + 1).
  auto firstAdd = first.getDefiningOp<arith::AddIOp>();
  APInt a, b;
  return firstAdd && firstAdd.getLhs() == add.getLhs() &&
         matchPattern(firstAdd.getRhs(), m_ConstantInt(&a)) &&
         matchPattern(add.getRhs(), m_ConstantInt(&b)) && b.getSExtValue() == a.getSExtValue() + 1;
}

/// The packed PTX reduction for `element`, or null where the architecture
/// has none.
const char *packedReduction(Type element, int computeCapability) {
  if (element.isF16() && computeCapability >= 60)
    return "red.add.noftz.f16x2 [$0], $1;";
  if (element.isBF16() && computeCapability >= 90)
    return "red.add.noftz.bf16x2 [$0], $1;";
  return nullptr;
}

/// Whether `op` neither writes memory nor reads `buffer`: the first atomic
/// of a pair may move past it to the second.
bool commutesWithUpdateOf(Operation *op, Value buffer) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return isMemoryEffectFree(op);
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::all_of(list, [&](const MemoryEffects::EffectInstance &effect) {
    return isa<MemoryEffects::Read>(effect.getEffect()) && effect.getValue() &&
           effect.getValue() != buffer;
  });
}

/// The atomic after `first` in its block, if the ops between them commute
/// with `first`.
memref::AtomicRMWOp nextAtomic(memref::AtomicRMWOp first) {
  for (Operation *op = first->getNextNode(); op; op = op->getNextNode()) {
    if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op))
      return atomic;
    if (!commutesWithUpdateOf(op, first.getMemref()))
      return nullptr;
  }
  return nullptr;
}

/// Whether `first` and `next` update the two halves of one aligned 32-bit
/// word of a buffer with identity layout and an even minor extent.
bool updatesOneWord(memref::AtomicRMWOp first, memref::AtomicRMWOp next) {
  auto type = cast<MemRefType>(first.getMemref().getType());
  if (next.getMemref() != first.getMemref() || next.getKind() != first.getKind() ||
      !type.getLayout().isIdentity() || type.getRank() == 0 || !type.hasStaticShape() ||
      type.getShape().back() % 2 != 0)
    return false;
  ValueRange a = first.getIndices(), b = next.getIndices();
  for (size_t d = 0; d + 1 < a.size(); ++d)
    if (a[d] != b[d])
      return false;
  return isEven(a.back()) && isSuccessor(a.back(), b.back());
}

void pack(memref::AtomicRMWOp first, memref::AtomicRMWOp next, const char *reduction) {
  OpBuilder b(next);
  Location loc = first.getLoc();
  Type element = first.getValue().getType();
  Value pair = vector::FromElementsOp::create(b, loc, VectorType::get({2}, element),
                                              ValueRange{first.getValue(), next.getValue()});
  Value word = vector::ExtractOp::create(
      b, loc, vector::BitCastOp::create(b, loc, VectorType::get({1}, b.getI32Type()), pair),
      ArrayRef<int64_t>{0});
  Value pointer = xla_gpu::ElementPointerOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), first.getMemref(), first.getIndices());
  SmallVector<Value> operands = {pointer, word};
  LLVM::InlineAsmOp::create(b, loc, TypeRange{}, operands, reduction, "l,r",
                            /*has_side_effects=*/true, /*is_align_stack=*/false,
                            LLVM::TailCallKind::None, LLVM::AsmDialectAttr{},
                            /*operand_attrs=*/ArrayAttr{});
  next.erase();
  first.erase();
}

struct PackAtomicsPass : impl::PackAtomicsPassBase<PackAtomicsPass> {
  using PackAtomicsPassBase::PackAtomicsPassBase;

  void runOnOperation() override {
    SmallVector<std::pair<memref::AtomicRMWOp, memref::AtomicRMWOp>> pairs;
    getOperation().walk([&](memref::AtomicRMWOp first) {
      if (first.getKind() != arith::AtomicRMWKind::addf || !first.getResult().use_empty() ||
          !packedReduction(first.getValue().getType(), computeCapability))
        return;
      if (!pairs.empty() && pairs.back().second == first)
        return; // the second of a pair
      memref::AtomicRMWOp next = nextAtomic(first);
      if (next && next.getResult().use_empty() && updatesOneWord(first, next))
        pairs.push_back({first, next});
    });
    for (auto [first, next] : pairs)
      pack(first, next, packedReduction(first.getValue().getType(), computeCapability));
  }
};

} // namespace
} // namespace hlo::pipeline
