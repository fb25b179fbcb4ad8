//===- FusionRules.cpp - Which producer-consumer fusions are legal and pay ===//
#include "FusionRules.h"
#include "EmissionCount.h"

#include "analysis/HeroAnalysis.h"
#include "analysis/ReductionAnalysis.h"
#include "analysis/KernelPlan.h"
#include "hlo_parser/HloComputation.h"

#include <algorithm>
#include <deque>
#include <set>

namespace hlo::opt {

bool isExpensive(HloOpcode opcode) {
  switch (opcode) {
  case HloOpcode::Exp:
  case HloOpcode::Expm1:
  case HloOpcode::Log:
  case HloOpcode::Log1p:
  case HloOpcode::Power:
  case HloOpcode::Sqrt:
  case HloOpcode::Rsqrt:
  case HloOpcode::Cbrt:
  case HloOpcode::Tanh:
  case HloOpcode::Sin:
  case HloOpcode::Cos:
  case HloOpcode::Tan:
  case HloOpcode::Atan2:
  case HloOpcode::Erf:
  case HloOpcode::Logistic:
  case HloOpcode::Divide:
  case HloOpcode::Remainder:
  case HloOpcode::Reduce:
  case HloOpcode::ReduceWindow:
  case HloOpcode::Gather:
  case HloOpcode::Sort:
  case HloOpcode::Scatter:
  case HloOpcode::Dot:
    return true;
  default:
    return false;
  }
}

bool isElementalDynamicUpdateSlice(const HloInstruction &instruction) {
  return instruction.opcode() == HloOpcode::DynamicUpdateSlice &&
         instruction.operand(0)->shape().isArray() &&
         instruction.operand(0)->shape().bufferBytes() <= kElementalUpdateBytes;
}

int64_t valueBytes(const Shape &shape) {
  if (shape.isTuple()) {
    int64_t sum = 0;
    for (const Shape &element : shape.tupleShapes())
      sum += valueBytes(element);
    return sum;
  }
  return shape.isArray() ? shape.bufferBytes() : 0;
}

namespace {

/// The instructions a node computes: a fusion's fused instructions, or the
/// instruction itself.
std::vector<const HloInstruction *> members(const HloInstruction &node) {
  std::vector<const HloInstruction *> result;
  if (const HloComputation *body = node.fusedComputation()) {
    for (const auto &instruction : body->instructions())
      if (instruction->opcode() != HloOpcode::Parameter)
        result.push_back(instruction.get());
  } else {
    result.push_back(&node);
  }
  return result;
}

/// A hero that allows no second one beside it.
bool isExclusiveHero(const HloInstruction &instruction) {
  switch (instruction.opcode()) {
  case HloOpcode::Reduce:
  case HloOpcode::Scatter:
  case HloOpcode::Sort:
  case HloOpcode::Dot:
    return true;
  case HloOpcode::DynamicUpdateSlice:
    return !isElementalDynamicUpdateSlice(instruction);
  default:
    return false;
  }
}

const HloInstruction *exclusiveHero(const HloInstruction &node) {
  for (const HloInstruction *member : members(node))
    if (isExclusiveHero(*member))
      return member;
  return nullptr;
}

/// Whether computing `node` again for each element that re-reads it costs
/// more than reading it: it reduces, gathers or multiplies matrices, or
/// runs a chain of more than kCheapExpensiveOps transcendentals and
/// divisions per element (a layer norm's mean, sum / n, and its
/// rsqrt(var + eps) are recomputed per element, as XLA's cost model
/// lets them be).
constexpr int kCheapExpensiveOps = 4;
bool isExpensiveNode(const HloInstruction &node) {
  int perElement = 0;
  for (const HloInstruction *member : members(node)) {
    if (!isExpensive(member->opcode()))
      continue;
    if (!isElementwiseOpcode(member->opcode()) || ++perElement > kCheapExpensiveOps)
      return true;
  }
  return false;
}

/// Where `consumer` reads `producer`: (the instruction that reads it, its
/// operand number), inside the fused computation for a fusion.
std::vector<std::pair<const HloInstruction *, int64_t>>
readsOf(const HloInstruction &consumer, const HloInstruction &producer) {
  std::vector<std::pair<const HloInstruction *, int64_t>> result;
  const HloComputation *body = consumer.fusedComputation();
  for (int64_t i = 0; i < consumer.operandCount(); ++i) {
    if (consumer.operand(i) != &producer)
      continue;
    if (!body) {
      result.push_back({&consumer, i});
      continue;
    }
    const HloInstruction *parameter = body->parameter(i);
    for (const HloInstruction *user : parameter->users())
      for (int64_t j = 0; j < user->operandCount(); ++j)
        if (user->operand(j) == parameter)
          result.push_back({user, j});
  }
  return result;
}

/// Whether the value read at `reads` is read more than once per element
/// of it: broadcast wider, windowed, gathered or multiplied as a matrix on
/// the way to the consumer's roots, or read at two different indexings
/// (two slices of it). Several elementwise readers at its own index share
/// one computation of it (the partitioner's subgraphs).
bool reusesElements(const std::vector<std::pair<const HloInstruction *, int64_t>> &reads) {
  std::deque<const HloInstruction *> work;
  std::set<const HloInstruction *> seen;
  for (const auto &[reader, operand] : reads)
    if (seen.insert(reader).second)
      work.push_back(reader);
  int64_t reindexings = 0;
  while (!work.empty()) {
    const HloInstruction *instruction = work.front();
    work.pop_front();
    switch (instruction->opcode()) {
    case HloOpcode::Broadcast:
      if (instruction->shape().elementCount() > instruction->operand(0)->shape().elementCount())
        return true;
      break;
    case HloOpcode::ReduceWindow:
    case HloOpcode::Gather:
    case HloOpcode::Dot:
    case HloOpcode::Convolution:
    case HloOpcode::Sort:
      return true;
    case HloOpcode::Slice:
    case HloOpcode::DynamicSlice:
    case HloOpcode::Transpose:
    case HloOpcode::Reverse:
    case HloOpcode::Pad:
    case HloOpcode::Concatenate:
      if (++reindexings > 1)
        return true;
      break;
    default:
      break;
    }
    for (const HloInstruction *user : instruction->users())
      if (seen.insert(user).second)
        work.push_back(user);
  }
  return false;
}

/// Whether every path from `reads` to the root of the consumer is a chain
/// of one-operand intermediates (converts, unary elementwise ops, bitcasts,
/// copies, reshapes that move no data), so the consumer is an epilogue of
/// the reduction read, as the hero analysis finds them (a divide by a
/// broadcast constant is not one: it reads a second value).
bool isEpilogueOf(const HloInstruction &consumer,
                  const std::vector<std::pair<const HloInstruction *, int64_t>> &reads,
                  int64_t valueElements) {
  std::deque<const HloInstruction *> work;
  std::set<const HloInstruction *> seen;
  for (const auto &[reader, operand] : reads)
    if (seen.insert(reader).second)
      work.push_back(reader);
  while (!work.empty()) {
    const HloInstruction *instruction = work.front();
    work.pop_front();
    if (!isIntermediate(*instruction, 1) || !instruction->shape().isArray() ||
        instruction->shape().elementCount() != valueElements)
      return false;
    // An unfused consumer is the whole epilogue: its users are other kernels.
    if (instruction == &consumer)
      continue;
    for (const HloInstruction *user : instruction->users())
      if (seen.insert(user).second)
        work.push_back(user);
  }
  const HloComputation *body = consumer.fusedComputation();
  return !body || body->root()->opcode() != HloOpcode::Tuple;
}

} // namespace

bool isFusibleProducer(const HloInstruction &instruction) {
  HloOpcode opcode = instruction.opcode();
  if (opcode == HloOpcode::Fusion) {
    const HloComputation *body = instruction.fusedComputation();
    if (!body || body->root()->opcode() == HloOpcode::Tuple)
      return false;
    const HloInstruction *hero = exclusiveHero(instruction);
    return !hero || hero->opcode() == HloOpcode::Reduce;
  }
  if (opcode == HloOpcode::Constant)
    return instruction.shape().isArray() && instruction.shape().elementCount() <= 1;
  if (!instruction.shape().isArray())
    return false;
  // What XLA runs as a one-instruction loop or input fusion (KernelPlan's
  // Wrapped), but the heroes that stay their kernel's root, and bitcasts.
  switch (opcode) {
  case HloOpcode::Bitcast:
    return true;
  case HloOpcode::DynamicUpdateSlice:
    return isElementalDynamicUpdateSlice(instruction);
  case HloOpcode::Dot:
  case HloOpcode::Map:
  case HloOpcode::Scatter:
  case HloOpcode::Sort:
    return false;
  default:
    return launchRole(opcode) == LaunchRole::Wrapped;
  }
}

bool isFusibleConsumer(const HloInstruction &instruction) {
  HloOpcode opcode = instruction.opcode();
  if (opcode == HloOpcode::Fusion) {
    const HloComputation *body = instruction.fusedComputation();
    if (!body || !instruction.textAttr("backend_config").empty())
      return false; // GEMM fusions keep what the GEMM pass gave them
    const HloInstruction *hero = exclusiveHero(instruction);
    return !hero || hero->opcode() != HloOpcode::Sort;
  }
  // A sort takes only producers that read nothing (whyNotFuse).
  if (opcode == HloOpcode::Sort)
    return true;
  // A variadic reduce (argmax) is a hero of several outputs.
  if (opcode == HloOpcode::Reduce)
    return true;
  return (isFusibleProducer(instruction) && opcode != HloOpcode::Constant) ||
         opcode == HloOpcode::Scatter || opcode == HloOpcode::DynamicUpdateSlice;
}

std::string whyNotFuse(const HloInstruction &producer, const HloInstruction &consumer,
                       size_t consumerCount) {
  if (!isFusibleProducer(producer))
    return "the producer is not fusible";
  if (!isFusibleConsumer(consumer))
    return "the consumer is not fusible";
  auto reads = readsOf(consumer, producer);
  const HloInstruction *producerHero = exclusiveHero(producer);
  const HloInstruction *consumerHero = exclusiveHero(consumer);
  for (const auto &[reader, operand] : reads) {
    // The buffer updated in place stays the kernel's operand.
    if ((reader->opcode() == HloOpcode::Scatter && operand < reader->operandCount() / 2) ||
        (reader->opcode() == HloOpcode::DynamicUpdateSlice && operand == 0 &&
         !isElementalDynamicUpdateSlice(*reader)))
      return "the consumer updates the producer's value in place";
    // A sort reads its operands from memory, but for values made from
    // nothing (an argsort's iota, as XLA fuses it): its first launch
    // computes them.
    if (reader->opcode() == HloOpcode::Sort && producer.operandCount() != 0)
      return "a sort reads its operands from memory";
  }
  if (producerHero) {
    if (consumerCount > 1)
      return "a reduction is not computed twice";
    if (consumerHero)
      return "both have a hero";
    if (!isEpilogueOf(consumer, reads, producer.shape().elementCount()))
      return "the consumer reads the reduction at other indices than its own";
    // Only a race-free reduction keeps its hero behind an epilogue (else
    // the kernel is a loop that reduces a row per output element).
    if (producerHero->opcode() == HloOpcode::Reduce &&
        isReductionFromOrToContiguousDimensions(*producerHero) &&
        !isReductionRaceFree(getReductionDimensions(*producerHero)))
      return "the reduction is not race free: with an epilogue it would run as a loop";
  }
  if (isExpensiveNode(producer) && reusesElements(reads))
    return "the consumer would compute the expensive producer again for each read";
  if (emissionsAfterFusion(producer, consumer) > kMaxEmissions)
    return "the fusion would emit an instruction's code more than " +
           std::to_string(kMaxEmissions) + " times";
  // Size limits.
  std::set<const HloInstruction *> operands(consumer.operands().begin(),
                                            consumer.operands().end());
  operands.erase(&producer);
  operands.insert(producer.operands().begin(), producer.operands().end());
  if (static_cast<int64_t>(operands.size()) > kMaxFusionOperands)
    return "too many operands";
  if (static_cast<int64_t>(members(producer).size() + members(consumer).size()) >
      kMaxFusedInstructions)
    return "too many instructions";
  return "";
}

int64_t bytesSaved(const HloInstruction &producer,
                   const std::vector<HloInstruction *> &consumers) {
  std::set<const HloInstruction *> producerOperands(producer.operands().begin(),
                                                    producer.operands().end());
  int64_t producerInput = 0;
  for (const HloInstruction *operand : producerOperands)
    producerInput += valueBytes(operand->shape());
  int64_t output = valueBytes(producer.shape());
  int64_t saved = output * static_cast<int64_t>(1 + consumers.size()) + producerInput;
  for (const HloInstruction *consumer : consumers)
    for (const HloInstruction *operand : producerOperands)
      if (std::find(consumer->operands().begin(), consumer->operands().end(), operand) ==
          consumer->operands().end())
        saved -= valueBytes(operand->shape());
  return saved;
}

} // namespace hlo::opt
