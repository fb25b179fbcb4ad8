//===- EmissionCount.cpp - Copies of each instruction's code in a fusion --===//
#include "EmissionCount.h"

#include "hlo_parser/HloComputation.h"

#include <algorithm>
#include <map>

namespace hlo::opt {
namespace {

/// Whether `user` reads its operand `slot` where it computes its own
/// element, so that it shares the operand's code with other such readers.
bool readsInPlace(const HloInstruction &user, int64_t slot) {
  if (user.opcode() == HloOpcode::Tuple)
    return true;
  if (user.opcode() == HloOpcode::DynamicUpdateSlice)
    return false; // each branch emits its own copy
  const Shape &operand = user.operand(slot)->shape();
  return isElementwiseOpcode(user.opcode()) && user.shape().isArray() && operand.isArray() &&
         operand.dimensions() == user.shape().dimensions();
}

constexpr int64_t kSaturated = int64_t{1} << 40;

/// Copies of each instruction of `body` when its root is emitted `rootCopies`
/// times.
std::map<const HloInstruction *, int64_t> countCopies(const HloComputation &body,
                                                      int64_t rootCopies) {
  std::map<const HloInstruction *, int64_t> copies;
  const auto &instructions = body.instructions();
  for (auto it = instructions.rbegin(); it != instructions.rend(); ++it) {
    const HloInstruction *instruction = it->get();
    if (instruction == body.root()) {
      copies[instruction] = rootCopies;
      continue;
    }
    int64_t shared = 0, own = 0;
    for (const HloInstruction *user : instruction->users()) {
      int64_t userCopies = copies.count(user) ? copies[user] : 0;
      for (int64_t slot = 0; slot < user->operandCount(); ++slot) {
        if (user->operand(slot) != instruction)
          continue;
        if (readsInPlace(*user, slot))
          shared = std::max(shared, userCopies);
        else
          own = std::min(kSaturated, own + userCopies);
      }
    }
    copies[instruction] = std::min(kSaturated, shared + own);
  }
  return copies;
}

int64_t maxCopies(const std::map<const HloInstruction *, int64_t> &copies) {
  int64_t most = 0;
  for (const auto &[instruction, count] : copies)
    if (instruction->opcode() != HloOpcode::Parameter &&
        instruction->opcode() != HloOpcode::Constant)
      most = std::max(most, count);
  return most;
}

} // namespace

int64_t emissionsAfterFusion(const HloInstruction &producer, const HloInstruction &consumer) {
  // A constant's copies are free: each is a literal where it is read.
  if (producer.opcode() == HloOpcode::Constant)
    return 1;
  // Copies of the producer's value inside the consumer.
  int64_t producerCopies = 0;
  if (const HloComputation *body = consumer.fusedComputation()) {
    std::map<const HloInstruction *, int64_t> copies = countCopies(*body, 1);
    // A parameter read at several places: its count already sums them.
    for (int64_t i = 0; i < consumer.operandCount(); ++i)
      if (consumer.operand(i) == &producer)
        producerCopies = std::min(kSaturated, producerCopies + copies[body->parameter(i)]);
  } else {
    int64_t shared = 0, own = 0;
    for (int64_t slot = 0; slot < consumer.operandCount(); ++slot) {
      if (consumer.operand(slot) != &producer)
        continue;
      if (readsInPlace(consumer, slot))
        shared = 1;
      else
        ++own;
    }
    producerCopies = shared + own;
  }
  if (const HloComputation *body = producer.fusedComputation())
    return maxCopies(countCopies(*body, producerCopies));
  return producerCopies;
}

} // namespace hlo::opt
