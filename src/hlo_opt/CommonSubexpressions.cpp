//===- CommonSubexpressions.cpp - One instruction per value ---------------===//
//
// Two instructions of a host computation with the same opcode, shape,
// operands, attributes (metadata aside) and literal compute the same value:
// the later one's uses read the earlier one (XLA's HloCSE). Random number
// generators, side effects and custom calls, which may hold state, are
// never merged. Run to a fixed point in one walk: operands are visited
// before their users, so merged operands make their users equal too.
//
//===----------------------------------------------------------------------===//
#include "HloPass.h"

#include <unordered_map>

namespace hlo::opt {
namespace {

bool mayMerge(const HloInstruction &instruction) {
  switch (instruction.opcode()) {
  case HloOpcode::Parameter:
  case HloOpcode::Rng:
  case HloOpcode::CustomCall:
  case HloOpcode::While:
  case HloOpcode::Conditional:
  case HloOpcode::Call:
  case HloOpcode::AfterAll:
    return false;
  default:
    return !hasSideEffect(instruction);
  }
}

class CommonSubexpressions : public HloPass {
public:
  llvm::StringRef name() const override { return "cse"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module)) {
      std::unordered_map<std::string, HloInstruction *> seen;
      for (const auto &owned : computation->instructions()) {
        HloInstruction &instruction = *owned;
        if (!mayMerge(instruction))
          continue;
        std::string key = valueKey(instruction, instruction.operands());
        if (key.empty())
          continue;
        auto [found, inserted] = seen.try_emplace(std::move(key), &instruction);
        if (!inserted) {
          instruction.replaceAllUsesWith(found->second);
          changed = true;
        }
      }
    }
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createCommonSubexpressionPass() {
  return std::make_unique<CommonSubexpressions>();
}

} // namespace hlo::opt
