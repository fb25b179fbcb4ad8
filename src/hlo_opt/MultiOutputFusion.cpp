//===- MultiOutputFusion.cpp - Siblings that read the same operand --------===//
//
// After priority fusion, two fusions that read the same operand and run
// over the same iteration space become one multi-output fusion, so that the
// operand is read once and one launch is saved (XLA's sibling multi-output
// fusion): loop fusions whose outputs all have one shape, or reductions of
// one input shape over the same dimensions (the reduction emitter's
// groups). Neither may reach the other (the merged kernel would then need
// its own output). GEMM fusions, in-place updates, sorts and fusions with
// a transpose are left alone.
//
//===----------------------------------------------------------------------===//
#include "FusionBuilder.h"
#include "FusionRules.h"

#include "analysis/HeroAnalysis.h"

#include <set>

namespace hlo::opt {
namespace {

std::vector<const HloInstruction *> outputsOf(const HloComputation &body) {
  const HloInstruction *root = body.root();
  if (root->opcode() == HloOpcode::Tuple)
    return {root->operands().begin(), root->operands().end()};
  return {root};
}

/// What a fusion's kernel iterates over, as a key two siblings must share
/// to be merged; empty if it is no candidate.
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
    case HloOpcode::Transpose:
    case HloOpcode::Concatenate:
    case HloOpcode::Scatter:
    case HloOpcode::Sort:
    case HloOpcode::DynamicUpdateSlice:
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

/// Whether `to` is reachable from `from` through users.
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

bool withinLimits(const HloInstruction &a, const HloInstruction &b) {
  std::set<const HloInstruction *> operands(a.operands().begin(), a.operands().end());
  operands.insert(b.operands().begin(), b.operands().end());
  return static_cast<int64_t>(operands.size()) <= kMaxFusionOperands &&
         a.fusedComputation()->instructionCount() + b.fusedComputation()->instructionCount() <=
             kMaxFusedInstructions;
}

/// One merge in `computation`, if any is left.
bool mergeOnePair(HloComputation &computation, PassContext &context) {
  for (const auto &owned : computation.instructions()) {
    std::vector<HloInstruction *> siblings;
    for (HloInstruction *user : owned->users())
      if (user->opcode() == HloOpcode::Fusion &&
          std::find(siblings.begin(), siblings.end(), user) == siblings.end())
        siblings.push_back(user);
    for (size_t i = 0; i < siblings.size(); ++i) {
      std::string space = iterationSpace(*siblings[i]);
      if (space.empty())
        continue;
      for (size_t j = i + 1; j < siblings.size(); ++j)
        if (iterationSpace(*siblings[j]) == space && withinLimits(*siblings[i], *siblings[j]) &&
            !reaches(siblings[i], siblings[j]) && !reaches(siblings[j], siblings[i])) {
          mergeSiblingFusions(*siblings[i], *siblings[j], context);
          return true;
        }
    }
  }
  return false;
}

class MultiOutputFusion : public HloPass {
public:
  llvm::StringRef name() const override { return "multi-output-fusion"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module)) {
      bool merged = false;
      while (mergeOnePair(*computation, context))
        merged = true;
      if (merged) {
        removeDeadInstructions(*computation);
        computation->sortTopologically();
        changed = true;
      }
    }
    removeUnusedComputations(module);
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createMultiOutputFusionPass() {
  return std::make_unique<MultiOutputFusion>();
}

} // namespace hlo::opt
