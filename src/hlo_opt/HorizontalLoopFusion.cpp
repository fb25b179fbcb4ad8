//===- HorizontalLoopFusion.cpp - Independent small loops in one launch ---===//
//
// After multi-output fusion, loop fusions of one iteration space that
// neither reads the other's result (directly or through others) and that
// write little (kHorizontalBytes), or read no array at all (zeros for
// scatters, at any size), become one multi-output fusion: one launch
// where there were several. This is XLA's horizontal loop fusion for
// the launch-bound case it targets: torax's scalar f64 physics, whose
// while bodies and branches are hundreds of independent one-thread
// kernels, and optimizer updates of many small parameters. XLA also
// merges fusions of different shapes (their outputs concatenated, then
// sliced); here only fusions of the same shape are merged, so that the
// loop emitter's one iteration space covers every output.
//
//===----------------------------------------------------------------------===//
#include "FusionBuilder.h"
#include "FusionRules.h"
#include "MultiOutputRules.h"

#include <map>

namespace hlo::opt {
namespace {

/// The most bytes a fusion may write to be merged horizontally: such a
/// kernel is bound by its launch, not by its memory traffic.
constexpr int64_t kHorizontalBytes = 64 * 1024;

/// A fusion that only moves its one operand's bytes (a slice, a copy):
/// the kernel plan makes it a copy step (cuMemcpyAsync), not a launch.
bool isDataMovement(const HloInstruction &fusion) {
  const HloComputation *body = fusion.fusedComputation();
  if (fusion.operandCount() != 1 || body->instructionCount() != 2)
    return false;
  HloOpcode opcode = body->root()->opcode();
  return opcode == HloOpcode::Slice || opcode == HloOpcode::Copy;
}

/// A fusion that reads no array: it initializes memory (zeros for
/// scatters, iotas). Merged at any size: they read nothing, so one launch
/// writes them all at the bandwidth each would reach alone.
bool isInitialization(const HloInstruction &fusion) {
  for (const HloInstruction *operand : fusion.operands())
    if (!operand->shape().isArray() || operand->shape().elementCount() > 1)
      return false;
  return true;
}

/// Whether `fusion` (of iteration space `space`) may join a horizontal
/// group: a small loop, or an initialization.
bool isCandidate(const HloInstruction &fusion, const std::string &space) {
  if (fusion.opcode() != HloOpcode::Fusion || space.rfind("loop", 0) != 0 ||
      isDataMovement(fusion))
    return false;
  return valueBytes(fusion.shape()) <= kHorizontalBytes || isInitialization(fusion);
}

bool fuseComputation(HloComputation &computation, PassContext &context) {
  std::vector<HloInstruction *> fusions;
  for (const auto &owned : computation.instructions())
    if (owned->opcode() == HloOpcode::Fusion)
      fusions.push_back(owned.get());
  // Per iteration space, the merged fusion that later ones may join. The
  // instructions are in topological order, so a later fusion never reaches
  // an earlier one: only the other direction needs a check.
  std::map<std::string, HloInstruction *> open;
  bool changed = false;
  for (HloInstruction *fusion : fusions) {
    std::string space = iterationSpace(*fusion);
    if (!isCandidate(*fusion, space))
      continue;
    // Initializations form groups of their own.
    if (isInitialization(*fusion))
      space += " init";
    auto found = open.find(space);
    if (found == open.end()) {
      open.emplace(space, fusion);
      continue;
    }
    HloInstruction *group = found->second;
    if (reaches(group, fusion) || !withinFusionLimits(*group, *fusion) ||
        (!isInitialization(*fusion) &&
         valueBytes(group->shape()) + valueBytes(fusion->shape()) > kHorizontalBytes)) {
      // The later one starts the next group: what follows is more likely
      // to depend on the earlier one than on it.
      found->second = fusion;
      continue;
    }
    // Initializations are written to be updated in place: each keeps
    // its buffer even where two hold the same values.
    found->second = mergeSiblingFusions(*group, *fusion, context,
                                        /*distinctOutputs=*/isInitialization(*fusion));
    changed = true;
  }
  if (changed) {
    removeDeadInstructions(computation);
    computation.sortTopologically();
  }
  return changed;
}

class HorizontalLoopFusion : public HloPass {
public:
  llvm::StringRef name() const override { return "horizontal-loop-fusion"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module))
      changed |= fuseComputation(*computation, context);
    removeUnusedComputations(module);
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createHorizontalLoopFusionPass() {
  return std::make_unique<HorizontalLoopFusion>();
}

} // namespace hlo::opt
