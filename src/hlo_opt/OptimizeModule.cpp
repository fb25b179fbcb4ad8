//===- OptimizeModule.cpp - The HLO optimization pipeline -----------------===//
#include "OptimizeModule.h"

#include "HloPass.h"

#include "analysis/FusionAnalysis.h"

#include <deque>

namespace hlo::opt {
namespace {

bool hasFusion(const HloModule &module) {
  for (const auto &computation : module.computations())
    for (const auto &instruction : computation->instructions())
      if (instruction->opcode() == HloOpcode::Fusion)
        return true;
  return false;
}

/// Why the entry cannot be one kernel: an instruction that is not one.
std::string notOneKernel(const HloComputation &entry) {
  for (const auto &instruction : entry.instructions()) {
    switch (instruction->opcode()) {
    case HloOpcode::While:
    case HloOpcode::Conditional:
    case HloOpcode::Call:
    case HloOpcode::Convolution:
    case HloOpcode::TopK:
    case HloOpcode::RngBitGenerator:
      return "it has a " + std::string(opcodeName(instruction->opcode()));
    case HloOpcode::CustomCall:
      if (!isShardingAnnotation(instruction->textAttr("custom_call_target")))
        return "it has a custom-call";
      break;
    case HloOpcode::Dot:
    case HloOpcode::Scatter:
    case HloOpcode::Sort:
      if (instruction.get() != entry.root())
        return "its " + std::string(opcodeName(instruction->opcode())) + " is not its root";
      break;
    default:
      break;
    }
  }
  return "";
}

/// A reduce whose value is broadcast back: one kernel would compute the
/// reduction again for each element that reads it.
bool readsReductionBack(const HloComputation &entry) {
  for (const auto &instruction : entry.instructions()) {
    if (instruction->opcode() != HloOpcode::Reduce)
      continue;
    std::deque<const HloInstruction *> work{instruction.get()};
    std::set<const HloInstruction *> seen{instruction.get()};
    while (!work.empty()) {
      const HloInstruction *value = work.front();
      work.pop_front();
      for (const HloInstruction *user : value->users()) {
        if (user->opcode() == HloOpcode::Broadcast)
          return true;
        if (seen.insert(user).second)
          work.push_back(user);
      }
    }
  }
  return false;
}

} // namespace

std::string unoptimizedReason(const HloModule &module) {
  if (!module.entry() || hasFusion(module) || !module.declarations().empty())
    return "";
  const std::string &name = module.name();
  for (const char *prefix : {"jit_", "pmap_", "xmap_", "SyncTensorsGraph", "IrToHlo"})
    if (name.rfind(prefix, 0) == 0)
      return "its name is that of a program '" + std::string(prefix) + "...'";
  std::string reason = notOneKernel(*module.entry());
  if (!reason.empty())
    return reason;
  if (readsReductionBack(*module.entry()))
    return "it reads a reduction back on its rows";
  return "";
}

llvm::Error optimizeModule(HloModule &module, const OptimizeOptions &options) {
  static const GpuDeviceInfo defaultDevice;
  PassContext context(module, options.device ? *options.device : defaultDevice);
  std::vector<std::unique_ptr<HloPass>> passes;
  passes.push_back(createCallInlinerPass());
  passes.push_back(createSimplifierPass());
  passes.push_back(createCommonSubexpressionPass());
  passes.push_back(createDeadCodePass());
  passes.push_back(createGemmFusionPass());
  passes.push_back(createPriorityFusionPass());
  passes.push_back(createDeadCodePass());
  for (auto &pass : passes) {
    llvm::Expected<bool> changed = pass->run(module, context);
    if (!changed)
      return changed.takeError();
    module.sortComputations();
    if (options.afterPass)
      options.afterPass(pass->name().str(), module);
  }
  return llvm::Error::success();
}

} // namespace hlo::opt
