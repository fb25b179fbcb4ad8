//===- HloRewriting.cpp - Building blocks of the HLO passes ---------------===//
#include "HloRewriting.h"

#include <algorithm>
#include <unordered_map>

namespace hlo::opt {

NameUniquer::NameUniquer(const HloModule &module) {
  for (const auto &computation : module.computations()) {
    taken.insert(computation->name());
    for (const auto &instruction : computation->instructions())
      taken.insert(instruction->name());
  }
}

std::string NameUniquer::unique(const std::string &base) {
  if (taken.insert(base).second)
    return base;
  std::string stem = base;
  size_t dot = stem.find_last_of('.');
  if (dot != std::string::npos && dot + 1 < stem.size() &&
      stem.find_first_not_of("0123456789", dot + 1) == std::string::npos)
    stem.erase(dot);
  int64_t &next = nextSuffix.try_emplace(stem, 1).first->second;
  for (;; ++next) {
    std::string candidate = stem + "." + std::to_string(next);
    if (taken.insert(candidate).second)
      return candidate;
  }
}

HloInstruction *cloneInstruction(HloComputation &into, const HloInstruction &original,
                                 const std::vector<HloInstruction *> &operands,
                                 std::string name) {
  auto clone = std::make_unique<HloInstruction>(original.opcode(), std::move(name),
                                                original.shape());
  clone->setSourceOffset(original.sourceOffset());
  clone->setParameterNumber(original.parameterNumber());
  if (original.hasLiteral())
    clone->setLiteral(original.literal());
  if (std::optional<HloOpcode> wrapped = original.asyncWrappedOpcode())
    clone->setAsyncWrappedOpcode(*wrapped);
  for (const HloAttribute &attribute : original.attributes())
    // Control edges name instructions of the original computation.
    if (attribute.name != "control-predecessors")
      clone->addAttribute(attribute);
  clone->reserveOperands(operands.size());
  for (HloInstruction *operand : operands)
    clone->appendOperand(operand);
  return into.addInstruction(std::move(clone));
}

std::optional<HloOpcode> reducerOpcode(const HloComputation &reducer) {
  const HloInstruction *root = reducer.root();
  if (reducer.parameterCount() != 2 || root->operandCount() != 2 ||
      root->operand(0)->opcode() != HloOpcode::Parameter ||
      root->operand(1)->opcode() != HloOpcode::Parameter)
    return std::nullopt;
  switch (root->opcode()) {
  case HloOpcode::Add:
  case HloOpcode::Multiply:
  case HloOpcode::Maximum:
  case HloOpcode::Minimum:
  case HloOpcode::And:
  case HloOpcode::Or:
    return root->opcode();
  default:
    return std::nullopt;
  }
}

bool isAnnotation(const HloAttribute &attribute) {
  return attribute.name == "metadata" || attribute.name == "frontend_attributes" ||
         attribute.name == "sharding" || attribute.name == "statistics" ||
         attribute.name == "origin";
}

std::string valueKey(const HloInstruction &instruction,
                     const std::vector<HloInstruction *> &operands) {
  std::string key(opcodeName(instruction.opcode()));
  key += ' ';
  instruction.shape().print(key);
  for (const HloInstruction *operand : operands) {
    key += " %";
    key += operand->name();
  }
  for (const HloAttribute &attribute : instruction.attributes()) {
    if (isAnnotation(attribute))
      continue;
    key += ' ';
    key += attribute.name;
    key += '=';
    printAttrValue(key, attribute.value);
  }
  if (instruction.hasLiteral()) {
    if (instruction.shape().elementCount() > 64)
      return "";
    key += ' ';
    instruction.literal().print(key);
  }
  return key;
}

HloInstruction *inlineComputation(
    const HloComputation &body, const std::vector<HloInstruction *> &arguments,
    const std::function<HloInstruction *(const HloInstruction &,
                                         const std::vector<HloInstruction *> &)> &clone) {
  std::unordered_map<const HloInstruction *, HloInstruction *> copies;
  for (const auto &instruction : body.instructions()) {
    if (instruction->opcode() == HloOpcode::Parameter) {
      copies[instruction.get()] = arguments.at(instruction->parameterNumber());
      continue;
    }
    std::vector<HloInstruction *> operands;
    for (const HloInstruction *operand : instruction->operands())
      operands.push_back(copies.at(operand));
    copies[instruction.get()] = clone(*instruction, operands);
  }
  return copies.at(body.root());
}

HloInstruction *addInstruction(HloComputation &into, HloOpcode opcode, std::string name,
                               Shape shape, const std::vector<HloInstruction *> &operands,
                               std::vector<HloAttribute> attributes, uint32_t sourceOffset) {
  auto instruction = std::make_unique<HloInstruction>(opcode, std::move(name), std::move(shape));
  instruction->setSourceOffset(sourceOffset);
  instruction->reserveOperands(operands.size());
  for (HloInstruction *operand : operands)
    instruction->appendOperand(operand);
  for (HloAttribute &attribute : attributes)
    instruction->addAttribute(std::move(attribute));
  return into.addInstruction(std::move(instruction));
}

HloInstruction *addGetTupleElement(HloInstruction &tuple, int64_t index, std::string name) {
  AttrValue value;
  value.kind = AttrKind::Int;
  value.intValue = index;
  return addInstruction(*tuple.parent(), HloOpcode::GetTupleElement, std::move(name),
                        tuple.shape().tupleShapes()[index], {&tuple}, {{"index", value}},
                        tuple.sourceOffset());
}

HloInstruction *addParameter(HloComputation &into, int64_t number, const Shape &shape,
                             std::string name) {
  auto parameter = std::make_unique<HloInstruction>(HloOpcode::Parameter, std::move(name), shape);
  parameter->setParameterNumber(number);
  return into.addInstruction(std::move(parameter));
}

std::vector<HloComputation *> hostComputations(const HloModule &module) {
  std::vector<HloComputation *> result;
  std::set<HloComputation *> seen;
  std::vector<HloComputation *> work = {module.entry()};
  while (!work.empty()) {
    HloComputation *computation = work.back();
    work.pop_back();
    if (!computation || computation->isDeclaration() || !seen.insert(computation).second)
      continue;
    result.push_back(computation);
    for (const auto &instruction : computation->instructions()) {
      HloOpcode opcode = instruction->opcode();
      if (opcode == HloOpcode::While || opcode == HloOpcode::Conditional ||
          opcode == HloOpcode::Call)
        for (HloComputation *called : instruction->calledComputations())
          work.push_back(called);
    }
  }
  return result;
}

bool hasSideEffect(const HloInstruction &instruction) {
  switch (instruction.opcode()) {
  case HloOpcode::Parameter:
  case HloOpcode::Send:
  case HloOpcode::SendDone:
  case HloOpcode::Recv:
  case HloOpcode::RecvDone:
  case HloOpcode::Infeed:
  case HloOpcode::Outfeed:
  case HloOpcode::AllReduce:
  case HloOpcode::AllReduceStart:
  case HloOpcode::AllReduceDone:
  case HloOpcode::AllGather:
  case HloOpcode::AllGatherStart:
  case HloOpcode::AllGatherDone:
  case HloOpcode::AllToAll:
  case HloOpcode::CollectivePermute:
  case HloOpcode::CollectivePermuteStart:
  case HloOpcode::CollectivePermuteDone:
  case HloOpcode::ReduceScatter:
  case HloOpcode::RngGetAndUpdateState:
  case HloOpcode::AsyncStart:
  case HloOpcode::AsyncUpdate:
  case HloOpcode::AsyncDone:
    return true;
  case HloOpcode::CustomCall:
    return instruction.boolAttr("custom_call_has_side_effect");
  default:
    return false;
  }
}

bool removeDeadInstructions(HloComputation &computation) {
  std::set<const HloInstruction *> live;
  std::vector<const HloInstruction *> work;
  auto keep = [&](const HloInstruction *instruction) {
    if (live.insert(instruction).second)
      work.push_back(instruction);
  };
  keep(computation.root());
  for (const auto &instruction : computation.instructions())
    if (hasSideEffect(*instruction))
      keep(instruction.get());
  while (!work.empty()) {
    const HloInstruction *instruction = work.back();
    work.pop_back();
    for (const HloInstruction *operand : instruction->operands())
      keep(operand);
    for (const HloInstruction *control : instruction->controlPredecessors())
      keep(control);
  }
  if (live.size() == computation.instructions().size())
    return false;
  computation.removeInstructionsIf(
      [&](const HloInstruction &instruction) { return !live.count(&instruction); });
  return true;
}

bool removeUnusedComputations(HloModule &module) {
  std::set<const HloComputation *> used = {module.entry()};
  std::vector<const HloComputation *> work = {module.entry()};
  while (!work.empty()) {
    const HloComputation *computation = work.back();
    work.pop_back();
    for (const auto &instruction : computation->instructions())
      for (const HloComputation *called : instruction->calledComputations())
        if (used.insert(called).second)
          work.push_back(called);
  }
  return module.removeComputationsIf(
      [&](const HloComputation &computation) { return !used.count(&computation); });
}

} // namespace hlo::opt
