//===- BufferAssignment.cpp - Which buffer each value lives in ------------===//
#include "analysis/BufferAssignment.h"

#include "hlo_parser/HloComputation.h"
#include "hlo_parser/OpAttributes.h"

#include <unordered_set>

namespace hlo {
namespace {

/// The instruction whose buffer `value` is: bitcasts only reinterpret
/// their operand's bytes (XLA gives them no buffer of their own).
const HloInstruction *bufferOwner(const HloInstruction *value) {
  while (value && value->opcode() == HloOpcode::Bitcast)
    value = value->operand(0);
  return value;
}

/// The entry output `value` is (its root, or an array element of its root
/// tuple, seen through bitcasts), or -1.
int64_t entryOutputOf(const HloInstruction *value) {
  const HloInstruction *root = value->parent()->root();
  if (bufferOwner(root) == value && value->shape().isArray())
    return 0;
  for (int64_t i = 0; root->opcode() == HloOpcode::Tuple && i < root->operandCount(); ++i)
    if (bufferOwner(root->operand(i)) == value && root->operand(i)->shape().isArray())
      return i;
  return -1;
}

int64_t leafCount(const Shape &shape) {
  if (!shape.isTuple())
    return 1;
  int64_t count = 0;
  for (const Shape &element : shape.tupleShapes())
    count += leafCount(element);
  return count;
}

/// The instruction whose tuple result a chain of get-tuple-elements ending
/// at `value` reads, and the array leaf it reads (depth-first, as result
/// leaves are numbered); {null, 0} if `value` is no such leaf.
std::pair<const HloInstruction *, int64_t> tupleLeafOf(const HloInstruction *value) {
  std::vector<int64_t> path; // innermost index first
  const HloInstruction *producer = value;
  while (producer->opcode() == HloOpcode::GetTupleElement) {
    path.push_back(tupleIndex(*producer));
    producer = bufferOwner(producer->operand(0));
  }
  const Shape *shape = &producer->shape();
  int64_t leaf = 0;
  for (auto index = path.rbegin(); index != path.rend(); ++index) {
    if (!shape->isTuple() || *index < 0 || *index >= shape->tupleSize())
      return {nullptr, 0};
    for (int64_t j = 0; j < *index; ++j)
      leaf += leafCount(shape->tupleShapes()[j]);
    shape = &shape->tupleShapes()[*index];
  }
  if (path.empty() || !shape->isArray())
    return {nullptr, 0};
  return {producer, leaf};
}

BufferSlot entrySlot(BufferSlot::Kind kind, int64_t number) {
  BufferSlot slot;
  slot.kind = kind;
  slot.number = number;
  return slot;
}

} // namespace

BufferAssignment::BufferAssignment(const HloModule &module, const KernelPlan &plan)
    : module(module) {
  const HloComputation *entry = module.entry();
  bool bareEntry = plan.kernels().size() == 1 && plan.kernels()[0].computation == entry;
  // The values a step writes: kernels (a bare entry's root), device
  // copies, library calls, loops, conditionals and calls; parameters,
  // constants, tuples, bitcasts and get-tuple-elements have no step.
  std::unordered_set<const HloInstruction *> kernels;
  for (const KernelSource &kernel : plan.kernels())
    kernels.insert(kernel.origin);
  for (const HloInstruction *copy : plan.deviceCopies())
    stepValues.insert(copy);
  for (const HloInstruction *call : plan.notEmitted())
    stepValues.insert(call);
  for (const HloComputation *computation : plan.hostComputations())
    for (const auto &instruction : computation->instructions()) {
      HloOpcode opcode = instruction->opcode();
      if (kernels.count(instruction.get()) || opcode == HloOpcode::While ||
          opcode == HloOpcode::Conditional || opcode == HloOpcode::Call ||
          (bareEntry && instruction.get() == entry->root()))
        stepValues.insert(instruction.get());
    }

  // The entry's parameters and outputs, then each host computation's
  // constants and the values its steps write that are no output.
  for (int64_t i = 0; i < entry->parameterCount(); ++i)
    bufferList.push_back({ProgramBuffer::Kind::Parameter, entry->parameter(i), entry, i});
  const HloInstruction *root = entry->root();
  std::set<const HloInstruction *> outputs;
  if (root->opcode() == HloOpcode::Tuple) {
    for (int64_t i = 0; i < root->operandCount(); ++i) {
      outputs.insert(root->operand(i));
      bufferList.push_back({ProgramBuffer::Kind::Output, root->operand(i), entry, i});
    }
  } else {
    outputs.insert(root);
    bufferList.push_back({ProgramBuffer::Kind::Output, root, entry, 0});
  }
  for (const HloComputation *computation : plan.hostComputations())
    for (const auto &instruction : computation->instructions()) {
      bool constant = instruction->opcode() == HloOpcode::Constant;
      if (outputs.count(instruction.get()) || (!constant && !hasStep(instruction.get())) ||
          (bareEntry && instruction.get() != root))
        continue;
      bufferList.push_back({constant ? ProgramBuffer::Kind::Constant
                                     : ProgramBuffer::Kind::Temporary,
                            instruction.get(), computation, -1});
    }
}

BufferSlot BufferAssignment::operandSlot(const HloInstruction *operand) const {
  operand = bufferOwner(operand);
  // An array leaf of a step's tuple result (through get-tuple-elements of
  // nested tuples too): where that step writes the leaf; of a while body's
  // or condition's or a branch's tuple parameter: the loop state's or
  // branch parameter's leaf. Not the elements of the entry's parameters or
  // of tuple instructions: those have no buffer of their own.
  if (operand && operand->opcode() == HloOpcode::GetTupleElement) {
    auto [tuple, leaf] = tupleLeafOf(operand);
    HloOpcode producer = tuple ? tuple->opcode() : HloOpcode::Tuple;
    bool entryParameter =
        producer == HloOpcode::Parameter && tuple->parent() == module.entry();
    if (tuple && !entryParameter && producer != HloOpcode::Tuple)
      return resultSlot(tuple, static_cast<size_t>(leaf),
                        static_cast<size_t>(leafCount(tuple->shape())));
  }
  const HloComputation *entry = operand ? operand->parent()->parent()->entry() : nullptr;
  if (operand && operand->opcode() == HloOpcode::Parameter && operand->parent() == entry)
    return entrySlot(BufferSlot::Kind::EntryParameter, operand->parameterNumber());
  if (operand && operand->parent() == entry)
    if (int64_t output = entryOutputOf(operand); output >= 0)
      return entrySlot(BufferSlot::Kind::EntryOutput, output);
  BufferSlot slot;
  slot.producer = operand;
  return slot;
}

BufferSlot BufferAssignment::resultSlot(const HloInstruction *producer, size_t leaf,
                                        size_t leafCount) const {
  const HloInstruction *root = module.entry()->root();
  const HloInstruction *rootOwner = bufferOwner(root);
  if (producer == rootOwner)
    return entrySlot(BufferSlot::Kind::EntryOutput, static_cast<int64_t>(leaf));
  // The root is this leaf of the step's tuple (a library call's result).
  if (rootOwner->opcode() == HloOpcode::GetTupleElement && rootOwner->operand(0) == producer &&
      tupleIndex(*rootOwner) == static_cast<int64_t>(leaf) && rootOwner->shape().isArray())
    return entrySlot(BufferSlot::Kind::EntryOutput, 0);
  // A tuple root of the step's result, or of get-tuple-elements of its
  // leaves (a sort's or multi-output fusion's results put in the entry's
  // tuple).
  if (root->opcode() == HloOpcode::Tuple)
    for (int64_t i = 0; i < root->operandCount(); ++i) {
      const HloInstruction *operand = bufferOwner(root->operand(i));
      bool whole = operand == producer && leafCount == 1;
      bool element = operand->opcode() == HloOpcode::GetTupleElement &&
                     operand->operand(0) == producer &&
                     tupleIndex(*operand) == static_cast<int64_t>(leaf) &&
                     operand->shape().isArray();
      if (whole || element)
        return entrySlot(BufferSlot::Kind::EntryOutput, i);
    }
  BufferSlot slot;
  slot.producer = producer;
  slot.leaf = leaf;
  slot.leafCount = leafCount;
  return slot;
}

} // namespace hlo
