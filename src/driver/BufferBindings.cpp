//===- BufferBindings.cpp - Which buffer a value lives in -----------------===//
#include "BufferBindings.h"

#include "hlo_parser/HloComputation.h"
#include "hlo_parser/OpAttributes.h"

namespace hlo::driver {
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
/// at `value` reads, and the array leaf it reads (in the depth-first order
/// bindOutput numbers leaves in); {null, 0} if `value` is no such leaf.
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

} // namespace

void arrayLeaves(const Shape &shape, std::vector<const Shape *> &leaves) {
  if (shape.isTuple()) {
    for (const Shape &element : shape.tupleShapes())
      arrayLeaves(element, leaves);
    return;
  }
  leaves.push_back(&shape);
}

abi::KernelParameter bufferParameter(bool isOutput, const Shape &shape) {
  abi::KernelParameter result;
  result.isOutput = isOutput;
  result.shape = shape;
  result.shape.setLayout(shape.layoutOrDefault());
  result.bytes = shape.bufferBytes();
  return result;
}

void bindInput(abi::KernelParameter &parameter, const HloInstruction *operand) {
  operand = bufferOwner(operand);
  // An array leaf of a step's tuple result (through get-tuple-elements of
  // nested tuples too): where that step writes the leaf; of a while body's
  // or condition's or a branch's tuple parameter: "param#i", the loop
  // state's or branch parameter's buffer. Not the elements of the entry's
  // parameters or of tuple instructions: those have no buffer of their own.
  if (operand && operand->opcode() == HloOpcode::GetTupleElement) {
    auto [tuple, leaf] = tupleLeafOf(operand);
    HloOpcode producer = tuple ? tuple->opcode() : HloOpcode::Tuple;
    const HloComputation *entry = operand->parent()->parent()->entry();
    bool entryParameter = producer == HloOpcode::Parameter && tuple->parent() == entry;
    if (tuple && !entryParameter && producer != HloOpcode::Tuple) {
      bindOutput(parameter, *tuple->parent()->parent(), tuple, static_cast<size_t>(leaf),
                 static_cast<size_t>(leafCount(tuple->shape())));
      return;
    }
  }
  const HloComputation *entry = operand ? operand->parent()->parent()->entry() : nullptr;
  if (operand && operand->opcode() == HloOpcode::Parameter && operand->parent() == entry) {
    parameter.binding = abi::BufferBinding::Parameter;
    parameter.number = operand->parameterNumber();
    return;
  }
  if (operand && operand->parent() == entry) {
    if (int64_t output = entryOutputOf(operand); output >= 0) {
      parameter.binding = abi::BufferBinding::Output;
      parameter.number = output;
      return;
    }
  }
  parameter.binding = abi::BufferBinding::Buffer;
  parameter.bufferName = operand ? operand->name() : std::string("?");
}

void bindOutput(abi::KernelParameter &parameter, const HloModule &module,
                const HloInstruction *origin, size_t leaf, size_t leafCount) {
  const HloInstruction *root = module.entry()->root();
  const HloInstruction *rootOwner = bufferOwner(root);
  if (origin == rootOwner) {
    parameter.binding = abi::BufferBinding::Output;
    parameter.number = static_cast<int64_t>(leaf);
    return;
  }
  // The root is this leaf of the step's tuple (a library call's result).
  if (rootOwner->opcode() == HloOpcode::GetTupleElement && rootOwner->operand(0) == origin &&
      tupleIndex(*rootOwner) == static_cast<int64_t>(leaf) && rootOwner->shape().isArray()) {
    parameter.binding = abi::BufferBinding::Output;
    parameter.number = 0;
    return;
  }
  // A tuple root of the kernel's result, or of get-tuple-elements of its
  // leaves (a sort's or multi-output fusion's results put in the entry's
  // tuple).
  if (root->opcode() == HloOpcode::Tuple)
    for (int64_t i = 0; i < root->operandCount(); ++i) {
      const HloInstruction *operand = bufferOwner(root->operand(i));
      bool whole = operand == origin && leafCount == 1;
      bool element = operand->opcode() == HloOpcode::GetTupleElement &&
                     operand->operand(0) == origin &&
                     tupleIndex(*operand) == static_cast<int64_t>(leaf) &&
                     operand->shape().isArray();
      if (whole || element) {
        parameter.binding = abi::BufferBinding::Output;
        parameter.number = i;
        return;
      }
    }
  parameter.binding = abi::BufferBinding::Buffer;
  parameter.bufferName = abi::BufferId::leafOf(origin->name(), leaf, leafCount).str();
}

} // namespace hlo::driver
