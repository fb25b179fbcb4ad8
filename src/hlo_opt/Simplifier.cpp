//===- Simplifier.cpp - Drop instructions that do nothing -----------------===//
//
// The part of XLA's algebraic simplifier that changes which kernels a
// module needs: instructions that return their operand unchanged are
// replaced by it (sharding annotations, which mean nothing on one device;
// reshapes, copies, converts and broadcasts to the operand's own shape;
// identity transposes; slices, pads and dynamic slices of the whole
// operand; one-operand concatenates), a reshape of a reshape reads the
// first one's operand, a get-tuple-element of a tuple is the element, and
// a dynamic-update-slice that overwrites its whole operand is its update.
// What becomes unused is removed by the dead-code pass after it.
//
//===----------------------------------------------------------------------===//
#include "HloPass.h"

#include <numeric>

namespace hlo::opt {
namespace {

bool isIdentityPermutation(const std::vector<int64_t> &permutation) {
  for (size_t i = 0; i < permutation.size(); ++i)
    if (permutation[i] != static_cast<int64_t>(i))
      return false;
  return true;
}

bool sameShape(const HloInstruction &a, const HloInstruction &b) {
  return a.shape() == b.shape();
}

/// The value `instruction` can be replaced by, or null.
HloInstruction *simplified(HloInstruction &instruction) {
  if (instruction.operandCount() == 0)
    return nullptr;
  HloInstruction *operand = instruction.operand(0);
  switch (instruction.opcode()) {
  case HloOpcode::CustomCall:
    if (instruction.operandCount() == 1 &&
        isShardingAnnotation(instruction.textAttr("custom_call_target")) &&
        sameShape(instruction, *operand))
      return operand;
    return nullptr;
  case HloOpcode::Reshape:
  case HloOpcode::Bitcast:
  case HloOpcode::Copy:
  case HloOpcode::Convert:
    return sameShape(instruction, *operand) ? operand : nullptr;
  case HloOpcode::Broadcast:
    return sameShape(instruction, *operand) &&
                   isIdentityPermutation(instruction.dimensions())
               ? operand
               : nullptr;
  case HloOpcode::Transpose:
    return sameShape(instruction, *operand) && isIdentityPermutation(instruction.dimensions())
               ? operand
               : nullptr;
  case HloOpcode::Slice:
  case HloOpcode::Pad:
  case HloOpcode::DynamicSlice:
  case HloOpcode::Concatenate:
  case HloOpcode::Reverse:
    if (instruction.opcode() == HloOpcode::Concatenate && instruction.operandCount() != 1)
      return nullptr;
    if (instruction.opcode() == HloOpcode::Reverse) {
      // Reversing dimensions of one element.
      for (int64_t dimension : instruction.dimensions())
        if (operand->shape().dimension(dimension) != 1)
          return nullptr;
    }
    if (instruction.opcode() == HloOpcode::Pad) {
      const AttrValue *padding = instruction.findAttribute("padding");
      if (!padding)
        return nullptr;
      for (const PaddingDimension &dimension : padding->padding)
        if (dimension.low != 0 || dimension.high != 0 || dimension.interior != 0)
          return nullptr;
    }
    return sameShape(instruction, *operand) ? operand : nullptr;
  case HloOpcode::DynamicUpdateSlice: {
    HloInstruction *update = instruction.operand(1);
    return sameShape(instruction, *update) ? update : nullptr;
  }
  case HloOpcode::GetTupleElement:
    if (operand->opcode() == HloOpcode::Tuple)
      return operand->operand(instruction.intAttr("index"));
    return nullptr;
  default:
    return nullptr;
  }
}

class Simplifier : public HloPass {
public:
  llvm::StringRef name() const override { return "simplifier"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module)) {
      for (const auto &owned : computation->instructions()) {
        HloInstruction &instruction = *owned;
        if (HloInstruction *replacement = simplified(instruction)) {
          // An instruction that is the computation's root and its result
          // layout matters (a while body's): replacing keeps the shape.
          instruction.replaceAllUsesWith(replacement);
          changed = true;
          continue;
        }
        // reshape(reshape(x)) -> reshape(x).
        if (instruction.opcode() == HloOpcode::Reshape &&
            instruction.operand(0)->opcode() == HloOpcode::Reshape) {
          instruction.replaceOperand(0, instruction.operand(0)->operand(0));
          changed = true;
        }
      }
    }
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createSimplifierPass() { return std::make_unique<Simplifier>(); }

} // namespace hlo::opt
