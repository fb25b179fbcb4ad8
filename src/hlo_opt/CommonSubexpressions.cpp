//===- CommonSubexpressions.cpp - One instruction per value ---------------===//
//
// Two instructions of a host computation with the same opcode, shape,
// operands, attributes (metadata aside) and literal compute the same value:
// the later one's uses read the earlier one (XLA's HloCSE). Random number
// generators, side effects and custom calls, which may hold state, are
// never merged. Run to a fixed point in one walk: operands are visited
// before their users, so merged operands make their users equal too.
// First, computations equal instruction by instruction (JAX writes a
// region of its own for each reducer and scatter combiner, add and add
// again) are made one, so that two scatter-adds of the same operands into
// the same zeros compare equal.
//
//===----------------------------------------------------------------------===//
#include "HloPass.h"

#include "hlo_parser/HloAttributes.h"

#include <map>
#include <unordered_map>

namespace hlo::opt {
namespace {

/// What `computation` computes, independent of its instructions' names:
/// each instruction's opcode, shape, parameter number, attributes (the
/// computations it calls by name), literal and operands by position.
std::string structuralKey(const HloComputation &computation) {
  std::unordered_map<const HloInstruction *, size_t> position;
  std::string key;
  for (const auto &instruction : computation.instructions()) {
    position.emplace(instruction.get(), position.size());
    key += opcodeName(instruction->opcode());
    key += ' ';
    instruction->shape().print(key);
    if (instruction->opcode() == HloOpcode::Parameter)
      key += " p" + std::to_string(instruction->parameterNumber());
    for (const HloInstruction *operand : instruction->operands())
      key += " #" + std::to_string(position.at(operand));
    for (const HloAttribute &attribute : instruction->attributes()) {
      if (isAnnotation(attribute))
        continue;
      key += ' ' + attribute.name + '=';
      printAttrValue(key, attribute.value);
    }
    if (instruction->hasLiteral()) {
      if (instruction->literal().elementCount() > 64)
        return "";
      key += ' ';
      instruction->literal().print(key);
    }
    key += '\n';
  }
  key += "root #" + std::to_string(position.at(computation.root()));
  return key;
}

/// Points every call of a computation equal to an earlier one at the
/// earlier one; true if any changed.
bool mergeEqualComputations(HloModule &module) {
  std::map<std::string, HloComputation *> first;
  std::unordered_map<const HloComputation *, HloComputation *> representative;
  for (const auto &computation : module.computations()) {
    if (computation.get() == module.entry() || computation->isDeclaration())
      continue;
    std::string key = structuralKey(*computation);
    if (key.empty())
      continue;
    auto [found, inserted] = first.try_emplace(std::move(key), computation.get());
    if (!inserted)
      representative[computation.get()] = found->second;
  }
  if (representative.empty())
    return false;
  bool changed = false;
  for (const auto &computation : module.computations())
    for (const auto &instruction : computation->instructions())
      for (HloAttribute &attribute : instruction->mutableAttributes())
        for (HloComputation *&called : attribute.value.computations)
          if (auto found = representative.find(called); found != representative.end()) {
            called = found->second;
            changed = true;
          }
  return changed;
}

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
    bool changed = mergeEqualComputations(module);
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
    if (changed)
      removeUnusedComputations(module);
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createCommonSubexpressionPass() {
  return std::make_unique<CommonSubexpressions>();
}

} // namespace hlo::opt
