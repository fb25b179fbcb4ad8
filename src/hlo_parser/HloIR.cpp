//===- HloIR.cpp - HloInstruction / HloComputation / HloModule ------------===//
//
// Out-of-line members of the three IR classes (accessors that search the
// attribute list, user bookkeeping, parameter ordering).
//
//===----------------------------------------------------------------------===//
#include "HloModule.h"

#include <algorithm>
#include <unordered_map>

namespace hlo {

void HloInstruction::appendOperand(HloInstruction *operand) {
  operandList.push_back(operand);
  // An instruction's operands are appended one after the other, so a repeat
  // user is always the last one.
  auto &users = operand->userList;
  if (users.empty() || users.back() != this)
    users.push_back(this);
}

namespace {

bool usesAsOperand(const HloInstruction &user, const HloInstruction *operand) {
  return std::find(user.operands().begin(), user.operands().end(), operand) !=
         user.operands().end();
}

void eraseUser(std::vector<HloInstruction *> &users, const HloInstruction *user) {
  users.erase(std::remove(users.begin(), users.end(), user), users.end());
}

} // namespace

void HloInstruction::replaceOperand(int64_t i, HloInstruction *operand) {
  HloInstruction *old = operandList[i];
  if (old == operand)
    return;
  operandList[i] = operand;
  if (!usesAsOperand(*this, old))
    eraseUser(old->userList, this);
  if (std::find(operand->userList.begin(), operand->userList.end(), this) ==
      operand->userList.end())
    operand->userList.push_back(this);
}

void HloInstruction::replaceAllUsesWith(HloInstruction *other) {
  if (other == this)
    return;
  std::vector<HloInstruction *> users = userList;
  for (HloInstruction *user : users)
    for (int64_t i = 0; i < user->operandCount(); ++i)
      if (user->operand(i) == this)
        user->replaceOperand(i, other);
  if (parentValue && parentValue->root() == this)
    parentValue->setRoot(other);
}

void HloInstruction::dropOperands() {
  for (HloInstruction *operand : operandList)
    eraseUser(operand->userList, this);
  operandList.clear();
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

void HloComputation::removeInstructionsIf(
    const std::function<bool(const HloInstruction &)> &dead) {
  for (auto &instruction : instructionList)
    if (instruction.get() != rootValue && dead(*instruction))
      instruction->dropOperands();
  std::vector<std::unique_ptr<HloInstruction>> kept;
  kept.reserve(instructionList.size());
  for (auto &instruction : instructionList)
    if (instruction.get() == rootValue || !dead(*instruction))
      kept.push_back(std::move(instruction));
  instructionList = std::move(kept);
  finalizeParameters();
}

void HloComputation::sortTopologically() {
  std::vector<std::unique_ptr<HloInstruction>> sorted;
  sorted.reserve(instructionList.size());
  std::vector<HloInstruction *> order;
  std::unordered_map<const HloInstruction *, size_t> position;
  for (size_t i = 0; i < instructionList.size(); ++i)
    position[instructionList[i].get()] = i;
  std::vector<char> state(instructionList.size(), 0); // 1 visiting, 2 done
  std::vector<std::pair<HloInstruction *, size_t>> stack;
  for (auto &start : instructionList) {
    if (state[position[start.get()]])
      continue;
    stack.push_back({start.get(), 0});
    state[position[start.get()]] = 1;
    while (!stack.empty()) {
      auto &[instruction, next] = stack.back();
      std::vector<HloInstruction *> predecessors = instruction->operands();
      for (HloInstruction *control : instruction->controlPredecessors())
        predecessors.push_back(control);
      if (next < predecessors.size()) {
        HloInstruction *operand = predecessors[next++];
        auto found = position.find(operand);
        if (found != position.end() && state[found->second] == 0) {
          state[found->second] = 1;
          stack.push_back({operand, 0});
        }
        continue;
      }
      state[position[instruction]] = 2;
      order.push_back(instruction);
      stack.pop_back();
    }
  }
  for (HloInstruction *instruction : order)
    sorted.push_back(std::move(instructionList[position[instruction]]));
  instructionList = std::move(sorted);
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

bool HloModule::removeComputationsIf(
    const std::function<bool(const HloComputation &)> &unused) {
  size_t before = computationList.size();
  computationList.erase(std::remove_if(computationList.begin(), computationList.end(),
                                       [&](const std::unique_ptr<HloComputation> &computation) {
                                         return computation.get() != entryValue &&
                                                unused(*computation);
                                       }),
                        computationList.end());
  return computationList.size() != before;
}

void HloModule::sortComputations() {
  std::unordered_map<const HloComputation *, size_t> position;
  for (size_t i = 0; i < computationList.size(); ++i)
    position[computationList[i].get()] = i;
  std::vector<char> visited(computationList.size(), 0);
  std::vector<size_t> order;
  // Depth first from each computation in the current order; the entry last.
  std::function<void(size_t)> visit = [&](size_t index) {
    if (visited[index])
      return;
    visited[index] = 1;
    for (const auto &instruction : computationList[index]->instructions())
      for (const HloComputation *called : instruction->calledComputations()) {
        auto found = position.find(called);
        if (found != position.end())
          visit(found->second);
      }
    order.push_back(index);
  };
  for (size_t i = 0; i < computationList.size(); ++i)
    if (computationList[i].get() != entryValue)
      visit(i);
  if (entryValue)
    visit(position.at(entryValue));
  std::vector<std::unique_ptr<HloComputation>> sorted;
  for (size_t index : order)
    sorted.push_back(std::move(computationList[index]));
  computationList = std::move(sorted);
}

HloComputation *HloModule::findComputation(std::string_view name) const {
  for (const auto &computation : computationList)
    if (computation->name() == name)
      return computation.get();
  return nullptr;
}

} // namespace hlo
