//===- ComputationFingerprint.cpp - Computations equal up to names --------===//
#include "analysis/ComputationFingerprint.h"

#include "hlo_parser/HloAttributes.h"

#include <unordered_map>

namespace hlo {
namespace {

/// Attributes that describe where an instruction came from or how it is
/// scheduled, not what it computes.
bool isDescriptive(const std::string &name) {
  return name == "metadata" || name == "frontend_attributes" ||
         name == "control-predecessors" || name == "statistics" ||
         name == "origin" || name == "sharding";
}

} // namespace

const std::string &ComputationFingerprinter::fingerprint(const HloComputation &computation) {
  auto found = cache.find(&computation);
  if (found != cache.end())
    return found->second;
  std::string text;
  // Instructions are numbered in order; operands refer to those numbers.
  std::unordered_map<const HloInstruction *, size_t> number;
  for (const auto &instruction : computation.instructions()) {
    number.emplace(instruction.get(), number.size());
    text += instruction->isRoot() ? "ROOT " : "";
    instruction->shape().print(text);
    text += ' ';
    text += opcodeName(instruction->opcode());
    if (std::optional<HloOpcode> wrapped = instruction->asyncWrappedOpcode())
      (text += ':') += opcodeName(*wrapped);
    text += '(';
    if (instruction->opcode() == HloOpcode::Parameter)
      text += std::to_string(instruction->parameterNumber());
    else if (instruction->opcode() == HloOpcode::Constant)
      instruction->literal().print(text);
    for (int64_t i = 0; i < instruction->operandCount(); ++i) {
      auto operand = number.find(instruction->operand(i));
      text += (i ? ",#" : "#") +
              (operand == number.end() ? std::string("?") : std::to_string(operand->second));
    }
    text += ')';
    for (const HloAttribute &attribute : instruction->attributes()) {
      if (isDescriptive(attribute.name))
        continue;
      text += ',' + attribute.name + '=';
      if (attribute.value.kind == AttrKind::Computation ||
          attribute.value.kind == AttrKind::ComputationList) {
        text += '{';
        for (const HloComputation *called : attribute.value.computations)
          text += (called ? fingerprint(*called) : std::string("?")) + ';';
        text += '}';
        continue;
      }
      printAttrValue(text, attribute.value);
    }
    text += '\n';
  }
  return cache.emplace(&computation, std::move(text)).first->second;
}

} // namespace hlo
