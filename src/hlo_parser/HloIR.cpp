//===- HloIR.cpp - HloInstruction / HloComputation / HloModule ------------===//
//
// Out-of-line members of the three IR classes (accessors that search the
// attribute list, user bookkeeping, parameter ordering).
//
//===----------------------------------------------------------------------===//
#include "HloModule.h"

#include <algorithm>

namespace hlo {

void HloInstruction::appendOperand(HloInstruction *operand) {
  operandList.push_back(operand);
  // An instruction's operands are appended one after the other, so a repeat
  // user is always the last one.
  auto &users = operand->userList;
  if (users.empty() || users.back() != this)
    users.push_back(this);
}

const HloAttribute *
HloInstruction::findAttributeEntry(std::string_view name) const {
  for (const HloAttribute &attribute : attributeList)
    if (attribute.name == name)
      return &attribute;
  return nullptr;
}

const AttrValue *HloInstruction::findAttribute(std::string_view name) const {
  const HloAttribute *entry = findAttributeEntry(name);
  return entry ? &entry->value : nullptr;
}

int64_t HloInstruction::intAttr(std::string_view name, int64_t fallback) const {
  const AttrValue *value = findAttribute(name);
  return value ? value->intValue : fallback;
}

bool HloInstruction::boolAttr(std::string_view name, bool fallback) const {
  const AttrValue *value = findAttribute(name);
  return value ? value->boolValue : fallback;
}

const std::vector<int64_t> &
HloInstruction::intListAttr(std::string_view name) const {
  static const std::vector<int64_t> empty;
  const AttrValue *value = findAttribute(name);
  return value ? value->ints : empty;
}

std::string_view HloInstruction::textAttr(std::string_view name) const {
  const AttrValue *value = findAttribute(name);
  return value ? std::string_view(value->text) : std::string_view();
}

HloComputation *HloInstruction::computationAttr(std::string_view name) const {
  const AttrValue *value = findAttribute(name);
  if (!value || value->computations.empty())
    return nullptr;
  return value->computations.front();
}

std::vector<HloComputation *> HloInstruction::calledComputations() const {
  std::vector<HloComputation *> result;
  for (const HloAttribute &attribute : attributeList)
    for (HloComputation *computation : attribute.value.computations)
      result.push_back(computation);
  return result;
}

HloComputation *HloInstruction::fusedComputation() const {
  if (opcodeValue != HloOpcode::Fusion)
    return nullptr;
  return computationAttr("calls");
}

const std::vector<HloInstruction *> &
HloInstruction::controlPredecessors() const {
  static const std::vector<HloInstruction *> empty;
  const AttrValue *value = findAttribute("control-predecessors");
  return value ? value->instructions : empty;
}

bool HloInstruction::isRoot() const {
  return parentValue && parentValue->root() == this;
}

HloInstruction *
HloComputation::addInstruction(std::unique_ptr<HloInstruction> instruction) {
  instruction->setParent(this);
  instructionList.push_back(std::move(instruction));
  return instructionList.back().get();
}

bool HloComputation::finalizeParameters() {
  params.clear();
  for (const auto &instruction : instructionList)
    if (instruction->opcode() == HloOpcode::Parameter)
      params.push_back(instruction.get());
  std::sort(params.begin(), params.end(),
            [](const HloInstruction *a, const HloInstruction *b) {
              return a->parameterNumber() < b->parameterNumber();
            });
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i]->parameterNumber() != static_cast<int64_t>(i))
      return false;
  return true;
}

HloComputation *
HloModule::addComputation(std::unique_ptr<HloComputation> computation) {
  computation->setParent(this);
  computationList.push_back(std::move(computation));
  return computationList.back().get();
}

HloComputation *
HloModule::addDeclaration(std::unique_ptr<HloComputation> computation) {
  computation->setParent(this);
  declarationList.push_back(std::move(computation));
  return declarationList.back().get();
}

HloComputation *HloModule::findComputation(std::string_view name) const {
  for (const auto &computation : computationList)
    if (computation->name() == name)
      return computation.get();
  return nullptr;
}

} // namespace hlo
