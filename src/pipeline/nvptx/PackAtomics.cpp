//===- PackAtomics.cpp - f16x2/bf16x2 atomics from pairs ------------------===//
//
// Owns xla-gpu-pack-atomics (NvptxPasses.td): neighbouring float atomic
// adds as one packed PTX reduction: 16-bit pairs as one f16x2/bf16x2 word,
// f32 pairs and quads (sm_90) as one red.global.add.v2/v4.f32, as XLA's
// scatter kernels do; each group starts at an element aligned to its size.
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

#include "llvm/ADT/DenseSet.h"

#include <numeric>
#include <optional>

namespace hlo::pipeline {
#define GEN_PASS_DEF_PACKATOMICSPASS
#include "pipeline/nvptx/NvptxPasses.h.inc"
} // namespace hlo::pipeline

using namespace mlir;

namespace hlo::pipeline {
namespace {

/// Whether `value` is a multiple of `factor` (a power of two) by its
/// arithmetic.
bool isMultipleOf(Value value, int64_t factor, int depth = 0) {
  if (factor <= 1)
    return true;
  if (depth > 16)
    return false;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue() % factor == 0;
  Operation *op = value.getDefiningOp();
  if (!op)
    return false;
  if (isa<arith::MulIOp>(op)) {
    APInt scale;
    for (int i = 0; i < 2; ++i)
      if (matchPattern(op->getOperand(i), m_ConstantInt(&scale)) && scale.getSExtValue() != 0 &&
          isMultipleOf(op->getOperand(1 - i),
                       factor / std::gcd(factor, std::abs(scale.getSExtValue())), depth + 1))
        return true;
    return isMultipleOf(op->getOperand(0), factor, depth + 1) ||
           isMultipleOf(op->getOperand(1), factor, depth + 1);
  }
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return isMultipleOf(op->getOperand(0), factor, depth + 1) &&
           isMultipleOf(op->getOperand(1), factor, depth + 1);
  if (isa<arith::ShLIOp>(op)) {
    APInt shift;
    if (!matchPattern(op->getOperand(1), m_ConstantInt(&shift)) || shift.getZExtValue() > 62)
      return false;
    int64_t scale = int64_t{1} << shift.getZExtValue();
    return isMultipleOf(op->getOperand(0), factor / std::gcd(factor, scale), depth + 1);
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return isMultipleOf(op->getOperand(0), factor, depth + 1);
  return false;
}

/// `next` - `first` where both are the same value plus constants (or one
/// is the other plus a constant).
std::optional<int64_t> constantDistance(Value first, Value next) {
  auto split = [](Value value) -> std::pair<Value, int64_t> {
    auto add = value.getDefiningOp<arith::AddIOp>();
    APInt constant;
    if (add)
      for (int i = 0; i < 2; ++i)
        if (matchPattern(add.getOperand(i), m_ConstantInt(&constant)))
          return {add.getOperand(1 - i), constant.getSExtValue()};
    return {value, 0};
  };
  if (first == next)
    return 0;
  auto [firstBase, firstOffset] = split(first);
  auto [nextBase, nextOffset] = split(next);
  if (nextBase == first)
    return nextOffset;
  if (firstBase == nextBase)
    return nextOffset - firstOffset;
  return std::nullopt;
}

/// The packed PTX reduction of `count` elements of type `element`, or null
/// where the architecture has none: 16-bit pairs are one 32-bit word,
/// f32 pairs and quads one vector reduction (sm_90).
const char *packedReduction(Type element, int64_t count, int computeCapability) {
  if (count == 2 && element.isF16() && computeCapability >= 60)
    return "red.add.noftz.f16x2 [$0], $1;";
  if (count == 2 && element.isBF16() && computeCapability >= 90)
    return "red.add.noftz.bf16x2 [$0], $1;";
  if (count == 2 && element.isF32() && computeCapability >= 90)
    return "red.global.add.v2.f32 [$0], {$1, $2};";
  if (count == 4 && element.isF32() && computeCapability >= 90)
    return "red.global.add.v4.f32 [$0], {$1, $2, $3, $4};";
  return nullptr;
}

/// Whether `op` neither writes memory nor reads `buffer`: the first atomic
/// of a group may move past it to the last.
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

/// Whether `group` updates `group.size()` neighbouring elements, the first
/// aligned to the group's bytes, of a buffer with identity layout whose
/// minor extent the group divides.
bool updatesOneAlignedRun(MutableArrayRef<memref::AtomicRMWOp> group) {
  memref::AtomicRMWOp first = group.front();
  auto type = cast<MemRefType>(first.getMemref().getType());
  int64_t count = static_cast<int64_t>(group.size());
  if (!type.getLayout().isIdentity() || type.getRank() == 0 || !type.hasStaticShape() ||
      type.getShape().back() % count != 0)
    return false;
  ValueRange a = first.getIndices();
  if (!isMultipleOf(a.back(), count))
    return false;
  for (int64_t k = 1; k < count; ++k) {
    memref::AtomicRMWOp next = group[k];
    if (next.getMemref() != first.getMemref() || next.getKind() != first.getKind() ||
        !next.getResult().use_empty())
      return false;
    ValueRange b = next.getIndices();
    for (size_t d = 0; d + 1 < a.size(); ++d)
      if (a[d] != b[d])
        return false;
    if (constantDistance(a.back(), b.back()) != k)
      return false;
  }
  return true;
}

void pack(MutableArrayRef<memref::AtomicRMWOp> group, const char *reduction) {
  memref::AtomicRMWOp first = group.front();
  OpBuilder b(group.back());
  Location loc = first.getLoc();
  Type element = first.getValue().getType();
  SmallVector<Value> operands;
  std::string constraints = "l";
  if (element.getIntOrFloatBitWidth() == 16) {
    // Two halves of one 32-bit word.
    Value pair = vector::FromElementsOp::create(b, loc, VectorType::get({2}, element),
                                                ValueRange{group[0].getValue(), group[1].getValue()});
    operands.push_back(vector::ExtractOp::create(
        b, loc, vector::BitCastOp::create(b, loc, VectorType::get({1}, b.getI32Type()), pair),
        ArrayRef<int64_t>{0}));
    constraints += ",r";
  } else {
    for (memref::AtomicRMWOp atomic : group) {
      operands.push_back(atomic.getValue());
      constraints += ",f";
    }
  }
  Value pointer = xla_gpu::ElementPointerOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), first.getMemref(), first.getIndices());
  operands.insert(operands.begin(), pointer);
  LLVM::InlineAsmOp::create(b, loc, TypeRange{}, operands, reduction, constraints,
                            /*has_side_effects=*/true, /*is_align_stack=*/false,
                            LLVM::TailCallKind::None, LLVM::AsmDialectAttr{},
                            /*operand_attrs=*/ArrayAttr{});
  for (memref::AtomicRMWOp atomic : llvm::reverse(group))
    atomic.erase();
}

struct PackAtomicsPass : impl::PackAtomicsPassBase<PackAtomicsPass> {
  using PackAtomicsPassBase::PackAtomicsPassBase;

  void runOnOperation() override {
    SmallVector<SmallVector<memref::AtomicRMWOp>> groups;
    llvm::DenseSet<Operation *> grouped;
    getOperation().walk([&](memref::AtomicRMWOp first) {
      if (grouped.contains(first) || first.getKind() != arith::AtomicRMWKind::addf ||
          !first.getResult().use_empty())
        return;
      Type element = first.getValue().getType();
      // The widest group the architecture packs: 4, then 2 atomics.
      for (int64_t count : {4, 2}) {
        if (!packedReduction(element, count, computeCapability))
          continue;
        SmallVector<memref::AtomicRMWOp> group = {first};
        while (static_cast<int64_t>(group.size()) < count) {
          memref::AtomicRMWOp next = nextAtomic(group.back());
          if (!next)
            break;
          group.push_back(next);
        }
        if (static_cast<int64_t>(group.size()) == count && updatesOneAlignedRun(group)) {
          for (memref::AtomicRMWOp atomic : group)
            grouped.insert(atomic);
          groups.push_back(std::move(group));
          return;
        }
      }
    });
    for (SmallVector<memref::AtomicRMWOp> &group : groups)
      pack(group, packedReduction(group.front().getValue().getType(),
                                  static_cast<int64_t>(group.size()), computeCapability));
  }
};

} // namespace
} // namespace hlo::pipeline
