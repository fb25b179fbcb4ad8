//===- MultiOutputRules.cpp - When fusions may become one kernel ----------===//
#include "MultiOutputRules.h"
#include "FusionRules.h"

#include "analysis/HeroAnalysis.h"
#include "hlo_parser/HloComputation.h"

#include <set>

namespace hlo::opt {

namespace {

std::vector<const HloInstruction *> outputsOf(const HloComputation &body) {
  const HloInstruction *root = body.root();
  if (root->opcode() == HloOpcode::Tuple)
    return {root->operands().begin(), root->operands().end()};
  return {root};
}

} // namespace

std::string iterationSpace(const HloInstruction &fusion) {
  const HloComputation *body = fusion.fusedComputation();
  if (!body || !fusion.textAttr("backend_config").empty())
    return "";
  if (fusion.shape().isTuple() && body->root()->opcode() != HloOpcode::Tuple)
    return ""; // a variadic reduce
  if (fusion.shape().isTuple())
    for (const HloInstruction *user : fusion.users())
      if (user->opcode() != HloOpcode::GetTupleElement)
        return "";
  bool hasReduce = false;
  for (const auto &instruction : body->instructions())
    switch (instruction->opcode()) {
    case HloOpcode::Reduce:
      hasReduce = true;
      break;
    case HloOpcode::DynamicUpdateSlice:
      if (!isElementalDynamicUpdateSlice(*instruction))
        return "";
      break;
    case HloOpcode::Transpose:
    case HloOpcode::Concatenate:
    case HloOpcode::Scatter:
    case HloOpcode::Sort:
    case HloOpcode::Dot:
      return "";
    default:
      break;
    }
  std::string key;
  for (const HloInstruction *output : outputsOf(*body)) {
    std::string one;
    if (hasReduce) {
      // Each output a reduce (or its epilogue: converts, unary ops,
      // bitcasts), of one input shape over one set of dimensions.
      const HloInstruction *reduce = output;
      while (reduce->opcode() != HloOpcode::Reduce && isIntermediate(*reduce, 1))
        reduce = reduce->operand(0);
      if (reduce->opcode() != HloOpcode::Reduce || reduce->shape().isTuple())
        return "";
      one = "reduce " + reduce->operand(0)->shape().toString(false) + " over";
      for (int64_t dimension : reduce->dimensions())
        one += " " + std::to_string(dimension);
    } else {
      if (!output->shape().isArray())
        return "";
      one = "loop";
      for (int64_t size : output->shape().dimensions())
        one += " " + std::to_string(size);
    }
    if (!key.empty() && key != one)
      return "";
    key = one;
  }
  return key;
}

bool reaches(const HloInstruction *from, const HloInstruction *to) {
  std::vector<const HloInstruction *> work = {from};
  std::set<const HloInstruction *> seen = {from};
  while (!work.empty()) {
    const HloInstruction *instruction = work.back();
    work.pop_back();
    if (instruction == to)
      return true;
    for (const HloInstruction *user : instruction->users())
      if (seen.insert(user).second)
        work.push_back(user);
  }
  return false;
}

bool withinFusionLimits(const HloInstruction &a, const HloInstruction &b) {
  std::set<const HloInstruction *> operands(a.operands().begin(), a.operands().end());
  operands.insert(b.operands().begin(), b.operands().end());
  return static_cast<int64_t>(operands.size()) <= kMaxFusionOperands &&
         a.fusedComputation()->instructionCount() + b.fusedComputation()->instructionCount() <=
             kMaxFusedInstructions;
}

} // namespace hlo::opt
