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
#include "MultiOutputRules.h"

#include "analysis/HeroAnalysis.h"

#include <set>

namespace hlo::opt {
namespace {

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
        if (iterationSpace(*siblings[j]) == space && withinFusionLimits(*siblings[i], *siblings[j]) &&
            !reaches(siblings[i], siblings[j]) && !reaches(siblings[j], siblings[i])) {
          mergeSiblingFusions(*siblings[i], *siblings[j], context);
          return true;
        }
    }
  }
  return false;
}

/// Producer-consumer merges in `computation`: a loop fusion read by a
/// loop fusion of its iteration space and by others too (which priority
/// fusion leaves alone, as it fuses a producer into all of its users or
/// none) is computed inside its consumer, which also writes it for the
/// others. True if any was made.
bool mergeProducersIntoConsumers(HloComputation &computation, PassContext &context) {
  std::vector<HloInstruction *> producers;
  for (const auto &owned : computation.instructions())
    if (owned->opcode() == HloOpcode::Fusion && owned->shape().isArray())
      producers.push_back(owned.get());
  std::set<HloInstruction *> gone;
  bool merged = false;
  for (HloInstruction *producer : producers) {
    if (gone.count(producer))
      continue;
    std::string space = iterationSpace(*producer);
    if (space.rfind("loop", 0) != 0)
      continue;
    std::vector<HloInstruction *> users;
    for (HloInstruction *user : producer->users())
      if (std::find(users.begin(), users.end(), user) == users.end())
        users.push_back(user);
    if (users.size() < 2)
      continue; // priority fusion decided on its one consumer
    for (HloInstruction *consumer : users) {
      if (consumer->opcode() != HloOpcode::Fusion || iterationSpace(*consumer) != space ||
          !withinFusionLimits(*producer, *consumer) || !whyNotFuse(*producer, *consumer, 1).empty())
        continue;
      bool cycle = false;
      for (HloInstruction *other : users)
        if (other != consumer && reaches(other, consumer))
          cycle = true;
      if (cycle)
        continue;
      gone.insert(consumer);
      gone.insert(producer);
      mergeProducerIntoConsumer(*consumer, *producer, context);
      merged = true;
      break;
    }
  }
  return merged;
}

class MultiOutputFusion : public HloPass {
public:
  llvm::StringRef name() const override { return "multi-output-fusion"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module)) {
      // Producers into consumers first: a producer merged with a sibling
      // first would be a tuple, which this does not take (an optimizer's
      // m and v updates, siblings by the gradient, both feed the
      // parameter's update: one kernel for the three).
      bool merged = false;
      for (bool again = true; again;) {
        again = mergeProducersIntoConsumers(*computation, context);
        if (again) {
          removeDeadInstructions(*computation);
          computation->sortTopologically();
        }
        while (mergeOnePair(*computation, context))
          again = true;
        merged |= again;
      }
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
