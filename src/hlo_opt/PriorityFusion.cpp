//===- PriorityFusion.cpp - Producer-consumer fusion, best first ---------===//
//
// Fuses producers into their consumers, the producer that saves the most
// bytes first (XLA's priority fusion): a producer goes into all of its
// consumers at once (copied into each where there are several), or stays,
// as FusionRules decides; each fusion re-ranks the producers around it.
// What is left that launches a kernel of its own becomes a fusion of one
// instruction, so that the result is the HLO of XLA's fusion passes: each
// kernel a fusion instruction the emitters take unchanged.
//
//===----------------------------------------------------------------------===//
#include "FusionBuilder.h"
#include "FusionRules.h"

#include "analysis/HeroAnalysis.h"

#include <queue>
#include <set>
#include <unordered_map>

namespace hlo::opt {
namespace {

struct Candidate {
  int64_t saved;
  uint64_t sequence; // earlier instructions first among equals
  HloInstruction *producer;
  uint64_t version;
  bool operator<(const Candidate &other) const {
    if (saved != other.saved)
      return saved < other.saved;
    return sequence > other.sequence;
  }
};

std::vector<HloInstruction *> distinctUsers(const HloInstruction &instruction) {
  std::vector<HloInstruction *> result;
  for (HloInstruction *user : instruction.users())
    if (std::find(result.begin(), result.end(), user) == result.end())
      result.push_back(user);
  return result;
}

/// The bytes a launch is worth: fusing a producer into all of its
/// consumers saves its kernel's launch, which a GPU spends about a
/// microsecond on (XLA's GpuPerformanceModel counts such an overhead per
/// kernel); a third of that at an H100's bandwidth is about a MiB. A
/// producer copied into several consumers may cost up to this much more
/// traffic (torax's scalar code: 599 -> 561 launches, bytes the same).
constexpr int64_t kLaunchBytes = int64_t{1} << 20;

class ComputationFusion {
public:
  ComputationFusion(HloComputation &computation, PassContext &context)
      : computation(computation), context(context) {}

  bool run() {
    for (const auto &instruction : computation.instructions())
      sequence[instruction.get()] = nextSequence++;
    for (const auto &instruction : computation.instructions())
      push(instruction.get());
    bool changed = false;
    while (!queue.empty()) {
      Candidate candidate = queue.top();
      queue.pop();
      HloInstruction *producer = candidate.producer;
      if (dead.count(producer) || version[producer] != candidate.version)
        continue;
      std::vector<HloInstruction *> consumers = distinctUsers(*producer);
      if (consumers.empty() || !mayFuseIntoAll(*producer, consumers) ||
          (consumers.size() > 1 && candidate.saved + kLaunchBytes < 0))
        continue;
      for (HloInstruction *consumer : consumers) {
        HloInstruction *fusion = consumer;
        if (consumer->opcode() != HloOpcode::Fusion) {
          fusion = wrapInFusion(*consumer, context);
          retire(consumer, fusion);
        }
        HloInstruction *fused = fuseProducerInto(*fusion, *producer, context);
        retire(fusion, fused);
        push(fused);
        for (HloInstruction *operand : fused->operands())
          push(operand);
      }
      producer->dropOperands();
      dead.insert(producer);
      changed = true;
    }
    changed |= wrapRemainingKernels();
    removeDeadInstructions(computation);
    computation.sortTopologically();
    return changed;
  }

private:
  bool mayFuseIntoAll(const HloInstruction &producer,
                      const std::vector<HloInstruction *> &consumers) {
    for (const HloInstruction *consumer : consumers) {
      std::string why = whyNotFuse(producer, *consumer, consumers.size());
      if (!why.empty())
        return false;
    }
    return true;
  }

  void push(HloInstruction *producer) {
    if (dead.count(producer) || !isFusibleProducer(*producer) || producer->users().empty())
      return;
    uint64_t current = ++version[producer];
    queue.push({bytesSaved(*producer, distinctUsers(*producer)), sequence[producer], producer,
                current});
  }

  /// `old` was replaced by `replacement`.
  void retire(HloInstruction *old, HloInstruction *replacement) {
    dead.insert(old);
    sequence[replacement] = sequence.count(old) ? sequence[old] : nextSequence++;
  }

  /// Instructions XLA runs as kernels of one instruction become fusions.
  bool wrapRemainingKernels() {
    std::vector<HloInstruction *> unfused;
    for (const auto &instruction : computation.instructions())
      if (!dead.count(instruction.get()) && needsOwnFusion(*instruction))
        unfused.push_back(instruction.get());
    for (HloInstruction *instruction : unfused) {
      if (isBitcast(*instruction))
        makeBitcast(*instruction);
      else
        wrapInFusion(*instruction, context);
    }
    return !unfused.empty();
  }

  /// A reshape or transpose whose layouts keep every element where it is
  /// in memory (a reshape between row-major layouts, a transpose into the
  /// layout that undoes it: JAX's embed.T for a tied output projection)
  /// moves no data: XLA's bitcast.
  static bool isBitcast(const HloInstruction &instruction) {
    if (instruction.opcode() != HloOpcode::Reshape &&
        instruction.opcode() != HloOpcode::Transpose)
      return false;
    return movesNoData(instruction);
  }

  void makeBitcast(HloInstruction &reshape) {
    HloInstruction *bitcast =
        addInstruction(computation, HloOpcode::Bitcast, context.names.unique(reshape.name()),
                       reshape.shape(), {reshape.operand(0)}, {}, reshape.sourceOffset());
    reshape.replaceAllUsesWith(bitcast);
    reshape.dropOperands();
    dead.insert(&reshape);
  }

  static bool needsOwnFusion(const HloInstruction &instruction) {
    switch (instruction.opcode()) {
    case HloOpcode::Fusion:
    case HloOpcode::Bitcast:
    case HloOpcode::Constant:
    case HloOpcode::Dot:
    case HloOpcode::Sort:
      return false;
    default:
      return isFusibleConsumer(instruction);
    }
  }

  HloComputation &computation;
  PassContext &context;
  std::priority_queue<Candidate> queue;
  std::unordered_map<HloInstruction *, uint64_t> version;
  std::unordered_map<HloInstruction *, uint64_t> sequence;
  uint64_t nextSequence = 0;
  std::set<HloInstruction *> dead;
};

class PriorityFusion : public HloPass {
public:
  llvm::StringRef name() const override { return "priority-fusion"; }

  llvm::Expected<bool> run(HloModule &module, PassContext &context) override {
    bool changed = false;
    for (HloComputation *computation : hostComputations(module))
      changed |= ComputationFusion(*computation, context).run();
    removeUnusedComputations(module);
    return changed;
  }
};

} // namespace

std::unique_ptr<HloPass> createPriorityFusionPass() { return std::make_unique<PriorityFusion>(); }

} // namespace hlo::opt
