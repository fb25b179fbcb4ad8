//===- PrivateUpdateOperands.cpp - Each in-place update its own zeros ------===//
//
// A scatter or a (large) dynamic-update-slice writes over its operand's
// buffer when nothing reads the operand after it; otherwise its kernel
// first copies the operand (the scatter emitter's OperandCopy launch).
// JAX's `zeros.at[i].add(v)` in two places makes one broadcast of zeros
// that CSE shares: the first update then copies 2 MB of zeros. A
// broadcast of a scalar (or an iota) costs no more to compute again than
// to copy, so each in-place update of one gets a broadcast of its own,
// as XLA gives each scatter its own initialized buffer (horizontal fusion
// then writes the copies in one launch).
//
//===----------------------------------------------------------------------===//
#include "FusionRules.h"
#include "HloPass.h"
#include "HloRewriting.h"

namespace hlo::opt {
namespace {

/// A value computed from scalars alone: a broadcast of a scalar, an iota.
bool isComputedFromNothing(const HloInstruction &instruction) {
  if (instruction.opcode() == HloOpcode::Iota)
    return true;
  return instruction.opcode() == HloOpcode::Broadcast && instruction.shape().isArray() &&
         instruction.operand(0)->shape().isArray() &&
         instruction.operand(0)->shape().rank() == 0;
}

/// Whether `user` updates its operand `slot` in place.
bool updatesInPlace(const HloInstruction &user, int64_t slot) {
  if (user.opcode() == HloOpcode::Scatter)
    return slot < user.operandCount() / 2;
  return user.opcode() == HloOpcode::DynamicUpdateSlice && slot == 0 &&
         !isElementalDynamicUpdateSlice(user);
}

class PrivateUpdateOperands : public HloPass {
public:
  llvm::StringRef name() const override { return "private-update-operands"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module)) {
      std::vector<HloInstruction *> shared;
      for (const auto &instruction : computation->instructions())
        if (isComputedFromNothing(*instruction) && instruction->users().size() > 1)
          shared.push_back(instruction.get());
      for (HloInstruction *value : shared) {
        std::vector<HloInstruction *> users = value->users();
        // The first user keeps the original.
        bool first = true;
        for (HloInstruction *user : users)
          for (int64_t slot = 0; slot < user->operandCount(); ++slot) {
            if (user->operand(slot) != value || !updatesInPlace(*user, slot))
              continue;
            if (first) {
              first = false;
              continue;
            }
            HloInstruction *copy = cloneInstruction(*computation, *value, value->operands(),
                                                    context.names.unique(value->name()));
            user->replaceOperand(slot, copy);
            changed = true;
          }
      }
      if (changed)
        computation->sortTopologically();
    }
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createPrivateUpdateOperandsPass() {
  return std::make_unique<PrivateUpdateOperands>();
}

} // namespace hlo::opt
